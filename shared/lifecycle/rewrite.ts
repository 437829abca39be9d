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
import { getProductCatalog } from '../catalog/index.js';
import { clock } from '../platform/clock.js';
import { daysBetween, todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError, PermissionDeniedError } from '../platform/errors.js';
import { formatCents, prorate, toAmount } from '../platform/money.js';
import { hasPermission, type Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import {
  createOpenRevision,
  revisionHeaders,
  revisionWithinReach,
  totalsOfItems,
  type LineItemRecord,
  type RevisionRecord,
  type RevisionSnapshot,
  endorsementCopy,
  inForceOn,
  loadRevision,
  policyWithinReach,
  renewalTermDates,
  contactIdsOf,
  namedInsuredNamesFor,
  numberForRewrite,
  type PolicyRecord,
  termRevisionFacts,
  type RewriteFacts,
  type TermRecord,
} from '../policies/index.js';
import { joinMove, previewsOf, writesOf, type Contribution, type JoinMode } from './joining.js';
import type { CancelledTerm, CommittedRevision, MoveReads, RewrittenPolicy } from './model.js';

/** The cancel reason a rewrite cancels the old term with (reference data; not reinstatable). */
export const REWRITTEN_REASON_ID = '3cd696ff-5e4d-4d29-a610-7d10583e942d';

/**
 * What the rewrite move asks of the areas: their parts in the rewrite (the policies area's new
 * term and committed revision, or new policy; billing's cancellation rows, Transfer rows and new
 * account; the two notes; the event; the search records; the new term's Declaration), and
 * billing's reasons, figures and schedule.
 */
export interface RewriteWiring {
  rewrite: readonly Contribution<RewrittenPolicy>[];
  /** The new side's parts: its Declaration, the search records (the new term's, or the new account's and the old one's). */
  issue: readonly Contribution<RewrittenPolicy>[];
  reads: Pick<MoveReads, 'cancelReason' | 'cancellationFigures' | 'billingScheduleOf'>;
}

export const REWRITE_TYPES = ['full_term', 'remainder_of_term', 'new_term'] as const;
export type RewriteType = (typeof REWRITE_TYPES)[number];

/** A policy that cannot be rewritten now, or a rewrite asked for with dates that do not fit it. */
export class PolicyNotRewritableError extends BusinessRuleError {}

export interface RewriteRequest {
  policyId: string;
  rewriteType: RewriteType;
  effectiveDate?: string;
  /** A rewrite to a new account: the new policy's number, given by hand, or `true` for the next of the sequence. */
  newPolicyNumber?: string | true;
  /** The new account's named insured (a rewrite to a new account only). */
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
  // An expired policy brought back on the day its term ended has no gap: that is reinstate_expired_policy's renewal.
  if (expired && date <= term.expirationDate) {
    throw new PolicyNotRewritableError(`effective_date: ${date} is not after the end of ${span}; an expired policy brought back without a gap is reinstated (reinstate_expired_policy)`);
  }
  if (!expired && date >= term.expirationDate) throw new PolicyNotRewritableError(`effective_date: ${date} is not before the end of ${span}, which has not expired; a new term starts on a day inside it`);
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
  if (request.toContactId && !request.newPolicyNumber) {
    throw new PolicyNotRewritableError('to_contact_id: another named insured is a rewrite to a new account; give new_policy_number too');
  }
  const dates = newTermDates(request, term, expired);
  if (request.toContactId && (await namedInsuredNamesFor([request.toContactId])).length === 0) throw new NotFoundError(`to_contact_id: contact ${request.toContactId}`);

  const onDate = expired ? term.expirationDate : dates.effectiveDate;
  const inForce = inForceOn(committed.map((header) => ({ header, revisionDate: header.revisionDate, committedAt: header.committedAt })), onDate) ?? { header: committed[0] };
  const base = await loadRevision(inForce.header.id);
  if (!base) throw new NotFoundError(`Revision ${inForce.header.id}`);
  const copy = endorsementCopy(base, { revisionId: randomUUID(), revisionDate: dates.effectiveDate, today: todayIso(now), newId: randomUUID });
  if (request.toContactId) {
    const contacts = { ...copy.header.contacts, namedInsuredIds: [request.toContactId] };
    copy.header = { ...copy.header, contacts, contactIds: contactIdsOf(contacts) };
  }
  // The new account's number is taken last, once everything else was checked: a refused rewrite takes none.
  const numbered = request.newPolicyNumber ? await numberForRewrite(request.newPolicyNumber, now) : undefined;
  const rewrite: RewriteFacts = {
    rewriteType: request.rewriteType,
    baseRevisionId: base.header.id,
    fromTermId: term.id,
    ...dates,
    ...(numbered ? { newPolicyNumber: numbered.policyNumber, manualPolicyNumber: numbered.manual, newPolicyId: randomUUID() } : {}),
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
    new_policy_number: numbered?.policyNumber ?? null,
    to_contact_id: request.toContactId ?? null,
  };
}

// ---------------------------------------------------------------- issue (issue_info.revision_id of a rewrite revision), preview_revision

/** Whether a revision is a rewrite revision (issue and preview_revision route it to the rewrite move). */
export async function isRewriteRevision(principal: Principal, revisionId: string): Promise<boolean> {
  return isRewriteSnapshot(await revisionWithinReach(principal, revisionId));
}

/** Whether a revision already read is a rewrite's (committed by the rewrite move rather than as an endorsement). */
export function isRewriteSnapshot({ header }: Pick<RevisionSnapshot, 'header'>): boolean {
  return !!header.rewrite && !header.endorsement;
}

const live = (items: readonly LineItemRecord[]) => items.filter((item) => item.persistStatus !== 'rejected');

/**
 * The rewrite planned: the old term's cancellation (Rewritten, flat for full term, on the new
 * term's first day otherwise; none for a term already expired), the new term, and the rewrite
 * revision's written figures over it: a remainder of term writes each item's annual premium for
 * its days out of the old term's; fees are fully earned, written whole.
 */
async function planRewrite(wiring: RewriteWiring, principal: Principal, request: { revisionId: string; policyId?: string }, now: Date) {
  const snapshot = await revisionWithinReach(principal, request.revisionId);
  const { header } = snapshot;
  const rewrite = header.rewrite;
  if (!rewrite || (request.policyId && request.policyId !== header.policyId)) throw new NotFoundError(`Rewrite revision ${request.revisionId}`);
  if (header.revisionState !== 'open') throw new PolicyNotRewritableError(`revision_id: revision ${header.id} is ${header.revisionState}; only an open rewrite can be issued`);
  const unrated = live(snapshot.items).some((item) => item.annualPremiumCents === null && item.annualFeeCents === null && item.type !== 'nonRate');
  if (unrated || (header.annualPremiumCents === 0 && header.annualFeeCents === 0)) throw new PolicyNotRewritableError(`revision_id: revision ${header.id} is not rated; rate it (rate_revision) before issuing`);
  const { policy, terms } = await policyWithinReach(principal, { policyId: header.policyId });
  const oldTerm = terms.find((candidate) => candidate.id === rewrite.fromTermId) as Term | undefined;
  if (!oldTerm) throw new NotFoundError(`Policy term ${rewrite.fromTermId}`);
  const committed = (await revisionHeaders(oldTerm.revisionIds)).filter((revision) => revision.revisionState === 'committed');
  if (oldTerm.cancellationStatus === 'cancelled' || committed.some((revision) => revision.policyStatus === 'Cancelled')) {
    throw new PolicyNotRewritableError(`revision_id: policy ${policy.policyNumber}'s term ${oldTerm.effectiveDate} to ${oldTerm.expirationDate} has been cancelled since the rewrite was opened`);
  }
  const base = committed.find((revision) => revision.id === policy.activeRevisionId) ?? committed.at(-1);
  if (!base) throw new PolicyNotRewritableError(`revision_id: policy ${policy.policyNumber} has not been issued`);
  const reason = await wiring.reads.cancelReason(REWRITTEN_REASON_ID);
  if (!reason) throw new Error(`The cancel reason Rewritten (${REWRITTEN_REASON_ID}) is missing from the reference data`);

  const decidedAt = now.toISOString();
  const decisionDate = todayIso(now);
  const decidedBy = principal.contactId;
  const expired = committed.some((revision) => revision.policyStatus === 'Expired');
  const cancelDate = rewrite.rewriteType === 'full_term' ? oldTerm.effectiveDate : rewrite.effectiveDate;
  const cancels = !expired && cancelDate < oldTerm.expirationDate;
  const figures = cancels ? await wiring.reads.cancellationFigures({ policyId: policy.id, termId: oldTerm.id, revisionId: base.id, effectiveDate: oldTerm.effectiveDate, expirationDate: oldTerm.expirationDate, cancelDate, decisionDate }) : undefined;
  const scheduleId = await wiring.reads.billingScheduleOf(policy.id, oldTerm.id);

  // A rewrite to a new account makes a policy of its own: its own id and number, its term and the revision moved under it.
  const target = rewrite.newPolicyNumber ? { id: rewrite.newPolicyId ?? randomUUID(), policyNumber: rewrite.newPolicyNumber } : undefined;
  const newPolicyId = target?.id ?? policy.id;
  const newPolicyNumber = target?.policyNumber ?? policy.policyNumber;
  const fullTermDays = rewrite.rewriteType === 'remainder_of_term' ? daysBetween(oldTerm.effectiveDate, oldTerm.expirationDate) : daysBetween(rewrite.effectiveDate, rewrite.expirationDate);
  const days = daysBetween(rewrite.effectiveDate, rewrite.expirationDate);
  const items = snapshot.items.map((item) => ({ ...item, writtenPremiumCents: item.annualPremiumCents === null ? item.writtenPremiumCents : prorate(item.annualPremiumCents, days, fullTermDays), writtenFeeCents: item.annualFeeCents }));
  const totals = totalsOfItems(live(items));
  const newTerm: TermRecord = {
    ...oldTerm,
    id: randomUUID(),
    policyId: newPolicyId,
    effectiveDate: rewrite.effectiveDate,
    expirationDate: rewrite.expirationDate,
    isRenewal: false,
    revisionIds: [header.id],
    revisionIndex: {},
    cancellationStatus: null,
    cancelPendingDate: null,
    cancelReasonId: null,
    cancelDate: null,
    renewal: null,
    renewedFromTermId: null,
    cancellationRevisionId: null,
    cancelledWithTermId: null,
    archivedOn: null,
    lapses: [],
    expiredOn: null,
    version: 1,
  };
  const set: Partial<RevisionRecord> = {
    revisionState: 'committed',
    policyStatus: 'Active',
    policyTermId: newTerm.id,
    commitDate: decisionDate,
    committed: { at: decidedAt, by: decidedBy },
    builderPending: false,
    annualPremiumCents: totals.annualPremiumCents,
    annualFeeCents: totals.annualFeeCents,
    writtenPremiumCents: totals.writtenPremiumCents,
    writtenFeeCents: totals.writtenFeeCents,
    ...(target ? { policyId: target.id, policyNumber: target.policyNumber, transactionType: 'rewrite' as const } : {}),
  };
  const newPolicy = target
    ? {
        record: withoutLinks({
          ...policy,
          id: target.id,
          policyNumber: target.policyNumber,
          manualPolicyNumber: rewrite.manualPolicyNumber ?? false,
          policyTypeId: header.policyTypeId,
          agencyId: header.agencyId,
          contacts: header.contacts,
          contactIds: header.contactIds,
          dateAdded: decidedAt,
          inceptionDate: newTerm.effectiveDate,
          activeRevisionId: header.id,
          activeTermId: newTerm.id,
          rewritten: false,
          transactionType: 'rewrite',
          copiedFromRevId: base.id,
          copiedToRevId: null,
          lastVisited: null,
          rewrittenFrom: { policyId: policy.id, policyNumber: policy.policyNumber, termId: oldTerm.id },
          version: 1,
        }),
        parts: [...snapshot.risks.map((risk) => ({ ...risk, policyId: target.id })), ...snapshot.subLines, ...snapshot.mortgagees],
      }
    : undefined;
  const span = (term: { effectiveDate: string; expirationDate: string }) => `${term.effectiveDate} to ${term.expirationDate}`;
  const newSide = `policy ${newPolicyNumber}, term ${span(newTerm)} (revision ${header.id})`;
  const oldSide = `policy ${policy.policyNumber}, term ${span(oldTerm)}`;
  const cancelRevisionId = randomUUID();
  const returned = figures?.returnPremiumCents ?? 0;
  const common = {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    ...(policy.agencyId ? { agencyId: policy.agencyId } : {}),
    contactIds: [...policy.contactIds],
  };
  const cancelled: CancelledTerm | undefined = cancels
    ? {
        decisionDate, decidedAt, decidedBy, ...common,
        termId: oldTerm.id,
        termEffectiveDate: oldTerm.effectiveDate,
        termExpirationDate: oldTerm.expirationDate,
        revisionId: cancelRevisionId,
        inForceRevisionId: base.id,
        outcome: 'cancelled',
        cancelDate,
        reasonId: reason.id,
        reason: reason.name,
        returnPremiumCents: returned,
        namedInsuredContactIds: [...policy.contacts.namedInsuredIds],
        summary: `Rewritten`,
        // The old term as the cancellation leaves it: without the rewrite revision, which moves to the new term.
        cancellationRecords: { term: { ...oldTerm, revisionIds: oldTerm.revisionIds.filter((id) => id !== header.id) }, inForceRevision: base, committed },
      }
    : undefined;
  const committedRevision: CommittedRevision = {
    policyId: newPolicyId,
    policyNumber: newPolicyNumber,
    termId: newTerm.id,
    revisionId: header.id,
    policyTypeId: header.policyTypeId,
    effectiveDate: newTerm.effectiveDate,
    expirationDate: newTerm.expirationDate,
    commitDate: decisionDate,
    annualPremiumCents: totals.annualPremiumCents,
    annualFeeCents: totals.annualFeeCents,
    writtenPremiumCents: totals.writtenPremiumCents,
    writtenFeeCents: totals.writtenFeeCents,
    ...(scheduleId ? { billingScheduleId: scheduleId } : {}),
    ...(header.agencyId ? { agencyId: header.agencyId } : {}),
    namedInsuredContactIds: [...header.contacts.namedInsuredIds],
  };
  const kind = rewrite.rewriteType.replace(/_/g, ' ');
  const rewritten: RewrittenPolicy = {
    decisionDate, decidedAt, decidedBy, ...common,
    rewriteType: rewrite.rewriteType,
    ...(cancelled ? { cancelled } : {}),
    committed: committedRevision,
    revision: { ...snapshot, header: { ...header, ...set } as RevisionRecord, items },
    policy,
    newTerm,
    openRevision: header,
    commit: set,
    fromTermId: oldTerm.id,
    ...(cancels ? {} : { leftTerm: oldTerm }),
    ...(newPolicy ? { newPolicy } : {}),
    namedInsuredNames: await namedInsuredNamesFor(header.contacts.namedInsuredIds),
    policyTypeName: (await getProductCatalog()).policyTypes.find((type) => type.id === header.policyTypeId)?.name ?? '',
    oldSideSummary: cancels
      ? `Rewritten (${kind}) as ${newSide}: cancelled effective ${cancelDate}${figures?.flat ? ' (flat)' : ''}, reason Rewritten; return premium ${formatCents(returned)} transferred to the new term's account`
      : `Rewritten (${kind}) as ${newSide}`,
    newSideSummary: `Rewrite (${kind}) of ${oldSide}${cancels ? `, cancelled Rewritten effective ${cancelDate}` : ''}; annual premium ${formatCents(totals.annualPremiumCents)}, written premium ${formatCents(totals.writtenPremiumCents)}`,
  };
  return { policy, oldTerm, newTerm, rewritten, flat: figures?.flat ?? false };
}

/** A policy record as a new policy starts it: nothing retired, nothing rewritten to yet. */
function withoutLinks(record: PolicyRecord): PolicyRecord {
  const { retired: _retired, rewrittenTo: _rewrittenTo, ...rest } = record;
  return rest;
}

async function partsOf(wiring: RewriteWiring, rewritten: RewrittenPolicy, mode: JoinMode) {
  return [...(await joinMove(wiring.rewrite, rewritten, mode)), ...(await joinMove(wiring.issue, rewritten, mode))];
}

function toWire(plan: Awaited<ReturnType<typeof planRewrite>>, parts: Awaited<ReturnType<typeof partsOf>>) {
  const { rewritten } = plan;
  return {
    policy_id: rewritten.committed.policyId,
    policy_number: rewritten.committed.policyNumber,
    ...(rewritten.newPolicy ? { rewritten_from: { policy_id: rewritten.policyId, policy_number: rewritten.policyNumber, policy_term_id: plan.oldTerm.id } } : {}),
    revision_id: rewritten.committed.revisionId,
    rewrite_type: rewritten.rewriteType,
    rewritten_term_id: plan.oldTerm.id,
    cancel_date: rewritten.cancelled?.cancelDate ?? null,
    cancel_reason: rewritten.cancelled?.reason ?? null,
    flat: plan.flat,
    return_premium: toAmount(rewritten.cancelled?.returnPremiumCents ?? 0),
    policy_term_id: plan.newTerm.id,
    effective_date: plan.newTerm.effectiveDate,
    expiration_date: plan.newTerm.expirationDate,
    annual_premium: toAmount(rewritten.committed.annualPremiumCents),
    annual_fee: toAmount(rewritten.committed.annualFeeCents),
    written_premium: toAmount(rewritten.committed.writtenPremiumCents),
    written_fee: toAmount(rewritten.committed.writtenFeeCents),
    ...previewsOf(parts),
  };
}

/** What issuing the rewrite would do, writing nothing (preview_revision). */
export async function previewRewrite(wiring: RewriteWiring, principal: Principal, revisionId: string, options: { now?: () => Date } = {}) {
  const plan = await planRewrite(wiring, principal, { revisionId }, options.now?.() ?? clock.now());
  return toWire(plan, await partsOf(wiring, plan.rewritten, { preview: true }));
}

/**
 * Issues the rewrite in ONE transaction: the old term cancelled Rewritten, the rewrite revision
 * committed on the new term (the policy moved to it), and every area's part.
 */
export async function issueRewrite(wiring: RewriteWiring, principal: Principal, request: { revisionId: string; policyId?: string }, options: { now?: () => Date } = {}) {
  // issue is open to agents for their quotes; a rewrite, like opening one, is an underwriter's or an Administrator's.
  if (!hasPermission(principal, 'policies:rewrite')) throw new PermissionDeniedError('policies:rewrite');
  const plan = await planRewrite(wiring, principal, request, options.now?.() ?? clock.now());
  const parts = await partsOf(wiring, plan.rewritten, { preview: false });
  await runTransaction(writesOf(parts), { label: `Policy ${plan.policy.policyNumber}` });
  return toWire(plan, parts);
}
