/**
 * The rules of a claim's money, as plain functions over plain data (no store, no clock): the
 * deductible taken once per occurrence, the coverage's limit, the caller's authority, a payment's
 * effect on its reserve, the duplicate guard's fingerprint, a recovery's split and the accounting overview. The
 * service (money.ts) reads, asks these, and commits; every figure of a claim's money comes from here.
 */
import { createHash } from 'node:crypto';
import type { ClaimsRules } from '../catalog/index.js';
import { formatCents, toCents, type Cents } from '../platform/money.js';
import type { ClaimPayment, CostType, DeductibleLedger, ExposureRecord, ExposureTotals } from './model.js';

/** An amount as a person reads it in a message: 10,000.00 (from the cents, exactly). */
export const shown = (cents: Cents) => formatCents(cents).replace(/\B(?=(\d{3})+\.)/g, ',');

// ------------------------------------------------------------------ the deductible

/** What one payment line asks, before the deductible. */
export interface LineAsked {
  costType: CostType;
  grossCents: Cents;
  /** The exposure's coverage takes the policy deductible (Section I property: Dwelling, Other Structures, Personal Property). */
  deductibleApplies: boolean;
}

export const deductibleRemaining = (deductibleCents: Cents | null, ledger: DeductibleLedger | undefined): Cents => Math.max(0, (deductibleCents ?? 0) - (ledger?.appliedCents ?? 0));

/**
 * The deductible taken from each line, in order: once per occurrence, from the first loss payments
 * on coverages that take it, until what remains of it is used up. Expense (adjusting, legal) and
 * coverages without it (Loss of Use, Section II) take none.
 */
export function allocateDeductible(remainingCents: Cents, lines: readonly LineAsked[]): { taken: Cents[]; remainingCents: Cents } {
  let remaining = remainingCents;
  const taken = lines.map((line) => {
    if (line.costType !== 'loss' || !line.deductibleApplies || remaining <= 0) return 0;
    const take = Math.min(remaining, line.grossCents);
    remaining -= take;
    return take;
  });
  return { taken, remainingCents: remaining };
}

// ------------------------------------------------------------------ the limit

/**
 * What the carrier has committed on an exposure's coverage: its loss payments not voided, waiting
 * approval included (two payments waiting could otherwise pass the limit together).
 */
export function limitUsed(payments: readonly Pick<ClaimPayment, 'status' | 'lines'>[], exposureId: string): Cents {
  let used = 0;
  for (const payment of payments) {
    if (payment.status === 'void') continue;
    for (const line of payment.lines) if (line.exposureId === exposureId && line.costType === 'loss') used += line.amountCents;
  }
  return used;
}

/** What remains of the limit (null: the coverage has none). */
export const limitRemaining = (limitCents: Cents | null, usedCents: Cents): Cents | null => (limitCents === null ? null : Math.max(0, limitCents - usedCents));

/** The refusal of a loss payment past the coverage's limit, naming the coverage, its limit and what remains; undefined within it. */
export function limitProblem(exposure: Pick<ExposureRecord, 'coverage' | 'limitCents' | 'limitPer'>, usedCents: Cents, amountCents: Cents): string | undefined {
  if (exposure.limitCents === null) return undefined;
  const remaining = limitRemaining(exposure.limitCents, usedCents)!;
  if (amountCents <= remaining) return undefined;
  return `amount: ${shown(amountCents)} passes the ${exposure.coverage} limit of ${shown(exposure.limitCents)} per ${exposure.limitPer}: ${shown(remaining)} remains`;
}

// ------------------------------------------------------------------ authority

/** A caller's authority in cents; null: unlimited. */
export interface Authority {
  reservePerExposureCents: Cents | null;
  perPaymentCents: Cents | null;
  /** The role it comes from, for messages. */
  role: string;
}

/**
 * The widest authority among the caller's roles (the rules name roles by name): an Administrator's
 * is unlimited; a caller none of whose roles is listed has none (every payment waits, every reserve is refused).
 */
export function authorityOf(caller: { isAdministrator: boolean; roleNames: readonly string[] }, authority: ClaimsRules['authority']): Authority {
  if (caller.isAdministrator) return { reservePerExposureCents: null, perPaymentCents: null, role: 'Administrator' };
  const held = authority.filter((entry) => caller.roleNames.some((name) => name.toLowerCase() === entry.role.toLowerCase()));
  if (held.length === 0) return { reservePerExposureCents: 0, perPaymentCents: 0, role: caller.roleNames[0] ?? 'no claims role' };
  const widest = held.reduce((best, entry) => (toCents(entry.perPayment) > toCents(best.perPayment) ? entry : best));
  return { reservePerExposureCents: Math.max(...held.map((entry) => toCents(entry.reservePerExposure))), perPaymentCents: toCents(widest.perPayment), role: widest.role };
}

/** A reserve above the caller's authority, refused naming the limit; undefined within it. */
export function reserveAuthorityProblem(authority: Authority, outstandingCents: Cents): string | undefined {
  if (authority.reservePerExposureCents === null || outstandingCents <= authority.reservePerExposureCents) return undefined;
  return `amount: a reserve of ${shown(outstandingCents)} is above the ${authority.role}'s reserve authority of ${shown(authority.reservePerExposureCents)} per exposure`;
}

/** The limits a payment breaks of the caller's authority (empty: within it, paid at once). */
export function brokenLimits(authority: Authority, amountCents: Cents): string[] {
  if (authority.perPaymentCents === null || amountCents <= authority.perPaymentCents) return [];
  return [`payment of ${shown(amountCents)} is above the ${authority.role}'s payment authority of ${shown(authority.perPaymentCents)}`];
}

// ------------------------------------------------------------------ a payment's effect on its reserve

/**
 * What an approved payment does to its cost type's outstanding reserve: lowers it by the amount,
 * never below zero; a final payment releases what is left besides.
 */
export function reserveAfterPayment(outstandingCents: Cents, amountCents: Cents, final: boolean): { loweredCents: Cents; releasedCents: Cents } {
  const lowered = Math.min(Math.max(outstandingCents, 0), amountCents);
  return { loweredCents: lowered, releasedCents: final ? Math.max(outstandingCents, 0) - lowered : 0 };
}

// ------------------------------------------------------------------ the duplicate guard

export interface PaymentIdentity {
  payeeIds: readonly string[];
  amountCents: Cents;
  invoiceNumber: string | null;
}

const payeeSet = (ids: readonly string[]) => [...new Set(ids)].sort().join('|');
const invoiceOf = (invoice: string | null) => (invoice ?? '').trim().toLowerCase();

/**
 * The digest of a payment's identity (its payees as the caller named them, in any order, its gross
 * amount, its invoice number in any case): the key of the duplicate guard's record.
 */
export function paymentFingerprint(asked: PaymentIdentity): string {
  return createHash('sha256').update(`${payeeSet(asked.payeeIds)}\n${asked.amountCents}\n${invoiceOf(asked.invoiceNumber)}`).digest('hex').slice(0, 32);
}

/** A payment's identity as the duplicate guard knows it: the payees named (not the joint mortgagees), the gross amount asked, the invoice. */
export function identityOf(payment: ClaimPayment): PaymentIdentity {
  return {
    payeeIds: payment.payees.filter((payee) => payee.as === 'payee').map((payee) => payee.contactId),
    amountCents: payment.kind === 'claim_payment' ? payment.lines.reduce((sum, line) => sum + line.grossCents, 0) : payment.amountCents,
    invoiceNumber: payment.invoiceNumber,
  };
}

/**
 * The ledgers of a claim written before they had records of their own, from what it kept: the
 * deductible from the claim, each limited exposure's use from its payments, and the fingerprints
 * of its claim payments not voided. What its first money move writes as those records.
 */
export function ledgersFromHistory(ledger: DeductibleLedger | undefined, exposures: readonly Pick<ExposureRecord, 'exposureId' | 'limitCents'>[], payments: readonly ClaimPayment[]) {
  const fingerprints = new Map<string, string[]>();
  for (const payment of payments) {
    if (payment.kind !== 'claim_payment' || payment.status === 'void') continue;
    const fingerprint = paymentFingerprint(identityOf(payment));
    fingerprints.set(fingerprint, [...(fingerprints.get(fingerprint) ?? []), payment.paymentId]);
  }
  return {
    deductible: { appliedCents: ledger?.appliedCents ?? 0, reimbursedCents: ledger?.reimbursedCents ?? 0 },
    limitUsed: new Map(exposures.filter((exposure) => exposure.limitCents !== null).map((exposure) => [exposure.exposureId, limitUsed(payments, exposure.exposureId)])),
    fingerprints,
  };
}

// ------------------------------------------------------------------ a recovery

/**
 * A recovery received: the deductible the insured bore (taken, less what recoveries have reimbursed)
 * goes back to the insured first, in full if the recovery allows; the rest is the carrier's and lowers its paid loss.
 */
export function splitRecovery(amountCents: Cents, ledger: DeductibleLedger | undefined): { reimbursedCents: Cents; carrierShareCents: Cents } {
  const owed = Math.max(0, (ledger?.appliedCents ?? 0) - (ledger?.reimbursedCents ?? 0));
  const reimbursed = Math.min(owed, amountCents);
  return { reimbursedCents: reimbursed, carrierShareCents: amountCents - reimbursed };
}

// ------------------------------------------------------------------ the accounting overview

export interface CostFigures {
  /** Outstanding plus paid: what has been reserved for it in all. */
  reserveCents: Cents;
  paidCents: Cents;
  outstandingCents: Cents;
  recoveredCents: Cents;
  recoveryReserveCents: Cents;
  /** Paid less recovered plus outstanding. */
  incurredCents: Cents;
}

export function figuresOf(totals: ExposureTotals): CostFigures {
  return {
    reserveCents: totals.reserveCents + totals.paidCents,
    paidCents: totals.paidCents,
    outstandingCents: totals.reserveCents,
    recoveredCents: totals.recoveredCents,
    recoveryReserveCents: totals.recoveryReserveCents ?? 0,
    incurredCents: totals.paidCents - totals.recoveredCents + totals.reserveCents,
  };
}

export function addFigures(figures: readonly CostFigures[]): CostFigures {
  const total: CostFigures = { reserveCents: 0, paidCents: 0, outstandingCents: 0, recoveredCents: 0, recoveryReserveCents: 0, incurredCents: 0 };
  for (const figure of figures) for (const key of Object.keys(total) as (keyof CostFigures)[]) total[key] += figure[key];
  return total;
}
