/**
 * The one place where a policy's moves meet the areas that contribute to them, as
 * shared/operation.ts is where the operation factory meets the authenticator. Each area's
 * part in a move is registered here once; cancel_policy and the nightly job alike make the
 * cancel move through `moves`, so what a cancellation writes cannot differ between them.
 */
import { billingAtIssue, billingAtRenewal } from './billing/service.js';
import { billingAtCancellation, billingAtReinstatement, billingAtRescission, billingReads } from './billing/move-contributions.js';
// From deliverable-requests, not deliverable-service: a move requests its documents and must not bundle the renderer.
import { declarationAtIssue, noticeOfCancellation, noticeOfNonRenewal, noticeOfReinstatement, renewalDocuments } from './documents/deliverable-requests.js';
import type { MoveWiring } from './lifecycle/model.js';
import { bindPolicy } from './lifecycle/bind.js';
import { cancelPolicy } from './lifecycle/cancel.js';
import { issuePolicy } from './lifecycle/issue.js';
import { wired } from './lifecycle/moves.js';
import { rescindCancellation } from './lifecycle/rescind.js';
import { reinstatePolicy } from './lifecycle/reinstate.js';
import { decideRenewalTerm, processPolicyRenewal, reinstateExpiredPolicy, storeRenewalStatus } from './lifecycle/renew.js';
import { noteOfEndorsement, noteOfMove } from './notes/move-contributions.js';
import { billingAtEndorsement } from './billing/endorsement.js';
import { endorsementDeclaration } from './documents/endorsement-declaration.js';
import { issueEndorsement, previewEndorsement } from './lifecycle/endorse.js';

export const moveWiring: MoveWiring = {
  contributions: {
    issue: [billingAtIssue(), declarationAtIssue],
    cancel: [billingAtCancellation, noticeOfCancellation, noteOfMove],
    rescind: [billingAtRescission, noteOfMove],
    // The renewal term's account and invoices, its Renewal Declaration and Billing Statement (or a held one's Conditional Renewal Notice), the note.
    renew: [billingAtRenewal(), renewalDocuments, noteOfMove],
    renewalInForce: [noteOfMove],
    expire: [noteOfMove],
    renewalStatus: [noticeOfNonRenewal, noteOfMove],
    // The cancellation's rows reversed (and the lapse credited, the fee assessed), the Notice of Reinstatement, the note.
    reinstate: [billingAtReinstatement, noticeOfReinstatement, noteOfMove],
  },
  // Billing's Endorsement row, documents' Endorsement Declaration and the note join the endorsement (and show in its preview).
  endorsement: [billingAtEndorsement(), endorsementDeclaration, noteOfEndorsement],
  reads: billingReads,
};

/** Every move of a policy, wired: a new move adds its line here. */
export const moves = {
  bind: bindPolicy,
  issue: wired(moveWiring, issuePolicy),
  cancel: wired(moveWiring, cancelPolicy),
  rescind: wired(moveWiring, rescindCancellation),
  endorse: wired(moveWiring, issueEndorsement),
  /** What endorsing would do, writing nothing: the same contributions, asked for their preview. */
  previewEndorsement: wired(moveWiring, previewEndorsement),
  /** One watched term decided for a day: renew, commit a held renewal, put a renewal in force, or expire (the nightly run). */
  decideRenewalTerm: wired(moveWiring, decideRenewalTerm),
  processPolicyRenewal: wired(moveWiring, processPolicyRenewal),
  storeRenewalStatus: wired(moveWiring, storeRenewalStatus),
  reinstateExpiredPolicy: wired(moveWiring, reinstateExpiredPolicy),
  reinstate: wired(moveWiring, reinstatePolicy),
};
