/**
 * The documents seam as the signature-events consumer needs it: signing only flags a file, so
 * the consumer takes this instead of documents-adapter.ts and never bundles the renderer that
 * making a Policy Application needs.
 */
import { markAttachmentSigned } from '../documents/index.js';
import type { SignableDocuments } from './vendor.js';

export const signedFileMarker: Pick<SignableDocuments, 'markSigned'> = {
  async markSigned(file) {
    await markAttachmentSigned(file.fileId);
  },
};
