/**
 * The seams of electronic signatures. A signature vendor (the built-in one here, a
 * commercial one later) is reached only through `SignatureVendor`; the file being signed
 * belongs to the documents area and is reached only through `SignableDocuments`. Both are
 * plain interfaces wired in the entry files, so the signatures area imports neither.
 */

export interface Signer {
  name: string;
  email: string;
}

export interface VendorRequestInput {
  requestId: string;
  policyId: string;
  policyNumber: string;
  fileId: string;
  title: string;
  subject: string;
  /** Embedded: the signers sign in a page of ours (iframe_url); mail: the vendor mails them a link. */
  embedded: boolean;
  signers: Signer[];
}

export interface VendorSignature {
  id: string;
  iframe_url: string;
  signer_name: string;
  signer_email_address: string;
}

export interface VendorRequestCreated {
  signing_url?: string;
  files_url?: string;
  signatures: VendorSignature[];
}

export interface SignatureVendor {
  /** Stored with each request, so that a later vendor change leaves older requests readable. */
  readonly name: string;
  createRequest(input: VendorRequestInput): Promise<VendorRequestCreated>;
  cancelRequest(requestId: string): Promise<void>;
}

/** The file a signature request is for, as the documents area keeps it. */
export interface SignableFile {
  fileId: string;
  title: string;
  docType: string;
  /** Where a signer may read the document, when the documents area serves it. */
  url?: string;
}

export interface PolicyApplicationTarget {
  policyId: string;
  policyNumber: string;
  revisionId: string;
}

export interface SignableDocuments {
  /** The Policy Application of the revision, generated when there is none yet. */
  policyApplication(target: PolicyApplicationTarget): Promise<SignableFile>;
  /** Flags the stored file esigned (idempotent). */
  markSigned(file: { fileId: string; policyId: string }): Promise<void>;
}

/** The deliverable types a signature can be requested for. */
export const SIGNABLE_DELIVERABLE_NAMES = ['Policy Application'] as const;
