/**
 * A claim's money: reserves set, payments made, approved, issued, cleared and voided, recoveries
 * expected and received. Each is a claim move (moves.ts): the claim transactions it appends, the
 * exposures' totals, the deductible ledger, the limit use and the duplicate guard it changes, its
 * payment, its event and the books' `money` entries, in ONE transaction. The rules are
 * money-rules.ts; this reads, asks them and commits.
 *
 * A money move rewrites neither the claim nor its listings: what it decides on lives in small
 * records of the claim's partition, each guarded. The deductible ledger and an exposure's limit use
 * are replaced at the version read; an exposure's totals are moved by their difference on the
 * condition that its status and the reserves decided on are still those read; a payment is listed
 * under its identity's fingerprint, refused while another is listed there. So two moves that would
 * decide differently on each other's result never both commit on the same reading (the second is
 * refused as changed and decided again from a fresh read, a bounded number of times: concurrent
 * payments can neither pass a limit nor take the deductible twice), while payments that change no
 * reserve and no ledger (expense payments, say) commute. A payment reads those records by key,
 * never the claim's payment history. A claim written before the records (its ledger on the claim)
 * is read whole by its first money move, which writes them from its history.
 */
import { randomUUID } from 'node:crypto';
import { getClaimsRules, listRoles, type ClaimsRules } from '../catalog/index.js';
import { getContactSummaries } from '../contacts/index.js';
import { clock } from '../platform/clock.js';
import { begun } from '../platform/concurrency.js';
import { todayIso } from '../platform/dates.js';
import { ConcurrentChangeError } from '../platform/errors.js';
import { toAmount, toCentsExactly, type Cents } from '../platform/money.js';
import { reaches, type Principal } from '../platform/principal.js';
import type { ConditionFailure } from '../platform/transactions.js';
import {
  ClaimNotFoundError,
  ClaimRuleError,
  type ClaimContactRecord,
  type ClaimPayment,
  type ClaimTransaction,
  type CostType,
  type PaymentLine,
  type PaymentMethod,
  type PaymentPayee,
  type RecoveryCategory,
} from './model.js';
import {
  allocateDeductible,
  authorityOf,
  brokenLimits,
  deductibleRemaining,
  identityOf,
  limitProblem,
  limitRemaining,
  reserveAfterPayment,
  reserveAuthorityProblem,
  addFigures,
  figuresOf,
  shown,
  splitRecovery,
  type Authority,
  type CostFigures,
} from './money-rules.js';
import { commitClaimMove, type ClaimMoveContribution, type IssuedPaymentFacts } from './moves.js';
import { issuedPaymentFacts } from './payment-letters.js';
import { claimWithinReach, exposureWithinReach } from './service.js';
import { exposureMoneyToWire, totalsOf, type MoneyRead } from './money-ledger.js';
import { MoneyMove, ledgerOnClaim, ledgersOf, type MoneyLedgers } from './money-move.js';
import type { EventType } from '../events/index.js';
import {
  checkCounterWrite,
  checkNumberHolder,
  checkNumberTaken,
  claimIdOfExposure,
  claimOfMoney,
  claimPayment,
  claimPaymentCreate,
  claimPaymentReplace,
  claimTransactionStatusPut,
  getCheckCounter,
  getClaimMoney,
  paymentByYearPut,
  paymentByYearRemove,
  fingerprintRecord,
  paymentsIssuedIn,
  getClaimWholeWithLedgers,
  type ClaimLedgers,
  type ClaimWhole,
  type ClaimMoneyRead,
} from './store.js';
import { paymentToWire, transactionToWire } from './money-wire.js';
import { positivePayCsv } from './positive-pay.js';

const now = () => clock.now().toISOString();
const amount = toAmount;

/** How many times a money move is decided again after another request changed what it decided on first. */
const ATTEMPTS = 12;

/** Runs a move (read, decide, commit) again on a fresh read while another request changed what it decided on first. */
async function decidedAfresh<T>(move: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await move();
    } catch (error) {
      if (!(error instanceof ConcurrentChangeError) || attempt >= ATTEMPTS) throw error;
      // Spread the retries out, so the requests that lost do not meet again at once.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40 * attempt)));
    }
  }
}

/** The caller's authority, from the roles of this call and the product's claims rules (both read at once). */
async function authorityOfCaller(principal: Principal, rules: Promise<ClaimsRules>): Promise<Authority> {
  const [claimsRules, roles] = await Promise.all([rules, principal.isAdministrator ? [] : listRoles()]);
  const roleNames = roles.filter((role) => principal.roleIds.includes(role.id)).map((role) => role.name);
  return authorityOf({ isAdministrator: principal.isAdministrator, roleNames }, claimsRules.authority);
}

interface Committed {
  kind: string;
  changes: Array<{ field: string; from: unknown; to: unknown }>;
  reason: string | null;
  event?: { type: EventType; data: Record<string, unknown> };
  note?: string;
  issuedPayments?: IssuedPaymentFacts[];
  /** The refusal of a payment whose fingerprint another payment not voided holds, if it still does. */
  duplicate?: () => Promise<Error | undefined>;
}

const sameKey = (a: Record<string, unknown> | undefined, b: Record<string, unknown>) => !!a && Object.entries(b).every(([name, value]) => a[name] === value);

async function commitMoney(move: MoneyMove, committed: Committed, contributions: readonly ClaimMoveContribution[]) {
  // The claim is not rewritten (keepsClaim): its state is what the contributions read of it.
  const state = { claim: move.claim, claimantIds: [] };
  const fingerprint = move.fingerprintKey();
  await commitClaimMove({
    kind: committed.kind,
    label: `Claim ${move.claim.claimNumber}`,
    at: move.at,
    by: move.by,
    before: state,
    after: state,
    keepsClaim: true,
    changes: committed.changes,
    reason: committed.reason,
    writes: move.allWrites(),
    money: move.money,
    ...(committed.event ? { event: committed.event } : {}),
    ...(committed.note ? { note: committed.note } : {}),
    ...(committed.issuedPayments ? { issuedPayments: committed.issuedPayments } : {}),
    contributions,
    ...(fingerprint && committed.duplicate ? { onConditionFailed: (failure: ConditionFailure) => (sameKey(failure.key, fingerprint) ? committed.duplicate!() : undefined) } : {}),
  });
}

/**
 * What a money move on some exposures of one claim decides on, within the caller's reach: the
 * claim, those exposures and their ledgers, read by key (the claim's people too, when asked); a
 * claim written before the ledger records is read whole instead, its ledgers from its history.
 */
async function moneyOfExposures(principal: Principal, located: Promise<string | undefined>, exposureIds: readonly string[], options: { contacts?: boolean } = {}, begunRead?: Promise<ClaimMoneyRead | undefined>): Promise<{ read: MoneyRead & { contacts?: ClaimContactRecord[]; payments?: ClaimPayment[] }; ledgers: MoneyLedgers }> {
  const claimId = await located;
  const read = begunRead ? await begunRead : claimId ? await getClaimMoney(claimId, exposureIds, options) : undefined;
  if (!read || !reaches(principal, read.claim) || !read.exposures.some((exposure) => exposure.exposureId === exposureIds[0])) throw new ClaimNotFoundError(`Exposure ${exposureIds[0].slice(0, 60)}`);
  if (!ledgerOnClaim(read.claim)) return { read, ledgers: ledgersOf(read) };
  const whole = await claimMoneyWithinReach(principal, read.claim.claimId);
  return { read: whole, ledgers: ledgersOf(whole, whole.payments) };
}

/** A whole claim's ledgers (a move that read it whole), moved from its history if it still carries them. */
const ledgersOfWhole = (whole: MoneyWhole): MoneyLedgers => ledgersOf(whole, whole.payments);

type MoneyWhole = ClaimWhole & ClaimLedgers;

/** A claim whole with its ledgers, refused as not found out of the caller's reach (as claimWithinReach). */
async function claimMoneyWithinReach(principal: Principal, claimId: string): Promise<MoneyWhole> {
  const whole = await getClaimWholeWithLedgers(claimId);
  if (!whole || !reaches(principal, whole.claim)) throw new ClaimNotFoundError(`Claim ${claimId.slice(0, 60)}`);
  return whole;
}

/** An amount given by the caller, exactly to the cent. */
function centsOf(field: string, value: string | number): Cents {
  try {
    return toCentsExactly(value);
  } catch {
    throw new ClaimRuleError(`${field}: must be an amount of money with at most two decimals`);
  }
}

// ------------------------------------------------------------------ reserves

export interface ReserveRequest {
  exposureId: string;
  costType: CostType;
  /** The new outstanding amount; or `change`, by how much it moves (signed). */
  amount?: string | number;
  change?: string | number;
  reason?: string;
}

export async function addReserve(principal: Principal, request: ReserveRequest, contributions: readonly ClaimMoveContribution[] = []) {
  if ((request.amount === undefined) === (request.change === undefined)) throw new ClaimRuleError('amount: give the new outstanding amount or the change, one of the two');
  const located = begun(claimIdOfExposure(request.exposureId));
  const authority = await authorityOfCaller(principal, getClaimsRules());
  return decidedAfresh(async () => {
    const { read, ledgers } = await moneyOfExposures(principal, located, [request.exposureId]);
    const exposure = read.exposures.find((candidate) => candidate.exposureId === request.exposureId)!;
    if (exposure.status === 'closed') throw new ClaimRuleError(`exposure_id: the ${exposure.coverage} exposure is closed; reopen it to reserve on it`);
    const current = totalsOf(exposure, request.costType).reserveCents;
    const change = request.change !== undefined ? signedCents('change', request.change) : centsOf('amount', request.amount!) - current;
    const outstanding = current + change;
    if (outstanding < 0) throw new ClaimRuleError(`change: the ${exposure.coverage} ${request.costType} reserve of ${shown(current)} cannot go below zero`);
    if (change === 0) throw new ClaimRuleError(`amount: the ${exposure.coverage} ${request.costType} reserve is already ${shown(current)}`);
    const problem = reserveAuthorityProblem(authority, outstanding);
    if (problem) throw new ClaimRuleError(problem, { brokenLimits: [problem.replace(/^amount: /, '')] });
    const at = now();
    const move = new MoneyMove(read, at, principal.contactId, ledgers);
    move.change(exposure.exposureId, request.costType, (totals) => ({ ...totals, reserveCents: outstanding }));
    const row = move.row({ exposureId: exposure.exposureId, type: 'reserve', costType: request.costType, amountCents: change, outstandingAfterCents: outstanding, status: 'approved', source: 'set', reason: request.reason ?? null });
    move.entry('reserve_change', row, change);
    await commitMoney(
      move,
      {
        kind: 'reserve_changed',
        changes: [{ field: `exposures.${exposure.exposureId}.${request.costType}_reserve`, from: amount(current), to: amount(outstanding) }],
        reason: request.reason ?? null,
        event: { type: 'claim.reserve_changed', data: { exposure_id: exposure.exposureId, coverage: exposure.coverage, cost_type: request.costType, reserve: amount(outstanding), change: amount(change) } },
      },
      contributions,
    );
    return { transaction: transactionToWire(row), exposure: exposureMoneyToWire(move.exposure(exposure.exposureId)) };
  });
}

function signedCents(field: string, value: string | number): Cents {
  const text = String(value).trim();
  const negative = text.startsWith('-');
  const cents = centsOf(field, negative ? text.slice(1) : text.replace(/^\+/, ''));
  return negative ? -cents : cents;
}

// ------------------------------------------------------------------ payments

export interface PaymentRequest {
  lines: Array<{ exposureId: string; costType: CostType; amount: string | number }>;
  payeeIds: string[];
  method: PaymentMethod;
  invoiceNumber?: string;
  serviceFrom?: string;
  serviceTo?: string;
  final?: boolean;
  confirmDuplicate?: boolean;
  memo?: string;
}

/**
 * The joint payees of a Dwelling or Other Structures loss payment: the mortgagees the claim names,
 * which its first notice took from the revision in force at the loss on the loss's property.
 */
function mortgageesOnClaim(contacts: readonly ClaimContactRecord[]): PaymentPayee[] {
  return contacts.filter((contact) => contact.role === 'mortgagee').map((contact) => ({ contactId: contact.contactId, name: contact.name, as: 'mortgagee' as const }));
}

/** Posts an approved payment's lines: paid up, each cost type's reserve lowered (never below zero), a final one's rest released; on `move`. */
function postApproved(move: MoneyMove, payment: ClaimPayment): PaymentLine[] {
  return payment.lines.map((line) => {
    const outstanding = totalsOf(move.exposure(line.exposureId), line.costType).reserveCents;
    const { loweredCents, releasedCents } = reserveAfterPayment(outstanding, line.amountCents, payment.final);
    move.change(line.exposureId, line.costType, (totals) => ({ ...totals, paidCents: totals.paidCents + line.amountCents, reserveCents: totals.reserveCents - loweredCents - releasedCents }));
    const paymentRow = { transactionId: line.transactionId, costType: line.costType, exposureId: line.exposureId, coverage: line.coverage };
    move.entry('paid', paymentRow, line.amountCents);
    if (loweredCents > 0) {
      const row = move.row({ exposureId: line.exposureId, type: 'reserve', costType: line.costType, amountCents: -loweredCents, outstandingAfterCents: outstanding - loweredCents, status: 'approved', source: 'payment', paymentId: payment.paymentId, reason: 'lowered by the payment' });
      move.entry('reserve_change', row, -loweredCents);
    }
    if (releasedCents > 0) {
      const row = move.row({ exposureId: line.exposureId, type: 'reserve', costType: line.costType, amountCents: -releasedCents, outstandingAfterCents: 0, status: 'approved', source: 'final_payment', paymentId: payment.paymentId, reason: 'released by the final payment' });
      move.entry('reserve_change', row, -releasedCents);
    }
    return { ...line, reserveLoweredCents: loweredCents, releasedCents };
  });
}

/** The payment line rows (their amounts as made) with the payment's status now. */
function lineRows(whole: ClaimWhole, payment: ClaimPayment): ClaimTransaction[] {
  const ids = new Set(payment.lines.map((line) => line.transactionId));
  return whole.transactions.filter((row) => ids.has(row.transactionId)).map((row) => ({ ...row, status: payment.status }));
}

/** The refusal of a payment that repeats another not voided (its payees, gross amount and invoice), naming it. */
function duplicateRefusal(claimNumber: string, grossCents: Cents, invoiceNumber: string | undefined, duplicate: Pick<ClaimPayment, 'paymentId' | 'status'>): ClaimRuleError {
  return new ClaimRuleError(
    `payees: a payment of ${shown(grossCents)} to the same payees${invoiceNumber ? ` on invoice ${invoiceNumber.slice(0, 40)}` : ''} was already made on claim ${claimNumber} (payment ${duplicate.paymentId}, ${duplicate.status}); send confirm_duplicate to pay it again`,
    { duplicate_of: duplicate.paymentId },
  );
}

export async function makePayment(principal: Principal, request: PaymentRequest, contributions: readonly ClaimMoveContribution[] = []) {
  if (request.lines.length === 0) throw new ClaimRuleError('lines: a payment pays at least one exposure');
  if (request.payeeIds.length === 0) throw new ClaimRuleError('payees: a payment needs at least one payee (a contact id)');
  if (request.serviceFrom && request.serviceTo && request.serviceTo < request.serviceFrom) throw new ClaimRuleError(`service_to: ${request.serviceTo} is before service_from ${request.serviceFrom}`);
  const asked = request.lines.map((line, index) => {
    const cents = centsOf(request.lines.length > 1 ? `lines.${index}.amount` : 'amount', line.amount);
    if (cents <= 0) throw new ClaimRuleError(`${request.lines.length > 1 ? `lines.${index}.amount` : 'amount'}: a payment is more than 0.00`);
    return { ...line, grossCents: cents };
  });
  const seen = new Set<string>();
  for (const [index, line] of asked.entries()) {
    const key = `${line.exposureId}|${line.costType}`;
    if (seen.has(key)) throw new ClaimRuleError(`lines.${index}: the exposure and cost type are already a line of the payment`);
    seen.add(key);
  }
  const payeeIds = [...new Set(request.payeeIds)];
  // What the payment needs besides its claim is read beside the exposure's locator (issue 47): one round.
  const located = begun(claimIdOfExposure(asked[0].exposureId));
  // The claim's money is read as soon as the locator answers, beside the payees (checked first, as before).
  const exposureIds = asked.map((line) => line.exposureId);
  const anyLoss = asked.some((line) => line.costType === 'loss');
  let firstRead: Promise<ClaimMoneyRead | undefined> | undefined = begun(located.then((claimId) => (claimId ? getClaimMoney(claimId, exposureIds, { contacts: anyLoss }) : undefined)));
  const rulesRead = getClaimsRules();
  const [rules, authority, found] = await Promise.all([rulesRead, authorityOfCaller(principal, rulesRead), getContactSummaries(payeeIds)]);
  const missing = payeeIds.find((id) => !found.has(id));
  if (missing) throw new ClaimRuleError(`payees: ${missing.slice(0, 60)} is not a contact`);
  const payees: PaymentPayee[] = payeeIds.map((id) => ({ contactId: id, name: found.get(id)!.name, as: 'payee' }));

  return decidedAfresh(async () => {
    // Every line is of the first line's claim: one claim, one move. A first attempt's read is the one begun with the payees'.
    const first = firstRead;
    firstRead = undefined;
    const { read, ledgers } = await moneyOfExposures(principal, located, exposureIds, { contacts: anyLoss }, first);
    const { claim } = read;
    const exposures = asked.map((line, index) => {
      const exposure = read.exposures.find((candidate) => candidate.exposureId === line.exposureId);
      if (!exposure) throw new ClaimRuleError(`lines.${index}.exposure_id: ${line.exposureId.slice(0, 60)} is not an exposure of claim ${claim.claimNumber}`);
      return exposure;
    });
    if (claim.coverage.status !== 'in_force') throw new ClaimRuleError(`claim_id: claim ${claim.claimNumber} has no coverage in force (${claim.coverage.reason ?? 'none on the loss date'}): nothing is paid on it`);
    exposures.forEach((exposure) => {
      if (exposure.status === 'closed') throw new ClaimRuleError(`exposure_id: the ${exposure.coverage} exposure is closed; reopen it to pay on it`);
    });
    const grossTotal = asked.reduce((total, line) => total + line.grossCents, 0);
    const at = now();
    const move = new MoneyMove(read, at, principal.contactId, ledgers);
    const paymentId = randomUUID();
    const repeated = move.listPayment({ payeeIds, amountCents: grossTotal, invoiceNumber: request.invoiceNumber ?? null }, paymentId, request.confirmDuplicate === true);
    if (repeated) throw duplicateRefusal(claim.claimNumber, grossTotal, request.invoiceNumber, { paymentId: repeated, status: read.payments?.find((payment) => payment.paymentId === repeated)?.status ?? 'approved' });
    const deductibleBefore = move.deductible();
    const remainingBefore = deductibleRemaining(claim.coverage.deductibleCents, deductibleBefore);
    const deductibleApplies = exposures.map((exposure) => exposure.deductibleApplies && exposure.section === 'I');
    const { taken, remainingCents } = allocateDeductible(
      remainingBefore,
      asked.map((line, index) => ({ costType: line.costType, grossCents: line.grossCents, deductibleApplies: deductibleApplies[index] })),
    );
    const lines: PaymentLine[] = asked.map((line, index) => ({
      exposureId: line.exposureId, coverage: exposures[index].coverage, costType: line.costType, grossCents: line.grossCents, deductibleCents: taken[index], amountCents: line.grossCents - taken[index], transactionId: randomUUID(), reserveLoweredCents: 0, releasedCents: 0,
    }));
    const total = lines.reduce((sum, line) => sum + line.amountCents, 0);
    if (total === 0) throw new ClaimRuleError(`amount: ${shown(grossTotal)} is within the deductible remaining of ${shown(remainingBefore)}: nothing is owed`);
    // The limit: what is already committed on each coverage, and this payment's loss lines on it.
    for (const [index, line] of lines.entries()) {
      if (line.costType !== 'loss') continue;
      const exposure = exposures[index];
      const used = move.limitUsed(exposure.exposureId) ?? 0;
      const problem = limitProblem(exposure, used, line.amountCents);
      if (problem) throw new ClaimRuleError(request.lines.length > 1 ? `lines.${index}.${problem}` : problem, { limit_remaining: amount(limitRemaining(exposure.limitCents, used)!) });
      move.changeLimitUse(exposure.exposureId, line.amountCents);
    }
    const deductibleTaken = taken.reduce((sum, part) => sum + part, 0);
    if (deductibleTaken > 0) move.changeDeductible((ledger) => ({ ...ledger, appliedCents: ledger.appliedCents + deductibleTaken }));
    // Taking none because none remained is a decision on the ledger too: a void giving some back meanwhile makes it again.
    else if (lines.some((line, index) => line.costType === 'loss' && deductibleApplies[index]) && (claim.coverage.deductibleCents ?? 0) > 0) move.decideOnDeductible();
    const broken = brokenLimits(authority, total);
    const mortgagees = lines.some((line, index) => line.costType === 'loss' && rules.coverages.find((rule) => rule.item === exposures[index].coverage)?.mortgageeJointPayee) ? mortgageesOnClaim(read.contacts ?? []) : [];
    const payment: ClaimPayment = {
      paymentId, claimId: claim.claimId, claimNumber: claim.claimNumber, kind: 'claim_payment', lines, amountCents: total,
      payees: [...payees, ...mortgagees.filter((mortgagee) => !payeeIds.includes(mortgagee.contactId))],
      method: request.method, invoiceNumber: request.invoiceNumber ?? null, serviceFrom: request.serviceFrom ?? null, serviceTo: request.serviceTo ?? null, final: request.final ?? false,
      status: broken.length > 0 ? 'pending_approval' : 'approved', brokenLimits: broken, madeBy: principal.contactId, madeAt: at,
      approvedBy: broken.length > 0 ? null : principal.contactId, approvedAt: broken.length > 0 ? null : at,
      issuedAt: null, issuedDate: null, checkNumber: null, traceNumber: null, clearedDate: null, voidedAt: null, voidedBy: null, voidReason: null, memo: request.memo ?? null, version: 1,
    };
    for (const line of lines) {
      move.row({ transactionId: line.transactionId, exposureId: line.exposureId, type: 'payment', costType: line.costType, amountCents: line.amountCents, grossCents: line.grossCents, deductibleCents: line.deductibleCents, status: payment.status, source: payment.final ? 'final_payment' : 'payment', paymentId: payment.paymentId, reason: request.memo ?? null });
    }
    if (payment.status === 'approved') payment.lines = postApproved(move, payment);
    move.writes.push(...claimPaymentCreate(payment));
    await commitMoney(
      move,
      {
        kind: payment.status === 'approved' ? 'payment_made' : 'payment_pending_approval',
        changes: [{ field: 'payments', from: null, to: { id: payment.paymentId, amount: amount(total), status: payment.status } }],
        reason: request.memo ?? null,
        ...(payment.status === 'pending_approval'
          ? { event: { type: 'claim.payment_pending_approval' as const, data: { payment_id: payment.paymentId, amount: amount(total), broken_limits: broken } } }
          : {}),
        duplicate: async () => {
          const listed = await fingerprintRecord(claim.claimId, move.listedUnder!);
          const first = [...(listed?.paymentIds ?? [])][0];
          const earlier = first ? await claimPayment(claim.claimId, first) : undefined;
          return earlier ? duplicateRefusal(claim.claimNumber, grossTotal, request.invoiceNumber, earlier) : undefined;
        },
      },
      contributions,
    );
    const remainingOf = (exposureId: string) => nullable(limitRemaining(move.exposure(exposureId).limitCents, move.limitUsed(exposureId) ?? 0));
    const single = lines.length === 1 ? lines[0] : undefined;
    return {
      ...paymentToWire(payment),
      deductible_applied: amount(deductibleTaken),
      deductible_remaining: amount(remainingCents),
      ...(single ? { limit_remaining: remainingOf(single.exposureId) } : {}),
      lines_limit_remaining: lines.map((line) => ({ exposure_id: line.exposureId, limit_remaining: remainingOf(line.exposureId) })),
      brokenLimits: broken,
    };
  });
}

const nullable = (cents: Cents | null) => (cents === null ? null : amount(cents));

/** The payment and its claim whole, within the caller's reach. */
async function paymentWithin(principal: Principal, paymentId: string): Promise<{ whole: MoneyWhole; payment: ClaimPayment }> {
  const located = await claimOfMoney(paymentId);
  if (!located) throw new ClaimNotFoundError(`Payment ${paymentId.slice(0, 60)}`);
  const whole = await claimMoneyWithinReach(principal, located.claimId).catch(() => undefined);
  const payment = located.kind === 'payment'
    ? whole?.payments.find((candidate) => candidate.paymentId === paymentId)
    : whole?.payments.find((candidate) => candidate.lines.some((line) => line.transactionId === paymentId));
  if (!whole || !payment) throw new ClaimNotFoundError(`Payment ${paymentId.slice(0, 60)}`);
  return { whole, payment };
}

export async function approvePayment(principal: Principal, paymentId: string, contributions: readonly ClaimMoveContribution[] = []) {
  const authority = await authorityOfCaller(principal, getClaimsRules());
  return decidedAfresh(async () => {
    const { whole, payment } = await paymentWithin(principal, paymentId);
    if (payment.status !== 'pending_approval') throw new ClaimRuleError(`payment_id: payment ${payment.paymentId} is ${payment.status}, not waiting approval`);
    if (payment.madeBy === principal.contactId) throw new ClaimRuleError('payment_id: a payment is approved by someone other than its maker');
    const broken = brokenLimits(authority, payment.amountCents);
    if (broken.length > 0) throw new ClaimRuleError(`payment_id: the ${broken[0]}; it needs an approver with the authority`, { brokenLimits: broken });
    const at = now();
    const move = new MoneyMove(whole, at, principal.contactId, ledgersOfWhole(whole));
    const approved: ClaimPayment = { ...payment, status: 'approved', approvedBy: principal.contactId, approvedAt: at };
    approved.lines = postApproved(move, approved);
    move.writes.push(claimPaymentReplace(approved, payment.version), ...lineRows(whole, approved).map(claimTransactionStatusPut));
    await commitMoney(move, { kind: 'payment_approved', changes: [{ field: `payments.${payment.paymentId}.status`, from: payment.status, to: 'approved' }], reason: null }, contributions);
    return paymentToWire({ ...approved, version: payment.version + 1 });
  });
}

export async function voidTransaction(principal: Principal, request: { transactionId: string; reason: string }, contributions: readonly ClaimMoveContribution[] = []) {
  return decidedAfresh(async () => {
    const located = await claimOfMoney(request.transactionId);
    if (located?.kind === 'transaction') {
      const whole = await claimWithinReach(principal, located.claimId).catch(() => undefined);
      const row = whole?.transactions.find((candidate) => candidate.transactionId === request.transactionId);
      if (row && row.type !== 'payment') throw new ClaimRuleError(`transaction_id: a ${row.type} transaction is not voided; change the reserve with add_reserve`);
    }
    const { whole, payment } = await paymentWithin(principal, request.transactionId).catch(() => {
      throw new ClaimNotFoundError(`Transaction ${request.transactionId.slice(0, 60)}`);
    });
    if (payment.status === 'void') throw new ClaimRuleError(`transaction_id: payment ${payment.paymentId} is already void`);
    if (payment.kind !== 'claim_payment') throw new ClaimRuleError(`transaction_id: payment ${payment.paymentId} reimburses the deductible out of a recovery; it is not voided by itself`);
    if (payment.status === 'issued' && payment.method === 'ach') throw new ClaimRuleError(`transaction_id: payment ${payment.paymentId} went by ACH (trace ${payment.traceNumber}); a transfer sent is not voided`);
    if (payment.clearedDate) throw new ClaimRuleError(`transaction_id: check ${payment.checkNumber} of payment ${payment.paymentId} cleared on ${payment.clearedDate}; it is not voided`);
    const at = now();
    const move = new MoneyMove(whole, at, principal.contactId, ledgersOfWhole(whole));
    const wasPaid = payment.status === 'approved' || payment.status === 'issued';
    if (wasPaid) {
      for (const line of payment.lines) {
        const back = line.reserveLoweredCents + line.releasedCents;
        move.change(line.exposureId, line.costType, (totals) => ({ ...totals, paidCents: totals.paidCents - line.amountCents, reserveCents: totals.reserveCents + back }));
        move.entry('paid', { transactionId: line.transactionId, costType: line.costType, exposureId: line.exposureId, coverage: line.coverage }, -line.amountCents);
        if (back > 0) {
          const row = move.row({ exposureId: line.exposureId, type: 'reserve', costType: line.costType, amountCents: back, outstandingAfterCents: totalsOf(move.exposure(line.exposureId), line.costType).reserveCents, status: 'approved', source: 'void', paymentId: payment.paymentId, reason: request.reason });
          move.entry('reserve_change', row, back);
        }
      }
    }
    const voided: ClaimPayment = { ...payment, status: 'void', voidedAt: at, voidedBy: principal.contactId, voidReason: request.reason };
    move.writes.push(claimPaymentReplace(voided, payment.version), ...lineRows(whole, voided).map(claimTransactionStatusPut));
    if (payment.status === 'issued' && payment.issuedDate) move.writes.push(paymentByYearRemove({ year: payment.issuedDate.slice(0, 4), issuedDate: payment.issuedDate, paymentId: payment.paymentId }));
    // The deductible the payment took is the insured's to bear again on the next payment; its limit use is free again, and so is its identity.
    const given = payment.lines.reduce((sum, line) => sum + line.deductibleCents, 0);
    if (given > 0) move.changeDeductible((ledger) => ({ ...ledger, appliedCents: Math.max(0, ledger.appliedCents - given) }));
    for (const line of payment.lines) if (line.costType === 'loss') move.changeLimitUse(line.exposureId, -line.amountCents);
    move.unlistPayment(identityOf(payment), payment.paymentId);
    await commitMoney(
      move,
      {
        kind: 'payment_voided',
        changes: [{ field: `payments.${payment.paymentId}.status`, from: payment.status, to: 'void' }],
        reason: request.reason,
        event: { type: 'claim.payment_voided', data: { payment_id: payment.paymentId, amount: amount(payment.amountCents), was: payment.status, check_number: payment.checkNumber } },
      },
      contributions,
    );
    return { ...paymentToWire({ ...voided, version: payment.version + 1 }), exposures: move.changedExposures().map(exposureMoneyToWire) };
  });
}

// ------------------------------------------------------------------ checks

export interface ExportRequest {
  payments: Array<{ id: string; checkNumber: string }>;
  assignCheckDate: string;
}

const AUTO = 'auto_assign';
// Eight: each payment issued writes its record, its lines, its year listing, its check number and its letter (request and claim file).
const PAYMENTS_PER_MOVE = 8;
/** Where the carrier's claim check numbers and ACH trace numbers start. */
const FIRST_CHECK = 100001;
const FIRST_TRACE = 1;

export interface ExportedPayment {
  payment_id: string;
  claim_number: string;
  method: PaymentMethod;
  check_number: string | null;
  trace_number: string | null;
  issued_date: string;
  amount: number;
  payees: string[];
}

/**
 * Marks approved payments issued: a check with its number (given, or the next of the carrier's
 * counter), a transfer with its trace number; each claim's payments in one move. A payment not
 * approved (waiting, issued before, void) is skipped, saying why: an export sent again exports nothing.
 */
export async function exportClaimPayments(principal: Principal, request: ExportRequest, contributions: readonly ClaimMoveContribution[] = []) {
  const ids = request.payments.map((entry) => entry.id);
  if (new Set(ids).size !== ids.length) throw new ClaimRuleError('payments: a payment is named once');
  const givenNumbers = request.payments.filter((entry) => entry.checkNumber !== AUTO).map((entry) => entry.checkNumber);
  if (new Set(givenNumbers).size !== givenNumbers.length) throw new ClaimRuleError('payments: a check number is given to one payment');
  const skipped: Array<{ payment_id: string; reason: string }> = [];
  const byClaim = new Map<string, Array<{ id: string; checkNumber: string }>>();
  for (const entry of request.payments) {
    const located = await claimOfMoney(entry.id);
    if (!located || located.kind !== 'payment') {
      skipped.push({ payment_id: entry.id, reason: 'not a claim payment' });
      continue;
    }
    byClaim.set(located.claimId, [...(byClaim.get(located.claimId) ?? []), entry]);
  }
  // A claim's payments are issued a few at a time, each few one move: a move stays well inside a transaction's 100 items.
  const moves = [...byClaim].flatMap(([claimId, entries]) => Array.from({ length: Math.ceil(entries.length / PAYMENTS_PER_MOVE) }, (_, index) => [claimId, entries.slice(index * PAYMENTS_PER_MOVE, (index + 1) * PAYMENTS_PER_MOVE)] as const));
  const exported: ExportedPayment[] = [];
  for (const [claimId, entries] of moves) {
    const done = await decidedAfresh(async () => {
      const whole = await claimMoneyWithinReach(principal, claimId).catch(() => undefined);
      if (!whole) return { exported: [], skipped: entries.map((entry) => ({ payment_id: entry.id, reason: 'not a claim payment' })) };
      const at = now();
      const move = new MoneyMove(whole, at, principal.contactId, ledgersOfWhole(whole));
      const [checks, traces] = await Promise.all([getCheckCounter('check'), getCheckCounter('ach')]);
      let nextCheck = Math.max(checks.last + 1, FIRST_CHECK);
      let nextTrace = Math.max(traces.last + 1, FIRST_TRACE);
      let autoAssigned = false;
      const claimExported: ExportedPayment[] = [];
      const issuedPayments: IssuedPaymentFacts[] = [];
      const claimSkipped: Array<{ payment_id: string; reason: string }> = [];
      for (const entry of entries) {
        const payment = whole.payments.find((candidate) => candidate.paymentId === entry.id)!;
        if (payment.status !== 'approved') {
          claimSkipped.push({ payment_id: payment.paymentId, reason: payment.status === 'issued' ? `already issued${payment.checkNumber ? ` as check ${payment.checkNumber}` : ` (trace ${payment.traceNumber})`} on ${payment.issuedDate}` : payment.status === 'void' ? 'void' : 'waits approval' });
          continue;
        }
        let checkNumber: string | null = null;
        let traceNumber: string | null = null;
        if (payment.method === 'check') {
          if (entry.checkNumber === AUTO) {
            // A number given by hand earlier may lie ahead of the counter: the counter passes over it.
            while (await checkNumberHolder(String(nextCheck))) nextCheck++;
            checkNumber = String(nextCheck++);
            autoAssigned = true;
          } else {
            const holder = await checkNumberHolder(entry.checkNumber);
            if (holder && holder.paymentId !== payment.paymentId) throw new ClaimRuleError(`payments: check number ${entry.checkNumber} is already payment ${holder.paymentId}'s`);
            checkNumber = entry.checkNumber;
          }
          // Created in the move's transaction: two exports giving one number at once cannot both commit.
          move.writes.push(checkNumberTaken(checkNumber, payment.paymentId, claimId));
        } else {
          traceNumber = `${String(nextTrace++).padStart(15, '0')}`;
        }
        const issued: ClaimPayment = { ...payment, status: 'issued', issuedAt: at, issuedDate: request.assignCheckDate, checkNumber, traceNumber };
        move.writes.push(claimPaymentReplace(issued, payment.version), ...lineRows(whole, issued).map(claimTransactionStatusPut));
        issuedPayments.push(issuedPaymentFacts(issued));
        move.writes.push(
          paymentByYearPut({
            year: request.assignCheckDate.slice(0, 4), issuedDate: request.assignCheckDate, paymentId: payment.paymentId, claimId, claimNumber: whole.claim.claimNumber, kind: payment.kind, amountCents: payment.amountCents,
            costTypes: [...new Set(payment.lines.map((line) => line.costType))], payees: payment.payees, method: payment.method, checkNumber, traceNumber, agencyId: whole.claim.agencyId, contactIds: whole.claim.contactIds,
          }),
        );
        claimExported.push({ payment_id: payment.paymentId, claim_number: whole.claim.claimNumber, method: payment.method, check_number: checkNumber, trace_number: traceNumber, issued_date: request.assignCheckDate, amount: amount(payment.amountCents), payees: payment.payees.map((payee) => payee.name) });
      }
      if (claimExported.length === 0) return { exported: [], skipped: claimSkipped };
      if (autoAssigned) move.writes.push(checkCounterWrite(checks, nextCheck - 1));
      if (nextTrace - 1 > traces.last) move.writes.push(checkCounterWrite(traces, nextTrace - 1));
      await commitMoney(
        move,
        {
          kind: 'payments_issued',
          changes: claimExported.map((payment) => ({ field: `payments.${payment.payment_id}.status`, from: 'approved', to: 'issued' })),
          reason: null,
          issuedPayments,
          event: { type: 'claim.payment_issued', data: { payments: claimExported.map((payment) => ({ payment_id: payment.payment_id, amount: payment.amount, method: payment.method, check_number: payment.check_number, trace_number: payment.trace_number, issued_date: payment.issued_date })) } },
        },
        contributions,
      );
      return { exported: claimExported, skipped: claimSkipped };
    });
    exported.push(...done.exported);
    skipped.push(...done.skipped);
  }
  const checks = exported.filter((payment) => payment.check_number !== null);
  const csv = positivePayCsv(checks.map((payment) => ({ checkNumber: payment.check_number!, issuedDate: payment.issued_date, amountCents: toCentsExactly(payment.amount), payees: payment.payees })));
  return { exported, skipped, positive_pay_csv: csv, positive_pay_rows: checks.length };
}

export async function markPaymentCleared(principal: Principal, request: { paymentId: string; clearedDate: string }, contributions: readonly ClaimMoveContribution[] = []) {
  return decidedAfresh(async () => {
    const { whole, payment } = await paymentWithin(principal, request.paymentId);
    if (payment.status !== 'issued') throw new ClaimRuleError(`payment_id: payment ${payment.paymentId} is ${payment.status}; only an issued payment clears`);
    if (payment.clearedDate) throw new ClaimRuleError(`payment_id: payment ${payment.paymentId} cleared on ${payment.clearedDate} already`);
    if (payment.issuedDate && request.clearedDate < payment.issuedDate) throw new ClaimRuleError(`cleared_date: ${request.clearedDate} is before the payment was issued on ${payment.issuedDate}`);
    if (request.clearedDate > todayIso()) throw new ClaimRuleError(`cleared_date: ${request.clearedDate} is in the future`);
    const at = now();
    const move = new MoneyMove(whole, at, principal.contactId, ledgersOfWhole(whole));
    for (const line of payment.lines) move.entry('check_cleared', { transactionId: line.transactionId, costType: line.costType, exposureId: line.exposureId, coverage: line.coverage }, line.amountCents);
    const cleared: ClaimPayment = { ...payment, clearedDate: request.clearedDate };
    move.writes.push(claimPaymentReplace(cleared, payment.version));
    await commitMoney(
      move,
      { kind: 'payment_cleared', changes: [{ field: `payments.${payment.paymentId}.cleared_date`, from: null, to: request.clearedDate }], reason: null },
      contributions,
    );
    return paymentToWire({ ...cleared, version: payment.version + 1 });
  });
}

// ------------------------------------------------------------------ recoveries

export interface RecoveryRequest {
  exposureId: string;
  category: RecoveryCategory;
  amount: string | number;
  description?: string;
  date?: string;
}

/** The recovery expected on an exposure (subrogation, salvage): `amount` is what is now expected in all. */
export async function addRecoveryReserve(principal: Principal, request: RecoveryRequest, contributions: readonly ClaimMoveContribution[] = []) {
  const expected = centsOf('amount', request.amount);
  const located = begun(claimIdOfExposure(request.exposureId));
  return decidedAfresh(async () => {
    const { read, ledgers } = await moneyOfExposures(principal, located, [request.exposureId]);
    const exposure = read.exposures.find((candidate) => candidate.exposureId === request.exposureId)!;
    const current = totalsOf(exposure, 'loss').recoveryReserveCents ?? 0;
    const change = expected - current;
    if (change === 0) throw new ClaimRuleError(`amount: the ${exposure.coverage} recovery reserve is already ${shown(current)}`);
    const at = now();
    const move = new MoneyMove(read, at, principal.contactId, ledgers);
    move.change(exposure.exposureId, 'loss', (totals) => ({ ...totals, recoveryReserveCents: expected }));
    const row = move.row({ exposureId: exposure.exposureId, type: 'recovery_reserve', costType: 'loss', amountCents: change, outstandingAfterCents: expected, status: 'approved', source: 'set', category: request.category, description: request.description ?? null, ...(request.date ? { date: request.date } : {}), reason: request.description ?? null });
    move.entry('recovery_reserve_change', row, change);
    await commitMoney(
      move,
      { kind: 'recovery_reserve_changed', changes: [{ field: `exposures.${exposure.exposureId}.recovery_reserve`, from: amount(current), to: amount(expected) }], reason: request.description ?? null },
      contributions,
    );
    return { transaction: transactionToWire(row), exposure: exposureMoneyToWire(move.exposure(exposure.exposureId)) };
  });
}

/**
 * A recovery received: the deductible the insured bore is reimbursed to him first (a payment of
 * its own, approved, in the same transaction), the rest is the carrier's and lowers its paid loss;
 * the recovery reserve is lowered by what came in (never below zero).
 */
export async function addRecovery(principal: Principal, request: RecoveryRequest, contributions: readonly ClaimMoveContribution[] = []) {
  const received = centsOf('amount', request.amount);
  if (received <= 0) throw new ClaimRuleError('amount: a recovery is more than 0.00');
  if (request.date && request.date > todayIso()) throw new ClaimRuleError(`date: ${request.date} is in the future`);
  const located = begun(claimIdOfExposure(request.exposureId));
  return decidedAfresh(async () => {
    const { read, ledgers } = await moneyOfExposures(principal, located, [request.exposureId]);
    const { claim } = read;
    const exposure = read.exposures.find((candidate) => candidate.exposureId === request.exposureId)!;
    const insured = claim.insuredContactId;
    const at = now();
    const move = new MoneyMove(read, at, principal.contactId, ledgers);
    const split = insured ? splitRecovery(received, move.deductible()) : { reimbursedCents: 0, carrierShareCents: received };
    if (split.reimbursedCents > 0) move.changeDeductible((ledger) => ({ ...ledger, reimbursedCents: ledger.reimbursedCents + split.reimbursedCents }));
    else if (insured) move.decideOnDeductible();
    const expected = totalsOf(exposure, 'loss').recoveryReserveCents ?? 0;
    const lowered = Math.min(expected, received);
    move.change(exposure.exposureId, 'loss', (totals) => ({ ...totals, recoveredCents: totals.recoveredCents + split.carrierShareCents, recoveryReserveCents: expected - lowered }));
    let reimbursement: ClaimPayment | undefined;
    if (split.reimbursedCents > 0) {
      const names = await getContactSummaries([insured!]);
      reimbursement = {
        paymentId: randomUUID(), claimId: claim.claimId, claimNumber: claim.claimNumber, kind: 'deductible_reimbursement', lines: [], amountCents: split.reimbursedCents,
        payees: [{ contactId: insured!, name: names.get(insured!)?.name ?? claim.insuredName, as: 'payee' }], method: 'check', invoiceNumber: null, serviceFrom: null, serviceTo: null, final: false,
        status: 'approved', brokenLimits: [], madeBy: principal.contactId, madeAt: at, approvedBy: principal.contactId, approvedAt: at, issuedAt: null, issuedDate: null, checkNumber: null, traceNumber: null,
        clearedDate: null, voidedAt: null, voidedBy: null, voidReason: null, memo: `the deductible reimbursed out of a ${request.category} recovery`, version: 1,
      };
      move.writes.push(...claimPaymentCreate(reimbursement));
    }
    const row = move.row({
      exposureId: exposure.exposureId, type: 'recovery', costType: 'loss', amountCents: received, status: 'approved', source: 'recovery', category: request.category, deductibleReimbursedCents: split.reimbursedCents, carrierShareCents: split.carrierShareCents,
      description: request.description ?? null, date: request.date ?? todayIso(), ...(reimbursement ? { paymentId: reimbursement.paymentId } : {}), reason: request.description ?? null,
    });
    move.entry('deductible_reimbursed', row, split.reimbursedCents);
    move.entry('recovered', row, split.carrierShareCents);
    if (lowered > 0) move.entry('recovery_reserve_change', row, -lowered);
    await commitMoney(
      move,
      {
        kind: 'recovery_received',
        changes: [{ field: 'recoveries', from: null, to: { id: row.transactionId, exposure_id: exposure.exposureId, category: request.category, amount: amount(received) } }],
        reason: request.description ?? null,
        note: `Claim ${claim.claimNumber}: ${request.category} recovery of ${shown(received)} received${split.reimbursedCents > 0 ? `, ${shown(split.reimbursedCents)} of it the deductible reimbursed to the insured` : ''}`,
        event: { type: 'claim.recovery_received', data: { exposure_id: exposure.exposureId, category: request.category, amount: amount(received), deductible_reimbursed: amount(split.reimbursedCents), carrier_share: amount(split.carrierShareCents) } },
      },
      contributions,
    );
    return {
      transaction: transactionToWire(row),
      deductible_reimbursed: amount(split.reimbursedCents),
      carrier_share: amount(split.carrierShareCents),
      reimbursement: reimbursement ? paymentToWire(reimbursement) : null,
      exposure: exposureMoneyToWire(move.exposure(exposure.exposureId)),
    };
  });
}

// ------------------------------------------------------------------ reads

const inOrder = (rows: readonly ClaimTransaction[]) => [...rows].sort((a, b) => a.at.localeCompare(b.at) || a.seq - b.seq);

export async function getExposureTransactions(principal: Principal, exposureId: string) {
  const { whole } = await exposureWithinReach(principal, exposureId);
  return inOrder(whole.transactions.filter((row) => row.exposureId === exposureId)).map(transactionToWire);
}

export async function getAllClaimTransactions(principal: Principal, claimId: string) {
  const whole = await claimWithinReach(principal, claimId);
  return inOrder(whole.transactions).map(transactionToWire);
}

export async function getClaimPayments(principal: Principal, claimId: string) {
  const whole = await claimWithinReach(principal, claimId);
  return [...whole.payments].sort((a, b) => a.madeAt.localeCompare(b.madeAt)).map(paymentToWire);
}

/**
 * Per exposure and cost type the reserve (outstanding plus paid), paid, outstanding, recovered and
 * incurred (paid less recovered plus outstanding), the deductible applied and remaining, and the
 * claim's totals; all from the exposures' totals, which every money move keeps.
 */
export async function getAccountingOverview(principal: Principal, claimId: string) {
  const whole = await claimMoneyWithinReach(principal, claimId);
  const { claim } = whole;
  const ledgers = ledgersOfWhole(whole);
  const wire = (figures: CostFigures) => ({
    reserve: amount(figures.reserveCents),
    paid: amount(figures.paidCents),
    outstanding: amount(figures.outstandingCents),
    recovered: amount(figures.recoveredCents),
    recovery_reserve: amount(figures.recoveryReserveCents),
    incurred: amount(figures.incurredCents),
  });
  const exposures = [...whole.exposures].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const loss = exposures.map((exposure) => figuresOf(totalsOf(exposure, 'loss')));
  const expense = exposures.map((exposure) => figuresOf(totalsOf(exposure, 'expense')));
  const lossTotal = addFigures(loss);
  const expenseTotal = addFigures(expense);
  const reimbursed = ledgers.deductible.reimbursedCents;
  return {
    claim_id: claim.claimId,
    claim_number: claim.claimNumber,
    deductible: claim.coverage.deductibleCents === null ? null : amount(claim.coverage.deductibleCents),
    deductible_applied: amount(ledgers.deductible.appliedCents),
    deductible_remaining: amount(deductibleRemaining(claim.coverage.deductibleCents, ledgers.deductible)),
    deductible_reimbursed: amount(reimbursed),
    exposures: exposures.map((exposure, index) => ({
      exposure_id: exposure.exposureId,
      coverage: exposure.coverage,
      status: exposure.status,
      limit: exposure.limitCents === null ? null : amount(exposure.limitCents),
      limit_remaining: nullable(limitRemaining(exposure.limitCents, ledgers.limitUses.get(exposure.exposureId)?.usedCents ?? 0)),
      loss: wire(loss[index]),
      expense: wire(expense[index]),
      incurred: amount(loss[index].incurredCents + expense[index].incurredCents),
    })),
    totals: {
      loss: wire(lossTotal),
      expense: wire(expenseTotal),
      paid: amount(lossTotal.paidCents + expenseTotal.paidCents),
      outstanding: amount(lossTotal.outstandingCents + expenseTotal.outstandingCents),
      recovered: amount(lossTotal.recoveredCents + expenseTotal.recoveredCents),
      net_paid_loss: amount(lossTotal.paidCents - lossTotal.recoveredCents),
      incurred: amount(lossTotal.incurredCents + expenseTotal.incurredCents),
    },
  };
}

/**
 * The claim payments issued in a year and not voided, by issued date, each with its payees and
 * amount (one partition read: vendor_payments_1099 and the like are a query, not a scan). For
 * the carrier's own reports: no caller's reach applies.
 */
export async function claimPaymentsIssuedIn(year: string) {
  return (await paymentsIssuedIn(year)).map((listing) => ({ ...listing }));
}
