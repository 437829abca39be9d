/**
 * The signatures area's stored records, declared once (shared/platform/records.ts). A policy's
 * signature requests, the files they sign and the events already applied live in one partition per
 * policy, so one consistent Query answers retrieve_signature_requests and one transaction applies an
 * event together with its de-duplication record. Locators find that partition from an id alone (a
 * request id, a signature id behind an iframe_url, a file id). Only the area's store imports this module.
 */
import { defineRecord } from '../platform/records.js';
import type { AppliedSignatureEvent, PendingSignatureRequest, SignableFileRecord, SignatureLocator, StoredSignatureRequest, VendorRequestRecord } from './store.js';

/**
 * A signature request (stored under its `request.id`): `request` (the wire shape of spec 2.11: flags, doc_type, file_id, policy,
 * signatures with iframe_url and status_code), `vendor` (`built-in`), `createdAt`, `version`.
 */
export const signatureRequestRecord = /* @__PURE__ */ defineRecord<StoredSignatureRequest>({
  entity: 'SignatureRequest',
  key: { pk: 'SIGNATURES#${policyId}', sk: 'REQUEST#${requestId}' },
});

/**
 * A file sent for signature: requestId (the latest request for it), title, docType, `esigned`, `signedAt`; the file itself is the
 * documents area's attachment, flagged `esigned` there too.
 */
export const signableFileRecord = /* @__PURE__ */ defineRecord<SignableFileRecord>({
  entity: 'SignableFile',
  key: { pk: 'SIGNATURES#${policyId}', sk: 'FILE#${fileId}' },
});

/**
 * One applied vendor event, by its natural key (`<requestId>#<event_type>[#<signer>]`, model.ts signatureEventKey): requestId, the
 * event as received, appliedAt; created `attribute_not_exists` in the transaction that applies it (a duplicate delivery finds it and changes nothing).
 */
export const appliedSignatureEventRecord = /* @__PURE__ */ defineRecord<AppliedSignatureEvent>({
  entity: 'AppliedSignatureEvent',
  key: { pk: 'SIGNATURES#${policyId}', sk: 'EVENT#${eventKey}' },
});

/**
 * The one request of a policy awaiting signatures: `requestId`, `fileId`. Created only when absent in the request's own transaction
 * (two requests asked at once: one is created, the other refused), deleted in the transaction that cancels or completes it. Keyed by
 * the policy, not by the file, because two racing calls may each have rendered their own file.
 */
export const pendingSignatureRequestRecord = /* @__PURE__ */ defineRecord<PendingSignatureRequest>({
  entity: 'PendingSignatureRequest',
  key: { pk: 'SIGNATURES#${policyId}', sk: 'PENDING' },
});

/** From a request, signature or file id to the policy whose partition holds it: `kind`, `policyId`, `requestId`; written in the request's create transaction. */
export const signatureLocatorRecord = /* @__PURE__ */ defineRecord<SignatureLocator>({
  entity: 'SignatureLocator',
  key: { pk: 'SIGNLOC#${id}', sk: 'SIGNLOC' },
});

/** The built-in vendor's own books of a request: policyId, fileId, title, `canceled`, signers {signatureId, name, email, signedAt}, `version`. */
export const vendorRequestRecord = /* @__PURE__ */ defineRecord<VendorRequestRecord>({
  entity: 'BuiltInVendorRequest',
  key: { pk: 'ESIGNVENDOR#${requestId}', sk: 'REQUEST' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const SIGNATURES_RECORDS = [signatureRequestRecord, signableFileRecord, appliedSignatureEventRecord, pendingSignatureRequestRecord, signatureLocatorRecord, vendorRequestRecord] as const;
