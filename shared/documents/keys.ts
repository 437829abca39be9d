/**
 * Key builders of the documents area: a policy's files (deliverables and attachments), the
 * print queue, the nightly print runs and inspection requests. Only store.ts uses them.
 *
 * - A file is its own partition (`FILE#<fileId>`): getAttachment, markAsPrinted and
 *   mark_file_as_signed address one file by id.
 * - gsi1 lists a policy's files in the order they were made.
 * - The print queue is not an index over the files: a file to print has two small entries of
 *   its own, carrying only what the print queue's readers read (getToBePrinted, the nightly run,
 *   the deliverable.printed event). A waiting entry (`PRINTQUEUE#tbd#<shard>`) exists while the
 *   file waits to print, so the queue never grows with history and markAsPrinted is the delete
 *   of one small item; a printable entry (`PRINTABLE#<shard>`) lists every printable file,
 *   printed or not, for `ignore_state` and the nightly run. Both are sorted by print date and
 *   sharded by policy number (all files of an envelope share a shard), so no partition takes
 *   every file of a night.
 */
import { printShardOf } from './print-shards.js';

export { PRINT_SHARDS, printShardOf } from './print-shards.js';

export const FILE_SORT_KEY = 'FILE';

export const fileKey = (fileId: string) => ({ pk: `FILE#${fileId}`, sk: FILE_SORT_KEY });

export const policyFilesIndex = (policyId: string, createdAt: string, fileId: string) => ({
  gsi1pk: `POLICYFILES#${policyId}`,
  gsi1sk: `${createdAt}#${fileId}`,
});

export const policyFilesQuery = (policyId: string) => ({
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': `POLICYFILES#${policyId}` },
});


const waitingPartition = (shard: number) => `PRINTQUEUE#tbd#${shard}`;
const printablePartition = (shard: number) => `PRINTABLE#${shard}`;

/** Where a file stands in print order: the sort key of both print lists. */
export const printPosition = (printDate: string, fileId: string) => `${printDate}#${fileId}`;

/** The entry of a file waiting to print (deleted when it is marked printed). */
export const waitingEntryKey = (policyNumber: string, printDate: string, fileId: string) => ({ pk: waitingPartition(printShardOf(policyNumber)), sk: printPosition(printDate, fileId) });

/** The entry of a printable file, printed or not (written once, with the file). */
export const printableEntryKey = (policyNumber: string, printDate: string, fileId: string) => ({ pk: printablePartition(printShardOf(policyNumber)), sk: printPosition(printDate, fileId) });

/** A window of a print list as getToBePrinted and the nightly run read it. */
export interface PrintWindow {
  /** `tbd`: the waiting entries; `printable`: every printable file, printed or not. */
  source: 'tbd' | 'printable';
  from: string;
  to: string;
  /** Start at this print position (`<printDate>#<fileId>`, a previous answer's last file; the store skips that file itself). */
  after?: string;
  /** Filters the key does not hold: the entries they leave out are read (and billed) but not answered. */
  includeClaims: boolean;
  electronic?: 'only' | 'exclude';
}

/**
 * One shard of a print list with a print date from `from` to `to` (both `YYYY-MM-DD`,
 * inclusive), in print order, from a position on; claims and the e-delivery preference filtered.
 */
export function printWindowQuery(window: PrintWindow, shard: number) {
  const pk = window.source === 'tbd' ? waitingPartition(shard) : printablePartition(shard);
  const filters: string[] = [];
  const values: Record<string, unknown> = { ':pk': pk, ':from': window.after ?? `${window.from}#`, ':to': `${window.to}#~` };
  if (!window.includeClaims) {
    filters.push('referenceType <> :claims');
    values[':claims'] = 'claims';
  }
  if (window.electronic === 'only') {
    filters.push('electronicDelivery = :true');
    values[':true'] = true;
  } else if (window.electronic === 'exclude') {
    filters.push('(attribute_not_exists(electronicDelivery) OR electronicDelivery = :false)');
    values[':false'] = false;
  }
  return {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeValues: values,
  };
}

/**
 * The print lists of the layout before the entries (files indexed whole on gsi2 and gsi3):
 * read only by the migration that moves them to entries (print-entries-migration.ts).
 */
export const legacyPrintableFilesQuery = () => ({
  IndexName: 'gsi3',
  KeyConditionExpression: 'gsi3pk = :pk',
  ExpressionAttributeValues: { ':pk': 'PRINTABLE' },
});

/** A one-time migration of the documents area's records, once it has finished. */
export const documentsMigrationKey = (name: string) => ({ pk: `DOCUMENTSMIGRATION#${name}`, sk: 'DONE' });

/** The nightly print run of one print date, and its mailing batches (envelopes). */
export const printRunPartition = (printDate: string) => `PRINTRUN#${printDate}`;
export const printRunKey = (printDate: string) => ({ pk: printRunPartition(printDate), sk: 'RUN' });
/** A run's envelopes, in the shard of their policy: `shard` undefined is the one partition of runs before sharding. */
const mailingBatchesPartition = (printDate: string, shard?: number) => (shard === undefined ? printRunPartition(printDate) : `${printRunPartition(printDate)}#${shard}`);
export const mailingBatchKey = (printDate: string, shard: number, label: string) => ({ pk: mailingBatchesPartition(printDate, shard), sk: `BATCH#${label}` });
export const mailingBatchesQuery = (printDate: string, shard?: number) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': mailingBatchesPartition(printDate, shard), ':prefix': 'BATCH#' },
});

/** An inspection request, in the partition of the property it inspects. */
export const inspectionKey = (propertyId: string, inspectionId: string) => ({ pk: `INSPECTIONS#${propertyId}`, sk: `INSPECTION#${inspectionId}` });
export const inspectionsQuery = (propertyId: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': `INSPECTIONS#${propertyId}`, ':prefix': 'INSPECTION#' },
});

/** Where a file's bytes live in the bucket: one folder per file, under its policy. */
export const fileFolder = (policyId: string, fileId: string) => `policies/${policyId}/files/${fileId}/`;

/**
 * A deliverable a policy's move requested (documents/joins-moves.ts): its own
 * partition, written in the move's transaction; the table's stream hands it to the documents
 * consumer. While it waits to be rendered it carries gsi2 in the pending partition, so what is
 * still to render is one Query (the tests wait on it; a person can look at it).
 */
export const PENDING_REQUESTS_PARTITION = 'DELIVERABLEREQUESTS#pending';
export const deliverableRequestKey = (requestId: string) => ({ pk: `DELIVERABLEREQUEST#${requestId}`, sk: 'REQUEST' });
export const pendingRequestIndex = (requestedAt: string, requestId: string) => ({ gsi2pk: PENDING_REQUESTS_PARTITION, gsi2sk: `${requestedAt}#${requestId}` });
export const pendingRequestsQuery = () => ({
  IndexName: 'gsi2',
  KeyConditionExpression: 'gsi2pk = :pk',
  ExpressionAttributeValues: { ':pk': PENDING_REQUESTS_PARTITION },
});

/**
 * A claim's files (its letters), each an entry of the claim's own partition: written with the
 * letter's request in the claim move's transaction (`requested`) and again with the file (its
 * type, title, print date), so get_claim lists a claim's documents in one strongly consistent Query.
 */
export const claimFileKey = (claimId: string, fileId: string) => ({ pk: `CLAIMFILES#${claimId}`, sk: `FILE#${fileId}` });
export const claimFilesQuery = (claimId: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': `CLAIMFILES#${claimId}`, ':prefix': 'FILE#' },
  ConsistentRead: true,
});
