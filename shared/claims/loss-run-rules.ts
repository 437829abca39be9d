/**
 * A claim's money as it stood on a valuation date, pure: its transactions up to that day replayed
 * into the exposures' totals, which money-rules.ts then turns into figures exactly as it does for
 * the accounting overview (figuresOf, addFigures), so a loss run valued today and the overview
 * agree to the cent by construction. No store, no clock; unit-tested (test/unit/claims-loss-run.test.ts).
 */
import { ratioOfCents, type Cents } from '../platform/money.js';
import type { ClaimPayment, ClaimRecord, ClaimStatus, ClaimTransaction, CostType, ExposureTotals } from './model.js';
import { addFigures, figuresOf, type CostFigures } from './money-rules.js';

/** The day (UTC, as every stored instant is) an instant falls on. */
const dayOf = (instant: string) => instant.slice(0, 10);
const onOrBefore = (instant: string | null | undefined, asOf: string) => !!instant && dayOf(instant) <= asOf;

const ZERO: ExposureTotals = { reserveCents: 0, paidCents: 0, recoveredCents: 0, recoveryReserveCents: 0 };

/**
 * Each exposure's and cost type's totals as of the end of `asOf`: a reserve row moves the
 * outstanding reserve the day it was recorded; a payment line is paid from the day its payment was
 * approved (waiting approval it is not paid) until the day it was voided; a recovery counts the
 * carrier's share the day it was recorded (the deductible reimbursed to the insured is his, not a
 * recovery of the carrier's) and lowers the recovery expected by what came in, as the service does.
 */
export function totalsAsOf(transactions: readonly ClaimTransaction[], payments: readonly ClaimPayment[], asOf: string): Map<string, ExposureTotals> {
  const paymentOf = new Map(payments.map((payment) => [payment.paymentId, payment]));
  const totals = new Map<string, ExposureTotals>();
  const change = (row: ClaimTransaction, costType: CostType, update: (current: ExposureTotals) => ExposureTotals) => {
    const key = `${row.exposureId}|${costType}`;
    totals.set(key, update(totals.get(key) ?? { ...ZERO }));
  };
  const ordered = [...transactions].sort((a, b) => a.at.localeCompare(b.at) || a.seq - b.seq);
  for (const row of ordered) {
    if (!onOrBefore(row.at, asOf)) continue;
    switch (row.type) {
      case 'reserve':
        change(row, row.costType, (current) => ({ ...current, reserveCents: current.reserveCents + row.amountCents }));
        break;
      case 'recovery_reserve':
        change(row, 'loss', (current) => ({ ...current, recoveryReserveCents: (current.recoveryReserveCents ?? 0) + row.amountCents }));
        break;
      case 'payment': {
        const payment = row.paymentId ? paymentOf.get(row.paymentId) : undefined;
        const paid = payment ? onOrBefore(payment.approvedAt, asOf) && !onOrBefore(payment.voidedAt, asOf) : row.status === 'approved' || row.status === 'issued';
        if (paid) change(row, row.costType, (current) => ({ ...current, paidCents: current.paidCents + row.amountCents }));
        break;
      }
      case 'recovery':
        change(row, 'loss', (current) => {
          const expected = current.recoveryReserveCents ?? 0;
          return { ...current, recoveredCents: current.recoveredCents + (row.carrierShareCents ?? row.amountCents), recoveryReserveCents: expected - Math.min(expected, row.amountCents) };
        });
        break;
    }
  }
  return totals;
}

/** The status a claim had at the end of `asOf`: its last status change by then. */
export function statusAsOf(claim: Pick<ClaimRecord, 'statusHistory' | 'status'>, asOf: string): ClaimStatus {
  const changes = claim.statusHistory.filter((change) => onOrBefore(change.at, asOf));
  return changes.length > 0 ? changes[changes.length - 1].status : claim.status;
}

/** Whether the carrier knew of the claim by the end of `asOf` (a claim recorded later is not on a loss run valued then). */
export const knownBy = (claim: Pick<ClaimRecord, 'createdAt'>, asOf: string) => onOrBefore(claim.createdAt, asOf);

export interface ClaimFiguresAsOf {
  loss: CostFigures;
  expense: CostFigures;
  paidCents: Cents;
  outstandingCents: Cents;
  recoveredCents: Cents;
  incurredCents: Cents;
}

/** A claim's loss and expense figures as of the end of `asOf`, and their sums (money-rules' figures of the replayed totals). */
export function claimFiguresAsOf(transactions: readonly ClaimTransaction[], payments: readonly ClaimPayment[], asOf: string): ClaimFiguresAsOf {
  const totals = [...totalsAsOf(transactions, payments, asOf)];
  const of = (costType: CostType) => addFigures(totals.filter(([key]) => key.endsWith(`|${costType}`)).map(([, value]) => figuresOf(value)));
  const loss = of('loss');
  const expense = of('expense');
  return {
    loss,
    expense,
    paidCents: loss.paidCents + expense.paidCents,
    outstandingCents: loss.outstandingCents + expense.outstandingCents,
    recoveredCents: loss.recoveredCents + expense.recoveredCents,
    incurredCents: loss.incurredCents + expense.incurredCents,
  };
}

/** A ratio of cents to four decimals (platform/money.ts: the books' loss ratios come from the same place). */
export const ratioOf = (numeratorCents: Cents, denominatorCents: Cents): number | null => ratioOfCents(numeratorCents, denominatorCents);
