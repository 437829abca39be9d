/**
 * How a revision header is stored. Every change of a revision rewrites its header (the version
 * guard), and DynamoDB bills that update by the header's whole size, one write unit per started
 * KB, doubled in the transaction: a header of 1,090 bytes made a one-item quote edit cost 6 write
 * units where 4 would do. Most headers carry a dozen attributes at the value a new revision starts
 * with (no cancel or commit date, no options, flags off), so the stored header leaves out those
 * holding that value and the reader puts them back: the record every caller sees is the same.
 * Headers written before this layout carry them all and read the same. No I/O.
 */
import type { RevisionRecord } from './model.js';

/** Header attributes not stored while they hold these values (an absent one reads as its value here). */
export const REVISION_HEADER_DEFAULTS = {
  agencyId: null,
  policyStatusReasonId: null,
  cancelDate: null,
  commitDate: null,
  underwritingContactedDate: null,
  dateArchived: null,
  builderPending: false,
  grantMortgageeExtension: false,
  overrideCommission: false,
  underwritingContacted: false,
  underwritingOptions: [],
  creditReportPermissions: {},
} as const satisfies Partial<Record<keyof RevisionRecord, unknown>>;

type DefaultedAttribute = keyof typeof REVISION_HEADER_DEFAULTS;

const isDefaulted = (attribute: string): attribute is DefaultedAttribute => Object.hasOwn(REVISION_HEADER_DEFAULTS, attribute);

/** Whether `value` is the value the reader gives `attribute` when it is absent. */
export function holdsHeaderDefault(attribute: string, value: unknown): boolean {
  if (!isDefaulted(attribute)) return false;
  const fallback: unknown = REVISION_HEADER_DEFAULTS[attribute];
  if (Array.isArray(fallback)) return Array.isArray(value) && value.length === 0;
  if (fallback !== null && typeof fallback === 'object') return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
  return value === fallback;
}

/** The header as stored: without the attributes that hold their default. */
export function storedRevisionHeader<T extends Partial<RevisionRecord>>(header: T): Partial<T> {
  return Object.fromEntries(Object.entries(header).filter(([attribute, value]) => !holdsHeaderDefault(attribute, value))) as Partial<T>;
}

/** A stored header (of either layout) as callers know it: every defaulted attribute present, each with a value of its own. */
export function revisionHeaderFromStored<T extends object>(stored: T): T {
  const filled: Record<string, unknown> = {};
  for (const [attribute, fallback] of Object.entries(REVISION_HEADER_DEFAULTS)) {
    filled[attribute] = Array.isArray(fallback) ? [] : fallback !== null && typeof fallback === 'object' ? {} : fallback;
  }
  return { ...filled, ...stored } as T;
}
