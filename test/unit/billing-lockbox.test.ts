import { describe, expect, it } from 'vitest';
import { invoiceEntry, paymentEntry, type EntryContext } from '../../shared/billing/account-history.js';
import {
  decideLockboxTransactions,
  InvalidPaymentAmountError,
  lockboxAccount,
  lockboxAlwaysRejects,
  lockboxMatchRecord,
  lockboxPolicyNumber,
  parsePaymentAmount,
  type LockboxAccount,
} from '../../shared/billing/lockbox.js';
import type { AccountEntry, Installment } from '../../shared/billing/model.js';
import { nsfEntries } from '../../shared/billing/nsf.js';

const context = (id: string, postedAt: string): EntryContext => ({ id, postedAt, generatedBy: 'system', policyStatus: 'Active' });
const installment = (number: number, billDate: string, dueDate: string, amountDueCents: number): Installment => ({
  number, billDate, dueDate, amountDueCents, details: [{ type: 'Premium', amountCents: amountDueCents }],
});

/** Quarterly on the worked example: the first installment paid, the second billed. */
function quarterlyAccount(): AccountEntry[] {
  return [
    invoiceEntry(context('inv-1', '2026-01-01T00:00:00Z'), installment(1, '2026-01-01', '2026-01-01', 35565), 4),
    paymentEntry(context('pay-1', '2026-01-03T00:00:00Z'), { date: '2026-01-03', amountCents: 35565, checkNumber: '1001' }),
    invoiceEntry(context('inv-2', '2026-03-12T00:00:00Z'), installment(2, '2026-03-12', '2026-04-01', 16932), 4),
    invoiceEntry(context('inv-3', '2026-06-11T00:00:00Z'), installment(3, '2026-06-11', '2026-07-01', 16932), 4),
  ];
}

const active: LockboxAccount = { policyNumber: '10-2026-7', currentDueCents: 16932, minimumAcceptableCents: 16932, alwaysReject: false, postedChecks: ['1001'] };
const cancelled: LockboxAccount = { policyNumber: '10-2026-8', currentDueCents: 0, minimumAcceptableCents: 0, alwaysReject: true, postedChecks: [] };

describe('lockbox matchfile', () => {
  it('knows a policy by its digits only', () => {
    expect(lockboxPolicyNumber('10-2026-7')).toBe('1020267');
    expect(lockboxPolicyNumber('10-2026-123')).toBe('102026123');
  });

  it('writes a policy line with what is billed and open, and the least it accepts, in pennies', () => {
    expect(lockboxMatchRecord(lockboxAccount({ policyNumber: '10-2026-7', policyStatus: 'Active' }, quarterlyAccount(), '2026-03-20'))).toEqual({
      policy_number: '1020267', current_due_amount: 16932, minimum_acceptable_amount: 16932, always_reject_flag: false,
    });
  });

  it('asks at least for everything due by the day, and counts only bills already sent', () => {
    const on = (asOf: string) => lockboxAccount({ policyNumber: '10-2026-7', policyStatus: 'Active' }, quarterlyAccount(), asOf);
    expect(on('2026-03-11')).toMatchObject({ currentDueCents: 0, minimumAcceptableCents: 0 });
    expect(on('2026-06-11')).toMatchObject({ currentDueCents: 33864, minimumAcceptableCents: 16932 });
    expect(on('2026-07-01')).toMatchObject({ currentDueCents: 33864, minimumAcceptableCents: 33864 });
  });

  it('no longer counts a check returned for non-sufficient funds as posted, and owes its amount again', () => {
    const rows = quarterlyAccount();
    const nsf = nsfEntries(rows, { paymentId: 'pay-1', reversedOn: '2026-01-10', dueDate: null, feeCents: 2500, allowCancel: true }, {
      reversal: context('nsf', '2026-01-10T00:00:00Z'), fee: context('nsf-fee', '2026-01-10T00:00:01Z'),
    });
    const account = lockboxAccount({ policyNumber: '10-2026-7', policyStatus: 'Active' }, [...rows, ...nsf], '2026-01-10');
    expect(account).toMatchObject({ currentDueCents: 35565 + 2500, minimumAcceptableCents: 35565 + 2500, postedChecks: [] });
    expect(lockboxAccount({ policyNumber: '10-2026-7', policyStatus: 'Active' }, rows, '2026-01-10').postedChecks).toEqual(['1001']);
  });

  it('always rejects a policy that is not active, unless a cancelled or expired one still owes money', () => {
    expect(lockboxAlwaysRejects('Active', 0)).toBe(false);
    expect(lockboxAlwaysRejects('Cancelled', 0)).toBe(true);
    expect(lockboxAlwaysRejects('Cancelled', 1200)).toBe(false);
    expect(lockboxAlwaysRejects('Expired', 0)).toBe(true);
    expect(lockboxAlwaysRejects('Unsubmitted', 0)).toBe(true);
  });
});

describe('lockbox payment amounts', () => {
  it('accepts positive amounts with at most two decimals, as text or number', () => {
    expect(parsePaymentAmount('169.32')).toBe(16932);
    expect(parsePaymentAmount(169.32)).toBe(16932);
    expect(parsePaymentAmount(' 100 ')).toBe(10000);
    expect(parsePaymentAmount('0.5')).toBe(50);
  });

  it('refuses non-positive, malformed, over-precise and non-finite amounts, saying why', () => {
    const why = (value: unknown) => {
      try {
        parsePaymentAmount(value);
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidPaymentAmountError);
        return (error as Error).message;
      }
    };
    expect(why('0.00')).toBe('Payment "0.00" must be more than zero');
    expect(why(0)).toBe('Payment 0 must be more than zero');
    expect(why('-5.00')).toBe('Payment "-5.00" must be more than zero');
    expect(why('12.345')).toBe('Payment "12.345" has more than two decimals');
    expect(why(12.345)).toBe('Payment 12.345 has more than two decimals');
    expect(why('12,00')).toBe('Payment "12,00" is not an amount');
    expect(why('1e3')).toBe('Payment "1e3" is not an amount');
    expect(why('')).toBe('Payment "" is not an amount');
    expect(why(Number.POSITIVE_INFINITY)).toBe('Payment Infinity is not an amount');
    expect(why(Number.NaN)).toBe('Payment NaN is not an amount');
    expect(why(null)).toBe('Payment of type null is not an amount');
    expect(why({ amount: 5 })).toBe('Payment of type object is not an amount');
    expect(why('123456789012.00')).toBe('Payment "123456789012.00" is not an amount');
  });
});

describe('lockbox transactions', () => {
  const decide = (transactions: unknown[], accounts = [active, cancelled]) =>
    decideLockboxTransactions(transactions, accounts).map((decision) => decision.outcome);

  it('accepts a payment of at least the minimum to a known policy, and hands back the payment to post', () => {
    const [decision] = decideLockboxTransactions([{ policy: '1020267', check: '2002', payment: '169.32' }], [active]);
    expect(decision).toEqual({
      outcome: { result: 'success', detail: '' },
      payment: { policyNumber: '10-2026-7', checkNumber: '2002', amountCents: 16932 },
    });
    expect(decide([{ policy: '1020267', check: '2003', payment: 500 }])).toEqual([{ result: 'success', detail: '' }]);
  });

  it('refuses each kind of bad transaction with a reason, answering in the order given', () => {
    expect(decide([
      { policy: '1020269', check: '2002', payment: '169.32' },
      { policy: '1020267', check: '2002', payment: '169.31' },
      { policy: '1020268', check: '2002', payment: '169.32' },
      { policy: '1020267', check: '2002', payment: '169.3x' },
      { policy: '1020267', check: '1001', payment: '169.32' },
      { policy: '1020267', check: '', payment: '169.32' },
      { policy: '', check: '2002', payment: '169.32' },
      'not a transaction',
      { policy: '1020267', check: '2002', payment: '169.32' },
    ])).toEqual([
      { result: 'error', detail: 'No policy matches lockbox number 1020269' },
      { result: 'error', detail: 'Payment 169.31 is below the minimum acceptable 169.32 for policy 10-2026-7' },
      { result: 'error', detail: 'Policy 10-2026-8 does not accept lockbox payments' },
      { result: 'error', detail: 'Payment "169.3x" is not an amount' },
      { result: 'error', detail: 'Check 1001 was already posted to policy 10-2026-7' },
      { result: 'error', detail: 'The check number is missing' },
      { result: 'error', detail: 'The policy number is missing' },
      { result: 'error', detail: 'The transaction is not an object with policy, check and payment' },
      { result: 'success', detail: '' },
    ]);
  });

  it('posts a check once even when the bank sends it twice in one batch', () => {
    expect(decide([
      { policy: '1020267', check: '3003', payment: '200.00' },
      { policy: '10-2026-7', check: ' 3003 ', payment: '200.00' },
      { policy: '1020267', check: 3004, payment: '200.00' },
    ])).toEqual([
      { result: 'success', detail: '' },
      { result: 'error', detail: 'Check 3003 was already posted to policy 10-2026-7' },
      { result: 'success', detail: '' },
    ]);
  });

  it('refuses a lockbox number two policy numbers share rather than guess between them', () => {
    const twin: LockboxAccount = { ...active, policyNumber: '102-026-7' };
    expect(decide([{ policy: '1020267', check: '4004', payment: '200.00' }], [active, twin])).toEqual([
      { result: 'error', detail: 'Lockbox number 1020267 matches several policies; post it by hand' },
    ]);
  });
});
