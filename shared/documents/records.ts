/**
 * The documents area's stored records, declared once (shared/platform/records.ts): a policy's files
 * (deliverables and attachments), the print queue, the nightly print runs, inspection requests, the
 * deliverables moves request and a claim's files. Only the area's stores import this module.
 *
 * - A file is its own partition (`FILE#<fileId>`): getAttachment, markAsPrinted and
 *   mark_file_as_signed address one file by id; gsi1 lists a policy's files in the order they were made.
 * - The print queue is not an index over the files: a file to print has two small entries of
 *   its own, carrying only what the print queue's readers read (getToBePrinted, the nightly run,
 *   the deliverable.printed event). A waiting entry exists while the file waits to print, so the
 *   queue never grows with history and markAsPrinted is the delete of one small item; a printable
 *   entry lists every printable file, printed or not, for `ignore_state` and the nightly run. Both
 *   are sorted by print date and sharded by policy number (all files of an envelope share a shard),
 *   so no partition takes every file of a night.
 */
import { defineRecord } from '../platform/records.js';
import type { AttachmentRecord, ClaimFileEntry, DeliverableRequest, PrintEntry, StoredMailingBatch } from './model.js';
import { printShardOf } from './print-shards.js';
import type { InspectionRecord, PrintRunRecord } from './store.js';

/** The shard of a file's print entries and envelope, from its policy number (a query names its shard instead). */
const byPolicyNumber = { shard: ({ policyNumber }: Record<string, unknown>) => (policyNumber === undefined ? undefined : printShardOf(String(policyNumber))) };

/**
 * A file of a policy (in no print index: its print entries are the print queue): policyId, policyNumber, revisionId, agencyId and
 * contactIds (the policy's, for reach), deliverableType (null for custom), label, title, objectKey, contentType, sizeBytes, printState
 * as the file was made (`tbd`, `printed`, `none`; whether a `tbd` file still waits is whether its waiting entry exists), printDate,
 * recipientContactId and recipient (name, address: the envelope), electronicDelivery (the recipient's `acceptNoticesByEmail` when the
 * file was made; absent: paper), parentId, childrenIds, esigned, signedAt, goDate, procDate, createdAt, printedAt; `deleted` once viewed
 * with `delete_on_view` (the index keys and print entries are removed with it).
 */
export const attachmentRecord = /* @__PURE__ */ defineRecord<AttachmentRecord>({
  entity: 'Attachment',
  key: { pk: 'FILE#${fileId}', sk: 'FILE' },
  indexes: { gsi1: { pk: 'POLICYFILES#${policyId}', sk: '${createdAt}#${fileId}' } },
});

/**
 * A file waiting to print, in the shard (0-7) of its policy number: what the print queue's readers read of the file (`PrintEntry`,
 * model.ts: fileId, policyId, policyNumber, revisionId, agencyId, referenceType, deliverableType, label, title, printDate,
 * recipientContactId, recipient, electronicDelivery, parentId, childrenIds, and emailTo/emailCc on an e-mailed copy; about 600 bytes:
 * one write unit); written with the file, deleted by markAsPrinted.
 */
export const waitingEntryRecord = /* @__PURE__ */ defineRecord<PrintEntry>({
  entity: 'WaitingEntry',
  key: { pk: 'PRINTQUEUE#tbd#${shard}', sk: '${printDate}#${fileId}' },
  computed: byPolicyNumber,
});

/** Every printable file (`tbd` or `printed` when made), in the shard of its policy number: the same fields, written once with the file, deleted only with it. */
export const printableEntryRecord = /* @__PURE__ */ defineRecord<PrintEntry>({
  entity: 'PrintableEntry',
  key: { pk: 'PRINTABLE#${shard}', sk: '${printDate}#${fileId}' },
  computed: byPolicyNumber,
});

/**
 * A file of the layout before print entries, indexed whole while it waited (gsi2) and while printable (gsi3): read and moved to entries
 * only by the migration (print-entries-migration.ts), never written so.
 */
export const legacyPrintableFileRecord = /* @__PURE__ */ defineRecord<AttachmentRecord>({
  entity: 'Attachment',
  key: { pk: 'FILE#${fileId}', sk: 'FILE' },
  indexes: { gsi2: { pk: 'PRINTQUEUE#tbd', sk: '${printDate}#${fileId}' }, gsi3: { pk: 'PRINTABLE', sk: '${printDate}#${fileId}' } },
});

/**
 * The nightly print run of a print date, written by updates alone: state (`incomplete` while the first run works, then `done`), runs
 * (the current run's number), startedAt, finishedAt, files, batches: getToBePrinted's `processing` for its `to_date` (`not started`
 * without a record); `shards` (8: the run fanned out by shard, its envelopes stored by shard; absent on runs before), `shardsDone`
 * (string set of the current run's shards done), shardFiles, shardBatches, `finishedRun`.
 */
export const printRunRecord = /* @__PURE__ */ defineRecord<PrintRunRecord>({
  entity: 'PrintRun',
  entityAttribute: false,
  key: { pk: 'PRINTRUN#${printDate}', sk: 'RUN' },
});

/** One envelope of a run, in the shard of its policy number: label (`MB-<date>-<digest of recipient and policy>`), printDate, policyNumber, fileIds (parents first). */
export const mailingBatchRecord = /* @__PURE__ */ defineRecord<StoredMailingBatch>({
  entity: 'MailingBatch',
  key: { pk: 'PRINTRUN#${printDate}#${shard}', sk: 'BATCH#${label}' },
  computed: byPolicyNumber,
});

/** An envelope of a run made before the fan-out by shard (no `shards` on its run), beside its run: read as it is. */
export const legacyMailingBatchRecord = /* @__PURE__ */ defineRecord<StoredMailingBatch>({
  entity: 'MailingBatch',
  key: { pk: 'PRINTRUN#${printDate}', sk: 'BATCH#${label}' },
});

/** A one-time migration of the documents' records once it has finished (`print-entries-v1`): name, finishedAt, moved. */
export const documentsMigrationRecord = /* @__PURE__ */ defineRecord<{ name: string; finishedAt: string }>({
  entity: 'DocumentsMigration',
  key: { pk: 'DOCUMENTSMIGRATION#${name}', sk: 'DONE' },
});

/** An inspection request, in the partition of the property it inspects: revisionId, policyId, vendor, vendorReference, status, requestedDate, requestedAt, requestedBy, details (report type, instructions, primary coverage, commercial). */
export const inspectionRecord = /* @__PURE__ */ defineRecord<InspectionRecord>({
  entity: 'Inspection',
  key: { pk: 'INSPECTIONS#${propertyId}', sk: 'INSPECTION#${inspectionId}' },
});

/**
 * A deliverable a policy's or claim's move requested, in its move's transaction; the table's stream hands it to the documents consumer,
 * and while it waits to be rendered (`state = requested`) gsi2 lists it, so what is still to render is one Query: deliverableType
 * (Declaration, Notice of Cancellation), policyId, policyNumber, revisionId (the file's), renderRevisionId (what prints), agencyId/contactIds
 * (the file's reach), recipientContactId, decisionDate (the move's date: issue, go and processing date of the document), printDate,
 * billingScheduleId, cancellation {reason, cancelDate, returnPremium, pending}, requestedAt, state (`requested`, `rendered`), renderedAt;
 * the requestId is the id of the file it becomes. A claim's letter (Claim Acknowledgement, Closing, Denial, Reservation of Rights) has no
 * renderRevisionId: its `claimLetter` holds the letter's facts as the claim move saw them (claim number, insured, loss and reported dates,
 * peril code, description, loss address, state, reason); its wording (the state's) and attachments (their text from the claims rules'
 * `attachmentTexts`) are read when it is rendered, so no claim move bundles them; revisionId is the revision at loss (null when none was in force).
 */
export const deliverableRequestRecord = /* @__PURE__ */ defineRecord<DeliverableRequest>({
  entity: 'DeliverableRequest',
  key: { pk: 'DELIVERABLEREQUEST#${requestId}', sk: 'REQUEST' },
  indexes: { gsi2: { pk: 'DELIVERABLEREQUESTS#pending', sk: '${requestedAt}#${requestId}' } },
});

/**
 * A claim's file as get_claim lists it (`documents`): fileId, deliverableType, label, title, policyNumber, state (`requested`: put with the
 * letter's request in the claim move's transaction; `made`: put again with the file, in the file's transaction), requestedAt, createdAt,
 * printDate, printState as made (`tbd` is `printed` once the file's waiting entry is gone: one BatchGet of those entries), delivery
 * (`mail`, `email`), emailTo. A letter's copy e-mailed to the agency (its `claimActivityChosenEmail`) is a file of its own (id derived from
 * the letter's), flagged electronicDelivery, with `emailTo` and `emailCc` (ccClaimEmail) on its record and print entries: getToBePrinted
 * answers them as `email_to`, `email_cc`.
 */
export const claimFileRecord = /* @__PURE__ */ defineRecord<ClaimFileEntry>({
  entity: 'ClaimFile',
  key: { pk: 'CLAIMFILES#${claimId}', sk: 'FILE#${fileId}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const DOCUMENTS_RECORDS = [
  attachmentRecord,
  waitingEntryRecord,
  printableEntryRecord,
  legacyPrintableFileRecord,
  printRunRecord,
  mailingBatchRecord,
  legacyMailingBatchRecord,
  documentsMigrationRecord,
  inspectionRecord,
  deliverableRequestRecord,
  claimFileRecord,
] as const;
