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
export type { PartyStatement } from './model.js';
