/** The pure rules of a claim's money (shared/claims/money-rules.ts): deductible allocation, the limit, authority, the reserve a payment lowers, duplicates, a recovery's split, the figures. */
import { describe, expect, it } from 'vitest';
import {
  allocateDeductible,
  authorityOf,
  brokenLimits,
  deductibleRemaining,
  figuresOf,
  limitProblem,
  limitRemaining,
  ledgersFromHistory,
  limitUsed,
  paymentFingerprint,
  reserveAfterPayment,
  reserveAuthorityProblem,
  shown,
  splitRecovery,
} from '../../shared/claims/money-rules.js';
import type { ClaimPayment, PaymentLine } from '../../shared/claims/model.js';

const AUTHORITY = [
  { role: 'Claims Adjuster', reservePerExposure: '25000.00', perPayment: '10000.00' },
  { role: 'Claims Manager', reservePerExposure: '100000.00', perPayment: '50000.00' },
];

const line = (exposureId: string, amountCents: number, costType: 'loss' | 'expense' = 'loss'): PaymentLine => ({
  exposureId, coverage: 'Dwelling', costType, grossCents: amountCents, deductibleCents: 0, amountCents, transactionId: `t-${exposureId}-${amountCents}`, reserveLoweredCents: 0, releasedCents: 0,
});
const payment = (fields: Partial<ClaimPayment>): ClaimPayment => ({
  paymentId: 'p1', claimId: 'c1', claimNumber: 'CL-2026-1', kind: 'claim_payment', lines: [], amountCents: 0, payees: [], method: 'check', invoiceNumber: null, serviceFrom: null, serviceTo: null, final: false,
  status: 'approved', brokenLimits: [], madeBy: 'a', madeAt: '2026-01-01T00:00:00.000Z', approvedBy: null, approvedAt: null, issuedAt: null, issuedDate: null, checkNumber: null, traceNumber: null, clearedDate: null,
  voidedAt: null, voidedBy: null, voidReason: null, memo: null, version: 1, ...fields,
});

describe('the deductible', () => {
  it('takes the worked claim\'s 1,000.00 from the 11,250.00 Dwelling payment, leaving 0.00', () => {
    expect(allocateDeductible(100000, [{ costType: 'loss', grossCents: 1125000, deductibleApplies: true }])).toEqual({ taken: [100000], remainingCents: 0 });
  });

  it('is taken once per occurrence across the lines in order, and never from expense or a coverage without it', () => {
    const lines = [
      { costType: 'loss' as const, grossCents: 60000, deductibleApplies: true },
      { costType: 'expense' as const, grossCents: 50000, deductibleApplies: true },
      { costType: 'loss' as const, grossCents: 120000, deductibleApplies: false },
      { costType: 'loss' as const, grossCents: 100000, deductibleApplies: true },
      { costType: 'loss' as const, grossCents: 100000, deductibleApplies: true },
    ];
    expect(allocateDeductible(100000, lines)).toEqual({ taken: [60000, 0, 0, 40000, 0], remainingCents: 0 });
  });

  it('remains what the ledger has not applied, never below zero; none when the policy has none', () => {
    expect(deductibleRemaining(100000, { appliedCents: 25000, reimbursedCents: 0 })).toBe(75000);
    expect(deductibleRemaining(100000, { appliedCents: 125000, reimbursedCents: 0 })).toBe(0);
    expect(deductibleRemaining(100000, undefined)).toBe(100000);
    expect(deductibleRemaining(null, undefined)).toBe(0);
  });
});

describe('the limit', () => {
  const exposure = { coverage: 'Other Structures', limitCents: 2500000, limitPer: 'occurrence' as const };

  it('counts the loss payments not voided, waiting ones included, and not expense', () => {
    const payments = [
      payment({ status: 'approved', lines: [line('x', 1000000), line('x', 50000, 'expense')] }),
      payment({ status: 'pending_approval', lines: [line('x', 500000)] }),
      payment({ status: 'void', lines: [line('x', 900000)] }),
      payment({ status: 'issued', lines: [line('y', 700000)] }),
    ];
    expect(limitUsed(payments, 'x')).toBe(1500000);
    expect(limitRemaining(2500000, 1500000)).toBe(1000000);
    expect(limitRemaining(null, 1500000)).toBeNull();
  });

  it('refuses past it naming the coverage, its limit and what remains; takes the whole of what remains', () => {
    expect(limitProblem(exposure, 1500000, 1000001)).toBe('amount: 10,000.01 passes the Other Structures limit of 25,000.00 per occurrence: 10,000.00 remains');
    expect(limitProblem(exposure, 1500000, 1000000)).toBeUndefined();
    expect(limitProblem({ ...exposure, limitCents: null }, 1500000, 99999999)).toBeUndefined();
  });
});

describe('authority', () => {
  it("is the widest of the caller's roles; an Administrator's unlimited; none for a role not listed", () => {
    expect(authorityOf({ isAdministrator: false, roleNames: ['Claims Adjuster'] }, AUTHORITY)).toEqual({ reservePerExposureCents: 2500000, perPaymentCents: 1000000, role: 'Claims Adjuster' });
    expect(authorityOf({ isAdministrator: false, roleNames: ['claims adjuster', 'Claims Manager'] }, AUTHORITY)).toMatchObject({ reservePerExposureCents: 10000000, perPaymentCents: 5000000, role: 'Claims Manager' });
    expect(authorityOf({ isAdministrator: true, roleNames: [] }, AUTHORITY)).toMatchObject({ reservePerExposureCents: null, perPaymentCents: null });
    expect(authorityOf({ isAdministrator: false, roleNames: ['Underwriter'] }, AUTHORITY)).toMatchObject({ reservePerExposureCents: 0, perPaymentCents: 0 });
  });

  it("breaks the adjuster's 10,000.00 with the worked claim's 10,250.00, naming the limit; a manager's does not", () => {
    const adjuster = authorityOf({ isAdministrator: false, roleNames: ['Claims Adjuster'] }, AUTHORITY);
    expect(brokenLimits(adjuster, 1025000)).toEqual(["payment of 10,250.00 is above the Claims Adjuster's payment authority of 10,000.00"]);
    expect(brokenLimits(adjuster, 1000000)).toEqual([]);
    expect(brokenLimits(authorityOf({ isAdministrator: false, roleNames: ['Claims Manager'] }, AUTHORITY), 1025000)).toEqual([]);
    expect(reserveAuthorityProblem(adjuster, 2500001)).toMatch(/reserve authority of 25,000\.00 per exposure/);
    expect(reserveAuthorityProblem(adjuster, 2500000)).toBeUndefined();
  });
});

describe('a payment, a duplicate, a recovery', () => {
  it('lowers its reserve by its amount, never below zero; a final one releases the rest', () => {
    expect(reserveAfterPayment(1200000, 1025000, false)).toEqual({ loweredCents: 1025000, releasedCents: 0 });
    expect(reserveAfterPayment(100000, 120000, false)).toEqual({ loweredCents: 100000, releasedCents: 0 });
    expect(reserveAfterPayment(150000, 120000, true)).toEqual({ loweredCents: 120000, releasedCents: 30000 });
  });

  it('fingerprints a payment by its payees (any order, not the joint mortgagees), gross amount and invoice (any case): the duplicate guard', () => {
    const earlier = payment({ paymentId: 'p1', lines: [line('x1', 65000)], amountCents: 65000, invoiceNumber: 'ACE-1', payees: [{ contactId: 'b', name: 'B', as: 'payee' }, { contactId: 'a', name: 'A', as: 'payee' }, { contactId: 'm', name: 'Bank', as: 'mortgagee' }] });
    const print = paymentFingerprint({ payeeIds: ['a', 'b'], amountCents: 65000, invoiceNumber: 'ace-1 ' });
    expect(paymentFingerprint({ payeeIds: ['b', 'a', 'a'], amountCents: 65000, invoiceNumber: 'ACE-1' })).toBe(print);
    expect(paymentFingerprint({ payeeIds: ['a'], amountCents: 65000, invoiceNumber: 'ACE-1' })).not.toBe(print);
    expect(paymentFingerprint({ payeeIds: ['a', 'b'], amountCents: 65001, invoiceNumber: 'ACE-1' })).not.toBe(print);
    expect(paymentFingerprint({ payeeIds: ['a', 'b'], amountCents: 65000, invoiceNumber: null })).not.toBe(print);
    // A claim's history: its payments not voided listed under their fingerprints (a confirmed repeat beside the first), and each limited exposure's use.
    const history = ledgersFromHistory({ appliedCents: 100000, reimbursedCents: 0 }, [{ exposureId: 'x1', limitCents: 2500000 }, { exposureId: 'x2', limitCents: null }], [
      earlier,
      { ...earlier, paymentId: 'p2' },
      { ...earlier, paymentId: 'p3', status: 'void' },
      payment({ paymentId: 'p4', lines: [line('x1', 30000, 'expense')], amountCents: 30000 }),
    ]);
    expect(history.fingerprints.get(print)).toEqual(['p1', 'p2']);
    expect([...history.limitUsed]).toEqual([['x1', 130000]]);
    expect(history.deductible).toEqual({ appliedCents: 100000, reimbursedCents: 0 });
  });

  it("reimburses the insured's deductible first out of a recovery, the rest to the carrier", () => {
    expect(splitRecovery(500000, { appliedCents: 100000, reimbursedCents: 0 })).toEqual({ reimbursedCents: 100000, carrierShareCents: 400000 });
    expect(splitRecovery(60000, { appliedCents: 100000, reimbursedCents: 0 })).toEqual({ reimbursedCents: 60000, carrierShareCents: 0 });
    expect(splitRecovery(60000, { appliedCents: 100000, reimbursedCents: 60000 })).toEqual({ reimbursedCents: 40000, carrierShareCents: 20000 });
    expect(splitRecovery(60000, undefined)).toEqual({ reimbursedCents: 0, carrierShareCents: 60000 });
  });

  it('counts incurred as paid less recovered plus outstanding: the worked claim nets 7,450.00 of loss', () => {
    expect(figuresOf({ reserveCents: 0, paidCents: 1145000, recoveredCents: 400000 })).toMatchObject({ incurredCents: 745000, reserveCents: 1145000, outstandingCents: 0 });
    expect(shown(-123456789)).toBe('-1,234,567.89');
    expect(shown(5)).toBe('0.05');
  });
});
