/**
 * The documents seam (vendor.ts SignableDocuments) on the documents area: the Policy
 * Application is the revision's real PDF, stored as a file of the policy (and reused while
 * it is unsigned, so a request made again after a cancel signs the same file), and signing
 * flags that file esigned in the documents' own record.
 */
import { createRevisionDeliverable, listPolicyAttachments, markAttachmentSigned } from '../documents/index.js';
import type { SignableDocuments } from './vendor.js';

const POLICY_APPLICATION = 'Policy Application';

export const documentsAdapter: SignableDocuments = {
  async policyApplication(target) {
    const existing = (await listPolicyAttachments(target.policyId)).find(
      (file) => file.deliverableType === POLICY_APPLICATION && file.revisionId === target.revisionId && !file.esigned,
    );
    if (existing) return { fileId: existing.fileId, title: existing.title, docType: POLICY_APPLICATION };
    // Sent for signature, not to the printer.
    const record = await createRevisionDeliverable(target.revisionId, POLICY_APPLICATION, { printState: 'none' });
    return { fileId: record.fileId, title: record.title, docType: POLICY_APPLICATION };
  },
  async markSigned(file) {
    await markAttachmentSigned(file.fileId);
  },
};
