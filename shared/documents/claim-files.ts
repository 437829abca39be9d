/**
 * A claim's documents as get_claim lists them: each letter a move asked for (`requested` until the
 * documents consumer made it) and each file made for the claim, with where it stands in the print
 * queue. No renderer, no S3 client: the claims area's reads bundle this alone. The caller has
 * checked that the claim is within reach.
 */
import { claimFiles } from './claim-files-store.js';

export interface ClaimDocument {
  file_id: string;
  deliverable_type: string | null;
  label: string;
  title: string;
  requested_at: string;
  created_at: string | null;
  /** `requested` (not made yet), `tbd` (waiting for the print run), `printed`, or `none` (never printed). */
  print_state: string;
  print_date: string | null;
  /** `mail`, or `email` (the agency's copy; a letter to an insured who takes notices by e-mail). */
  delivery: 'mail' | 'email';
  email_to?: string;
}

export async function claimDocuments(claimId: string): Promise<ClaimDocument[]> {
  return (await claimFiles(claimId)).map((entry) => ({
    file_id: entry.fileId,
    deliverable_type: entry.deliverableType,
    label: entry.label,
    title: entry.title,
    requested_at: entry.requestedAt,
    created_at: entry.createdAt ?? null,
    print_state: entry.standing,
    print_date: entry.printDate ?? null,
    delivery: entry.delivery,
    ...(entry.emailTo ? { email_to: entry.emailTo } : {}),
  }));
}
