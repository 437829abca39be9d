/**
 * Lockbox: the bank collects checks against a matchfile (what each policy owes and the
 * least it accepts) and sends the transactions back; each is accepted and posted, or
 * refused with a reason. Policies are known to the bank by their digits only.
 */
import { InvalidAmountError, formatCents, sum, toCentsExactly, type Cents } from '../platform/money.js';
import { chargeStandings, inDueOrder, ledgerFromEntries } from './ledger.js';
import type { AcceptedLockboxPayment, AccountEntry, BillingAccount, Charge, Credit, LockboxMatchRecord, LockboxTransactionResult } from './model.js';

/** The lockbox form of a policy number: its digits only (`10-2026-7` -> `1020267`). */
export function lockboxPolicyNumber(policyNumber: string): string {
  return policyNumber.replace(/\D/g, '');
}

/**
 * What a policy owes the bank may collect on `asOf`: current due is every billed amount
 * still open; the minimum acceptable is what is due by then, or else the oldest open bill.
 */
export function lockboxDues(charges: readonly Charge[], credits: readonly Credit[], asOf: string): { currentDueCents: Cents; minimumAcceptableCents: Cents } {
  const billed = chargeStandings(charges, credits, { through: asOf }).charges.filter((charge) => charge.billDate <= asOf && charge.openCents > 0);
  const dueByNow = sum(billed.filter((charge) => charge.dueDate <= asOf).map((charge) => charge.openCents));
  return {
    currentDueCents: sum(billed.map((charge) => charge.openCents)),
    minimumAcceptableCents: dueByNow > 0 ? dueByNow : (billed[0]?.openCents ?? 0),
  };
}

/** Only an active policy, or a cancelled or expired one that still owes money, takes lockbox payments. */
export function lockboxAlwaysRejects(policyStatus: string, currentDueCents: Cents): boolean {
  if (policyStatus === 'Active') return false;
  return !((policyStatus === 'Cancelled' || policyStatus === 'Expired') && currentDueCents > 0);
}

/** What the rules know of one policy for the lockbox. */
export interface LockboxAccount {
  policyNumber: string;
  currentDueCents: Cents;
  minimumAcceptableCents: Cents;
  alwaysReject: boolean;
  /** Check numbers already posted to the policy. */
  postedChecks: readonly string[];
}

/**
 * A policy's lockbox account from its account history on `asOf`. A check returned for
 * non-sufficient funds may be presented again, so only checks still standing count as posted.
 */
export function lockboxAccount(policy: { policyNumber: string; policyStatus: string }, entries: readonly AccountEntry[], asOf: string): LockboxAccount {
  const { charges, credits } = ledgerFromEntries(entries);
  const dues = lockboxDues(charges, credits, asOf);
  const reversed = new Set(entries.filter((entry) => entry.type === 'NSF Reversal').map((entry) => entry.reversesEntryId));
  const postedChecks = entries
    .filter((entry) => entry.type === 'Payment' && entry.checkNumber && !reversed.has(entry.id))
    .map((entry) => entry.checkNumber!);
  return { policyNumber: policy.policyNumber, ...dues, alwaysReject: lockboxAlwaysRejects(policy.policyStatus, dues.currentDueCents), postedChecks };
}

/** One line of the matchfile (spec 2.11): amounts in pennies. */
export function lockboxMatchRecord(account: LockboxAccount): LockboxMatchRecord {
  return {
    policy_number: lockboxPolicyNumber(account.policyNumber),
    current_due_amount: account.currentDueCents,
    minimum_acceptable_amount: account.minimumAcceptableCents,
    always_reject_flag: account.alwaysReject,
  };
}

export class InvalidPaymentAmountError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'InvalidPaymentAmountError';
  }
}

/** Whole dollars beyond this are refused: a check for a hundred billion is a misread. */
const MAX_WHOLE_DIGITS = 11;

/** A payment amount as the bank sends it: more than zero, digits with at most two decimals. */
export function parsePaymentAmount(value: unknown): Cents {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 20)) : typeof value === 'number' ? String(value) : `of type ${value === null ? 'null' : typeof value}`;
  if (/^-\d/.test(text)) throw new InvalidPaymentAmountError(`Payment ${shown} must be more than zero`);
  if (/^\d+\.\d{3,}$/.test(text)) throw new InvalidPaymentAmountError(`Payment ${shown} has more than two decimals`);
  const match = /^(\d+)(?:\.\d{1,2})?$/.exec(text);
  if (!match || match[1].length > MAX_WHOLE_DIGITS) throw new InvalidPaymentAmountError(`Payment ${shown} is not an amount`);
  let cents: Cents;
  try {
    cents = toCentsExactly(text);
  } catch (error) {
    if (error instanceof InvalidAmountError) throw new InvalidPaymentAmountError(`Payment ${shown} is not an amount`);
    throw error;
  }
  if (cents <= 0) throw new InvalidPaymentAmountError(`Payment ${shown} must be more than zero`);
  return cents;
}

export interface LockboxDecision {
  outcome: LockboxTransactionResult;
  /** Set when the transaction is accepted: the payment to post. */
  payment: AcceptedLockboxPayment | null;
}

const refuse = (detail: string): LockboxDecision => ({ outcome: { result: 'error', detail }, payment: null });

function textOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/**
 * The lockbox number a file's line names (its `policy`, digits only; '' when it names none):
 * the one reading of a line that judging it, finding its accounts and chunking a large file share.
 */
export function lockboxNumberOf(transaction: unknown): string {
  if (typeof transaction !== 'object' || transaction === null) return '';
  return lockboxPolicyNumber(textOf((transaction as Record<string, unknown>).policy));
}

/** The check number a file's line names ('' when none): the one reading of it that judging the line and reading its check's record share. */
export function lockboxCheckOf(transaction: unknown): string {
  if (typeof transaction !== 'object' || transaction === null) return '';
  return textOf((transaction as Record<string, unknown>).check);
}

/** A check number longer than this is refused (and never looked up). */
export const MAX_CHECK_NUMBER_LENGTH = 40;

/** The accounts by lockbox number (two policy numbers may share one: such a number matches no single policy). */
export function lockboxIndex(accounts: readonly LockboxAccount[]): Map<string, LockboxAccount[]> {
  const index = new Map<string, LockboxAccount[]>();
  for (const account of accounts) {
    const key = lockboxPolicyNumber(account.policyNumber);
    index.set(key, [...(index.get(key) ?? []), account]);
  }
  return index;
}

/** The decision for one transaction; `seen` holds the checks accepted earlier in the same batch. */
export function decideLockboxTransaction(transaction: unknown, index: ReadonlyMap<string, LockboxAccount[]>, seen: Set<string>): LockboxDecision {
  if (typeof transaction !== 'object' || transaction === null) return refuse('The transaction is not an object with policy, check and payment');
  const { payment } = transaction as Record<string, unknown>;
  const lockboxNumber = lockboxNumberOf(transaction);
  if (!lockboxNumber) return refuse('The policy number is missing');
  const matches = index.get(lockboxNumber) ?? [];
  if (matches.length === 0) return refuse(`No policy matches lockbox number ${lockboxNumber.slice(0, 20)}`);
  if (matches.length > 1) return refuse(`Lockbox number ${lockboxNumber} matches several policies; post it by hand`);
  const account = matches[0];
  let amountCents: Cents;
  try {
    amountCents = parsePaymentAmount(payment);
  } catch (error) {
    if (error instanceof InvalidPaymentAmountError) return refuse(error.detail);
    throw error;
  }
  const checkNumber = lockboxCheckOf(transaction);
  if (!checkNumber) return refuse('The check number is missing');
  if (checkNumber.length > MAX_CHECK_NUMBER_LENGTH) return refuse(`The check number is longer than ${MAX_CHECK_NUMBER_LENGTH} characters`);
  if (account.alwaysReject) return refuse(`Policy ${account.policyNumber} does not accept lockbox payments`);
  const key = `${lockboxNumber}|${checkNumber}`;
  if (account.postedChecks.includes(checkNumber) || seen.has(key)) {
    return refuse(`Check ${checkNumber} was already posted to policy ${account.policyNumber}`);
  }
  if (amountCents < account.minimumAcceptableCents) {
    return refuse(
      `Payment ${formatCents(amountCents)} is below the minimum acceptable ${formatCents(account.minimumAcceptableCents)} for policy ${account.policyNumber}`,
    );
  }
  seen.add(key);
  return { outcome: { result: 'success', detail: '' }, payment: { policyNumber: account.policyNumber, checkNumber, amountCents } };
}

/** `apply_lockbox_payment_transactions`: one decision per transaction, in the order given. */
export function decideLockboxTransactions(transactions: readonly unknown[], accounts: readonly LockboxAccount[]): LockboxDecision[] {
  const index = lockboxIndex(accounts);
  const seen = new Set<string>();
  return transactions.map((transaction) => decideLockboxTransaction(transaction, index, seen));
}

/** The status the lockbox and payments see: a term past its expiration is Expired unless cancelled. */
export function statusOf(account: Pick<BillingAccount, 'policyStatus' | 'expirationDate'>, today: string): string {
  if (account.policyStatus === 'Active' && today >= account.expirationDate) return 'Expired';
  return account.policyStatus;
}

/**
 * What the matchfile reads of one account that owes (balance above 0), kept on its own small
 * record in the same transaction as every posting: the charges (`billDate dueDate cents`, in due
 * order) and the credits still standing (`date cents`, summed per day). The figures themselves
 * change with the day (a bill date passes, a due date passes, the term expires) without any
 * write, so the record keeps what they are computed from, not the figures.
 */
export interface LockboxDue {
  policyId: string;
  termId: string;
  policyNumber: string;
  effectiveDate: string;
  expirationDate: string;
  policyStatus: string;
  balanceCents: Cents;
  /** The term renewing this one has an account: a payment to the policy falls back to that one, not this one. */
  laterTermId: string | null;
  charges: string[];
  credits: string[];
}

/** The lockbox-due record of an account as a posting leaves it (its rows without the voided ones); none when it owes nothing. */
export function lockboxDueOf(account: BillingAccount, rows: readonly AccountEntry[]): LockboxDue | null {
  if (account.balanceCents <= 0) return null;
  const { charges, credits } = ledgerFromEntries(rows);
  const perDay = new Map<string, Cents>();
  for (const credit of credits) if (!credit.reversal) perDay.set(credit.date, (perDay.get(credit.date) ?? 0) + credit.amountCents);
  return {
    policyId: account.policyId,
    termId: account.termId,
    policyNumber: account.policyNumber,
    effectiveDate: account.effectiveDate,
    expirationDate: account.expirationDate,
    policyStatus: account.policyStatus,
    balanceCents: account.balanceCents,
    laterTermId: account.laterTermId ?? null,
    charges: inDueOrder(charges).map((charge) => `${charge.billDate} ${charge.dueDate} ${charge.amountCents}`),
    credits: [...perDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, cents]) => `${date} ${cents}`),
  };
}

/**
 * The rows a lockbox-due record stands for: a charge per charge (in due order) and a payment per
 * day of credits. What lockboxDueOf and lockboxDues read of an account's rows, they read the same
 * of these (lockboxDueOf(account, rowsOfLockboxDue(due)) is `due` again), so a lockbox file judges
 * and posts from the record without reading every row. The rows are never shown or written.
 */
export function rowsOfLockboxDue(due: LockboxDue): AccountEntry[] {
  const row = (id: string, type: AccountEntry['type'], date: string, amountCents: Cents, billDate: string | null, dueDate: string | null): AccountEntry => ({
    id, type, date, postedAt: date, amountCents, summary: '', description: '', generatedBy: 'lockbox-due', policyStatus: due.policyStatus, fileKey: null,
    dueDate, billDate, cancelDate: null, schedule: null, reversesEntryId: null, allowCancel: null, waived: false, checkNumber: null, installmentNumber: null,
  });
  return [
    ...due.charges.map((text, index) => {
      const [billDate, dueDate, cents] = text.split(' ');
      return row(`due-charge-${index}`, 'Invoice', billDate, Number(cents), billDate, dueDate);
    }),
    ...due.credits.map((text, index) => {
      const [date, cents] = text.split(' ');
      return row(`due-credit-${index}`, 'Payment', date, -Number(cents), null, null);
    }),
  ];
}

/** The lockbox figures of a lockbox-due record on `asOf`: the same rules as the account's rows give (lockboxDues). */
export function lockboxDueFigures(due: LockboxDue, asOf: string): { currentDueCents: Cents; minimumAcceptableCents: Cents; alwaysReject: boolean } {
  const charges: Charge[] = due.charges.map((text, index) => {
    const [billDate, dueDate, cents] = text.split(' ');
    return { id: String(index), kind: 'Invoice', billDate, dueDate, amountCents: Number(cents) };
  });
  const credits: Credit[] = due.credits.map((text, index) => {
    const [date, cents] = text.split(' ');
    return { id: String(index), date, amountCents: Number(cents), reversal: null };
  });
  const dues = lockboxDues(charges, credits, asOf);
  return { ...dues, alwaysReject: lockboxAlwaysRejects(statusOf(due, asOf), dues.currentDueCents) };
}

/**
 * The one account of a policy the matchfile shows, from the policy's lockbox-due records (its
 * accounts that owe), by the rule payments follow (payingAccount): the earliest owing account not
 * cancelled; else the policy's latest account, when it is one of them (it owes).
 */
export function matchfileAccountOf(dues: readonly LockboxDue[]): LockboxDue | undefined {
  const inOrder = [...dues].sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
  return inOrder.find((due) => due.policyStatus !== 'Cancelled') ?? inOrder.find((due) => due.laterTermId === null);
}

/** The matchfile lines of lockbox-due records (any number of policies, each policy's records all given), unordered, each with its policy number. */
export function matchfileLinesOf(dues: readonly LockboxDue[], asOf: string): Array<{ policyNumber: string; record: LockboxMatchRecord }> {
  const perPolicy = new Map<string, LockboxDue[]>();
  for (const due of dues) perPolicy.set(due.policyId, [...(perPolicy.get(due.policyId) ?? []), due]);
  const lines: Array<{ policyNumber: string; record: LockboxMatchRecord }> = [];
  for (const policyDues of perPolicy.values()) {
    const shown = matchfileAccountOf(policyDues);
    if (!shown) continue;
    const figures = lockboxDueFigures(shown, asOf);
    if (figures.currentDueCents <= 0) continue;
    lines.push({ policyNumber: shown.policyNumber, record: lockboxMatchRecord({ policyNumber: shown.policyNumber, ...figures, postedChecks: [] }) });
  }
  return lines;
}
