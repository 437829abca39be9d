/**
 * Account history: the rows a term's account is made of (invoices, payments, NSF
 * reversals and fees, cancellation, return premium, installment fees), and the page
 * `retrieve_account_history` shows: newest first, each with the balance after it.
 */
import { daysInMonth, isoDate } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { formatCents, sum, toAmount, type Cents } from '../platform/money.js';
import { pageOf } from '../platform/paging.js';
import { chargeStandings, ledgerFromEntries } from './ledger.js';
import type { AccountEntry, AccountEntryType, AccountHistoryPage, AccountHistoryRecordWire, Installment, InvoiceSchedule } from './model.js';

export const DEFAULT_HISTORY_PAGE_SIZE = 50;

/** Who records a row and when; ids and instants come from the caller so the rules stay pure. */
export interface EntryContext {
  id: string;
  postedAt: string;
  generatedBy: string;
  policyStatus: string;
}

export class InvalidHistoryFilterError extends BusinessRuleError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidHistoryFilterError';
  }
}

type EntryFacts = Partial<Omit<AccountEntry, keyof EntryContext | 'type' | 'date' | 'amountCents' | 'summary'>>;

/** A row with every optional fact empty unless given. */
export function accountEntry(
  context: EntryContext,
  row: { type: AccountEntryType; date: string; amountCents: Cents; summary: string } & EntryFacts,
): AccountEntry {
  return {
    fileKey: null, dueDate: null, billDate: null, cancelDate: null, schedule: null, reversesEntryId: null,
    allowCancel: null, waived: false, checkNumber: null, installmentNumber: null, description: row.summary,
    ...context,
    ...row,
  };
}

function invoiceSchedule(installment: Installment): InvoiceSchedule {
  const of = (match: (type: string) => boolean) =>
    sum(installment.details.filter((detail) => match(detail.type)).map((detail) => detail.amountCents));
  return {
    premiumCents: of((type) => type.startsWith('Premium')),
    installmentFeeCents: of((type) => type === 'Installment Fee'),
    customFeesCents: of((type) => type.startsWith('Custom Fee')),
  };
}

/** The invoice of one installment, dated on its bill date. */
export function invoiceEntry(context: EntryContext, installment: Installment, installmentCount: number, fileKey: string | null = null): AccountEntry {
  return accountEntry(context, {
    type: 'Invoice',
    date: installment.billDate,
    amountCents: installment.amountDueCents,
    summary: `Invoice ${installment.number} of ${installmentCount}: ${formatCents(installment.amountDueCents)} due ${installment.dueDate}`,
    description: `Installment ${installment.number} of ${installmentCount}`,
    billDate: installment.billDate,
    dueDate: installment.dueDate,
    schedule: invoiceSchedule(installment),
    installmentNumber: installment.number,
    fileKey,
  });
}

/** A payment received (a credit: the row's amount is negative). */
export function paymentEntry(
  context: EntryContext,
  payment: { date: string; amountCents: Cents; checkNumber?: string | null; paymentType?: string },
): AccountEntry {
  const by = payment.checkNumber ? ` by check ${payment.checkNumber}` : payment.paymentType ? ` (${payment.paymentType})` : '';
  return accountEntry(context, {
    type: 'Payment',
    date: payment.date,
    amountCents: -payment.amountCents,
    summary: `Payment of ${formatCents(payment.amountCents)}${by}`,
    checkNumber: payment.checkNumber ?? null,
  });
}

/** The cancellation itself: no amount (the Return Premium row carries the money), its date and reason. */
export function cancellationEntry(
  context: EntryContext,
  cancellation: { date: string; cancelDate: string; reason: string; fileKey?: string | null },
): AccountEntry {
  return accountEntry(context, {
    type: 'Cancellation',
    date: cancellation.date,
    amountCents: 0,
    summary: `Policy cancelled effective ${cancellation.cancelDate}: ${cancellation.reason}`,
    cancelDate: cancellation.cancelDate,
    fileKey: cancellation.fileKey ?? null,
  });
}

/** The balance change of a cancellation (see cancellationBalanceChange): a credit, or earned premium due. */
export function returnPremiumEntry(
  context: EntryContext,
  change: { date: string; cancelDate: string; amountCents: Cents; returnedPremiumCents: Cents },
): AccountEntry {
  return accountEntry(context, {
    type: 'Return Premium',
    date: change.date,
    amountCents: change.amountCents,
    summary: `Return premium ${formatCents(change.returnedPremiumCents)}`,
    description: change.amountCents <= 0 ? `Credit of ${formatCents(-change.amountCents)}` : `Earned premium due ${formatCents(change.amountCents)}`,
    cancelDate: change.cancelDate,
    dueDate: change.cancelDate,
  });
}

/** An installment fee charged on its own (outside an invoice). */
export function installmentFeeEntry(context: EntryContext, fee: { date: string; dueDate: string; amountCents: Cents }): AccountEntry {
  return accountEntry(context, {
    type: 'Installment Fee',
    date: fee.date,
    amountCents: fee.amountCents,
    summary: `Installment fee ${formatCents(fee.amountCents)}`,
    billDate: fee.date,
    dueDate: fee.dueDate,
  });
}

// ---------------------------------------------------------------------------
// The page retrieve_account_history answers
// ---------------------------------------------------------------------------

export interface HistoryQuery {
  /** `filter_dict`: fromDay, fromMonth, fromYear, toDay, toMonth, toYear (numbers or digit strings). */
  filter?: Readonly<Record<string, unknown>> | null;
  currentPage?: number;
  pageSize?: number;
  /** Rows dated later (invoices not yet billed) are not shown yet. */
  asOf?: string;
}

const FILTER_KEYS = ['fromDay', 'fromMonth', 'fromYear', 'toDay', 'toMonth', 'toYear'];

function filterPart(filter: Readonly<Record<string, unknown>>, key: string): number | undefined {
  const value = filter[key];
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,4}$/.test(text)) throw new InvalidHistoryFilterError(`filter_dict.${key} must be a whole number`);
  return Number(text);
}

/** One end of the range: a year alone is the whole year, a year and month the whole month. */
function rangeEnd(filter: Readonly<Record<string, unknown>>, end: 'from' | 'to'): string | undefined {
  const [day, month, year] = ['Day', 'Month', 'Year'].map((part) => filterPart(filter, `${end}${part}`));
  if (year === undefined && month === undefined && day === undefined) return undefined;
  if (year === undefined || (day !== undefined && month === undefined)) {
    throw new InvalidHistoryFilterError(`filter_dict: ${end}Day needs ${end}Month, and ${end}Month needs ${end}Year`);
  }
  const wholeMonth = month ?? (end === 'from' ? 1 : 12);
  const validMonth = wholeMonth >= 1 && wholeMonth <= 12;
  const wholeDay = day ?? (end === 'from' ? 1 : validMonth ? daysInMonth(year, wholeMonth) : 1);
  const date = isoDate(year, wholeMonth, wholeDay);
  if (!date) throw new InvalidHistoryFilterError(`filter_dict: the ${end} date ${year}-${wholeMonth}-${wholeDay} is not a date`);
  return date;
}

/** The inclusive date range of a `filter_dict`. */
export function historyDateRange(filter: Readonly<Record<string, unknown>> | null | undefined): { from?: string; to?: string } {
  if (!filter) return {};
  const unknown = Object.keys(filter).filter((key) => !FILTER_KEYS.includes(key));
  if (unknown.length > 0) throw new InvalidHistoryFilterError(`filter_dict accepts only ${FILTER_KEYS.join(', ')}`);
  const range = { from: rangeEnd(filter, 'from'), to: rangeEnd(filter, 'to') };
  if (range.from && range.to && range.from > range.to) throw new InvalidHistoryFilterError('filter_dict: the from date is after the to date');
  return range;
}

/** Oldest first; rows of one day in the order they were recorded. */
function chronological(entries: readonly AccountEntry[]): AccountEntry[] {
  return [...entries].sort((a, b) => a.date.localeCompare(b.date) || a.postedAt.localeCompare(b.postedAt) || a.id.localeCompare(b.id));
}

/**
 * One page of the account history: newest first, each row with the balance after it (over
 * the whole history, whatever the filter), filtered by date, then paged.
 */
export function accountHistoryPage(entries: readonly AccountEntry[], query: HistoryQuery = {}): AccountHistoryPage {
  const currentPage = query.currentPage ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_HISTORY_PAGE_SIZE;
  if (!Number.isInteger(currentPage) || currentPage < 1) throw new InvalidHistoryFilterError('current_page must be a whole number from 1');
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new InvalidHistoryFilterError('page_size must be a whole number from 1');
  const { from, to } = historyDateRange(query.filter);
  const shown = chronological(entries.filter((entry) => query.asOf === undefined || entry.date <= query.asOf));
  const ledger = ledgerFromEntries(shown);
  const { charges } = chargeStandings(ledger.charges, ledger.credits);
  const settled = new Set(charges.filter((charge) => charge.openCents === 0).map((charge) => charge.id));
  const reversed = new Set(shown.filter((entry) => entry.type === 'NSF Reversal').map((entry) => entry.reversesEntryId));
  let balance = 0;
  const withBalance = shown.map((entry) => {
    balance += entry.amountCents;
    return recordWire(entry, balance, { paidInFull: settled.has(entry.id), reversed: reversed.has(entry.id) });
  });
  const matching = withBalance.reverse().filter((record) => (!from || record.date >= from) && (!to || record.date <= to));
  return pageOf(matching, currentPage, pageSize, { emptyHasOnePage: true });
}

const ICONS: Record<AccountEntryType, string> = {
  Invoice: 'invoice',
  Payment: 'payment',
  'NSF Reversal': 'nsf',
  'NSF Fee': 'fee',
  Cancellation: 'cancellation',
  'Return Premium': 'return-premium',
  'Installment Fee': 'fee',
  Endorsement: 'endorsement',
  Reinstatement: 'reinstatement',
  'Reinstatement Fee': 'fee',
  'Lapse Credit': 'return-premium',
  Transfer: 'transfer',
  Refund: 'refund',
  'Surcharge Return': 'return-premium',
  'Surcharge Reinstated': 'reinstatement',
};

function recordWire(entry: AccountEntry, balanceCents: Cents, facts: { paidInFull: boolean; reversed: boolean }): AccountHistoryRecordWire {
  const schedule = entry.schedule && {
    Premium: toAmount(entry.schedule.premiumCents),
    'Installment Fee': toAmount(entry.schedule.installmentFeeCents),
    'Custom Fees': toAmount(entry.schedule.customFeesCents),
  };
  const isFee = entry.type === 'NSF Fee' || entry.type === 'Installment Fee';
  return {
    fileKey: entry.fileKey,
    amount: toAmount(entry.amountCents),
    icon: ICONS[entry.type],
    date: entry.date,
    balance: toAmount(balanceCents),
    type: entry.type,
    id: entry.id,
    summary: entry.summary,
    data: {
      amount: toAmount(entry.amountCents),
      schedule,
      details: {
        showDelete: entry.type === 'Payment' && !facts.reversed,
        cancelDate: entry.cancelDate,
        paidInFull: entry.type === 'Invoice' ? facts.paidInFull : null,
        billDate: entry.billDate,
        description: entry.description,
        generatedBy: entry.generatedBy,
        policyStatus: entry.policyStatus,
        showEditAndReprint: entry.type === 'Invoice' && entry.fileKey !== null,
        dirty: false,
        showWaive: isFee && entry.amountCents > 0 && !entry.waived,
        dueDate: entry.dueDate,
      },
    },
  };
}
