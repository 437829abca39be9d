/**
 * A policy's next year: the renewal moves. The nightly renewal run (and process_renewals by
 * hand) decides each watched term for a day: renew it when it ends within the carrier's lead
 * days and its renewal status is Renew; commit a renewal an underwriter approved; put a
 * committed renewal in force when its term begins; mark a term that ended without one Expired.
 * store_renewal_status decides a term's renewal (a Non-Renewal queues its notice);
 * reinstate_expired_policy gives an expired policy the renewal the run would have made.
 * Each decision is ONE transaction with what the registered contributions add, dated by the
 * day decided for; each reads the state it changes, so a day run twice changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { clock } from '../platform/clock.js';
import { getProductCatalog, getRenewalRules, listNonRenewalReasons, productForFiling, renewalLeadDays, resolveFiling, type ProductCatalog } from '../catalog/index.js';
import { refuseUnderMoratoriums } from '../moratoriums/index.js';
import { addDays, todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError, PermissionDeniedError } from '../platform/errors.js';
import { formatCents } from '../platform/money.js';
import { hasPermission, type Principal } from '../platform/principal.js';
import { recordMoneyMove } from '../platform/metrics.js';
import { nightlyDecisionInstant } from '../platform/nightly-runs.js';
import { runTransaction } from '../platform/transactions.js';
import {
  applyRating,
  claimsExplained,
  inEffectOrder,
  inForceOn,
  getPolicyWithTerms,
  loadRevision,
  needsReview,
  policyWithinReach,
  premiumChangePercent,
  renewalDraft,
  revisionHeaders,
  revisionToRate,
  revisionWithinReach,
  termRevisionFacts,
  stopWatchingTerm,
  type AnswerFromClaims,
  type PolicyRecord,
  type RevisionRecord,
  type RevisionSnapshot,
  type TermRecord,
} from '../policies/index.js';
import { rateRevision } from '../rating/index.js';
import type { DecisionOptions } from './cancel.js';
import { heldRenewalOf } from './held-renewal.js';
import { joinedWrites, type Contribution } from './joining.js';
import type { ClaimsReads, Decision, MoveReads, RenewalInForce, RenewalStatusDecision, RenewedTerm, ExpiredTerm, TermDecision } from './model.js';

/**
 * What renewing a term asks of the areas: their parts in the renewal (billing's account and
 * invoices, the Renewal Declaration and Billing Statement or a held one's Conditional Renewal
 * Notice, search, the note, the event), the billing schedule the expiring term is on, and the
 * policy's claims (a loss in the years of "Losses in past 3 years" answers it yes).
 */
export interface RenewWiring {
  renew: readonly Contribution<RenewedTerm>[];
  reads: Pick<MoveReads, 'billingScheduleOf'> & ClaimsReads;
}

/** What a watched term's day asks of the areas: a renewal, a renewal put in force, or an expiry. */
export interface RenewalDayWiring extends RenewWiring {
  renewalInForce: readonly Contribution<RenewalInForce>[];
  expire: readonly Contribution<ExpiredTerm>[];
}

/** What store_renewal_status asks of the areas: their parts in the decision (a Notice of Non-Renewal, search, the note, the event). */
export interface RenewalStatusWiring {
  renewalStatus: readonly Contribution<RenewalStatusDecision>[];
}

/** Who decides renewals by hand: underwriters and Administrators. */
export const RENEWAL_DECISION_PERMISSION = 'reviews:write';
/** Review states in which a held renewal has been moved on by an underwriter. */
const APPROVED_STATES = ['APPROVED_BY_UW', 'READY_TO_APPLY'];

export class PolicyNotRenewableError extends BusinessRuleError {}

/** What one decision did to a term, as the run record and process_renewals list it. */
export interface RenewalDecision {
  policyNumber: string;
  decision: 'renewed' | 'held' | 'renewal_committed' | 'renewal_in_force' | 'expired' | 'none';
  detail: string;
  termId?: string;
  renewalTermId?: string;
  renewalRevisionId?: string;
  premium?: number;
}

const none = (policyNumber: string, detail: string): RenewalDecision => ({ policyNumber, decision: 'none', detail });

function decisionOf(options: DecisionOptions, principal: Principal): Decision {
  const now = options.now ?? clock.now();
  return { decisionDate: todayIso(now), decidedAt: now.toISOString(), decidedBy: options.decidedBy ?? principal.contactId };
}

interface TermContext {
  policy: PolicyRecord;
  terms: TermRecord[];
  term: TermRecord;
}

/** The committed revisions of a term that carry it (not a cancellation's own), in effect order. */
async function committedOf(term: TermRecord): Promise<Array<{ id: string; revisionDate: string; committedAt: string; policyStatus: string }>> {
  const facts = await termRevisionFacts(term);
  return inEffectOrder(facts.filter((fact) => fact.revisionState === 'committed'));
}

/** The revision in force on the term's last day: what a renewal copies and an expiry marks. */
async function inForceAtExpiry(term: TermRecord): Promise<RevisionSnapshot> {
  const committed = await committedOf(term);
  const lastDay = addDays(term.expirationDate, -1);
  const inForce = inForceOn(committed, lastDay) ?? committed.at(-1);
  if (!inForce) throw new PolicyNotRenewableError(`Policy term ${term.id} has no issued revision`);
  const snapshot = await loadRevision(inForce.id);
  if (!snapshot) throw new NotFoundError(`Revision ${inForce.id}`);
  return snapshot;
}

/** What a term's decision tells the areas that join it: the policy, the term, the revision in force, who reaches it. */
function termDecisionOf(policy: PolicyRecord, term: Pick<TermRecord, 'id' | 'expirationDate'>, inForceRevisionId: string, decision: Decision, summary: string): TermDecision {
  return { ...decision, policyId: policy.id, policyNumber: policy.policyNumber, termId: term.id, expirationDate: term.expirationDate, inForceRevisionId, ...ownerFacts(policy), summary };
}

function ownerFacts(policy: PolicyRecord) {
  return { ...(policy.agencyId ? { agencyId: policy.agencyId } : {}), contactIds: [...policy.contactIds], namedInsuredContactIds: [...policy.contacts.namedInsuredIds] };
}

// ---------------------------------------------------------------- renew

interface RenewOptions {
  /** reinstate_expired_policy: the term had been marked expired; commit regardless of the review threshold. */
  reinstating?: { inForceRevision: RevisionRecord; reason: string };
}

/** Makes the renewal of `term`: drafted (its claims answering what they answer), rated at the renewal rates, committed or held for review, billed and declared. */
async function renewTerm(wiring: RenewWiring, context: TermContext, decision: Decision, options: RenewOptions = {}): Promise<RenewalDecision> {
  const { policy, term } = context;
  const [product, rules, base, losses] = await Promise.all([getProductCatalog(), getRenewalRules(), inForceAtExpiry(term), wiring.reads.lossHistory(policy.id)]);
  const draft = renewalDraft(base, term, stateView(product, base), { termId: randomUUID(), revisionId: randomUUID(), today: decision.decisionDate, now: new Date(decision.decidedAt), newId: randomUUID, losses });
  const previous = base.header.annualPremiumCents;
  const rated = rateRenewal(product, draft.snapshot, previous);
  const change = premiumChangePercent(previous, rated.header.annualPremiumCents);
  const held = !options.reinstating && needsReview(previous, rated.header.annualPremiumCents, rules.premiumIncreaseReviewPercent);
  const header: RevisionRecord = {
    ...rated.header,
    revisionState: held ? 'open' : 'committed',
    policyStatus: held ? 'Submitted' : 'Active',
    commitDate: held ? null : decision.decisionDate,
    ...(held ? {} : { committed: { at: decision.decidedAt, by: decision.decidedBy } }),
    renewal: {
      baseRevisionId: base.header.id,
      expiringTermId: term.id,
      previousAnnualPremiumCents: previous,
      premiumChangePercent: change,
      itemsAdded: draft.itemsAdded,
      itemsRemoved: draft.itemsRemoved,
      held,
    },
    ...(held
      ? {
          underwriting: {
            reviewState: 'PENDING_UNDERWRITER_REVIEW',
            reviewHistory: [
              {
                event: 'UW_REVIEW_REQUESTED',
                from: 'NOT_STARTED',
                to: 'PENDING_UNDERWRITER_REVIEW',
                at: decision.decidedAt,
                byContactId: decision.decidedBy,
                uwMessage: null,
                requestReason: `Renewal premium changes by ${change}% (more than the ${rules.premiumIncreaseReviewPercent}% the carrier renews without review)`,
              },
            ],
            stp: null,
            lossAnalysis: null,
          },
        }
      : {}),
  };
  const snapshot: RevisionSnapshot = { ...rated, header };
  const inForce = !held && draft.term.effectiveDate <= decision.decisionDate;
  const scheduleId = await wiring.reads.billingScheduleOf(policy.id, term.id);
  const renewalRecords: RenewedTerm['renewalRecords'] = {
    made: {
      policy,
      expiring: {
        term,
        renewal: { termId: draft.term.id, revisionId: header.id, state: held ? 'held' : 'committed', decidedOn: decision.decisionDate, ...(inForce ? { inForce: true } : {}) },
        inForce,
        ...(options.reinstating ? { unexpire: { inForceRevision: options.reinstating.inForceRevision } } : {}),
      },
      term: draft.term,
    },
  };
  const renewed = renewedEvent(policy, term, snapshot, decision, { held, inForce, unexpired: !!options.reinstating, previous, change, scheduleId, reason: options.reinstating?.reason, added: draft.itemsAdded, removed: draft.itemsRemoved, fromClaims: draft.answersFromClaims }, renewalRecords);
  await runTransaction(await joinedWrites(wiring.renew, renewed), { label: `Policy ${policy.policyNumber}` });
  if (!held) await recordMoneyMove('RenewalsCreated');
  return {
    policyNumber: policy.policyNumber,
    decision: held ? 'held' : 'renewed',
    detail: renewed.summary,
    termId: term.id,
    renewalTermId: draft.term.id,
    renewalRevisionId: header.id,
    premium: header.annualPremiumCents,
  };
}

/**
 * The product as the state of the revision's primary property sells it: a renewal is drafted
 * from it, so that the state's taxes and surcharges (offered on no policy type in the catalog
 * itself) are kept on the renewal instead of dropped as no longer offered.
 */
function stateView(product: ProductCatalog, base: RevisionSnapshot): ProductCatalog {
  const primary = base.risks.find((risk) => risk.primary) ?? base.risks[0];
  return productForFiling(product, resolveFiling(product, primary?.address_state ?? null));
}

/** The renewal draft rated, capped over the expiring premium where its rate version caps renewals; the trace of every item is stored with it. */
function rateRenewal(product: ProductCatalog, draft: RevisionSnapshot, expiringPremiumCents?: number): RevisionSnapshot {
  const { items, totals } = applyRating(draft, rateRevision(product, { ...revisionToRate(draft), ...(expiringPremiumCents !== undefined ? { expiringPremiumCents } : {}) }));
  return { ...draft, header: { ...draft.header, ...totals }, items };
}

function renewedEvent(
  policy: PolicyRecord,
  term: TermRecord,
  snapshot: RevisionSnapshot,
  decision: Decision,
  facts: { held: boolean; inForce: boolean; unexpired: boolean; previous: number; change: string; scheduleId?: string; reason?: string; added: string[]; removed: string[]; fromClaims?: readonly AnswerFromClaims[] },
  renewalRecords: RenewedTerm['renewalRecords'],
): RenewedTerm {
  const { header } = snapshot;
  const rules = [...(facts.added.length ? [`added ${facts.added.join(', ')}`] : []), ...(facts.removed.length ? [`removed ${facts.removed.join(', ')} (no longer offered)`] : [])];
  const claims = (facts.fromClaims ?? []).map((answered) => `; ${answered.question} answered ${answered.answer} by ${claimsExplained(answered.claims)}`).join('');
  const summary = facts.held
    ? `Renewal ${header.termStart} to ${header.termEnd} held for underwriter review: premium ${formatCents(header.annualPremiumCents)} is ${facts.change}% over ${formatCents(facts.previous)}${claims}; Conditional Renewal Notice requested`
    : `Policy ${policy.policyNumber} renewed ${header.termStart} to ${header.termEnd}: premium ${formatCents(header.annualPremiumCents)}, fees ${formatCents(header.annualFeeCents)} (${facts.change}% from ${formatCents(facts.previous)})${rules.length ? `; renewal rules ${rules.join('; ')}` : ''}${claims}${facts.reason ? `; reinstated after expiry: ${facts.reason}` : ''}`;
  return {
    ...decision,
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    expiringTermId: term.id,
    termId: header.policyTermId,
    revisionId: header.id,
    effectiveDate: header.termStart,
    expirationDate: header.termEnd,
    held: facts.held,
    inForce: facts.inForce,
    unexpired: facts.unexpired,
    annualPremiumCents: header.annualPremiumCents,
    annualFeeCents: header.annualFeeCents,
    writtenPremiumCents: header.writtenPremiumCents,
    writtenFeeCents: header.writtenFeeCents,
    previousAnnualPremiumCents: facts.previous,
    premiumChangePercent: facts.change,
    ...(facts.scheduleId ? { billingScheduleId: facts.scheduleId } : {}),
    ...ownerFacts(policy),
    revision: snapshot,
    summary,
    renewalRecords,
  };
}

/** A held renewal an underwriter approved: re-rated as it now stands, committed, billed and declared. */
async function commitHeldRenewal(wiring: RenewWiring, context: TermContext, decision: Decision): Promise<RenewalDecision> {
  const { policy, terms, term } = context;
  const renewal = term.renewal!;
  const renewalTerm = terms.find((candidate) => candidate.id === renewal.termId);
  const stored = await loadRevision(renewal.revisionId);
  if (!renewalTerm || !stored) throw new NotFoundError(`Renewal revision ${renewal.revisionId}`);
  const reviewState = stored.header.underwriting?.reviewState ?? 'NOT_STARTED';
  if (!APPROVED_STATES.includes(reviewState)) return none(policy.policyNumber, `Renewal ${renewal.revisionId} waits for an underwriter (review state ${reviewState})`);
  const product = await getProductCatalog();
  const previous = stored.header.renewal?.previousAnnualPremiumCents ?? 0;
  const rated = rateRenewal(product, stored, previous);
  const change = premiumChangePercent(previous, rated.header.annualPremiumCents);
  const set: Partial<RevisionRecord> = {
    annualPremiumCents: rated.header.annualPremiumCents,
    annualFeeCents: rated.header.annualFeeCents,
    writtenPremiumCents: rated.header.writtenPremiumCents,
    writtenFeeCents: rated.header.writtenFeeCents,
    revisionState: 'committed',
    policyStatus: 'Active',
    commitDate: decision.decisionDate,
    committed: { at: decision.decidedAt, by: decision.decidedBy },
    renewal: { ...stored.header.renewal!, premiumChangePercent: change, held: false },
  };
  const snapshot: RevisionSnapshot = { ...rated, header: { ...stored.header, ...set } };
  const scheduleId = await wiring.reads.billingScheduleOf(policy.id, term.id);
  const renewed = renewedEvent(policy, term, snapshot, decision, { held: false, inForce: false, unexpired: false, previous, change, scheduleId, added: [], removed: [] }, {
    heldCommitted: { expiring: term, term: renewalTerm, stored: stored.header, set },
  });
  await runTransaction(await joinedWrites(wiring.renew, { ...renewed, summary: `Held renewal approved and committed: ${renewed.summary}` }), { label: `Policy ${policy.policyNumber}` });
  await recordMoneyMove('RenewalsCreated');
  return { policyNumber: policy.policyNumber, decision: 'renewal_committed', detail: renewed.summary, termId: term.id, renewalTermId: renewalTerm.id, renewalRevisionId: stored.header.id, premium: set.annualPremiumCents };
}

/** The renewal's term has begun: the policy's active term and revision become the renewal's. */
async function putRenewalInForce(wiring: RenewalDayWiring, context: TermContext, decision: Decision): Promise<RenewalDecision> {
  const { policy, terms, term } = context;
  const renewalTerm = terms.find((candidate) => candidate.id === term.renewal!.termId);
  if (!renewalTerm) throw new NotFoundError(`Policy term ${term.renewal!.termId}`);
  const committed = await committedOf(renewalTerm);
  const active = inForceOn(committed, decision.decisionDate) ?? committed[0];
  // A renewal cancelled on its own is moved to all the same: the policy then reads as it stands, cancelled.
  const standing = renewalTerm.cancellationStatus === 'cancelled' ? `begins cancelled (from ${renewalTerm.cancelDate})` : 'in force';
  const event: RenewalInForce = {
    ...termDecisionOf(policy, renewalTerm, active.id, decision, `Renewal term ${renewalTerm.effectiveDate} to ${renewalTerm.expirationDate} ${standing}`),
    effectiveDate: renewalTerm.effectiveDate,
    beginsCancelled: renewalTerm.cancellationStatus === 'cancelled',
    inForceRecords: { policy, expiring: term, term: renewalTerm },
  };
  await runTransaction(await joinedWrites(wiring.renewalInForce, event), { label: `Policy ${policy.policyNumber}` });
  return { policyNumber: policy.policyNumber, decision: 'renewal_in_force', detail: event.summary, termId: term.id, renewalTermId: renewalTerm.id };
}

/**
 * The term ended without a committed renewal: Expired, with a note. A renewal still held is
 * archived with it, its term too: it never came into force, and reads as no term of the policy
 * from now on (retrieve_policy_terms, retrieve_policy and the moves pass over it; search's review
 * state is the expired revision's again). reinstate_expired_policy may still renew the term anew.
 */
async function expireTerm(wiring: RenewalDayWiring, context: TermContext, decision: Decision): Promise<RenewalDecision> {
  const { policy, terms, term } = context;
  const inForce = await inForceAtExpiry(term);
  const held = await heldRenewalOf(term, terms, inForce.header);
  const why = term.renewalStatus === 'Non-Renewal' ? 'not renewed' : held ? 'its renewal was still held for review' : 'no renewal was made';
  const event: ExpiredTerm = {
    ...termDecisionOf(policy, term, inForce.header.id, decision, `Policy ${policy.policyNumber} expired on ${term.expirationDate} (${why})`),
    ...(held ? { reviewStateRestored: held.reviewStateInForce } : {}),
    expiryRecords: { term, inForceRevision: inForce.header, ...(held ? { heldRenewal: held } : {}) },
  };
  await runTransaction(await joinedWrites(wiring.expire, event), { label: `Policy ${policy.policyNumber}` });
  return { policyNumber: policy.policyNumber, decision: 'expired', detail: event.summary, termId: term.id };
}

// ---------------------------------------------------------------- one term, one day

/** The notice days of the filing of the state of the term's property (its revision in force at expiry). */
async function noticeDaysOf(term: TermRecord) {
  const [product, inForce] = await Promise.all([getProductCatalog(), inForceAtExpiry(term)]);
  const primary = inForce.risks.find((risk) => risk.primary) ?? inForce.risks[0];
  return resolveFiling(product, primary?.address_state ?? null).noticeDays;
}

/**
 * The days before its end a term is renewed on `date`: the carrier's lead days, longer where its
 * state's notice needs it. Only a term the carrier's lead days do not yet reach has its state read.
 */
async function termLeadDays(term: TermRecord, date: string): Promise<number> {
  const rules = await getRenewalRules();
  if (addDays(date, rules.leadDays) >= term.expirationDate) return rules.leadDays;
  return renewalLeadDays({ noticeDays: await noticeDaysOf(term) }, rules.leadDays);
}

export interface DayOptions extends DecisionOptions {
  /** By hand for one policy (process_renewals with a policy_number): renew now, whatever the lead days. */
  ignoreLeadDays?: boolean;
}

/**
 * What the day `date` decides for one watched term. Read first, then at most one move: a day
 * re-run finds the move made and decides nothing.
 */
export async function decideRenewalTerm(wiring: RenewalDayWiring, ref: { policyId: string; termId: string }, date: string, options: DayOptions = {}): Promise<RenewalDecision> {
  const found = await getPolicyWithTerms(ref.policyId);
  const term = found?.terms.find((candidate) => candidate.id === ref.termId);
  if (!found || !term) return { policyNumber: found?.policy.policyNumber ?? ref.policyId, decision: 'none', detail: 'No such term' };
  const context: TermContext = { policy: found.policy, terms: found.terms, term };
  const decision: Decision = { decisionDate: date, decidedAt: (options.now ?? nightlyDecisionInstant(date)).toISOString(), decidedBy: options.decidedBy ?? 'nightly-renewals' };
  const policyNumber = found.policy.policyNumber;
  if (term.expiredOn) return none(policyNumber, `Expired on ${term.expiredOn}`);
  if (term.cancellationStatus === 'cancelled') {
    if (term.expirationDate <= date) await stopWatchingTerm(term, policyNumber);
    return none(policyNumber, 'Cancelled');
  }
  if (term.renewal?.state === 'committed') {
    if (!term.renewal.inForce && term.expirationDate <= date) return putRenewalInForce(wiring, context, decision);
    return none(policyNumber, alreadyRenewed(found.policy, found.terms, term));
  }
  if (term.expirationDate <= date) return expireTerm(wiring, context, decision);
  if (term.renewalStatus === 'Non-Renewal') return none(policyNumber, `Non-Renewal: expires on ${term.expirationDate}`);
  if (term.cancellationStatus === 'pending') return none(policyNumber, `Cancellation pending for ${term.cancelPendingDate}: not renewed while it stands`);
  if (term.renewal?.state === 'held') return commitHeldRenewal(wiring, context, decision);
  if (!options.ignoreLeadDays) {
    const leadDays = await termLeadDays(term, date);
    if (addDays(date, leadDays) < term.expirationDate) return none(policyNumber, `Renews from ${addDays(term.expirationDate, -leadDays)}`);
  }
  const latest = [...found.terms].sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate)).at(-1)!;
  if (latest.effectiveDate > term.effectiveDate && latest.renewedFromTermId !== term.id) return none(policyNumber, 'A later term exists');
  return renewTerm(wiring, context, decision);
}

// ---------------------------------------------------------------- by hand

function requireRenewalPermission(principal: Principal, what: string) {
  if (!principal.isAdministrator && !hasPermission(principal, RENEWAL_DECISION_PERMISSION)) throw new PermissionDeniedError(`Only an underwriter or an Administrator may ${what}`);
}

/** The answer for a term whose next term exists: what it was renewed to. */
function alreadyRenewed(policy: PolicyRecord, terms: readonly TermRecord[], term: TermRecord): string {
  const next = terms.find((candidate) => candidate.id === term.renewal?.termId);
  return next ? `Policy ${policy.policyNumber} already renewed to ${next.effectiveDate} to ${next.expirationDate}` : `Policy ${policy.policyNumber} already renewed (term ${term.renewal?.termId})`;
}

/** A policy's terms that are its own, in effect order: a held renewal's term is not one until it is committed. */
function realTerms(terms: readonly TermRecord[]): TermRecord[] {
  const real = terms.filter((term) => !terms.some((other) => other.renewal?.state === 'held' && other.renewal.termId === term.id));
  return real.sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
}

/** The term of a policy the renewal moves act on: the latest one that is not a held renewal's. */
function currentTerm(policy: PolicyRecord, terms: readonly TermRecord[]): TermRecord {
  const latest = realTerms(terms).at(-1);
  if (!latest) throw new PolicyNotRenewableError(`Policy ${policy.policyNumber} has no term`);
  return latest;
}

/**
 * The term process_renewals decides for `date`: one whose committed renewal is due in force by
 * then first (the day's own move), else the term running on that date, else the latest. Chosen by
 * the date and not as "the latest term", so the same call made twice finds the renewal it made
 * and never renews that renewal in turn.
 */
function termDecidedOn(policy: PolicyRecord, terms: readonly TermRecord[], date: string): TermRecord {
  const real = realTerms(terms);
  const dueInForce = real.find((term) => term.renewal?.state === 'committed' && !term.renewal.inForce && term.expirationDate <= date && !term.expiredOn && term.cancellationStatus !== 'cancelled');
  return dueInForce ?? real.find((term) => term.effectiveDate <= date && date < term.expirationDate) ?? currentTerm(policy, terms);
}

/**
 * process_renewals for one policy: the term running on `renewDate` decided for that day. A first
 * term renews now whatever the lead days (the by-hand call's purpose); a renewal term only when
 * `renewDate` puts it within its own lead days, so a retried call never makes a term a year further.
 */
export async function processPolicyRenewal(wiring: RenewalDayWiring, principal: Principal, request: { policyNumber: string; renewDate: string }, options: DecisionOptions = {}): Promise<RenewalDecision> {
  requireRenewalPermission(principal, 'process renewals');
  const { policy, terms } = await policyWithinReach(principal, { policyNumber: request.policyNumber });
  if (!policy.active) throw new PolicyNotRenewableError(`Policy ${policy.policyNumber} has not been issued; only an issued policy renews`);
  const term = termDecidedOn(policy, terms, request.renewDate);
  return decideRenewalTerm(wiring, { policyId: policy.id, termId: term.id }, request.renewDate, { ...options, decidedBy: options.decidedBy ?? principal.contactId, ignoreLeadDays: !term.renewedFromTermId });
}

export interface RenewalStatusRequest {
  revisionId: string;
  status: 'Renew' | 'Non-Renewal';
  reasonId?: string;
  description?: string;
}

/** store_renewal_status: the renewal decision of the revision's term. A Non-Renewal queues its notice; the term expires at its end. */
export async function storeRenewalStatus(wiring: RenewalStatusWiring, principal: Principal, request: RenewalStatusRequest, options: DecisionOptions = {}) {
  requireRenewalPermission(principal, 'decide a renewal');
  const decision = decisionOf(options, principal);
  const { header } = await revisionWithinReach(principal, request.revisionId);
  const { policy, terms } = await policyWithinReach(principal, { policyId: header.policyId });
  const term = terms.find((candidate) => candidate.id === header.policyTermId);
  if (!term) throw new NotFoundError(`Policy term ${header.policyTermId}`);
  if (!policy.active || term.expiredOn || term.cancellationStatus === 'cancelled') {
    throw new PolicyNotRenewableError(`Policy ${policy.policyNumber}: its term ${term.effectiveDate} to ${term.expirationDate} is ${term.expiredOn ? 'expired' : term.cancellationStatus === 'cancelled' ? 'cancelled' : 'not issued'}; its renewal cannot be decided`);
  }
  if (term.renewal?.state === 'committed') {
    throw new PolicyNotRenewableError(`Policy ${policy.policyNumber} was already renewed (term ${term.renewal.termId} from ${term.expirationDate}); cancel that term instead`);
  }
  let reason: { id: string; name: string } | null = null;
  if (request.status === 'Non-Renewal') {
    if (!request.reasonId) throw new BusinessRuleError('renewal_status_reason: is required for a Non-Renewal');
    const known = (await listNonRenewalReasons()).find((candidate) => candidate.id === request.reasonId);
    if (!known) throw new BusinessRuleError(`renewal_status_reason: ${request.reasonId.slice(0, 40)} is not a non-renewal reason`);
    reason = { id: known.id, name: known.name };
    await refuseUnderMoratoriums(principal, { block: 'non_renewal', operation: 'non_renewal', revision: request.revisionId, at: new Date(decision.decidedAt) });
    const nonRenewalNoticeDays = (await noticeDaysOf(term)).nonRenewal;
    const latest = addDays(term.expirationDate, -nonRenewalNoticeDays);
    if (decision.decisionDate > latest) {
      throw new BusinessRuleError(`renewal_status: a Non-Renewal must be decided at least ${nonRenewalNoticeDays} days before the term ends on ${term.expirationDate} (by ${latest})`);
    }
  }
  const inForce = await inForceAtExpiry(term);
  // A held renewal declined: archived as at expiry, its term no term of the policy any more.
  const held = request.status === 'Non-Renewal' && term.renewal?.state === 'held' ? await heldRenewalOf(term, terms, (await revisionHeaders([policy.activeRevisionId]))[0] ?? inForce.header) : undefined;
  const description = request.description ?? '';
  const event: RenewalStatusDecision = {
    ...termDecisionOf(policy, term, inForce.header.id, decision, ''),
    ...(held ? { reviewStateRestored: held.reviewStateInForce } : {}),
    status: request.status,
    reason,
    description,
    summary:
      request.status === 'Non-Renewal'
        ? `Policy ${policy.policyNumber} will not be renewed (${reason!.name}${description ? `: ${description}` : ''}); it expires on ${term.expirationDate}; Notice of Non-Renewal requested`
        : `Policy ${policy.policyNumber} set to renew at ${term.expirationDate}${description ? ` (${description})` : ''}`,
    renewalStatusRecords: { term, ...(held ? { heldRenewal: held } : {}) },
  };
  await runTransaction(await joinedWrites(wiring.renewalStatus, event), { label: `Policy ${policy.policyNumber}` });
  return { policy_number: policy.policyNumber, policy_term_id: term.id, renewal_status: request.status, renewal_status_reason_id: reason?.id ?? null, expiration_date: term.expirationDate, message: event.summary };
}

/** reinstate_expired_policy: an expired policy whose renewal was never made gets it, as the run would have made it, in force. */
export async function reinstateExpiredPolicy(wiring: RenewWiring, principal: Principal, request: { policyId: string; reason: string }, options: DecisionOptions = {}): Promise<RenewalDecision> {
  requireRenewalPermission(principal, 'reinstate an expired policy');
  const decision = decisionOf(options, principal);
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const term = currentTerm(policy, terms);
  if (!term.expiredOn) throw new PolicyNotRenewableError(`Policy ${policy.policyNumber} is not expired (its term ends on ${term.expirationDate})`);
  if (term.renewal?.state === 'committed') throw new PolicyNotRenewableError(`Policy ${policy.policyNumber} already has its renewal term ${term.renewal.termId}`);
  const inForce = await inForceAtExpiry(term);
  const reopened: TermRecord = { ...term, renewal: null };
  return renewTerm(wiring, { policy, terms, term: reopened }, { ...decision, decidedBy: options.decidedBy ?? principal.contactId }, { reinstating: { inForceRevision: inForce.header, reason: request.reason } });
}

// ---------------------------------------------------------------- a renewal previewed (rate impact)

/** A term with no renewal to preview, and why; where its property lies when the caller asked (to tell whether a filtered run covers it). */
export interface SkippedRenewal {
  policyNumber: string;
  skipped: string;
  agencyId?: string | null;
  location?: RenewalPreview['location'];
}

function locationOf(revision: RevisionSnapshot): RenewalPreview['location'] {
  const primary = revision.risks.find((risk) => risk.primary) ?? revision.risks[0];
  return { state: primary?.address_state ?? null, zip: primary?.address_zip ?? null, county: primary?.county?.name ?? null };
}

/**
 * Where a skipped term's property lies: the location of its latest committed revision that names
 * one (a cancellation's revision may carry no risks); none when no revision says.
 */
async function locatedOrNot(term: TermRecord): Promise<{ location?: RenewalPreview['location'] }> {
  const committed = await committedOf(term);
  for (const revision of committed.reverse()) {
    const snapshot = await loadRevision(revision.id);
    if (snapshot?.risks.length) return { location: locationOf(snapshot) };
  }
  return {};
}

/** A watched term's next renewal as the run would draft it, written nowhere: what a rate impact rates at two sets of rates. */
export interface RenewalPreview {
  policyId: string;
  policyNumber: string;
  agencyId: string | null;
  /** Where the primary property lies. */
  location: { state: string | null; zip: string | null; county: string | null };
  /** The renewal drafted from the revision in force at expiry (its rating input), with the expiring premium the cap reads. */
  toRate: ReturnType<typeof revisionToRate> & { expiringPremiumCents: number };
}

/**
 * The renewal `ref`'s term would get, drafted in memory with the product as it stands (ids
 * made up, nothing written), or why the term has none to preview: it ended, was cancelled, is
 * not renewed, or its renewal is made already.
 */
export async function previewRenewal(ref: { policyId: string; termId: string }, product: ProductCatalog, today: string, options: { locateSkipped?: boolean } = {}): Promise<RenewalPreview | SkippedRenewal> {
  const found = await getPolicyWithTerms(ref.policyId);
  const term = found?.terms.find((candidate) => candidate.id === ref.termId);
  if (!found || !term) return { policyNumber: found?.policy.policyNumber ?? ref.policyId, skipped: 'no such term' };
  const { policy } = found;
  const skip = async (reason: string): Promise<SkippedRenewal> => ({
    policyNumber: policy.policyNumber,
    skipped: reason,
    agencyId: policy.agencyId ?? null,
    ...(options.locateSkipped ? await locatedOrNot(term) : {}),
  });
  if (!policy.active) return skip('not issued');
  if (term.expiredOn) return skip(`expired on ${term.expiredOn}`);
  if (term.cancellationStatus === 'cancelled') return skip('cancelled');
  if (term.renewalStatus === 'Non-Renewal') return skip('not to be renewed');
  if (term.renewal?.state === 'committed') return skip(`renewed already (term ${term.renewal.termId})`);
  const base = await inForceAtExpiry(term);
  let n = 0;
  const draft = renewalDraft(base, term, stateView(product, base), { termId: 'preview-term', revisionId: 'preview-revision', today, now: clock.now(), newId: () => `preview-${(n += 1)}` });
  return {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    agencyId: policy.agencyId ?? null,
    location: locationOf(base),
    toRate: { ...revisionToRate(draft.snapshot), expiringPremiumCents: base.header.annualPremiumCents },
  };
}
