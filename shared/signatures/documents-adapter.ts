/**
 * The documents seam (vendor.ts SignableDocuments) on the documents area: the Policy
 * Application is the revision's real PDF, stored as a file of the policy (and reused while
 * it is unsigned, so a request made again after a cancel signs the same file), and signing
 * flags that file esigned in the documents' own record.
 */
import { listPolicyAttachments, markAttachmentSigned, renderRevisionDeliverable, storeDeliverable } from '../documents/deliverable-service.js';
import type { SignableDocuments } from './vendor.js';

const POLICY_APPLICATION = 'Policy Application';

export const documentsAdapter: SignableDocuments = {
  async policyApplication(target) {
    const existing = (await listPolicyAttachments(target.policyId)).find(
      (file) => file.deliverableType === POLICY_APPLICATION && file.revisionId === target.revisionId && !file.esigned,
    );
    if (existing) return { fileId: existing.fileId, title: existing.title, docType: POLICY_APPLICATION };
    const { snapshot, pdf } = await renderRevisionDeliverable(target.revisionId, POLICY_APPLICATION);
    const record = await storeDeliverable(
      {
        policyId: snapshot.header.policyId,
        policyNumber: snapshot.header.policyNumber,
        revisionId: snapshot.header.id,
        agencyId: snapshot.header.agencyId,
        contactIds: [...snapshot.header.contactIds],
      },
      POLICY_APPLICATION,
      pdf,
      // Sent for signature, not to the printer.
      { printState: 'none' },
    );
    return { fileId: record.fileId, title: record.title, docType: POLICY_APPLICATION };
  },
  async markSigned(file) {
    await markAttachmentSigned(file.fileId);
  },
};
