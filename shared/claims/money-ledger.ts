/**
 * The ledger side of a claim's money move: the rows it appends (numbered in order), the exposures'
 * totals it changes (each guarded by the version read), the books' entries; and the money that
 * moves of part one now carry (the opening reserve of an exposure, the release when it closes).
 * It imports nothing of the area's service, so the service's moves and the money moves both use it.
 */
import { randomUUID } from 'node:crypto';
import type { ClaimsRules } from '../catalog/index.js';
import { toAmount, toCentsExactly, type Cents } from '../platform/money.js';
import type { TransactionWrite } from '../platform/transactions.js';
import {
  ClaimNotFoundError,
  type ClaimDeductible,
  type ClaimLimitUse,
  type ClaimPayment,
  type ClaimRecord,
  type ClaimTransaction,
  type CostType,
  type DeductibleLedger,
  type ExposureRecord,
  type ExposureTotals,
} from './model.js';
import type { ClaimMoneyEntry } from './moves.js';
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
  type ClaimWhole,
} from './store.js';

const amount = toAmount;
const ZERO: ExposureTotals = { reserveCents: 0, paidCents: 0, recoveredCents: 0, recoveryReserveCents: 0 };

export const totalsOf = (exposure: ExposureRecord, costType: CostType): ExposureTotals => ({ ...ZERO, ...exposure.totals[costType] });
const withTotals = (exposure: ExposureRecord, costType: CostType, totals: ExposureTotals): ExposureRecord => ({ ...exposure, totals: { ...exposure.totals, [costType]: totals } });

/** What a money move reads of its claim: the claim and the exposures it may change. */
export interface MoneyRead {
  claim: ClaimRecord;
  exposures: readonly ExposureRecord[];
}

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
 * What one money move builds up before it commits: the rows it appends (numbered in order), the
 * exposures it changes (each an update guarded by the status and reserves read), the ledgers it
 * changes or decided on (each guarded by the version read), the payments it lists under (or takes
 * off) a fingerprint, the books' entries.
 */
export class MoneyMove {
  readonly rows: ClaimTransaction[] = [];
  readonly money: ClaimMoneyEntry[] = [];
  readonly writes: TransactionWrite[] = [];
  private readonly exposures = new Map<string, { read: ExposureRecord; now: ExposureRecord; decidedOn: Set<CostType> }>();
  private readonly ledgers: MoneyLedgers;
  private readonly readDeductibleVersion: number;
  private deductibleChanged = false;
  private deductibleDecidedOn = false;
  private readonly limitUsesChanged = new Set<string>();
  private readonly listings: TransactionWrite[] = [];
  /** The fingerprint a payment of this move is listed under (its duplicate guard), if any. */
  listedUnder: string | undefined;
  constructor(
    readonly read: MoneyRead,
    readonly at: string,
    readonly by: string,
    ledgers?: MoneyLedgers,
  ) {
    this.ledgers = ledgers ?? { deductible: { claimId: read.claim.claimId, appliedCents: 0, reimbursedCents: 0, version: 0 }, limitUses: new Map() };
    this.readDeductibleVersion = this.ledgers.deductible.version;
  }

  get claim(): ClaimRecord {
    return this.read.claim;
  }

  exposure(exposureId: string): ExposureRecord {
    const held = this.exposures.get(exposureId);
    if (held) return held.now;
    const read = this.read.exposures.find((candidate) => candidate.exposureId === exposureId);
    if (!read) throw new ClaimNotFoundError(`Exposure ${exposureId.slice(0, 60)}`);
    return read;
  }

  /** A cost type's totals changed; what the move decided was from its reserves as read (the update is guarded by them). */
  change(exposureId: string, costType: CostType, change: (totals: ExposureTotals) => ExposureTotals): ExposureRecord {
    const current = this.exposure(exposureId);
    const held = this.exposures.get(exposureId) ?? { read: current, now: current, decidedOn: new Set<CostType>() };
    held.now = withTotals(current, costType, change(totalsOf(current, costType)));
    held.decidedOn.add(costType);
    this.exposures.set(exposureId, held);
    return held.now;
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

  /** A new row, numbered after the move's others. */
  row(fields: Omit<ClaimTransaction, 'transactionId' | 'claimId' | 'by' | 'at' | 'seq' | 'coverage'> & { transactionId?: string }): ClaimTransaction {
    const exposure = this.exposure(fields.exposureId);
    const row: ClaimTransaction = { transactionId: randomUUID(), claimId: this.claim.claimId, coverage: exposure.coverage, by: this.by, at: this.at, seq: this.rows.length + 1, ...fields };
    this.rows.push(row);
    return row;
  }

  entry(kind: ClaimMoneyEntry['kind'], row: Pick<ClaimTransaction, 'costType' | 'exposureId' | 'coverage' | 'transactionId'>, amountCents: Cents) {
    if (amountCents !== 0) this.money.push({ kind, costType: row.costType, amountCents, exposureId: row.exposureId, coverage: row.coverage, transactionId: row.transactionId });
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

  changedExposures(): ExposureRecord[] {
    return [...this.exposures.values()].map(({ now }) => now);
  }
}

/** What an exposure's money answers: each cost type's outstanding reserve, paid and recovered. */
export function exposureMoneyToWire(exposure: ExposureRecord) {
  const of = (costType: CostType) => {
    const totals = totalsOf(exposure, costType);
    return { outstanding: amount(totals.reserveCents), paid: amount(totals.paidCents), recovered: amount(totals.recoveredCents), recovery_reserve: amount(totals.recoveryReserveCents ?? 0) };
  };
  return { exposure_id: exposure.exposureId, coverage: exposure.coverage, loss: of('loss'), expense: of('expense') };
}

// ------------------------------------------------------------------ the default reserve

/** The loss reserve an exposure opens with (the product's default for its coverage), 0 when it has none. */
export function defaultLossReserveCents(rules: Pick<ClaimsRules, 'coverages'>, coverage: string): Cents {
  const rule = rules.coverages.find((candidate) => candidate.item === coverage) as { defaultLossReserve?: string } | undefined;
  return rule?.defaultLossReserve ? toCentsExactly(rule.defaultLossReserve) : 0;
}

/** The opening reserve's row and books entry, for create_exposure's move. */
export function openingReserve(exposure: ExposureRecord, reserveCents: Cents, at: string, by: string): { row: ClaimTransaction; money: ClaimMoneyEntry } {
  const row: ClaimTransaction = {
    transactionId: randomUUID(), claimId: exposure.claimId, exposureId: exposure.exposureId, coverage: exposure.coverage, type: 'reserve', costType: 'loss',
    amountCents: reserveCents, outstandingAfterCents: reserveCents, status: 'approved', source: 'default', by, at, seq: 1, reason: `the default ${exposure.coverage} loss reserve`,
  };
  return { row, money: { kind: 'reserve_change', costType: 'loss', amountCents: reserveCents, exposureId: exposure.exposureId, coverage: exposure.coverage, transactionId: row.transactionId } };
}
export const transactionWrites = claimTransactionCreate;

/** The rows and entries that release an exposure's outstanding reserves (closing it, or its claim), on `move`. */
function releaseReserves(move: MoneyMove, exposureId: string, reason: string) {
  for (const costType of ['loss', 'expense'] as const) {
    const outstanding = totalsOf(move.exposure(exposureId), costType).reserveCents;
    if (outstanding <= 0) continue;
    move.change(exposureId, costType, (totals) => ({ ...totals, reserveCents: 0 }));
    const row = move.row({ exposureId, type: 'reserve', costType, amountCents: -outstanding, outstandingAfterCents: 0, status: 'approved', source: 'close', reason });
    move.entry('reserve_change', row, -outstanding);
  }
}

/**
 * What closing an exposure (or a claim) adds to its move: a release row for each outstanding
 * reserve, the exposures' totals at zero, the books' entries. Reopening restores nothing.
 */
export function releaseOnClose(whole: ClaimWhole, exposureIds: readonly string[], at: string, by: string, reason: string) {
  const move = new MoneyMove(whole, at, by);
  for (const exposureId of exposureIds) releaseReserves(move, exposureId, reason);
  return { exposures: move.changedExposures(), rows: move.rows, money: move.money, writes: [...move.rows.flatMap(claimTransactionCreate)] };
}

