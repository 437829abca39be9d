import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { accountHistoryPage, invoiceEntry, paymentEntry, type EntryContext } from '../../shared/billing/account-history.js';
import type { AccountEntry, Installment } from '../../shared/billing/model.js';
import { InvalidNsfRequestError, nsfDueDate, nsfEntries, nsfFeeToDebit, PaymentNotReversibleError, type NsfRequest } from '../../shared/billing/nsf.js';
import { billingSettingsFromRecords } from '../../shared/billing/settings.js';

const settings = billingSettingsFromRecords(referenceCatalogRecords());
const context = (id: string, postedAt = '2026-02-01T00:00:00Z'): EntryContext => ({ id, postedAt, generatedBy: 'billing-clerk', policyStatus: 'Active' });
const invoice: Installment = { number: 1, billDate: '2026-01-01', dueDate: '2026-01-01', amountDueCents: 85162, details: [{ type: 'Premium', amountCents: 85162 }] };
const contexts = { reversal: context('nsf', '2026-01-10T00:00:00Z'), fee: context('nsf-fee', '2026-01-10T00:00:01Z') };

function paidAccount(): AccountEntry[] {
  return [
    invoiceEntry(context('inv-1', '2026-01-01T00:00:00Z'), invoice, 1),
    paymentEntry(context('pay-1', '2026-01-05T00:00:00Z'), { date: '2026-01-05', amountCents: 85162, checkNumber: '5001' }),
  ];
}

const request = (overrides: Partial<NsfRequest> = {}): NsfRequest => ({
  paymentId: 'pay-1', reversedOn: '2026-01-10', dueDate: '2026-01-20', feeCents: settings.nsfFeeCents, allowCancel: true, ...overrides,
});

describe('non-sufficient funds', () => {
  it('reverses the payment so it is owed again, and debits the carrier NSF fee (25.00 from the data)', () => {
    const account = paidAccount();
    const [reversal, fee] = nsfEntries(account, request(), contexts);
    expect(reversal).toMatchObject({
      type: 'NSF Reversal', date: '2026-01-10', amountCents: 85162, reversesEntryId: 'pay-1', checkNumber: '5001', dueDate: '2026-01-20',
      summary: 'Payment of 851.62 returned for non-sufficient funds',
    });
    expect(fee).toMatchObject({ type: 'NSF Fee', amountCents: 2500, waived: false, dueDate: '2026-01-20', summary: 'NSF fee 25.00' });
    const page = accountHistoryPage([...account, reversal, fee]);
    expect(page.records.map((record) => [record.type, record.balance])).toEqual([
      ['NSF Fee', 876.62], ['NSF Reversal', 851.62], ['Payment', 0], ['Invoice', 851.62],
    ]);
    expect(page.records[3].data.details.paidInFull).toBe(false);
  });

  it('keeps a waived fee on the account at 0.00 so the history shows it', () => {
    const [, fee] = nsfEntries(paidAccount(), request({ feeCents: nsfFeeToDebit('0', settings.nsfFeeCents) }), contexts);
    expect(fee).toMatchObject({ amountCents: 0, waived: true, summary: 'NSF fee waived' });
    const record = accountHistoryPage([fee]).records[0];
    expect(record.data.details.showWaive).toBe(false);
  });

  it('debits the fee assessed on the request, the carrier fee when none is given, and refuses a negative or malformed one', () => {
    expect(nsfFeeToDebit(undefined, settings.nsfFeeCents)).toBe(2500);
    expect(nsfFeeToDebit('', settings.nsfFeeCents)).toBe(2500);
    expect(nsfFeeToDebit('30.5', settings.nsfFeeCents)).toBe(3050);
    expect(nsfFeeToDebit(0, settings.nsfFeeCents)).toBe(0);
    for (const bad of ['-5', 'ten', '1.005']) expect(() => nsfFeeToDebit(bad, settings.nsfFeeCents), bad).toThrow(InvalidNsfRequestError);
  });

  it('refuses to reverse a payment twice, or anything that is not a payment of this account', () => {
    const account = paidAccount();
    const done = [...account, ...nsfEntries(account, request(), contexts)];
    expect(() => nsfEntries(done, request(), contexts)).toThrow('Payment pay-1 was already returned for non-sufficient funds');
    expect(() => nsfEntries(account, request({ paymentId: 'inv-1' }), contexts)).toThrow(PaymentNotReversibleError);
    expect(() => nsfEntries(account, request({ paymentId: 'elsewhere' }), contexts)).toThrow('Payment elsewhere was not found on this account');
  });

  it('needs the new due date to postpone a cancellation', () => {
    expect(() => nsfEntries(paidAccount(), request({ allowCancel: false, dueDate: null }), contexts)).toThrow('Postponing the cancellation needs the new due date');
    expect(nsfEntries(paidAccount(), request({ allowCancel: false }), contexts)[0].allowCancel).toBe(false);
  });

  it('reads the due date from its month, day and year parts', () => {
    expect(nsfDueDate({ dueMonth: '2', dueDay: '29', dueYear: '2028' })).toBe('2028-02-29');
    expect(nsfDueDate({})).toBeNull();
    expect(() => nsfDueDate({ dueMonth: '2', dueDay: '29', dueYear: '2026' })).toThrow('dueMonth, dueDay and dueYear must together name a date');
    expect(() => nsfDueDate({ dueMonth: '2', dueYear: '2026' })).toThrow(InvalidNsfRequestError);
  });
});
