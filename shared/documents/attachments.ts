/**
 * A policy's files without the renderer: what flows that only read or flag files (signing,
 * the deliverable requests of a move) may import without bundling pdf-lib.
 */
export { getAttachmentRecord, listPolicyAttachments, markAttachmentSigned } from './store.js';
