/**
 * A claim's money move as it builds up (MoneyMove) and the ledgers it decides on (MoneyLedgers):
 * the deductible, the exposures' limit use, the payments' fingerprints, read from their records or,
 * for a claim stored before them, from its history and moved into them by the move.
 */
import type { Cents } from '../platform/money.js';
import type { TransactionWrite } from '../platform/transactions.js';
import type { ClaimDeductible, ClaimLimitUse, ClaimPayment, ClaimRecord, DeductibleLedger } from './model.js';
import { ExposureChanges, type MoneyRead } from './money-ledger.js';
import { ledgersFromHistory, paymentFingerprint, type PaymentIdentity } from './money-rules.js';
import {
  claimLedgerMoved,
  claimTransactionCreate,
  deductibleUnchanged,
  deductibleWrite,
  exposureMoneyUpdate,
  fingerprintAdd,
  fingerprintCreate,
  fingerprintKey,
  fingerprintRemove,
  limitUseWrite,
} from './store.js';

/**
 * The ledgers a money move decides on, each as stored (version 0: none stored yet, so none used):
 * the claim's deductible, and the limit use of the limited exposures it read. `moved`: the claim
 * was written before these records (its ledger on the claim), and this move writes them whole,
 * from its history, with the payments' fingerprints.
 */
export interface MoneyLedgers {
  deductible: ClaimDeductible;
  limitUses: Map<string, ClaimLimitUse>;
  moved?: { fingerprints: Map<string, string[]> };
}

/**
 * The ledgers of a claim's money move: from their records, or for a claim written before them
 * (its deductible ledger on the claim) from its history, which the caller then has read whole
 * (every exposure and payment): moved into their records by this move.
 */
export function ledgersOf(read: MoneyRead & { deductible?: ClaimDeductible; limitUses: readonly ClaimLimitUse[] }, payments?: readonly ClaimPayment[]): MoneyLedgers {
  const { claimId } = read.claim;
  const limited = read.exposures.filter((exposure) => exposure.limitCents !== null);
  if (read.claim.deductibleLedger) {
    if (!payments) throw new Error(`Claim ${read.claim.claimNumber}: its ledgers are moved from its history, which was not read`);
    const history = ledgersFromHistory(read.claim.deductibleLedger, limited, payments);
    return {
      deductible: { claimId, ...history.deductible, version: 0 },
      limitUses: new Map([...history.limitUsed].map(([exposureId, usedCents]) => [exposureId, { claimId, exposureId, usedCents, version: 0 }])),
      moved: { fingerprints: history.fingerprints },
    };
  }
  return {
    deductible: read.deductible ?? { claimId, appliedCents: 0, reimbursedCents: 0, version: 0 },
    limitUses: new Map(limited.map((exposure) => [exposure.exposureId, read.limitUses.find((use) => use.exposureId === exposure.exposureId) ?? { claimId, exposureId: exposure.exposureId, usedCents: 0, version: 0 }])),
  };
}

/** A claim written before the ledger records, whose first money move moves them: it reads the claim whole. */
export const ledgerOnClaim = (claim: ClaimRecord) => claim.deductibleLedger !== undefined;

/**
 * What one money move builds up before it commits: besides the rows, exposures and entries of
 * ExposureChanges (each exposure an update guarded by the status and reserves read), the ledgers it
 * changes or decided on (each guarded by the version read), the payments it lists under (or takes
 * off) a fingerprint.
 */
export class MoneyMove extends ExposureChanges {
  readonly writes: TransactionWrite[] = [];
  private readonly ledgers: MoneyLedgers;
  private readonly readDeductibleVersion: number;
  private deductibleChanged = false;
  private deductibleDecidedOn = false;
  private readonly limitUsesChanged = new Set<string>();
  private readonly listings: TransactionWrite[] = [];
  /** The fingerprint a payment of this move is listed under (its duplicate guard), if any. */
  listedUnder: string | undefined;
  constructor(read: MoneyRead, at: string, by: string, ledgers: MoneyLedgers) {
    super(read, at, by);
    this.ledgers = ledgers;
    this.readDeductibleVersion = ledgers.deductible.version;
  }

  /** The deductible ledger as it stands in the move. */
  deductible(): DeductibleLedger {
    return this.ledgers.deductible;
  }

  changeDeductible(change: (ledger: DeductibleLedger) => DeductibleLedger) {
    const { appliedCents, reimbursedCents } = change(this.ledgers.deductible);
    this.ledgers.deductible = { ...this.ledgers.deductible, appliedCents, reimbursedCents };
    this.deductibleChanged = true;
  }

  /** The move decided from the deductible ledger without changing it (none of it remained to take): guarded all the same. */
  decideOnDeductible() {
    this.deductibleDecidedOn = true;
  }

  /** What an exposure's limit has committed (null: the coverage has no limit). */
  limitUsed(exposureId: string): Cents | null {
    return this.ledgers.limitUses.get(exposureId)?.usedCents ?? (this.exposure(exposureId).limitCents === null ? null : 0);
  }

  changeLimitUse(exposureId: string, byCents: Cents) {
    const use = this.ledgers.limitUses.get(exposureId);
    if (!use || byCents === 0) return;
    this.ledgers.limitUses.set(exposureId, { ...use, usedCents: use.usedCents + byCents });
    this.limitUsesChanged.add(exposureId);
  }

  /**
   * A payment listed under its identity's fingerprint: refused at the commit while another one
   * not voided is listed there, unless `confirmed`. Answers the payment it repeats where the move
   * already knows it (a claim whose ledgers it moves); otherwise the commit's condition tells.
   */
  listPayment(identity: PaymentIdentity, paymentId: string, confirmed: boolean): string | undefined {
    const fingerprint = paymentFingerprint(identity);
    const moved = this.ledgers.moved?.fingerprints;
    if (moved) {
      const listed = moved.get(fingerprint) ?? [];
      if (listed.length > 0 && !confirmed) return listed[0];
      moved.set(fingerprint, [...listed, paymentId]);
      return undefined;
    }
    this.listedUnder = fingerprint;
    this.listings.push(fingerprintAdd(this.claim.claimId, fingerprint, paymentId, confirmed));
    return undefined;
  }

  /** A voided payment taken off its fingerprint. */
  unlistPayment(identity: PaymentIdentity, paymentId: string) {
    const fingerprint = paymentFingerprint(identity);
    const moved = this.ledgers.moved?.fingerprints;
    if (moved) moved.set(fingerprint, (moved.get(fingerprint) ?? []).filter((id) => id !== paymentId));
    else this.listings.push(fingerprintRemove(this.claim.claimId, fingerprint, paymentId));
  }

  /** The key of the record a payment's duplicate guard fails on. */
  fingerprintKey(): Record<string, string> | undefined {
    return this.listedUnder ? fingerprintKey(this.claim.claimId, this.listedUnder) : undefined;
  }

  /**
   * Every write of the area's own: the fingerprint listed first (so that a duplicate is the first
   * condition to fail), the exposures changed, the ledgers, the new rows, whatever else was added;
   * for a claim whose ledgers the move moves, every ledger record whole and the claim without the
   * ledger it carried (replaced at the version read: two such moves cannot both commit).
   */
  allWrites(): TransactionWrite[] {
    const { claimId } = this.claim;
    const moved = this.ledgers.moved;
    const ledgerWrites: TransactionWrite[] = [];
    const deductible = this.ledgers.deductible;
    if (moved) {
      if (deductible.appliedCents !== 0 || deductible.reimbursedCents !== 0) ledgerWrites.push(deductibleWrite(deductible, 0));
      for (const use of this.ledgers.limitUses.values()) if (use.usedCents !== 0) ledgerWrites.push(limitUseWrite(use, 0));
      for (const [fingerprint, paymentIds] of moved.fingerprints) if (paymentIds.length > 0) ledgerWrites.push(fingerprintCreate(claimId, fingerprint, paymentIds));
      ledgerWrites.push(claimLedgerMoved(this.claim));
    } else {
      if (this.deductibleChanged) ledgerWrites.push(deductibleWrite(deductible, this.readDeductibleVersion));
      else if (this.deductibleDecidedOn && this.readDeductibleVersion > 0) ledgerWrites.push(deductibleUnchanged(claimId, this.readDeductibleVersion));
      for (const exposureId of this.limitUsesChanged) {
        const use = this.ledgers.limitUses.get(exposureId)!;
        ledgerWrites.push(limitUseWrite(use, use.version));
      }
    }
    return [
      ...this.listings,
      ...[...this.exposures.values()].map(({ read, now, decidedOn }) => exposureMoneyUpdate(read, now, [...decidedOn])),
      ...ledgerWrites,
      ...this.rows.flatMap(claimTransactionCreate),
      ...this.writes,
    ];
  }
}
