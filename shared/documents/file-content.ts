/**
 * A stored file's content by its id, for a reader whose right to it was proved elsewhere: the
 * built-in signature vendor's signing page shows the signer the document they are asked to
 * sign, on the strength of the signing link's token. Light on purpose (the store alone, no
 * rendering), so that the signing page's function stays small.
 */
import { getAttachmentRecord, getFileBytes } from './store.js';

export interface StoredFileContent {
  title: string;
  contentType: string;
  bytes: Uint8Array;
}

export async function storedFileContent(fileId: string): Promise<StoredFileContent | undefined> {
  const record = await getAttachmentRecord(fileId);
  if (!record || (record as { deleted?: boolean }).deleted) return undefined;
  const bytes = await getFileBytes(record.objectKey);
  return bytes ? { title: record.title, contentType: record.contentType, bytes } : undefined;
}
