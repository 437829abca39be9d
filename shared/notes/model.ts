/** Notes: short texts the service's own actions leave on a policy (a cancellation, an NSF, a payment). */
export interface NoteRecord {
  id: string;
  policyId: string;
  termId: string | null;
  text: string;
  /** A contact id, or `system` / `nightly-billing` for the service's own jobs. */
  createdBy: string;
  createdAt: string;
  /** Copied from the policy so that reach is checked without reading it. */
  agencyId: string | null;
  contactIds: string[];
}
