/**
 * The documents seam (vendor.ts SignableDocuments) while no documents store is wired in:
 * the Policy Application is named by a new file id and its esigned flag lives on the
 * signatures area's own file record. The entry files swap in the documents area's adapter.
 */
import { randomUUID } from 'node:crypto';
import type { SignableDocuments } from './vendor.js';

export const standaloneDocuments: SignableDocuments = {
  async policyApplication(target) {
    return { fileId: randomUUID(), title: `Policy Application ${target.policyNumber}`, docType: 'Policy Application' };
  },
  async markSigned() {
    // The signatures area's file record already says esigned.
  },
};
