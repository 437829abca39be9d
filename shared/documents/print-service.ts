/**
 * The print queue as the print vendor's clients read it (getToBePrinted, markAsPrinted) and
 * the nightly print run that puts the files of a print date into mailing batches.
 */
import { getCarrierSettings } from '../catalog/index.js';
import { daysBetween, todayIso } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { assignMailingBatches } from './mailing-batches.js';
import type { AttachmentRecord, PrintFile, PrintProcessing } from './model.js';
import { filesToPrint, finishPrintRun, mailingBatchesOf, markFilePrinted, printableFiles, printRunState, putMailingBatches, startPrintRun } from './store.js';

/** Widest window of `ignore_state` (every printed file is read): ten years. */
export const MAX_IGNORE_STATE_DAYS = 3660;
/** Print dates whose mailing batches getToBePrinted reads at once. */
export const BATCH_READ_CONCURRENCY = 16;
/** Files marked at once by markAsPrinted. */
export const MARK_CONCURRENCY = 48;

export interface ToBePrintedQuery {
  from_date?: string;
  to_date?: string;
  ignore_state: boolean;
  exclude_electronic_delivery: boolean;
  only_electronic_delivery: boolean;
  include_claims: boolean;
  disable_edelivery_filtering: boolean;
  include_address_fields: boolean;
}

export interface ToBePrintedFile {
  policy_number: string;
  file_id: string;
  contact_id: string | null;
  print_date: string;
  print_state: string;
  label: string;
  title: string;
  batch: string | null;
  parent: string | null;
  children: string[];
  revision_id: string | null;
  recipient_name?: string;
  address_line1?: string;
  address_line2?: string;
  address_city?: string;
  address_state?: string;
  address_zip?: string;
}

export function toBePrintedFile(record: AttachmentRecord, batch: string | null, withAddress: boolean): ToBePrintedFile {
  const file: ToBePrintedFile = {
    policy_number: record.policyNumber,
    file_id: record.fileId,
    contact_id: record.recipientContactId,
    print_date: record.printDate ?? '',
    print_state: record.printState,
    label: record.label,
    title: record.title,
    batch,
    parent: record.parentId,
    children: record.childrenIds ?? [],
    revision_id: record.revisionId,
  };
  if (withAddress) {
    const address = record.recipient?.address;
    Object.assign(file, {
      recipient_name: record.recipient?.name ?? '',
      address_line1: address?.line1 ?? '',
      address_line2: address?.line2 ?? '',
      address_city: address?.city ?? '',
      address_state: address?.state ?? '',
      address_zip: address?.zip ?? '',
    });
  }
  return file;
}

/**
 * The files to print from `from_date` (default: the carrier's live date) to `to_date`
 * (default: today), and whether the nightly processing of `to_date` has run. No contact
 * has chosen electronic delivery in this service, so every file is a paper one:
 * `only_electronic_delivery` answers none, `exclude_electronic_delivery` excludes none.
 */
export async function getToBePrinted(query: ToBePrintedQuery, now = new Date()): Promise<{ processing: PrintProcessing; files: ToBePrintedFile[] }> {
  const to = query.to_date ?? todayIso(now);
  const from = query.from_date ?? (await getCarrierSettings()).liveDate;
  if (from > to) throw new BusinessRuleError(`from_date ${from} is after to_date ${to}`);
  if (query.ignore_state && daysBetween(from, to) > MAX_IGNORE_STATE_DAYS) {
    throw new BusinessRuleError(`from_date to to_date spans more than ${MAX_IGNORE_STATE_DAYS} days; ask for a shorter window with ignore_state`);
  }
  const [records, processing] = await Promise.all([query.ignore_state ? printableFiles(from, to) : filesToPrint(from, to), printRunState(to)]);
  const wanted = records.filter((record) => (query.include_claims || record.referenceType !== 'claims') && !(query.only_electronic_delivery && !query.disable_edelivery_filtering));
  const batches = await batchLabels(wanted);
  return { processing, files: wanted.map((record) => toBePrintedFile(record, batches.get(record.fileId) ?? null, query.include_address_fields)) };
}

/** The mailing batch of each file, from the runs of the print dates the files have. */
async function batchLabels(records: readonly AttachmentRecord[]): Promise<Map<string, string>> {
  const dates = [...new Set(records.map((record) => record.printDate).filter((date): date is string => !!date))];
  const labels = new Map<string, string>();
  // A window of many print dates reads their runs a few at a time, not all at once.
  for (let start = 0; start < dates.length; start += BATCH_READ_CONCURRENCY) {
    const runs = await Promise.all(dates.slice(start, start + BATCH_READ_CONCURRENCY).map((date) => mailingBatchesOf(date)));
    for (const batch of runs.flat()) for (const fileId of batch.fileIds) labels.set(fileId, batch.label);
  }
  return labels;
}

/** Marks files printed; a file already printed, unknown or never printable is not counted. */
export async function markAsPrinted(fileIds: readonly string[], now = new Date()): Promise<number> {
  const distinct = [...new Set(fileIds)];
  let marked = 0;
  for (let start = 0; start < distinct.length; start += MARK_CONCURRENCY) {
    const results = await Promise.all(distinct.slice(start, start + MARK_CONCURRENCY).map((fileId) => markFilePrinted(fileId, now.toISOString())));
    marked += results.filter(Boolean).length;
  }
  return marked;
}

export function printFileOf(record: AttachmentRecord): PrintFile {
  return {
    fileId: record.fileId,
    policyNumber: record.policyNumber,
    printDate: record.printDate ?? '',
    label: record.label,
    title: record.title,
    // A file without a recipient goes in the policy's own envelope.
    recipient: record.recipient ?? { name: '', address: { line1: '', city: '', state: '', zip: '' } },
    ...(record.parentId ? { parentId: record.parentId } : {}),
    ...(record.childrenIds?.length ? { childrenIds: record.childrenIds } : {}),
  };
}

export interface PrintRunSummary {
  printDate: string;
  files: number;
  batches: number;
  processing: PrintProcessing;
}

/**
 * The nightly print run of one print date: every file still to print on that date goes in
 * the envelope of its recipient and policy (files printed already keep theirs). Labels are derived from the envelope alone, so a
 * second run (a retried message, a rerun by hand) writes the very same batches again and
 * leaves the date `done`.
 */
export async function runPrintJob(printDate: string, now = new Date()): Promise<PrintRunSummary> {
  await startPrintRun(printDate, now.toISOString());
  // Files of the date already printed keep their envelope: a rerun after markAsPrinted changes no batch.
  const files = (await printableFiles(printDate, printDate)).filter((record) => record.printDate === printDate && record.printState !== 'none');
  const batches = assignMailingBatches(printDate, files.map(printFileOf));
  await putMailingBatches(batches.map((batch) => ({ label: batch.label, printDate, policyNumber: batch.policyNumber, fileIds: batch.fileIds })));
  await finishPrintRun(printDate, { batches: batches.length, files: files.length, finishedAt: new Date().toISOString() });
  return { printDate, files: files.length, batches: batches.length, processing: 'done' };
}

/** The print date a nightly run started at `now` prepares: today's (UTC). */
export function nightlyPrintDate(now = new Date()): string {
  return todayIso(now);
}
