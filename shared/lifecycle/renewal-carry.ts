/**
 * An endorsement of a term that has already been renewed: its change is carried into the
 * renewal (re-rated) when the change is still meaningful there, that is when the coverage it
 * changes is on the renewal revision (the renewal rules may have dropped it). A committed
 * renewal takes the change as an endorsement of its own, effective on its first day, with what
 * the endorsement contributions add (billing's Endorsement row on the renewal's account, its
 * Endorsement Declaration, a note); a renewal held for review is simply rewritten. Everything
 * lands in the endorsement's transaction. The endorsement's answer says what was carried.
 */
import type { ProductCatalog } from '../catalog/index.js';
import { formatCents, sum, toAmount } from '../platform/money.js';
import type { TransactionWrite } from '../platform/transactions.js';
import {
  applyRating,
  type FieldChange,
  applyFieldChanges,
  fieldChanges,
  loadRevision,
  placeItem,
  revisionToRate,
  totalsOfItems,
  type LineItemRecord,
  type PolicyRecord,
  type RevisionRecord,
  type RevisionSnapshot,
  type TermRecord,
} from '../policies/index.js';
import { rateRevision } from '../rating/index.js';
import type { EndorseWiring } from './endorse.js';
import { joinMove, writesOf, type AreaPart } from './joining.js';
import type { EndorsedChange, EndorsedRevision } from './model.js';

export interface CarryInput {
  policy: PolicyRecord;
  term: TermRecord;
  /** The term's last revision in effect before the endorsement, and after it (what the renewal copied, and what it would copy now). */
  before: Pick<RevisionSnapshot, 'items'>;
  after: Pick<RevisionSnapshot, 'header' | 'risks' | 'subLines' | 'items'>;
  commitDate: string;
  committedAt: string;
  decidedBy: string;
  describe: (changes: readonly FieldChange[]) => EndorsedChange[];
  product: ProductCatalog;
}

export interface RenewalCarry {
  writes: TransactionWrite[];
  /** What the endorse move's contributions answer for the change carried into a committed renewal. */
  parts: AreaPart[];
  /** What the endorsement's answer says of the renewal; null when the term has no renewal yet. */
  wire: {
    renewal_revision_id: string;
    carried: EndorsedChange[];
    not_carried: EndorsedChange[];
    renewal_annual_premium_before: number;
    renewal_annual_premium: number;
    renewal_additional_premium: number;
  } | null;
}

const live = (items: readonly LineItemRecord[]) => items.filter((item) => item.persistStatus !== 'rejected');
const NOTHING: RenewalCarry = { writes: [], parts: [], wire: null };

export async function carryIntoRenewal(wiring: EndorseWiring, input: CarryInput, options: { preview: boolean }): Promise<RenewalCarry> {
  const { term } = input;
  if (!term.renewal || term.renewal.inForce) return NOTHING;
  const renewal = await loadRevision(term.renewal.revisionId);
  if (!renewal || (renewal.header.revisionState !== 'committed' && renewal.header.revisionState !== 'open')) return NOTHING;
  const changes = fieldChanges(live(input.before.items), live(input.after.items));
  const fromEndorsed = (id: string) => {
    const item = input.after.items.find((candidate) => candidate.id === id);
    return item && placeItem(item, input.after, renewal);
  };
  const applied = applyFieldChanges(renewal.items, changes, fromEndorsed);
  const landed = new Set(fieldChanges(live(renewal.items), live(applied)).map((change) => change.key));
  const carried = changes.filter((change) => landed.has(change.key));
  const notCarried = changes.filter((change) => !landed.has(change.key));
  const before = renewal.header;
  if (carried.length === 0) {
    return { writes: [], parts: [], wire: { renewal_revision_id: before.id, carried: [], not_carried: input.describe(notCarried), renewal_annual_premium_before: toAmount(before.annualPremiumCents), renewal_annual_premium: toAmount(before.annualPremiumCents), renewal_additional_premium: 0 } };
  }
  const rated = applyRating({ ...renewal, items: applied }, rateRevision(input.product, revisionToRate({ ...renewal, items: applied })));
  const totals = totalsOfItems(live(rated.items));
  const set: Partial<RevisionRecord> = { ...totals };
  const after = { ...before, ...set } as RevisionRecord;
  const rewritten = await joinMove(wiring.renewalRewrite, { renewalRevision: before, set, items: rated.items, storedItems: renewal.items }, options);
  const premiumChangeCents = after.writtenPremiumCents - before.writtenPremiumCents;
  const feeChangeCents = after.writtenFeeCents - before.writtenFeeCents;
  let parts: AreaPart[] = [];
  if (before.revisionState === 'committed') {
    const oldItems = new Map(live(renewal.items).map((item) => [item.id, item]));
    const newItems = new Map(live(rated.items).map((item) => [item.id, item]));
    const ids = [...new Set([...oldItems.keys(), ...newItems.keys()])];
    const event: EndorsedRevision = {
      policyId: input.policy.id,
      policyNumber: input.policy.policyNumber,
      termId: before.policyTermId,
      revisionId: before.id,
      revisionDate: before.termStart,
      effectiveDate: before.termStart,
      expirationDate: before.termEnd,
      commitDate: input.commitDate,
      // A moment after the endorsement, so that its rows and note follow the endorsement's.
      committedAt: new Date(Date.parse(input.committedAt) + 1).toISOString(),
      premiumChangeCents,
      feeChangeCents,
      annualPremiumCents: after.annualPremiumCents,
      annualFeeCents: after.annualFeeCents,
      writtenPremiumCents: after.writtenPremiumCents,
      items: ids.map((id) => {
        const old = oldItems.get(id);
        const now = newItems.get(id);
        return {
          id,
          name: (now ?? old)!.name,
          oldAnnualPremiumCents: old?.annualPremiumCents ?? 0,
          newAnnualPremiumCents: now?.annualPremiumCents ?? 0,
          additionalPremiumCents: (now?.writtenPremiumCents ?? 0) - (old?.writtenPremiumCents ?? 0),
        };
      }),
      changes: input.describe(carried),
      reappliedRevisionIds: [],
      ...(input.policy.agencyId ? { agencyId: input.policy.agencyId } : {}),
      namedInsuredContactIds: [...before.contacts.namedInsuredIds],
      revision: { ...renewal, header: after, items: rated.items },
      contactIds: [...input.policy.contactIds],
      decidedBy: input.decidedBy,
      summary: `Endorsement carried into the renewal ${before.termStart} to ${before.termEnd}: ${input.describe(carried).map((change) => `${change.label} ${change.before} -> ${change.after}`).join('; ')}; ${premiumChangeCents < 0 ? 'return' : 'additional'} premium ${formatCents(Math.abs(premiumChangeCents))}`,
    };
    parts = await joinMove(wiring.endorse, event, options);
  }
  return {
    writes: options.preview ? [] : writesOf(rewritten),
    parts,
    wire: {
      renewal_revision_id: before.id,
      carried: input.describe(carried),
      not_carried: input.describe(notCarried),
      renewal_annual_premium_before: toAmount(before.annualPremiumCents),
      renewal_annual_premium: toAmount(after.annualPremiumCents),
      renewal_additional_premium: toAmount(sum([premiumChangeCents, feeChangeCents])),
    },
  };
}
