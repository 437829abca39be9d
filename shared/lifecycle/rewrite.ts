/**
 * The rewrite move (rewrite_policy): a change that cannot be an endorsement (a term that must
 * restart, another policy type, another account, an expired policy brought back with a gap).
 * Opening it copies the revision in force into an open rewrite revision, listed on the term it
 * will cancel, which every structure operation edits (the policy type included) and
 * rate_revision rates. A rewrite revision is never issued as an endorsement: the endorse move
 * refuses a revision that is not one, so nothing can commit it but the rewrite's own issue.
 *
 * Full term keeps the term's effective date (the old one cancelled flat); remainder of term
 * runs from the effective date to the term's expiration; new term starts a full term on the
 * effective date (how an expired policy comes back with a gap).
 */
import { randomUUID } from 'node:crypto';
import { clock } from '../platform/clock.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import {
  createOpenRevision,
  endorsementCopy,
  inForceOn,
  loadRevision,
  policyWithinReach,
  renewalTermDates,
  termRevisionFacts,
  type RewriteFacts,
  type TermRecord,
} from '../policies/index.js';

export const REWRITE_TYPES = ['full_term', 'remainder_of_term', 'new_term'] as const;
export type RewriteType = (typeof REWRITE_TYPES)[number];

/** A policy that cannot be rewritten now, or a rewrite asked for with dates that do not fit it. */
export class PolicyNotRewritableError extends BusinessRuleError {}

export interface RewriteRequest {
  policyId: string;
  rewriteType: RewriteType;
  effectiveDate?: string;
  newPolicyNumber?: string;
  toContactId?: string;
}

type Term = TermRecord & { cancellationStatus?: string | null };

/** The new term's dates, checked against the term the rewrite replaces. */
function newTermDates(request: RewriteRequest, term: Term, expired: boolean): { effectiveDate: string; expirationDate: string } {
  const span = `the term ${term.effectiveDate} to ${term.expirationDate}`;
  if (request.rewriteType === 'full_term') {
    if (expired) throw new PolicyNotRewritableError(`rewrite_type: ${span} has expired; an expired policy is rewritten new_term, on the date it comes back`);
    return { effectiveDate: term.effectiveDate, expirationDate: term.expirationDate };
  }
  const date = request.effectiveDate;
  if (!date) throw new PolicyNotRewritableError(`effective_date: is required for a ${request.rewriteType} rewrite`);
  if (request.rewriteType === 'remainder_of_term') {
    if (expired) throw new PolicyNotRewritableError(`rewrite_type: ${span} has expired; an expired policy is rewritten new_term, on the date it comes back`);
    if (date <= term.effectiveDate || date >= term.expirationDate) {
      throw new PolicyNotRewritableError(`effective_date: ${date} is not inside ${span}; a remainder of term starts after the term's first day and before its last`);
    }
    return { effectiveDate: date, expirationDate: term.expirationDate };
  }
  if (date < term.effectiveDate) throw new PolicyNotRewritableError(`effective_date: ${date} is before ${span}`);
  return { effectiveDate: date, expirationDate: renewalTermDates({ ...term, expirationDate: date }).expirationDate };
}

/**
 * Opens a rewrite revision: a copy of the revision in force (on the new term's first day, or the
 * term's last revision for an expired term), dated and spanning the new term, listed on the term
 * the rewrite will cancel. At most one open revision per term: an open endorsement or rewrite
 * must be issued or discarded first.
 */
export async function openRewrite(principal: Principal, request: RewriteRequest, options: { now?: () => Date } = {}) {
  const now = options.now?.() ?? clock.now();
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const term = (terms.find((candidate) => candidate.id === policy.activeTermId) ?? terms.at(-1)) as Term | undefined;
  if (!term) throw new PolicyNotRewritableError(`policy_id: policy ${policy.policyNumber} has no term`);
  const facts = await termRevisionFacts(term);
  const committed = facts.filter((candidate) => candidate.revisionState === 'committed');
  if (committed.length === 0) throw new PolicyNotRewritableError(`policy_id: policy ${policy.policyNumber} has not been issued; a quote is changed, not rewritten`);
  if (term.cancellationStatus === 'cancelled' || committed.some((candidate) => candidate.policyStatus === 'Cancelled')) {
    throw new PolicyNotRewritableError(`policy_id: policy ${policy.policyNumber} is cancelled; reinstate it before rewriting it`);
  }
  const open = facts.find((candidate) => candidate.revisionState === 'open');
  if (open) throw new PolicyNotRewritableError(`policy_id: policy ${policy.policyNumber} has an open revision ${open.id} dated ${open.revisionDate}; issue or discard it first`);
  const expired = committed.some((candidate) => candidate.policyStatus === 'Expired');
  const dates = newTermDates(request, term, expired);

  const onDate = expired ? term.expirationDate : dates.effectiveDate;
  const inForce = inForceOn(committed.map((header) => ({ header, revisionDate: header.revisionDate, committedAt: header.committedAt })), onDate) ?? { header: committed[0] };
  const base = await loadRevision(inForce.header.id);
  if (!base) throw new NotFoundError(`Revision ${inForce.header.id}`);
  const copy = endorsementCopy(base, { revisionId: randomUUID(), revisionDate: dates.effectiveDate, today: todayIso(now), newId: randomUUID });
  const rewrite: RewriteFacts = {
    rewriteType: request.rewriteType,
    baseRevisionId: base.header.id,
    fromTermId: term.id,
    ...dates,
    ...(request.newPolicyNumber ? { newPolicyNumber: request.newPolicyNumber } : {}),
    ...(request.toContactId ? { toContactId: request.toContactId } : {}),
  };
  const { endorsement: _notAnEndorsement, ...header } = copy.header;
  copy.header = { ...header, description: 'Rewrite', termStart: dates.effectiveDate, termEnd: dates.expirationDate, policyStatus: 'Active', rewrite };
  await createOpenRevision(copy, term);
  return {
    revision_id: copy.header.id,
    policy_id: policy.id,
    policy_number: policy.policyNumber,
    rewrite_type: request.rewriteType,
    effective_date: dates.effectiveDate,
    expiration_date: dates.expirationDate,
    rewrites_term_id: term.id,
    base_revision_id: base.header.id,
  };
}
