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
import type { MoveContributions, MoveReads, MoveWiring } from './lifecycle/model.js';
import { bindPolicy } from './lifecycle/bind.js';
import { cancelPolicy } from './lifecycle/cancel.js';
import { issuePolicy } from './lifecycle/issue.js';
import { wired } from './lifecycle/moves.js';
import { rescindCancellation } from './lifecycle/rescind.js';
import { reinstatePolicy } from './lifecycle/reinstate.js';
import { decideRenewalTerm, processPolicyRenewal, reinstateExpiredPolicy, storeRenewalStatus } from './lifecycle/renew.js';
import { noteOfEndorsement, noteOfMove } from './notes/move-contributions.js';
import { billingAtEndorsement, billingPreviewAtEndorsement } from './billing/endorsement.js';
import { endorsementDeclaration } from './documents/endorsement-declaration.js';
import { issueEndorsement, previewEndorsement } from './lifecycle/endorse.js';
import { amountOf, eventsAt, eventWrite, type PolicyEventInput } from './events/index.js';
import type { CancelledTerm, CommittedRevision, EndorsedRevision, EndorsementContribution, ReinstatedTerm, RenewalStatusDecision, RenewedTerm, RescindedCancellation, TermDecision } from './lifecycle/model.js';

// What each move tells integrators (shared/events): one outbox item in the move's transaction.
export const eventsAtIssue = /* @__PURE__ */ eventsAt((committed: CommittedRevision) => ({
  type: 'policy.issued',
  policyId: committed.policyId,
  policyNumber: committed.policyNumber,
  agencyId: committed.agencyId,
  transactionId: committed.revisionId,
  data: { term_id: committed.termId, effective_date: committed.effectiveDate, expiration_date: committed.expirationDate, annual_premium: amountOf(committed.annualPremiumCents), annual_fees: amountOf(committed.annualFeeCents), written_premium: amountOf(committed.writtenPremiumCents) },
}));
export const eventsAtCancellation = /* @__PURE__ */ eventsAt((term: CancelledTerm) => ({
  type: term.outcome === 'pending' ? 'policy.cancellation_pending' : 'policy.cancelled',
  policyId: term.policyId,
  policyNumber: term.policyNumber,
  agencyId: term.agencyId,
  transactionId: term.revisionId,
  occurredAt: term.decidedAt,
  data: { term_id: term.termId, cancel_date: term.cancelDate, reason: term.reason, return_premium: amountOf(term.returnPremiumCents) },
}));
export const eventsAtRescission = /* @__PURE__ */ eventsAt((rescission: RescindedCancellation) => ({
  type: 'policy.cancellation_rescinded',
  policyId: rescission.policyId,
  policyNumber: rescission.policyNumber,
  agencyId: rescission.agencyId,
  transactionId: rescission.termId,
  occurredAt: rescission.decidedAt,
  data: { term_id: rescission.termId, other_cancellation_pending: rescission.otherPendingRemains },
}));
const endorsedEvent = (endorsed: EndorsedRevision): PolicyEventInput => ({
  type: 'policy.endorsed',
  policyId: endorsed.policyId,
  policyNumber: endorsed.policyNumber,
  agencyId: endorsed.agencyId,
  transactionId: endorsed.revisionId,
  occurredAt: endorsed.committedAt,
  data: { term_id: endorsed.termId, revision_date: endorsed.revisionDate, additional_premium: amountOf(endorsed.premiumChangeCents), annual_premium: amountOf(endorsed.annualPremiumCents) },
});
/** A renewal committed (by the run, by hand, an approved held one, or an expired policy's reinstatement); a renewal held for review tells nothing yet. */
export const eventsAtRenewal = /* @__PURE__ */ eventsAt((renewed: RenewedTerm) =>
  renewed.held
    ? undefined
    : {
        type: 'policy.renewed',
        policyId: renewed.policyId,
        policyNumber: renewed.policyNumber,
        agencyId: renewed.agencyId,
        transactionId: renewed.revisionId,
        occurredAt: renewed.decidedAt,
        data: { term_id: renewed.termId, expiring_term_id: renewed.expiringTermId, effective_date: renewed.effectiveDate, expiration_date: renewed.expirationDate, annual_premium: amountOf(renewed.annualPremiumCents), annual_fees: amountOf(renewed.annualFeeCents) },
      },
);
export const eventsAtExpiry = /* @__PURE__ */ eventsAt((expired: TermDecision) => ({
  type: 'policy.expired',
  policyId: expired.policyId,
  policyNumber: expired.policyNumber,
  agencyId: expired.agencyId,
  transactionId: expired.termId,
  occurredAt: expired.decidedAt,
  data: { term_id: expired.termId, expiration_date: expired.expirationDate },
}));
/** A Non-Renewal decided (a decision to renew tells nothing: renewing is what a policy does). */
export const eventsAtRenewalStatus = /* @__PURE__ */ eventsAt((decided: RenewalStatusDecision) =>
  decided.status === 'Non-Renewal'
    ? {
        type: 'policy.non_renewed',
        policyId: decided.policyId,
        policyNumber: decided.policyNumber,
        agencyId: decided.agencyId,
        transactionId: decided.termId,
        occurredAt: decided.decidedAt,
        data: { term_id: decided.termId, expiration_date: decided.expirationDate, reason: decided.reason?.name ?? '' },
      }
    : undefined,
);
export const eventsAtReinstatement = /* @__PURE__ */ eventsAt((reinstated: ReinstatedTerm) => ({
  type: 'policy.reinstated',
  policyId: reinstated.policyId,
  policyNumber: reinstated.policyNumber,
  agencyId: reinstated.agencyId,
  transactionId: reinstated.termId,
  occurredAt: reinstated.decidedAt,
  data: { term_id: reinstated.termId, reinstatement_date: reinstated.reinstatementDate, lapse_days: reinstated.lapseDays, cancel_date: reinstated.cancelDate },
}));

/** The endorsement's event; a preview lists the events it would send. */
export const eventsAtEndorsement: EndorsementContribution = async (endorsed, { preview }) => ({
  area: 'events',
  writes: preview ? [] : [eventWrite(endorsedEvent(endorsed))],
  preview: [endorsedEvent(endorsed).type],
});

const atIssue: MoveContributions['issue'] = [/* @__PURE__ */ billingAtIssue(), declarationAtIssue, eventsAtIssue];
const atCancellation: MoveContributions['cancel'] = [billingAtCancellation, noticeOfCancellation, noteOfMove, eventsAtCancellation];
const atRescission: MoveContributions['rescind'] = [billingAtRescission, noteOfMove, eventsAtRescission];
// The renewal term's account and invoices, its Renewal Declaration and Billing Statement (or a held one's Conditional Renewal Notice), the note, the event.
const atRenewal: MoveContributions['renew'] = [/* @__PURE__ */ billingAtRenewal(), renewalDocuments, noteOfMove, eventsAtRenewal];
const atRenewalInForce: MoveContributions['renewalInForce'] = [noteOfMove];
const atExpiry: MoveContributions['expire'] = [noteOfMove, eventsAtExpiry];
const atRenewalStatus: MoveContributions['renewalStatus'] = [noticeOfNonRenewal, noteOfMove, eventsAtRenewalStatus];
// The cancellation's rows reversed (and the lapse credited, the fee assessed), the Notice of Reinstatement, the note, the event.
const atReinstatement: MoveContributions['reinstate'] = [billingAtReinstatement, noticeOfReinstatement, noteOfMove, eventsAtReinstatement];
// Billing's Endorsement row, documents' Endorsement Declaration, the note and the event join the endorsement (and show in its preview).
const atEndorsement: MoveWiring['endorsement'] = [/* @__PURE__ */ billingAtEndorsement(), endorsementDeclaration, noteOfEndorsement, eventsAtEndorsement];
/**
 * The same parts for a preview; billing's answers the same figures without bundling its posting.
 * Spelled out rather than spread from a shared list: esbuild keeps an array with a spread, and with
 * it billing's posting, in preview_revision's bundle (+3.7 KiB).
 */
const atEndorsementPreview: MoveWiring['endorsement'] = [/* @__PURE__ */ billingPreviewAtEndorsement(), endorsementDeclaration, noteOfEndorsement, eventsAtEndorsement];

export const moveWiring: MoveWiring = {
  contributions: {
    issue: atIssue,
    cancel: atCancellation,
    rescind: atRescission,
    renew: atRenewal,
    renewalInForce: atRenewalInForce,
    expire: atExpiry,
    renewalStatus: atRenewalStatus,
    reinstate: atReinstatement,
  },
  endorsement: atEndorsement,
  reads: billingReads,
};

/**
 * The wiring one move sees: the registrations above that it asks for, so a function making that
 * move does not bundle the other moves' contributions and their code (found by the sqs branch:
 * cancel_policy bundled the endorsement's re-rating and every move's documents).
 */
const wiringOf = (own: Partial<MoveWiring['contributions']>, reads: MoveReads, endorsement: MoveWiring['endorsement'] = []): MoveWiring => ({
  contributions: { issue: [], cancel: [], rescind: [], renew: [], renewalInForce: [], expire: [], renewalStatus: [], reinstate: [], ...own },
  endorsement,
  reads,
});

/**
 * The reads of a move that asks billing nothing through its wiring (an issue; an endorsement,
 * whose Endorsement row reads the account itself), so that it does not bundle the
 * cancellation's figures. Asking one anyway is a wiring mistake, named as such.
 */
const readsNothing = (move: string): MoveReads => {
  const unwired = (read: string) => () => Promise.reject(new Error(`The ${move} move is wired without billing's ${read}: wire billingReads in shared/moves.ts`));
  return { cancelReason: unwired('cancelReason'), cancellationFigures: unwired('cancellationFigures'), billingScheduleOf: unwired('billingScheduleOf') };
};
const renewalMoves = { renew: atRenewal, renewalInForce: atRenewalInForce, expire: atExpiry };

/*
 * Each wired move is its own export, marked pure: a function that imports one move bundles that
 * move, not every other move and its code. `moves` gathers them all.
 */
export const issueMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({ issue: atIssue }, /* @__PURE__ */ readsNothing('issue')), issuePolicy);
export const cancelMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({ cancel: atCancellation }, billingReads), cancelPolicy);
export const rescindMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({ rescind: atRescission }, billingReads), rescindCancellation);
/** The endorse move also carries a change into a renewal made of the term, as an endorsement of it. */
export const endorseMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({}, /* @__PURE__ */ readsNothing('endorse'), atEndorsement), issueEndorsement);
/** What endorsing would do, writing nothing: the same contributions, asked for their preview. */
export const previewEndorsementMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({}, /* @__PURE__ */ readsNothing('endorse'), atEndorsementPreview), previewEndorsement);
/** One watched term decided for a day: renew, commit a held renewal, put a renewal in force, or expire (the nightly run). */
export const decideRenewalTermMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf(renewalMoves, billingReads), decideRenewalTerm);
export const processPolicyRenewalMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf(renewalMoves, billingReads), processPolicyRenewal);
export const storeRenewalStatusMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({ renewalStatus: atRenewalStatus }, billingReads), storeRenewalStatus);
export const reinstateExpiredPolicyMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({ renew: atRenewal }, billingReads), reinstateExpiredPolicy);
export const reinstateMove = /* @__PURE__ */ wired(/* @__PURE__ */ wiringOf({ reinstate: atReinstatement }, billingReads), reinstatePolicy);

/** Every move of a policy, wired: a new move adds its line here. */
export const moves = {
  bind: bindPolicy,
  issue: issueMove,
  cancel: cancelMove,
  rescind: rescindMove,
  endorse: endorseMove,
  previewEndorsement: previewEndorsementMove,
  decideRenewalTerm: decideRenewalTermMove,
  processPolicyRenewal: processPolicyRenewalMove,
  storeRenewalStatus: storeRenewalStatusMove,
  reinstateExpiredPolicy: reinstateExpiredPolicyMove,
  reinstate: reinstateMove,
};
