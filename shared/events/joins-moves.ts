/**
 * Events' part in a policy's moves: what each move tells integrators, one outbox item (or none,
 * or several) written in the move's own transaction, so an event exists exactly when the move
 * does. Listed per move in shared/moves/.
 */
import type { TransactionWrite } from '../platform/transactions.js';
import type { PolicyEventInput } from './model.js';
import { amountOf, eventOf } from './outbox.js';

/*
 * Each contribution names the facts it reads (a part of the move's facts, lifecycle/model.ts)
 * rather than importing them: the policies area, which the moves build on, records events of
 * its own, so events cannot import the lifecycle.
 */

/** Events' part in a move (a lifecycle AreaPart): its outbox items, and for a preview the types it would send. */
interface EventsPart {
  area: 'events';
  writes: TransactionWrite[];
  preview?: string[];
}

interface OfPolicy {
  policyId: string;
  policyNumber: string;
  agencyId?: string;
  termId: string;
}
interface Decided {
  decidedAt: string;
}
interface BoundQuote extends OfPolicy {
  revisionId: string;
}
interface CommittedRevision extends OfPolicy {
  revisionId: string;
  effectiveDate: string;
  expirationDate: string;
  annualPremiumCents: number;
  annualFeeCents: number;
  writtenPremiumCents: number;
}
interface CancelledTerm extends OfPolicy, Decided {
  outcome: 'pending' | 'cancelled';
  revisionId: string;
  cancelDate: string;
  reason: string;
  returnPremiumCents: number;
}
interface RescindedCancellation extends OfPolicy, Decided {
  otherPendingRemains: boolean;
}
interface EndorsedRevision extends OfPolicy {
  revisionId: string;
  committedAt: string;
  revisionDate: string;
  premiumChangeCents: number;
  annualPremiumCents: number;
}
interface RenewedTerm extends OfPolicy, Decided {
  held: boolean;
  revisionId: string;
  expiringTermId: string;
  effectiveDate: string;
  expirationDate: string;
  annualPremiumCents: number;
  annualFeeCents: number;
}
interface TermDecision extends OfPolicy, Decided {
  expirationDate: string;
}
interface RenewalStatusDecision extends TermDecision {
  status: 'Renew' | 'Non-Renewal';
  reason: { id: string; name: string } | null;
}
interface ReinstatedTerm extends OfPolicy, Decided {
  reinstatementDate: string;
  lapseDays: number;
  cancelDate: string;
}

/**
 * A move's contribution recording its event: `eventsAt((cancelled) => ({ type: ..., ... }))`. The
 * description may answer no event (undefined), or several, when one move means more than one thing
 * to an integrator.
 */
function eventsAt<Facts>(describe: (facts: Facts) => PolicyEventInput | PolicyEventInput[] | undefined): (facts: Facts) => Promise<EventsPart> {
  return async (facts) => {
    const described = describe(facts);
    return { area: 'events', writes: (described === undefined ? [] : Array.isArray(described) ? described : [described]).map(eventOf) };
  };
}

export const eventsAtBind = /* @__PURE__ */ eventsAt((bound: BoundQuote) => ({
  type: 'policy.bound',
  policyId: bound.policyId,
  policyNumber: bound.policyNumber,
  agencyId: bound.agencyId,
  transactionId: bound.revisionId,
  data: { term_id: bound.termId },
}));
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
export async function eventsAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<EventsPart> {
  return { area: 'events', writes: mode.preview ? [] : [eventOf(endorsedEvent(endorsed))], preview: [endorsedEvent(endorsed).type] };
}

/** A reversal is an endorsement to integrators too (`policy.endorsed`), saying which one it `reverses`. */
export const eventsAtReversal = /* @__PURE__ */ eventsAt((reversal: EndorsedRevision & { reversesRevisionId: string }) => {
  const endorsed = endorsedEvent(reversal);
  return { ...endorsed, data: { ...endorsed.data, reverses: reversal.reversesRevisionId } };
});

interface RewrittenPolicy extends Decided {
  policyId: string;
  policyNumber: string;
  agencyId?: string;
  rewriteType: string;
  fromTermId: string;
  committed: { policyId: string; policyNumber: string; termId: string; revisionId: string; effectiveDate: string; expirationDate: string; annualPremiumCents: number; writtenPremiumCents: number };
  cancelled?: { revisionId: string; cancelDate: string; returnPremiumCents: number };
}
export const eventsAtRewrite = /* @__PURE__ */ eventsAt((rewritten: RewrittenPolicy) => ({
  type: 'policy.rewritten',
  // On the new side's policy (the same one, or the new account's), naming the one it came from.
  policyId: rewritten.committed.policyId,
  policyNumber: rewritten.committed.policyNumber,
  agencyId: rewritten.agencyId,
  transactionId: rewritten.committed.revisionId,
  occurredAt: rewritten.decidedAt,
  data: {
    rewrite_type: rewritten.rewriteType,
    from_policy_id: rewritten.policyId,
    from_policy_number: rewritten.policyNumber,
    from_term_id: rewritten.fromTermId,
    cancel_date: rewritten.cancelled?.cancelDate ?? null,
    return_premium: amountOf(rewritten.cancelled?.returnPremiumCents ?? 0),
    term_id: rewritten.committed.termId,
    effective_date: rewritten.committed.effectiveDate,
    expiration_date: rewritten.committed.expirationDate,
    annual_premium: amountOf(rewritten.committed.annualPremiumCents),
    written_premium: amountOf(rewritten.committed.writtenPremiumCents),
  },
}));
