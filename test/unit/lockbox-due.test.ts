import { describe, expect, it } from 'vitest';
import { lockboxAccount, lockboxDueFigures, lockboxDueOf, matchfileAccountOf, rowsOfLockboxDue, statusOf, type LockboxDue } from '../../shared/billing/lockbox.js';
import type { AccountEntry, BillingAccount } from '../../shared/billing/model.js';

const row = (id: string, type: AccountEntry['type'], date: string, amountCents: number, extra: Partial<AccountEntry> = {}): AccountEntry =>
  ({ id, type, date, postedAt: `${date}T00:00:00.000Z`, amountCents, summary: '', description: '', generatedBy: 'test', policyStatus: 'Active', fileKey: null, dueDate: null, billDate: null, cancelDate: null, schedule: null, reversesEntryId: null, allowCancel: null, waived: false, checkNumber: null, installmentNumber: null, ...extra });

const account = (rows: AccountEntry[], extra: Partial<BillingAccount> = {}): BillingAccount =>
  ({ policyId: 'p', termId: 't', policyNumber: '10-2026-7', lockboxNumber: '1020267', revisionId: 'r', scheduleId: 's', effectiveDate: '2026-01-01', expirationDate: '2027-01-01', policyStatus: 'Active', agencyId: null, contactIds: [], balanceCents: rows.reduce((total, entry) => total + entry.amountCents, 0), nonPayment: { status: 'current', cancelDate: null, chargeId: null }, nightlyDate: null, version: 1, ...extra });

// Four installments, a partial payment, a payment returned for NSF with its fee, an endorsement billed with the later installments, and a payment dated ahead.
const rows: AccountEntry[] = [
  row('i1', 'Invoice', '2026-01-01', 30000, { billDate: '2026-01-01', dueDate: '2026-01-21' }),
  row('i2', 'Invoice', '2026-04-01', 20000, { billDate: '2026-04-01', dueDate: '2026-04-21' }),
  row('i3', 'Invoice', '2026-07-01', 20000, { billDate: '2026-07-01', dueDate: '2026-07-21' }),
  row('i4', 'Invoice', '2026-10-01', 20000, { billDate: '2026-10-01', dueDate: '2026-10-21' }),
  row('pay1', 'Payment', '2026-01-15', -25000),
  row('pay2', 'Payment', '2026-02-01', -10000, { checkNumber: '1002' }),
  row('nsf', 'NSF Reversal', '2026-02-10', 10000, { reversesEntryId: 'pay2', dueDate: '2026-03-01' }),
  row('fee', 'NSF Fee', '2026-02-10', 2500, { billDate: '2026-02-10', dueDate: '2026-03-01' }),
  row('end', 'Endorsement', '2026-05-01', 6000, { installmentShares: [{ installmentNumber: 3, billDate: '2026-07-01', dueDate: '2026-07-21', amountCents: 3000 }, { installmentNumber: 4, billDate: '2026-10-01', dueDate: '2026-10-21', amountCents: 3000 }] }),
  row('pay3', 'Payment', '2026-08-01', -40000),
];

describe('a lockbox-due record', () => {
  it('gives the figures the account rows give, on every day of the term and after it', () => {
    const owing = account(rows);
    const due = lockboxDueOf(owing, rows)!;
    for (let day = new Date('2025-12-15'); day <= new Date('2027-02-01'); day = new Date(day.getTime() + 5 * 864e5)) {
      const asOf = day.toISOString().slice(0, 10);
      const { currentDueCents, minimumAcceptableCents, alwaysReject } = lockboxAccount({ policyNumber: owing.policyNumber, policyStatus: statusOf(owing, asOf) }, rows, asOf);
      expect(lockboxDueFigures(due, asOf), asOf).toEqual({ currentDueCents, minimumAcceptableCents, alwaysReject });
    }
  });

  it('stands for rows that a lockbox file judges and posts from as it would from the account rows', () => {
    const owing = account(rows);
    const due = lockboxDueOf(owing, rows)!;
    const standIns = rowsOfLockboxDue(due);
    // The record the stand-in rows give is the record itself; with a payment posted on them, the record the real rows and that payment give.
    expect(lockboxDueOf(owing, standIns)).toEqual(due);
    const payment = row('pay4', 'Payment', '2026-08-01', -5000, { checkNumber: '1004' });
    const paid = account([...rows, payment]);
    expect(lockboxDueOf(paid, [...standIns, payment])).toEqual(lockboxDueOf(paid, [...rows, payment]));
    for (let day = new Date('2025-12-15'); day <= new Date('2027-02-01'); day = new Date(day.getTime() + 5 * 864e5)) {
      const asOf = day.toISOString().slice(0, 10);
      const policy = { policyNumber: owing.policyNumber, policyStatus: statusOf(owing, asOf) };
      const { postedChecks: _fromRows, ...fromRows } = lockboxAccount(policy, rows, asOf);
      const { postedChecks: _fromRecord, ...fromRecord } = lockboxAccount(policy, standIns, asOf);
      expect(fromRecord, asOf).toEqual(fromRows);
    }
    // Paid in full by the payment: no record is left.
    const settling = row('pay5', 'Payment', '2026-08-01', -paid.balanceCents);
    const settled = account([...rows, payment, settling]);
    expect(lockboxDueOf(settled, [...standIns, payment, settling])).toBeNull();
  });

  it('is kept only while the account owes', () => {
    expect(lockboxDueOf(account(rows, { balanceCents: 0 }), rows)).toBeNull();
  });

  it('shows the earliest owing term not cancelled, else the latest term when it owes', () => {
    const due = (termId: string, effectiveDate: string, policyStatus: string, laterTermId: string | null) => ({ termId, effectiveDate, policyStatus, laterTermId }) as LockboxDue;
    expect(matchfileAccountOf([due('t2', '2027-01-01', 'Active', null), due('t1', '2026-01-01', 'Active', 't2')])?.termId).toBe('t1');
    expect(matchfileAccountOf([due('t1', '2026-01-01', 'Cancelled', 't2'), due('t2', '2027-01-01', 'Active', null)])?.termId).toBe('t2');
    expect(matchfileAccountOf([due('t1', '2026-01-01', 'Cancelled', 't2'), due('t2', '2027-01-01', 'Cancelled', null)])?.termId).toBe('t2');
    // The latest term owes nothing: payments go there, and the matchfile shows none.
    expect(matchfileAccountOf([due('t1', '2026-01-01', 'Cancelled', 't2')])).toBeUndefined();
  });
});
