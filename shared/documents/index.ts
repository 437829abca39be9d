/**
 * The documents area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 * Reading and flagging files comes from modules without the renderer (attachments, file-content),
 * so an area that only does that never bundles pdf-lib ("sideEffects": false lets esbuild drop the rest).
 */
export { createRevisionDeliverable } from './deliverable-service.js';
export { listPolicyAttachments } from './attachments.js';
export { markAttachmentSigned } from './store.js';
export { storedFileContent, type StoredFileContent } from './file-content.js';
export { storePartyStatement, type StoredStatement } from './party-statements.js';
export { idempotentFileId } from './deliverable-service.js';
export type { ClaimLetterType, ClaimOfLetter, PartyStatement } from './model.js';
export { CLAIM_LETTER_TYPES } from './model.js';
export { claimDocuments, type ClaimDocument } from './claim-files.js';
export { attachmentForViewing } from './attachments.js';
export { createDeliverable, newCustomDeliverable, renderRequestedDeliverable } from './deliverable-service.js';
export { inspectionCoverageOptions, requestInspection } from './inspection-service.js';
export { MAX_DELAY_PRINT_DAYS } from './print-dates.js';
export { printRunMessage } from './print-queue.js';
export { nightlyPrintDate, planPrintRun, runPrintJob, runPrintShard } from './print-runs.js';
export { MARK_AS_PRINTED_MAX_FILES, getToBePrinted, markAsPrinted } from './print-service.js';
export { renderReportPdf } from './report-pdf.js';
