/**
 * The reinstate move (reinstate_policy): a cancelled policy put back in force. Without lapse
 * cover is continuous: the cancellation is undone (its revision archived, the revisions it
 * marked in force again) and billing reverses its rows to the cent. With lapse, cover resumes on
 * the reinstatement date and the premium of the days without cover is not charged. A Notice of
 * Reinstatement and a note join it, and a renewal cancelled with the term is reinstated with it:
 * ONE transaction dated by the decision. Only underwriters and Administrators reinstate; a
 * cancellation for a reason the carrier marks not reinstatable stays.
 */
import { addDays, daysBetween, todayIso } from '../platform/dates.js';
import { clock } from '../platform/clock.js';
import { refuseUnderMoratoriums } from '../moratoriums/index.js';
import { BusinessRuleError, PermissionDeniedError } from '../platform/errors.js';
import { hasPermission, type Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { policyWithinReach, revisionHeaders, type RevisionRecord, type TermRecord } from '../policies/index.js';
import type { DecisionOptions } from './cancel.js';
import { joinedWrites, type Contribution } from './joining.js';
import type { MoveReads, ReinstatedTerm } from './model.js';

export class PolicyNotReinstatableError extends BusinessRuleError {}

/**
 * What the reinstate move asks of the areas: their parts in the reinstatement (billing's rows,
 * search, the Notice of Reinstatement, the note, the event), and billing's cancel reasons.
 */
export interface ReinstateWiring {
  reinstate: readonly Contribution<ReinstatedTerm>[];
  reads: Pick<MoveReads, 'cancelReason'>;
}

/** Who reinstates: underwriters and Administrators. */
export const REINSTATEMENT_PERMISSION = 'reviews:write';

export interface ReinstateRequest {
  policyId: string;
  /** Cover resumes on this day; the cancellation date when absent. */
  reinstatementDate?: string;
  withLapse?: boolean;
  feeAction: 'assess' | 'waive';
}

/** What the cancellation of `term` changed, read back: the revision it added, the revisions it marked with its date, and the one in force it ended. */
async function cancellationOf(policyNumber: string, term: TermRecord) {
  const headers = await revisionHeaders(term.revisionIds);
  const committed = headers.filter((header) => header.revisionState === 'committed');
  const cancellation = committed.find((header) => header.id === term.cancellationRevisionId) ?? committed.filter((header) => header.description === 'Cancellation' && header.policyStatus === 'Cancelled').at(-1);
  const marked = committed.filter((header) => header.id !== cancellation?.id && header.cancelDate === term.cancelDate);
  const inForce: RevisionRecord | undefined = marked.find((header) => header.policyStatus === 'Cancelled') ?? marked.at(-1);
  if (!inForce) throw new PolicyNotReinstatableError(`Policy ${policyNumber}: the revision the cancellation ended was not found`);
  return { cancellation, marked, inForce };
}

/**
 * The renewal term cancelled with `term` (flat, on its first day, by that term's cancellation:
 * cancel.ts) is reinstated with it, in the same transaction, as it was: its revisions in force
 * again as they were, and back on the watch (the term it renews too), so the nightly run puts it
 * in force on its first day; billing's reinstatement on its account (the flat Return Premium
 * reversed, any installment the cancellation voided billed again: its invoices as before; the
 * fee is the term's alone, so waived here), a note and its event. Documents: a Notice of
 * Reinstatement of its own, because the insured was sent a Notice of Cancellation of the renewal
 * term with the term's; its Renewal Declaration and Billing Statement are not sent again, as the
 * revision and invoices they describe are back unchanged. A renewal cancelled on its own (not
 * marked as cancelled with this term) stays cancelled.
 */
async function renewalReinstatedWithTerm(wiring: ReinstateWiring, context: { policyNumber: string; terms: readonly TermRecord[]; term: TermRecord; reinstated: ReinstatedTerm }) {
  const { term, terms, reinstated } = context;
  if (term.renewal?.state !== 'committed' || term.renewal.inForce) return undefined;
  const renewalTerm = terms.find((candidate) => candidate.id === term.renewal!.termId);
  if (!renewalTerm?.cancelDate || renewalTerm.cancellationStatus !== 'cancelled' || renewalTerm.cancelledWithTermId !== term.id) return undefined;
  const { cancellation, marked, inForce } = await cancellationOf(context.policyNumber, renewalTerm);
  const renewalReinstated: ReinstatedTerm = {
    ...reinstated,
    termId: renewalTerm.id,
    termEffectiveDate: renewalTerm.effectiveDate,
    termExpirationDate: renewalTerm.expirationDate,
    inForceRevisionId: inForce.id,
    cancelDate: renewalTerm.cancelDate,
    reinstatementDate: renewalTerm.cancelDate,
    lapseDays: 0,
    feeAction: 'waive',
    reinstatedWithTermId: term.id,
    decidedAt: new Date(Date.parse(reinstated.decidedAt) + 10).toISOString(),
    summary: `Renewal term ${renewalTerm.effectiveDate} to ${renewalTerm.expirationDate} reinstated with the term it renews (it had been cancelled with it, flat)`,
    cancellationRecords: { term: renewalTerm, cancellation, marked },
  };
  return {
    summary: renewalReinstated.summary,
    writes: await joinedWrites(wiring.reinstate, renewalReinstated),
  };
}

export async function reinstatePolicy(wiring: ReinstateWiring, principal: Principal, request: ReinstateRequest, options: DecisionOptions = {}) {
  if (!principal.isAdministrator && !hasPermission(principal, REINSTATEMENT_PERMISSION)) throw new PermissionDeniedError('Only an underwriter or an Administrator may reinstate a policy');
  const now = options.now ?? clock.now();
  const decisionDate = todayIso(now);
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const cancelled = terms.filter((term) => term.cancellationStatus === 'cancelled');
  const term = cancelled.find((candidate) => candidate.id === policy.activeTermId) ?? cancelled.at(-1);
  if (!term || !term.cancelDate) throw new PolicyNotReinstatableError(`Policy ${policy.policyNumber} is not cancelled; only a cancelled policy can be reinstated`);
  await refuseUnderMoratoriums(principal, { block: 'reinstatement', operation: 'reinstatement', revision: policy.activeRevisionId, at: now });
  const cancelDate = term.cancelDate;
  const reason = term.cancelReasonId ? await wiring.reads.cancelReason(term.cancelReasonId) : undefined;
  if (reason && !reason.reinstatable) throw new PolicyNotReinstatableError(`Policy ${policy.policyNumber} was cancelled for ${reason.name}, which the carrier does not reinstate`);
  const withLapse = request.withLapse ?? false;
  const reinstatementDate = request.reinstatementDate ?? cancelDate;
  if (!withLapse && reinstatementDate !== cancelDate) {
    throw new BusinessRuleError(`reinstatement_date: without lapse cover resumes on the cancellation date ${cancelDate}; set with_lapse to resume it on a later day`);
  }
  if (withLapse && (reinstatementDate < cancelDate || reinstatementDate >= term.expirationDate)) {
    throw new BusinessRuleError(`reinstatement_date: must be from the cancellation date ${cancelDate} to the day before the term ends (${addDays(term.expirationDate, -1)})`);
  }
  const { cancellation, marked, inForce } = await cancellationOf(policy.policyNumber, term);
  const lapseDays = withLapse ? daysBetween(cancelDate, reinstatementDate) : 0;
  const summary = `Policy ${policy.policyNumber} reinstated effective ${reinstatementDate}${lapseDays ? ` with a lapse of ${lapseDays} days from ${cancelDate}` : ' without lapse'} (cancelled ${cancelDate}${reason ? `, ${reason.name}` : ''}); reinstatement fee ${request.feeAction === 'assess' ? 'assessed' : 'waived'}`;
  const reinstated: ReinstatedTerm = {
    decisionDate,
    decidedAt: now.toISOString(),
    decidedBy: options.decidedBy ?? principal.contactId,
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    termId: term.id,
    termEffectiveDate: term.effectiveDate,
    termExpirationDate: term.expirationDate,
    inForceRevisionId: inForce.id,
    cancelDate,
    cancelReason: reason?.name ?? '',
    reinstatementDate,
    lapseDays,
    feeAction: request.feeAction,
    ...(policy.agencyId ? { agencyId: policy.agencyId } : {}),
    contactIds: [...policy.contactIds],
    namedInsuredContactIds: [...policy.contacts.namedInsuredIds],
    summary,
    cancellationRecords: { term, cancellation, marked },
  };
  const writes = await joinedWrites(wiring.reinstate, reinstated);
  // Asked after the term's contributions, so that what they number in order (events) comes after the term's.
  const renewal = await renewalReinstatedWithTerm(wiring, { policyNumber: policy.policyNumber, terms, term, reinstated });
  writes.push(...(renewal?.writes ?? []));
  await runTransaction(writes, { label: `Policy ${policy.policyNumber}` });
  return { policy_number: policy.policyNumber, policy_id: policy.id, reinstatement_date: reinstatementDate, lapse_days: lapseDays, message: renewal ? `${summary}; ${renewal.summary}` : summary };
}
