/**
 * Non-sufficient funds (`storeNSF`): a payment that came back unpaid is reversed and is
 * from then on treated as never made; the NSF fee (carrier data) is debited, or waived.
 */
import { isoDate } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { formatCents, InvalidAmountError, toCentsExactly, type Cents } from '../platform/money.js';
import { accountEntry, type EntryContext } from './account-history.js';
import type { AccountEntry } from './model.js';

export class PaymentNotReversibleError extends BusinessRuleError {
  constructor(paymentId: string, why: string) {
    super(`Payment ${paymentId} ${why}`);
    this.name = 'PaymentNotReversibleError';
  }
}

export class InvalidNsfRequestError extends BusinessRuleError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidNsfRequestError';
  }
}

/** `dueMonth`, `dueDay`, `dueYear` (strings) as a date; none given is no new due date. */
export function nsfDueDate(parts: { dueMonth?: string | null; dueDay?: string | null; dueYear?: string | null }): string | null {
  const given = [parts.dueYear, parts.dueMonth, parts.dueDay].map((part) => (part ?? '').trim());
  if (given.every((part) => part === '')) return null;
  const date = given.every((part) => /^\d{1,4}$/.test(part)) ? isoDate(Number(given[0]), Number(given[1]), Number(given[2])) : undefined;
  if (!date) throw new InvalidNsfRequestError('dueMonth, dueDay and dueYear must together name a date');
  return date;
}

/** `assessFee`: absent means the carrier's NSF fee, 0 waives it, another amount replaces it. */
export function nsfFeeToDebit(assessFee: string | number | null | undefined, carrierFeeCents: Cents): Cents {
  if (assessFee === undefined || assessFee === null || (typeof assessFee === 'string' && assessFee.trim() === '')) return carrierFeeCents;
  try {
    const cents = toCentsExactly(assessFee);
    if (cents >= 0) return cents;
  } catch (error) {
    if (!(error instanceof InvalidAmountError || error instanceof RangeError)) throw error;
  }
  throw new InvalidNsfRequestError('assessFee must be an amount of zero or more with at most two decimals');
}

export interface NsfRequest {
  paymentId: string;
  /** The day the bank returned the payment. */
  reversedOn: string;
  /** New due date of what the reversal re-opens, and of the fee; null keeps the original due dates. */
  dueDate: string | null;
  feeCents: Cents;
  /** False postpones a cancellation for non-payment of what the reversal re-opens until `dueDate` has passed. */
  allowCancel: boolean;
}

/**
 * The rows an NSF adds to the account: the reversal of the payment (its amount owed again)
 * and the NSF fee, kept with amount 0 when waived.
 */
export function nsfEntries(
  entries: readonly AccountEntry[],
  request: NsfRequest,
  contexts: { reversal: EntryContext; fee: EntryContext },
): [AccountEntry, AccountEntry] {
  const payment = entries.find((entry) => entry.id === request.paymentId);
  if (!payment || payment.type !== 'Payment') throw new PaymentNotReversibleError(request.paymentId, 'was not found on this account');
  if (entries.some((entry) => entry.type === 'NSF Reversal' && entry.reversesEntryId === payment.id)) {
    throw new PaymentNotReversibleError(request.paymentId, 'was already returned for non-sufficient funds');
  }
  if (!request.allowCancel && !request.dueDate) throw new InvalidNsfRequestError('Postponing the cancellation needs the new due date');
  const amountCents = -payment.amountCents;
  const reversal = accountEntry(contexts.reversal, {
    type: 'NSF Reversal',
    date: request.reversedOn,
    amountCents,
    summary: `Payment of ${formatCents(amountCents)} returned for non-sufficient funds`,
    reversesEntryId: payment.id,
    checkNumber: payment.checkNumber,
    dueDate: request.dueDate,
    allowCancel: request.allowCancel,
  });
  const waived = request.feeCents === 0;
  const fee = accountEntry(contexts.fee, {
    type: 'NSF Fee',
    date: request.reversedOn,
    amountCents: request.feeCents,
    summary: waived ? 'NSF fee waived' : `NSF fee ${formatCents(request.feeCents)}`,
    billDate: request.reversedOn,
    dueDate: request.dueDate ?? request.reversedOn,
    waived,
  });
  return [reversal, fee];
}
