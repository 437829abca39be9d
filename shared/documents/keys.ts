/**
 * Key builders of the documents area: a policy's files (deliverables and attachments), the
 * print queue, the nightly print runs and inspection requests. Only store.ts uses them.
 *
 * - A file is its own partition (`FILE#<fileId>`): getAttachment, markAsPrinted and
 *   mark_file_as_signed address one file by id.
 * - gsi1 lists a policy's files in the order they were made.
 * - gsi2 is the print queue: only files still to print (`tbd`) carry it, so the queue never
 *   grows with history; markAsPrinted removes a file from it.
 * - gsi3 lists every printable file (printed or not) by print date, for `ignore_state` and the
 *   nightly run: one partition, so a window of any length is one Query paged by the files it holds.
 */
export const FILE_SORT_KEY = 'FILE';
export const PRINT_QUEUE_PARTITION = 'PRINTQUEUE#tbd';
export const PRINTABLE_PARTITION = 'PRINTABLE';

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

export const printQueueIndex = (printDate: string, fileId: string) => ({ gsi2pk: PRINT_QUEUE_PARTITION, gsi2sk: `${printDate}#${fileId}` });

export const printableIndex = (printDate: string, fileId: string) => ({ gsi3pk: PRINTABLE_PARTITION, gsi3sk: `${printDate}#${fileId}` });

/** Where a file stands in print order: the sort key of both print indexes. */
export const printPosition = (printDate: string, fileId: string) => `${printDate}#${fileId}`;

/** A window of a print index as getToBePrinted and the nightly run read it. */
export interface PrintWindow {
  /** `tbd`: the print queue (gsi2); `printable`: every printable file, printed or not (gsi3). */
  source: 'tbd' | 'printable';
  from: string;
  to: string;
  /** Start at this print position (`<printDate>#<fileId>`, a previous answer's last file; the store skips that file itself). */
  after?: string;
  /** Filters the index does not key: the files they leave out are read (and billed) but not answered. */
  includeClaims: boolean;
  electronic?: 'only' | 'exclude';
}

/**
 * Files of a print index with a print date from `from` to `to` (both `YYYY-MM-DD`, inclusive),
 * in print order, from a position on; claims and the e-delivery preference filtered.
 */
export function printWindowQuery(window: PrintWindow) {
  const [index, pk] = window.source === 'tbd' ? ['gsi2', PRINT_QUEUE_PARTITION] : ['gsi3', PRINTABLE_PARTITION];
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
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk AND ${index}sk BETWEEN :from AND :to`,
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeValues: values,
  };
}

/** The nightly print run of one print date, and its mailing batches (envelopes). */
export const printRunPartition = (printDate: string) => `PRINTRUN#${printDate}`;
export const printRunKey = (printDate: string) => ({ pk: printRunPartition(printDate), sk: 'RUN' });
export const mailingBatchKey = (printDate: string, label: string) => ({ pk: printRunPartition(printDate), sk: `BATCH#${label}` });
export const mailingBatchesQuery = (printDate: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': printRunPartition(printDate), ':prefix': 'BATCH#' },
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
 * A deliverable a policy's move requested (documents/deliverable-requests.ts): its own
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
