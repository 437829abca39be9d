/**
 * Billing's part in a policy's moves, listed per move in shared/moves/: the account and
 * invoices at issue and at renewal, the Cancellation and Return Premium rows of a cancellation,
 * the non-payment state the nightly job decided, a rescission, a reinstatement's rows, the
 * Endorsement row; and what the moves read of billing (cancel reasons, a cancellation's
 * figures, a term's schedule). Rows are dated by the move's decision, so a nightly day re-run
 * later writes what it would have written that day.
 */
import type { AreaPart, CancellationFigures, CancelledTerm, CommittedRevision, EndorsedRevision, MoveReads, ReadsAhead, ReinstatedTerm, RenewedTerm, RescindedCancellation, RewrittenPolicy, TermAhead, TermAsRead, TransactionWrite } from '../lifecycle/index.js';
import { clock } from '../platform/clock.js';
import { amountOf, eventOf } from '../events/index.js';
import { NotFoundError } from '../platform/errors.js';
import { loadRevision, type RevisionSnapshot } from '../policies/index.js';
import { invoiceEntry, type EntryContext } from './account-history.js';
import { endorsementPart, type EndorsementPosting } from './endorsement.js';
import { lockboxPolicyNumber } from './lockbox.js';
import { addDays } from '../platform/dates.js';
import { formatCents, sum, toAmount } from '../platform/money.js';
import { accountEntry, cancellationEntry, returnPremiumEntry } from './account-history.js';
import { cancellationBalanceChange, lapsePremiumCents, returnPremium } from './cancellation.js';
import type { AccountEntry, BillingAccount, Refund } from './model.js';
import { groupOf } from '../books/index.js';
import { commissionBasisOf, getCarrierSettings } from '../catalog/index.js';
import { refundOwed, refundOwedWrites } from './refund-owed.js';
import { billableItemsOfRevision, billingSettings, installmentPlan, revisionsInForce } from './installment-plans.js';
import { accountAsRead, loadAccount, newAccountWrites, postingWrites, refundPut } from './store.js';
import { randomUUID } from 'node:crypto';
import { surchargeReinstatementEntries, surchargeReturnEntry, surchargeReturns } from './surcharge-returns.js';

/** The revision in force a cancellation was decided on, as its move read it (undefined: read it). */
const inForceAsRead = (cancelled: CancelledTerm) => cancelled.asRead?.revisions.find((snapshot) => snapshot.header.id === cancelled.inForceRevisionId);

/** The surcharges a cancellation returns pro rata, as its state filed them (each its own row). */
async function surchargeRowsOf(cancelled: CancelledTerm, context: (offset: number) => EntryContext): Promise<AccountEntry[]> {
  const [settings, items] = await Promise.all([billingSettings(), billableItemsOfRevision(cancelled.inForceRevisionId, inForceAsRead(cancelled))]);
  const returns = surchargeReturns({ effectiveDate: cancelled.termEffectiveDate, expirationDate: cancelled.termExpirationDate, cancelDate: cancelled.cancelDate, items }, settings.cancellation);
  return returns.map((returned, index) => surchargeReturnEntry(context(10 + index), returned, { date: cancelled.decisionDate, cancelDate: cancelled.cancelDate }));
}

/** What the installments not yet billed hold, by kind: premium, and fees (their installment fees are never billed either). */
export function unbilledOnTerm(unbilled: readonly AccountEntry[]): { premiumCents: number; feesCents: number } {
  return {
    premiumCents: sum(unbilled.map((entry) => entry.schedule?.premiumCents ?? entry.amountCents)),
    feesCents: sum(unbilled.map((entry) => entry.schedule?.customFeesCents ?? 0)),
  };
}

type CancellationQuestion = { policyId: string; termId: string; revisionId: string; effectiveDate: string; expirationDate: string; cancelDate: string; decisionDate: string; asRead?: TermAsRead };

async function figuresOf(question: Omit<CancellationQuestion, 'decisionDate'>) {
  const [settings, revisions] = await Promise.all([billingSettings(), revisionsInForce(question)]);
  return returnPremium({ effectiveDate: question.effectiveDate, expirationDate: question.expirationDate, cancelDate: question.cancelDate, revisions }, settings.cancellation, settings.minimumEarnedPremiumCents);
}

/**
 * A cancellation on the term's account, decided on `decisionDate`: its figures, the invoices it
 * voids (billed after that day) and the Return Premium row's amount. The one computation both the
 * move's message (cancellationFigures) and the row (cancellationTakingEffect) come from.
 */
async function cancellationOnAccount(question: CancellationQuestion, entries: readonly AccountEntry[]) {
  const figures = await figuresOf(question);
  const unbilled = entries.filter((entry) => entry.type === 'Invoice' && (entry.billDate ?? entry.date) > question.decisionDate);
  const unbilledCents = unbilledOnTerm(unbilled);
  return { figures, unbilled, unbilledCents: unbilledCents.premiumCents + unbilledCents.feesCents, change: cancellationBalanceChange(figures, unbilledCents) };
}

const part = (writes: TransactionWrite[]): AreaPart => ({ area: 'billing', writes });

// ---------------------------------------------------------------- what the moves read of billing

/** A cancel reason of the reference data, by id; undefined for none. */
export const cancelReason: MoveReads['cancelReason'] = async (reasonId) => {
  const reason = (await billingSettings()).cancelReasons.find((candidate) => candidate.id === reasonId);
  return reason ? { id: reason.id, name: reason.name, reinstatable: reason.reinstatable !== false } : undefined;
};

/** What billing's part in a move (a cancellation, with its figures; an endorsement) reads of the term, its account, begun beside the move's own reads. */
export function billingReadAhead(term: TermAhead, reads: ReadsAhead): void {
  void accountAsRead(term.policyId, term.termId, reads);
}

/** The return premium of cancelling a term on a date, and what it does to the term's account. */
export const cancellationFigures: MoveReads['cancellationFigures'] = async (question): Promise<CancellationFigures> => {
  const loaded = await accountAsRead(question.policyId, question.termId, question.asRead?.reads);
  const { figures, unbilledCents, change } = await cancellationOnAccount(question, loaded?.entries ?? []);
  return { returnPremiumCents: figures.returnedPremiumCents, flat: figures.flat, unbilledCents, balanceChangeCents: change };
};

/** The billing schedule a term's account is on; undefined when the term has no account. */
export const billingScheduleOf: MoveReads['billingScheduleOf'] = async (policyId, termId) => (await loadAccount(policyId, termId))?.account.scheduleId;

/** Every read billing answers the moves. */
export const billingReads: MoveReads = { cancelReason, cancellationFigures, billingScheduleOf };

async function accountOf(policyId: string, termId: string, policyNumber: string, reads?: ReadsAhead) {
  const loaded = await accountAsRead(policyId, termId, reads);
  if (!loaded) throw new Error(`Policy ${policyNumber} has no billing account for term ${termId}`);
  return loaded;
}

/**
 * A cancellation's postings. Pending: the account is watched by the nightly job from now on
 * (the term holds the date and the reason), and a pending for non-payment remembers the
 * unpaid invoice it stems from. Taking effect: installments not yet billed never are (their
 * invoices are voided), and what the return premium exceeds them by is credited (what they
 * exceed it by, earned premium, stays due).
 */
export async function billingAtCancellation(cancelled: CancelledTerm): Promise<AreaPart> {
  const loaded = await accountOf(cancelled.policyId, cancelled.termId, cancelled.policyNumber, cancelled.asRead?.reads);
  const { account } = loaded;
  if (cancelled.outcome === 'pending') {
    const set: Partial<BillingAccount> = { nightlyWatch: true };
    if (cancelled.unpaidChargeId !== undefined) {
      set.nonPayment = { ...excusedOf(account), status: 'cancellation_pending', cancelDate: cancelled.cancelDate, chargeId: cancelled.unpaidChargeId };
      set.nightlyDate = cancelled.decisionDate;
    }
    return part(postingWrites({ account, prior: loaded, entries: [], guardVersion: true, set }));
  }
  return part((await cancellationTakingEffect(cancelled, loaded)).writes);
}

/**
 * A cancellation taking effect on the account: its Cancellation and Return Premium rows, and
 * (a rewrite) rows after them that move the credit it left on (`then`, given that balance change, surcharges returned included).
 * Without `then`, a credit left above the carrier's refund threshold becomes a pending refund.
 */
async function cancellationTakingEffect(cancelled: CancelledTerm, loaded: NonNullable<Awaited<ReturnType<typeof loadAccount>>>, then?: (change: number) => AccountEntry[]) {
  const { account, entries } = loaded;
  const context = (offset: number) => ({ id: randomUUID(), postedAt: new Date(Date.parse(cancelled.decidedAt) + offset).toISOString(), generatedBy: cancelled.decidedBy, policyStatus: account.policyStatus });
  const { figures, unbilled, change } = await cancellationOnAccount(
    {
      policyId: cancelled.policyId, termId: cancelled.termId, revisionId: cancelled.inForceRevisionId, effectiveDate: cancelled.termEffectiveDate, expirationDate: cancelled.termExpirationDate,
      cancelDate: cancelled.cancelDate, decisionDate: cancelled.decisionDate, asRead: cancelled.asRead,
    },
    entries,
  );
  // Surcharges filed as returned pro rata come back on rows of their own, apart from premium.
  const surchargeRows = await surchargeRowsOf(cancelled, context);
  const surchargeCents = sum(surchargeRows.map((entry) => entry.amountCents));
  // A credit left on the account above the carrier's threshold is owed back: a pending refund, in the cancellation's transaction.
  const creditCents = -(account.balanceCents + change + surchargeCents - sum(unbilled.map((entry) => entry.amountCents)));
  const refund = then
    ? undefined
    : await refundOwed({
        account,
        creditCents,
        revisionId: cancelled.inForceRevisionId,
        revision: inForceAsRead(cancelled),
        namedInsuredContactIds: cancelled.namedInsuredContactIds,
        reason: `Return premium: cancelled effective ${cancelled.cancelDate} (${cancelled.reason})`,
        date: cancelled.decisionDate,
        createdAt: context(2).postedAt,
      });
  const rows = [
    cancellationEntry(context(0), { date: cancelled.decisionDate, cancelDate: cancelled.cancelDate, reason: cancelled.reason }),
    returnPremiumEntry(context(1), { date: cancelled.decisionDate, cancelDate: cancelled.cancelDate, amountCents: change, returnedPremiumCents: figures.returnedPremiumCents }),
    ...surchargeRows,
    ...(then ? then(change + surchargeCents) : []),
  ];
  const writes = postingWrites({
    account,
    prior: loaded,
    entries: rows,
    guardVersion: true,
    balanceAdjustmentCents: -sum(unbilled.map((entry) => entry.amountCents)),
    set: {
      policyStatus: 'Cancelled',
      nightlyWatch: false,
      nonPayment: { ...excusedOf(account), status: 'cancelled', cancelDate: cancelled.cancelDate, chargeId: account.nonPayment.chargeId },
      ...(unbilled.length ? { voidedEntryIds: [...(account.voidedEntryIds ?? []), ...unbilled.map((entry) => entry.id)] } : {}),
    },
  }).concat(refund ? refundPut(refund) : []);
  return { change, writes };
}

/** The charges an account's non-payment state has excused, carried into its next state. */
function excusedOf(account: BillingAccount): { excusedChargeIds?: string[] } {
  return account.nonPayment.excusedChargeIds?.length ? { excusedChargeIds: account.nonPayment.excusedChargeIds } : {};
}

/**
 * A pending cancellation withdrawn: the account is current again as of the decision's day; the
 * nightly job keeps watching it only while another cancellation is pending. Withdrawn by hand
 * (rescind_cancellation) while the invoice it stems from is still unpaid, that invoice is excused
 * from non-payment: still owed, but the nightly job does not pend the policy for it again.
 */
export async function billingAtRescission(rescinded: RescindedCancellation): Promise<AreaPart> {
  const loaded = await accountOf(rescinded.policyId, rescinded.termId, rescinded.policyNumber);
  const { account } = loaded;
  const unpaid = rescinded.byHand && account.nonPayment.status === 'cancellation_pending' ? account.nonPayment.chargeId : null;
  const excused = [...(account.nonPayment.excusedChargeIds ?? []), ...(unpaid ? [unpaid] : [])];
  return part(postingWrites({
    account,
    prior: loaded,
    entries: [],
    guardVersion: true,
    set: {
      nonPayment: { status: 'current', cancelDate: null, chargeId: null, ...(excused.length ? { excusedChargeIds: excused } : {}) },
      nightlyDate: rescinded.decisionDate,
      nightlyWatch: rescinded.otherPendingRemains,
    },
  }));
}

/**
 * A reinstatement's postings. Without lapse the cancellation is undone to the cent: a
 * Reinstatement row reverses its Return Premium row and the installments it voided are billed
 * again, so the balance is what it was before the cancellation. With lapse the premium of the
 * days without cover (cancel date to reinstatement date, daily pro rata over the term) is
 * credited on a Lapse Credit row. The reinstatement fee, when assessed, is a row of its own.
 * An invoice the policy was cancelled for is excused from non-payment (the nightly job does
 * not cancel it again for the same unpaid invoice).
 */
export async function billingAtReinstatement(reinstated: ReinstatedTerm): Promise<AreaPart> {
  const loaded = await accountOf(reinstated.policyId, reinstated.termId, reinstated.policyNumber);
  const { account, entries, voided } = loaded;
  const settings = await billingSettings();
  const context = (offset: number) => ({ id: randomUUID(), postedAt: new Date(Date.parse(reinstated.decidedAt) + offset).toISOString(), generatedBy: reinstated.decidedBy, policyStatus: 'Active' });
  const returned = [...entries].reverse().find((entry) => entry.type === 'Return Premium' && entry.cancelDate === reinstated.cancelDate);
  const rebilled = voided.filter((entry) => entry.type === 'Invoice');
  const rows: AccountEntry[] = [
    accountEntry(context(0), {
      type: 'Reinstatement',
      date: reinstated.decisionDate,
      amountCents: -(returned?.amountCents ?? 0),
      summary: `Policy reinstated effective ${reinstated.reinstatementDate}${reinstated.lapseDays ? ` after ${reinstated.lapseDays} days without cover` : ''}`,
      description: rebilled.length ? `Cancellation reversed; installments ${rebilled.map((entry) => entry.installmentNumber).join(', ')} billed again` : 'Cancellation reversed',
      cancelDate: reinstated.cancelDate,
    }),
  ];
  rows.push(...surchargeReinstatementEntries((offset) => context(10 + offset), entries, { date: reinstated.decisionDate, cancelDate: reinstated.cancelDate }));
  if (reinstated.lapseDays > 0) {
    const term = { effectiveDate: reinstated.termEffectiveDate, expirationDate: reinstated.termExpirationDate };
    const revisions = await revisionsInForce({ policyId: reinstated.policyId, termId: reinstated.termId, revisionId: reinstated.inForceRevisionId, ...term });
    const lapse = lapsePremiumCents({ ...term, revisions }, { from: reinstated.cancelDate, to: reinstated.reinstatementDate });
    rows.push(accountEntry(context(1), { type: 'Lapse Credit', date: reinstated.decisionDate, amountCents: -lapse, summary: `Premium of the ${reinstated.lapseDays} days without cover ${formatCents(lapse)} not charged`, cancelDate: reinstated.cancelDate }));
  }
  if (reinstated.feeAction === 'assess' && settings.reinstatementFeeCents > 0) {
    rows.push(accountEntry(context(2), { type: 'Reinstatement Fee', date: reinstated.decisionDate, amountCents: settings.reinstatementFeeCents, summary: `Reinstatement fee ${formatCents(settings.reinstatementFeeCents)}`, billDate: reinstated.decisionDate, dueDate: addDays(reinstated.decisionDate, settings.rules.billDaysBeforeDue) }));
  }
  const voidedNow = new Set(rebilled.map((entry) => entry.id));
  const excused = [...(account.nonPayment.excusedChargeIds ?? []), ...(account.nonPayment.chargeId ? [account.nonPayment.chargeId] : [])];
  return part(postingWrites({
    account,
    prior: loaded,
    entries: rows,
    guardVersion: true,
    balanceAdjustmentCents: sum(rebilled.map((entry) => entry.amountCents)),
    set: {
      policyStatus: 'Active',
      nightlyWatch: false,
      nonPayment: { status: 'current', cancelDate: null, chargeId: null, ...(excused.length ? { excusedChargeIds: [...new Set(excused)] } : {}) },
      voidedEntryIds: (account.voidedEntryIds ?? []).filter((id) => !voidedNow.has(id)),
    },
  }));
}

// ---------------------------------------------------------------- issue and renewal: a term's account and invoices

function entryContext(generatedBy: string, policyStatus: string, postedAt: string): EntryContext {
  return { id: randomUUID(), postedAt, generatedBy, policyStatus };
}

/** An instant `offsetMs` after `now`, so that rows posted together keep their order. */
const instant = (now: Date, offsetMs = 0) => new Date(now.getTime() + offsetMs).toISOString();

/**
 * Issue's billing contribution: the account of the term and the invoices of the chosen
 * schedule (Full Pay when none was chosen), written in the commit's transaction.
 */
export async function billingAtIssue(committed: CommittedRevision): Promise<AreaPart> {
  const snapshot = committed.asRead?.revision ?? (await loadRevision(committed.revisionId));
  if (!snapshot) throw new NotFoundError(`Revision ${committed.revisionId}`);
  return part(await newTermAccountWrites(committed, snapshot, { scheduleId: committed.billingScheduleId, at: clock.now(), generatedBy: 'system' }));
}

/**
 * A renewal's billing: the renewal term's own account and its invoices, on the expiring term's
 * schedule, written in the renewal's transaction. A renewal held for review bills nothing yet.
 */
export async function billingAtRenewal(renewed: RenewedTerm): Promise<AreaPart> {
  {
    if (renewed.held) return part([]);
    // The expiring term's account learns it is no longer the policy's latest (the matchfile's fallback reads it), under its version.
    const expiring = await loadAccount(renewed.policyId, renewed.expiringTermId);
    return part([
      ...(await newTermAccountWrites(
        { ...renewed, agencyId: renewed.agencyId, namedInsuredContactIds: renewed.namedInsuredContactIds },
        renewed.revision,
        { scheduleId: renewed.billingScheduleId, at: new Date(renewed.decidedAt), generatedBy: renewed.decidedBy },
      )),
      ...(expiring && expiring.account.laterTermId !== renewed.termId
        ? postingWrites({ account: expiring.account, prior: expiring, entries: [], guardVersion: true, set: { laterTermId: renewed.termId } })
        : []),
    ]);
  }
}

/** A term's account and the invoices of its installment plan: the same at issue and at renewal. */
async function newTermAccountWrites(
  term: { policyId: string; termId: string; policyNumber: string; revisionId: string; effectiveDate: string; expirationDate: string; agencyId?: string; namedInsuredContactIds: string[] },
  snapshot: Pick<RevisionSnapshot, 'header' | 'items' | 'risks'>,
  options: { scheduleId?: string; at: Date; generatedBy: string; after?: (postedAt: (offsetMs: number) => string) => AccountEntry[] },
) {
  const { schedule, installments } = await installmentPlan(snapshot, options.scheduleId);
  const invoices = installments.map((installment, index) => invoiceEntry(entryContext(options.generatedBy, 'Active', instant(options.at, index)), installment, installments.length));
  const entries = [...invoices, ...(options.after?.((offsetMs) => instant(options.at, installments.length + offsetMs)) ?? [])];
  const account: BillingAccount = {
    policyId: term.policyId,
    termId: term.termId,
    policyNumber: term.policyNumber,
    lockboxNumber: lockboxPolicyNumber(term.policyNumber),
    revisionId: term.revisionId,
    scheduleId: schedule.id,
    effectiveDate: term.effectiveDate,
    expirationDate: term.expirationDate,
    policyStatus: 'Active',
    agencyId: term.agencyId ?? null,
    contactIds: term.namedInsuredContactIds,
    balanceCents: sum(entries.map((entry) => entry.amountCents)),
    nonPayment: { status: 'current', cancelDate: null, chargeId: null },
    nightlyDate: null,
    booksGroup: groupOf(snapshot),
    // The term's commission is earned as payments come in (commissions fix the same basis for it, from the same setting).
    paymentsJoined: !!term.agencyId && commissionBasisOf(await getCarrierSettings()) === 'collected',
    version: 1,
  };
  // invoice.created for integrators (shared/events), one per invoice, in the move's transaction.
  const invoiceEvents = invoices.map((entry) =>
    eventOf({
      type: 'invoice.created', policyId: account.policyId, policyNumber: account.policyNumber, agencyId: account.agencyId, transactionId: entry.id, occurredAt: entry.postedAt,
      data: { term_id: account.termId, amount: amountOf(entry.amountCents), bill_date: entry.billDate, due_date: entry.dueDate, installment_number: entry.installmentNumber ?? null },
    }),
  );
  return [...newAccountWrites(account, entries), ...invoiceEvents];
}

// ---------------------------------------------------------------- endorsement

/** Billing's part of an endorsement: its Endorsement row posted under the account's version; a preview shows the row and how it is owed. */
export async function billingAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<AreaPart> {
  return endorsementPart(endorsed, mode, endorsementPosting(endorsed));
}

/** The Endorsement row posted; a return premium leaving a credit above the threshold owes a pending refund in the same transaction. */
function endorsementPosting(endorsed: EndorsedRevision): EndorsementPosting {
  return async (loaded, row, billing) => [
    ...postingWrites({ account: loaded.account, prior: loaded, entries: [row], guardVersion: true }),
    ...(billing.creditCents > 0
      ? await refundOwedWrites({
          account: loaded.account,
          creditCents: billing.creditCents,
          revisionId: endorsed.revisionId,
          revision: endorsed.revision,
          namedInsuredContactIds: endorsed.namedInsuredContactIds,
          reason: `Return premium: endorsement effective ${endorsed.revisionDate}`,
          date: endorsed.commitDate,
          createdAt: new Date(Date.parse(endorsed.committedAt) + 1).toISOString(),
        })
      : []),
  ];
}

/** Billing's part of a reversal: its Endorsement row, a return premium taken back from the unbilled installments the change was spread over. */
export async function billingAtReversal(reversal: EndorsedRevision, mode: { preview: boolean }): Promise<AreaPart> {
  return endorsementPart(reversal, mode, endorsementPosting(reversal), { takeBack: true });
}

/**
 * The same part for a move that only previews (preview_revision): it never posts, so the
 * function answering previews does not bundle the posting's writes (the ledger's running balance,
 * the lockbox-due record). Wired into a move that commits, it refuses.
 */
export async function billingPreviewAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<AreaPart> {
  if (!mode.preview) throw new Error('billingPreviewAtEndorsement is wired into a move that commits: wire billingAtEndorsement in shared/moves/endorse.ts');
  return endorsementPart(endorsed, mode);
}

// ---------------------------------------------------------------- rewrite

/**
 * Billing's part of a rewrite: the old term's cancellation rows (Rewritten), then the credit
 * its return premium left moved to the new term's account: a Transfer row on each, the same
 * amount (out of the old, into the new), never a refund; the new term's account opened with
 * its invoices on the old term's schedule, net of the transfer. A preview shows the figures.
 */
export async function billingAtRewrite(rewritten: RewrittenPolicy, mode: { preview: boolean } = { preview: false }): Promise<AreaPart> {
  const { committed, cancelled, revision: snapshot } = rewritten;
  const old = await loadAccount(rewritten.policyId, rewritten.fromTermId);
  const scheduleId = committed.billingScheduleId ?? old?.account.scheduleId;
  const at = new Date(rewritten.decidedAt);
  let transferCents = 0;
  const transferRow = (postedAt: string, amountCents: number, summary: string) =>
    accountEntry(entryContext(rewritten.decidedBy, 'Active', postedAt), { type: 'Transfer', date: rewritten.decisionDate, amountCents, summary });
  const oldWrites: TransactionWrite[] = [];
  if (cancelled && old) {
    const closed = await cancellationTakingEffect(cancelled, old, (change) => {
      transferCents = Math.max(0, -change);
      return transferCents ? [transferRow(instant(at, 2), transferCents, `Return premium ${formatCents(transferCents)} transferred to policy ${committed.policyNumber}, term ${committed.effectiveDate} to ${committed.expirationDate}`)] : [];
    });
    oldWrites.push(...closed.writes);
  }
  const opened = await newTermAccountWrites(committed, snapshot, {
    scheduleId,
    at: new Date(at.getTime() + 10),
    generatedBy: rewritten.decidedBy,
    after: (postedAt) => (transferCents ? [transferRow(postedAt(0), -transferCents, `Return premium ${formatCents(transferCents)} transferred from policy ${rewritten.policyNumber}, term ${cancelled?.termEffectiveDate ?? ''} to ${cancelled?.termExpirationDate ?? ''}`)] : []),
  });
  const preview = { transfer: toAmount(transferCents), schedule_id: scheduleId ?? null };
  return { area: 'billing', writes: mode.preview ? [] : [...oldWrites, ...opened], preview };
}
