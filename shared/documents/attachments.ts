/**
 * A policy's files without the renderer: what flows that only read or flag files (getAttachment,
 * signing) import, so that they do not bundle pdf-lib.
 */
import { NotFoundError } from '../platform/errors.js';
import { reaches, type Principal } from '../platform/principal.js';
import { deleteAttachmentRecord, deleteFileBytes, getAttachmentRecord, getFileBytes } from './store.js';

export { getAttachmentRecord, listPolicyAttachments } from './store.js';

/**
 * A file within the caller's reach, with its bytes; removed afterwards when asked to. A
 * deliverable a move requested is not found until the documents consumer has rendered it.
 */
export async function attachmentForViewing(principal: Principal, fileId: string, deleteOnView: boolean) {
  const record = await getAttachmentRecord(fileId);
  if (!record || (record as { deleted?: boolean }).deleted || !reaches(principal, record)) throw new NotFoundError(`File ${fileId}`);
  const bytes = await getFileBytes(record.objectKey);
  if (!bytes) throw new NotFoundError(`File ${fileId}`);
  if (deleteOnView) {
    await deleteAttachmentRecord(record);
    await deleteFileBytes(record.objectKey);
  }
  return { record, bytes };
}
