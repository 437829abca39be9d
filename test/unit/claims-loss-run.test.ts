import { describe, expect, it } from 'vitest';
import { claimFiguresAsOf, ratioOf, statusAsOf, totalsAsOf } from '../../shared/claims/loss-run-rules.js';
import { federalThresholdCents } from '../../shared/claims/vendor-1099.js';
import type { ClaimPayment, ClaimTransaction } from '../../shared/claims/model.js';

const row = (fields: Partial<ClaimTransaction> & Pick<ClaimTransaction, 'type' | 'costType' | 'amountCents' | 'at'>): ClaimTransaction => ({
  transactionId: crypto.randomUUID(), claimId: 'c', exposureId: 'dwelling', coverage: 'Dwelling', status: 'approved', source: 'set', by: 'someone', seq: 1, reason: null, ...fields,
});
const payment = (paymentId: string, fields: Partial<ClaimPayment>): ClaimPayment => ({ paymentId, approvedAt: null, voidedAt: null, ...fields }) as ClaimPayment;

describe('a claim valued as of a day', () => {
  const rows = [
    row({ type: 'reserve', costType: 'loss', amountCents: 1200000, at: '2026-01-10T10:00:00.000Z' }),
    row({ type: 'payment', costType: 'loss', amountCents: 1025000, at: '2026-01-11T10:00:00.000Z', paymentId: 'p1', status: 'issued' }),
    // Lowered when the payment was approved, the day after it was made.
    row({ type: 'reserve', costType: 'loss', amountCents: -1025000, at: '2026-01-12T10:00:00.000Z', source: 'payment', paymentId: 'p1' }),
    row({ type: 'recovery', costType: 'loss', amountCents: 500000, carrierShareCents: 400000, deductibleReimbursedCents: 100000, at: '2026-02-01T10:00:00.000Z', source: 'recovery' }),
  ];
  const payments = [payment('p1', { approvedAt: '2026-01-12T10:00:00.000Z' })];

  it('counts a payment from its approval, not while it waited', () => {
    expect(claimFiguresAsOf(rows, payments, '2026-01-11')).toMatchObject({ paidCents: 0, outstandingCents: 1200000, incurredCents: 1200000 });
    expect(claimFiguresAsOf(rows, payments, '2026-01-12')).toMatchObject({ paidCents: 1025000, outstandingCents: 175000, incurredCents: 1200000 });
  });

  it("counts the carrier's share of a recovery from the day it was recorded", () => {
    expect(claimFiguresAsOf(rows, payments, '2026-01-31').recoveredCents).toBe(0);
    expect(claimFiguresAsOf(rows, payments, '2026-02-01')).toMatchObject({ recoveredCents: 400000, incurredCents: 800000 });
  });

  it('takes a voided payment out from the day it was voided', () => {
    const voided = [payment('p1', { approvedAt: '2026-01-12T10:00:00.000Z', voidedAt: '2026-01-20T10:00:00.000Z' })];
    expect(totalsAsOf(rows, voided, '2026-01-19').get('dwelling|loss')?.paidCents).toBe(1025000);
    expect(totalsAsOf(rows, voided, '2026-01-20').get('dwelling|loss')?.paidCents).toBe(0);
  });

  it('knows the status the claim had then', () => {
    const claim = { status: 'reopened' as const, statusHistory: [{ status: 'open' as const, at: '2026-01-10T10:00:00Z', by: 'a', reason: null }, { status: 'closed' as const, at: '2026-01-20T10:00:00Z', by: 'a', reason: null }, { status: 'reopened' as const, at: '2026-03-01T10:00:00Z', by: 'a', reason: null }] };
    expect([statusAsOf(claim, '2026-01-19'), statusAsOf(claim, '2026-01-20'), statusAsOf(claim, '2026-03-01')]).toEqual(['open', 'closed', 'reopened']);
  });
});

describe('a ratio of cents', () => {
  it('is to four decimals, half away from zero, and none over no premium', () => {
    expect(ratioOf(745000, 16100)).toBe(46.2733);
    expect(ratioOf(1, 3)).toBe(0.3333);
    expect(ratioOf(2, 3)).toBe(0.6667);
    expect(ratioOf(-2, 3)).toBe(-0.6667);
    expect(ratioOf(100, 0)).toBeNull();
  });
});

describe("the 1099 threshold of a year", () => {
  it('is 600.00 through 2025 and 2,000.00 from 2026 on', () => {
    expect([federalThresholdCents(2024), federalThresholdCents(2025), federalThresholdCents(2026), federalThresholdCents(2027)]).toEqual([60000, 60000, 200000, 200000]);
  });
});
