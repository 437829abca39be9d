/**
 * The print queue as the print vendor's clients read it (getToBePrinted, markAsPrinted). The
 * nightly print run is print-runs.ts: the vendor's operations bundle neither it nor the SQS client.
 */
import { getCarrierSettings } from '../catalog/index.js';
import { fileEvent } from './file-events.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { mapLimited } from '../platform/concurrency.js';
import { printShardOf } from './print-shards.js';
import type { PrintEntry, PrintProcessing, PrintQueueFile } from './model.js';
import { filesInPrintOrder, mailingBatchesOfShard, markFilesPrinted, printPositionOf, printRunsOf, printRunState } from './store.js';
import { clock } from '../platform/clock.js';

/**
 * The most bytes of files one getToBePrinted answer carries. A Lambda answer holds 6 MB
 * (6,291,456 bytes) and the files are in it twice (at the top level and in data), each copy
 * JSON-escaped once more inside the proxy answer's body; this leaves about 1 MB for the
 * envelope, headers and misjudged escapes.
 */
export const MAX_ANSWER_FILE_BYTES = 5_200_000;
/**
 * What getToBePrinted cuts its answers at, MAX_ANSWER_FILE_BYTES unless set lower: the tests page
 * a few hundred files through small answers, as a vendor pages ten thousand through full ones
 * (which the bench measures).
 */
export const printAnswerLimits = { fileBytes: MAX_ANSWER_FILE_BYTES };
/** Envelope partitions (a print date's shard) getToBePrinted reads at once. */
export const BATCH_READ_CONCURRENCY = 16;

export interface ToBePrintedQuery {
  from_date?: string;
  to_date?: string;
  ignore_state: boolean;
  exclude_electronic_delivery: boolean;
  only_electronic_delivery: boolean;
  include_claims: boolean;
  disable_edelivery_filtering: boolean;
  include_address_fields: boolean;
  /** A cut answer's `continue_after`: read on after that file. */
  continue_after?: string;
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
  /** Where an e-mailed file goes (a claim letter's copy to the agency's claimActivityChosenEmail) and its copy: present on such files only. */
  email_to?: string;
  email_cc?: string;
  recipient_name?: string;
  address_line1?: string;
  address_line2?: string;
  address_city?: string;
  address_state?: string;
  address_zip?: string;
}

export function toBePrintedFile(record: PrintQueueFile, batch: string | null, withAddress: boolean): ToBePrintedFile {
  const file: ToBePrintedFile = {
    policy_number: record.policyNumber,
    file_id: record.fileId,
    contact_id: record.recipientContactId,
    print_date: record.printDate,
    print_state: record.printState,
    label: record.label,
    title: record.title,
    batch,
    parent: record.parentId,
    children: record.childrenIds ?? [],
    revision_id: record.revisionId,
  };
  if (record.emailTo) file.email_to = record.emailTo;
  if (record.emailCc) file.email_cc = record.emailCc;
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

/** What a file costs the answer: its JSON, twice, escaped again inside the proxy answer's body, and a comma each time. */
export function answerBytesOf(file: ToBePrintedFile): number {
  return 2 * (Buffer.byteLength(JSON.stringify(JSON.stringify(file))) - 2 + 1);
}

export interface ToBePrintedAnswer {
  processing: PrintProcessing;
  files: ToBePrintedFile[];
  /** Present when the answer was cut to fit: pass it back as `continue_after` to read on from there. */
  continue_after?: string;
}

/**
 * The files to print from `from_date` (default: the carrier's live date) to `to_date`
 * (default: today), in print order, and whether the nightly processing of `to_date` has run.
 * A window of any length is one paged Query of a print index: the cost follows the files
 * read, never the days spanned. When the files would not fit one answer, it carries as many
 * as fit, `processing: "incomplete"` and `continue_after`; marking the answered files printed
 * takes them out of the queue, so the same call again answers the rest (or pass
 * `continue_after` to read on without marking, as `ignore_state` needs).
 */
export async function getToBePrinted(query: ToBePrintedQuery, now = clock.now()): Promise<ToBePrintedAnswer> {
  const to = query.to_date ?? todayIso(now);
  const from = query.from_date ?? (await getCarrierSettings()).liveDate;
  if (from > to) throw new BusinessRuleError(`from_date ${from} is after to_date ${to}`);
  if (query.continue_after && (query.continue_after.slice(0, 10) < from || query.continue_after.slice(0, 10) > to)) {
    throw new BusinessRuleError(`continue_after ${query.continue_after.slice(0, 10)} is outside from_date to to_date`);
  }
  const electronic = query.disable_edelivery_filtering ? undefined : query.only_electronic_delivery ? 'only' : query.exclude_electronic_delivery ? 'exclude' : undefined;
  const processingOfDate = printRunState(to);
  processingOfDate.catch(() => undefined); // awaited below; a failed window read must not leave it unhandled
  const chosen: PrintQueueFile[] = [];
  const files: ToBePrintedFile[] = [];
  let bytes = 0;
  let cut = false;
  const window = {
    source: query.ignore_state ? ('printable' as const) : ('tbd' as const),
    from,
    to,
    includeClaims: query.include_claims,
    ...(electronic ? { electronic: electronic as 'only' | 'exclude' } : {}),
    ...(query.continue_after ? { after: query.continue_after } : {}),
  };
  for await (const record of filesInPrintOrder(window)) {
    // Measured without its batch label, which is added after: the label's few bytes are within the margin.
    const file = toBePrintedFile(record, 'MB-00000000-0000000000', query.include_address_fields);
    const size = answerBytesOf(file);
    if (bytes + size > printAnswerLimits.fileBytes) {
      cut = true;
      break;
    }
    bytes += size;
    chosen.push(record);
  }
  const batches = await batchLabels(chosen);
  for (const record of chosen) files.push(toBePrintedFile(record, batches.get(record.fileId) ?? null, query.include_address_fields));
  const processing = await processingOfDate;
  if (!cut) return { processing, files };
  const last = chosen[chosen.length - 1];
  if (!last) return { processing: 'incomplete', files };
  return { processing: 'incomplete', files, continue_after: printPositionOf(last) };
}

/**
 * The mailing batch of each file: the envelopes of the print dates that have a run, read only in
 * the shards the files are in (a window of years of dates never run reads no envelope).
 */
async function batchLabels(files: readonly PrintEntry[]): Promise<Map<string, string>> {
  const runs = await printRunsOf([...new Set(files.map((file) => file.printDate))]);
  const partitions = new Map<string, { printDate: string; shard?: number }>();
  for (const file of files) {
    const run = runs.get(file.printDate);
    if (!run) continue;
    const shard = run.shards ? printShardOf(file.policyNumber) : undefined;
    partitions.set(`${file.printDate}#${shard ?? ''}`, { printDate: file.printDate, ...(shard === undefined ? {} : { shard }) });
  }
  const labels = new Map<string, string>();
  const read = await mapLimited([...partitions.values()], BATCH_READ_CONCURRENCY, ({ printDate, shard }) => mailingBatchesOfShard(printDate, shard));
  for (const batch of read.flat()) for (const fileId of batch.fileIds) labels.set(fileId, batch.label);
  return labels;
}

/**
 * File ids one markAsPrinted call takes, as published: 20,000 ids are about 800 KB of body. On
 * DynamoDB Local (2 shared cores) 20,000 take about 28 s of the call's 29; should a call run short
 * of time, it starts no transaction in its last MARK_TIME_MARGIN_MS and says how far it got.
 */
export const MARK_AS_PRINTED_PUBLISHED_MAX_FILES = 20_000;

/**
 * The ceiling a deployment may lower with MARK_AS_PRINTED_MAX_FILES (a slower table or a shorter
 * timeout gets through fewer files in the call's time), never raise: the published 20,000 is what
 * the API's timeout allows. Unset, it is the published figure.
 */
export function markAsPrintedMaxFiles(setting: string | undefined): number {
  if (setting === undefined || setting === '') return MARK_AS_PRINTED_PUBLISHED_MAX_FILES;
  const files = Number(setting);
  if (!Number.isInteger(files) || files < 1 || files > MARK_AS_PRINTED_PUBLISHED_MAX_FILES) {
    throw new Error(`MARK_AS_PRINTED_MAX_FILES must be a whole number from 1 to ${MARK_AS_PRINTED_PUBLISHED_MAX_FILES}, not ${JSON.stringify(setting)}`);
  }
  return files;
}

/** File ids one markAsPrinted call takes here: read once, as the operation's input schema is built once. */
export const MARK_AS_PRINTED_MAX_FILES = markAsPrintedMaxFiles(process.env.MARK_AS_PRINTED_MAX_FILES);
/** What a call keeps for the transactions in flight and its answer: no mark starts later than this before its deadline. */
export const MARK_TIME_MARGIN_MS = 3000;

/** A markAsPrinted call ran short of time (or of write capacity): the files it marked stay marked, the rest wait; the same call again marks them. */
export class MarkingCutShortError extends BusinessRuleError {
  constructor(readonly marked: number, readonly notTried: number) {
    super(`Marked ${marked} files before the call ran short of time; up to ${notTried} waiting files were not marked: send the same file_ids again to mark them (files marked already are not counted again)`);
    this.name = 'MarkingCutShortError';
  }
}

/**
 * Marks files printed; a file already printed, unknown or never printable is not counted. Each
 * marked file's deliverable.printed event is written with it. With a `deadline` (epoch ms), no
 * mark starts in its last MARK_TIME_MARGIN_MS: files left then are MarkingCutShortError.
 */
export async function markAsPrinted(fileIds: readonly string[], now = clock.now(), options: { filesPerTransaction?: number; deadline?: number } = {}): Promise<number> {
  const at = now.toISOString();
  const { marked, notTried } = await markFilesPrinted([...new Set(fileIds)], (entry) => [fileEvent('deliverable.printed', entry, at)], {
    ...(options.filesPerTransaction ? { filesPerTransaction: options.filesPerTransaction } : {}),
    ...(options.deadline ? { stopStartingAt: options.deadline - MARK_TIME_MARGIN_MS } : {}),
  });
  if (notTried > 0) throw new MarkingCutShortError(marked, notTried);
  return marked;
}
