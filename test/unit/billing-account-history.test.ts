import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import {
  accountHistoryPage,
  cancellationEntry,
  historyDateRange,
  installmentFeeEntry,
  InvalidHistoryFilterError,
  invoiceEntry,
  paymentEntry,
  returnPremiumEntry,
  type EntryContext,
} from '../../shared/billing/account-history.js';
import { chargeStandings, ledgerFromEntries } from '../../shared/billing/ledger.js';
import type { AccountEntry, BillableItem } from '../../shared/billing/model.js';
import { nsfEntries } from '../../shared/billing/nsf.js';
import { installmentsFor } from '../../shared/billing/schedules.js';
import { billingSettingsFromRecords } from '../../shared/billing/settings.js';

const settings = billingSettingsFromRecords(referenceCatalogRecords());
const twoPay = settings.schedules.find((schedule) => schedule.label === 'Two Pay')!;
const items: BillableItem[] = [
  { itemId: 'premium', name: 'Premium', kind: 'premium', earning: 'proRata', writtenCents: 82662 },
  { itemId: 'fee', name: 'Policy Fee', kind: 'fee', earning: 'fullyEarned', writtenCents: 2500 },
];
const [first, second] = installmentsFor(twoPay, settings.rules, items, '2026-01-01');
const context = (id: string, postedAt: string): EntryContext => ({ id, postedAt, generatedBy: 'system', policyStatus: 'Active' });

/** Two Pay on the worked example: both invoices paid, one check bounced in between. */
function twoPayAccount(): AccountEntry[] {
  const rows: AccountEntry[] = [
    invoiceEntry(context('inv-1', '2026-01-01T09:00:00Z'), first, 2, 'file-inv-1'),
    paymentEntry(context('pay-1001', '2026-01-05T09:00:00Z'), { date: '2026-01-05', amountCents: 43831, checkNumber: '1001' }),
    invoiceEntry(context('inv-2', '2026-06-11T02:00:00Z'), second, 2, 'file-inv-2'),
    paymentEntry(context('pay-1002', '2026-06-20T09:00:00Z'), { date: '2026-06-20', amountCents: 20000, checkNumber: '1002' }),
  ];
  const nsf = nsfEntries(
    rows,
    { paymentId: 'pay-1002', reversedOn: '2026-06-25', dueDate: '2026-07-01', feeCents: settings.nsfFeeCents, allowCancel: true },
    { reversal: context('nsf-1002', '2026-06-25T09:00:00Z'), fee: context('nsf-fee-1002', '2026-06-25T09:00:01Z') },
  );
  // Recorded out of order: the page orders by date, then by when each row was recorded.
  return [paymentEntry(context('pay-1003', '2026-06-28T09:00:00Z'), { date: '2026-06-28', amountCents: 44331, checkNumber: '1003' }), ...nsf, ...rows];
}

const summary = (page: ReturnType<typeof accountHistoryPage>) => page.records.map((record) => [record.id, record.amount, record.balance]);

describe('account history', () => {
  it('lists the rows newest first, each with the balance after it', () => {
    const page = accountHistoryPage(twoPayAccount());
    expect(summary(page)).toEqual([
      ['pay-1003', -443.31, 0],
      ['nsf-fee-1002', 25, 443.31],
      ['nsf-1002', 200, 418.31],
      ['pay-1002', -200, 218.31],
      ['inv-2', 418.31, 418.31],
      ['pay-1001', -438.31, 0],
      ['inv-1', 438.31, 438.31],
    ]);
    expect(page).toMatchObject({ activePage: 1, maxPages: 1 });
  });

  it('answers each record in the shape of spec 2.11', () => {
    const invoice = accountHistoryPage(twoPayAccount()).records.find((record) => record.id === 'inv-2');
    expect(invoice).toEqual({
      fileKey: 'file-inv-2', amount: 418.31, icon: 'invoice', date: '2026-06-11', balance: 418.31, type: 'Invoice', id: 'inv-2',
      summary: 'Invoice 2 of 2: 418.31 due 2026-07-01',
      data: {
        amount: 418.31,
        schedule: { Premium: 413.31, 'Installment Fee': 5, 'Custom Fees': 0 },
        details: {
          showDelete: false, cancelDate: null, paidInFull: true, billDate: '2026-06-11', description: 'Installment 2 of 2',
          generatedBy: 'system', policyStatus: 'Active', showEditAndReprint: true, dirty: false, showWaive: false, dueDate: '2026-07-01',
        },
      },
    });
    const first = accountHistoryPage(twoPayAccount()).records.find((record) => record.id === 'inv-1')!;
    expect(first.data.schedule).toEqual({ Premium: 413.31, 'Installment Fee': 0, 'Custom Fees': 25 });
  });

  it('marks what can be done with each row: a bounced payment no longer deleted, the NSF fee waivable', () => {
    const details = Object.fromEntries(accountHistoryPage(twoPayAccount()).records.map((record) => [record.id, record.data.details]));
    expect(details['pay-1001'].showDelete).toBe(true);
    expect(details['pay-1002'].showDelete).toBe(false);
    expect(details['nsf-fee-1002']).toMatchObject({ showWaive: true, dueDate: '2026-07-01' });
  });

  it('shows an invoice paid in full only once the payments that stand cover it', () => {
    const paid = (asOf: string) =>
      accountHistoryPage(twoPayAccount(), { asOf }).records.filter((record) => record.type === 'Invoice').map((record) => [record.id, record.data.details.paidInFull]);
    expect(paid('2026-06-21')).toEqual([['inv-2', false], ['inv-1', true]]);
    expect(paid('2026-06-27')).toEqual([['inv-2', false], ['inv-1', true]]);
    expect(paid('2026-06-28')).toEqual([['inv-2', true], ['inv-1', true]]);
  });

  it('does not show rows dated after the day asked for (an invoice not billed yet)', () => {
    expect(summary(accountHistoryPage(twoPayAccount(), { asOf: '2026-03-01' }))).toEqual([
      ['pay-1001', -438.31, 0],
      ['inv-1', 438.31, 438.31],
    ]);
  });

  it('filters by a from/to date given as day, month and year parts, keeping the balance of the whole history', () => {
    const june = { fromDay: '1', fromMonth: '6', fromYear: '2026', toDay: 20, toMonth: 6, toYear: 2026 };
    expect(summary(accountHistoryPage(twoPayAccount(), { filter: june }))).toEqual([
      ['pay-1002', -200, 218.31],
      ['inv-2', 418.31, 418.31],
    ]);
    expect(accountHistoryPage(twoPayAccount(), { filter: { fromMonth: '6', fromYear: '2026' } }).records).toHaveLength(5);
    expect(accountHistoryPage(twoPayAccount(), { filter: { toMonth: '1', toYear: '2026' } }).records.map((record) => record.id)).toEqual(['pay-1001', 'inv-1']);
    expect(accountHistoryPage(twoPayAccount(), { filter: { fromYear: '2027' } })).toEqual({ activePage: 1, maxPages: 1, records: [] });
  });

  it('reads whole months and years as ranges, and refuses parts that name no date', () => {
    expect(historyDateRange({ fromYear: '2028', fromMonth: '2', toYear: '2028', toMonth: '2' })).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(historyDateRange({ toYear: 2026 })).toEqual({ from: undefined, to: '2026-12-31' });
    expect(historyDateRange({ fromDay: '', fromMonth: '', fromYear: '' })).toEqual({ from: undefined, to: undefined });
    expect(() => historyDateRange({ fromDay: '5', fromYear: '2026' })).toThrow(InvalidHistoryFilterError);
    expect(() => historyDateRange({ fromMonth: '5' })).toThrow('fromDay needs fromMonth, and fromMonth needs fromYear');
    expect(() => historyDateRange({ fromDay: '30', fromMonth: '2', fromYear: '2026' })).toThrow('the from date 2026-2-30 is not a date');
    expect(() => historyDateRange({ toMonth: '13', toYear: '2026' })).toThrow('is not a date');
    expect(() => historyDateRange({ fromDay: 'first', fromMonth: '1', fromYear: '2026' })).toThrow('filter_dict.fromDay must be a whole number');
    expect(() => historyDateRange({ since: '2026' })).toThrow('filter_dict accepts only fromDay, fromMonth, fromYear, toDay, toMonth, toYear');
    expect(() => historyDateRange({ fromYear: '2027', toYear: '2026' })).toThrow('the from date is after the to date');
  });

  it('pages newest first, 50 rows to a page unless asked otherwise', () => {
    const second = accountHistoryPage(twoPayAccount(), { currentPage: 2, pageSize: 3 });
    expect(second).toMatchObject({ activePage: 2, maxPages: 3 });
    expect(second.records.map((record) => record.id)).toEqual(['pay-1002', 'inv-2', 'pay-1001']);
    expect(accountHistoryPage(twoPayAccount(), { currentPage: 3, pageSize: 3 }).records.map((record) => record.id)).toEqual(['inv-1']);
    expect(accountHistoryPage(twoPayAccount(), { currentPage: 4, pageSize: 3 }).records).toEqual([]);
    const many = Array.from({ length: 51 }, (_, index) =>
      paymentEntry(context(`pay-${String(index).padStart(2, '0')}`, `2026-02-01T00:00:${String(index).padStart(2, '0')}Z`), { date: '2026-02-01', amountCents: 100 }),
    );
    const page = accountHistoryPage(many);
    expect(page).toMatchObject({ activePage: 1, maxPages: 2 });
    expect(page.records).toHaveLength(50);
    expect(page.records[0]).toMatchObject({ id: 'pay-50', balance: -51 });
    expect(() => accountHistoryPage(many, { currentPage: 0 })).toThrow('current_page must be a whole number from 1');
  });

  it('records a cancellation without an amount and its return premium as a credit the balance shows', () => {
    const rows = [
      invoiceEntry(context('inv-1', '2026-01-01T09:00:00Z'), { ...first, amountDueCents: 302500 }, 1),
      paymentEntry(context('pay-1', '2026-01-02T09:00:00Z'), { date: '2026-01-02', amountCents: 302500, paymentType: 'ACH' }),
      cancellationEntry(context('cancel', '2026-10-08T09:00:00Z'), { date: '2026-10-08', cancelDate: '2026-10-08', reason: "Insured's Request" }),
      returnPremiumEntry(context('return', '2026-10-08T09:00:01Z'), { date: '2026-10-08', cancelDate: '2026-10-08', amountCents: -69863, returnedPremiumCents: 69863 }),
    ];
    const page = accountHistoryPage(rows);
    expect(summary(page).slice(0, 2)).toEqual([['return', -698.63, -698.63], ['cancel', 0, 0]]);
    expect(page.records[1]).toMatchObject({ summary: "Policy cancelled effective 2026-10-08: Insured's Request", icon: 'cancellation' });
    expect(page.records[1].data.details.cancelDate).toBe('2026-10-08');
    expect(page.records[0]).toMatchObject({ type: 'Return Premium', summary: 'Return premium 698.63' });
    expect(page.records[2].summary).toBe('Payment of 3025.00 (ACH)');
  });

  it('charges an installment fee on its own row, owed until paid', () => {
    const fee = installmentFeeEntry(context('fee', '2026-02-01T09:00:00Z'), { date: '2026-02-01', dueDate: '2026-02-15', amountCents: 300 });
    const page = accountHistoryPage([fee]);
    expect(page.records[0]).toMatchObject({ type: 'Installment Fee', amount: 3, balance: 3, icon: 'fee' });
    expect(page.records[0].data.details).toMatchObject({ showWaive: true, dueDate: '2026-02-15' });
  });
});

describe('the ledger of an account', () => {
  it('treats a bounced payment as never made and applies the rest to the oldest charge first', () => {
    const { charges, credits } = ledgerFromEntries(twoPayAccount());
    expect(credits.map((credit) => [credit.id, credit.amountCents, credit.reversal])).toEqual([
      ['pay-1003', 44331, null],
      ['pay-1001', 43831, null],
      ['pay-1002', 20000, { dueDate: '2026-07-01', allowCancel: true }],
    ]);
    const before = chargeStandings(charges, credits, { through: '2026-06-27' });
    expect(before.charges.map((charge) => [charge.id, charge.openCents])).toEqual([['inv-1', 0], ['inv-2', 41831], ['nsf-fee-1002', 2500]]);
    expect(chargeStandings(charges, credits).unappliedCents).toBe(0);
  });
});
