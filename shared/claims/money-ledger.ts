/**
 * The ledger side of a claim's move: the rows it appends (numbered in order), the exposures' totals
 * it changes, the books' entries (ExposureChanges, which money-move.ts builds a money move on); and
 * the money that moves of part one now carry (the opening reserve of an exposure, the release when
 * it closes). It imports nothing of the area's service, so the service's moves and the money moves
 * both use it, and nothing of the money moves' ledgers, which closing an exposure does not bundle.
 */
import { randomUUID } from 'node:crypto';
import type { ClaimsRules } from '../catalog/index.js';
import { toAmount, toCentsExactly, type Cents } from '../platform/money.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { ClaimNotFoundError, type ClaimRecord, type ClaimTransaction, type CostType, type ExposureRecord, type ExposureTotals } from './model.js';
import type { ClaimMoneyEntry } from './moves.js';
import { claimTransactionCreate, type ClaimWhole } from './store.js';

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
 * The rows a claim's move appends (numbered in order), the exposures' totals it changes and the
 * books' entries: what closing an exposure builds, and what every money move (money-move.ts) builds on.
 */
export class ExposureChanges {
  readonly rows: ClaimTransaction[] = [];
  readonly money: ClaimMoneyEntry[] = [];
  protected readonly exposures = new Map<string, { read: ExposureRecord; now: ExposureRecord; decidedOn: Set<CostType> }>();
  constructor(
    readonly read: MoneyRead,
    readonly at: string,
    readonly by: string,
  ) {}

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

  /** A cost type's totals changed; what the move decided was from its reserves as read (a money move's update is guarded by them). */
  change(exposureId: string, costType: CostType, change: (totals: ExposureTotals) => ExposureTotals): ExposureRecord {
    const current = this.exposure(exposureId);
    const held = this.exposures.get(exposureId) ?? { read: current, now: current, decidedOn: new Set<CostType>() };
    held.now = withTotals(current, costType, change(totalsOf(current, costType)));
    held.decidedOn.add(costType);
    this.exposures.set(exposureId, held);
    return held.now;
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
function releaseReserves(move: ExposureChanges, exposureId: string, reason: string) {
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
  const move = new ExposureChanges(whole, at, by);
  for (const exposureId of exposureIds) releaseReserves(move, exposureId, reason);
  return { exposures: move.changedExposures(), rows: move.rows, money: move.money, writes: [...move.rows.flatMap(claimTransactionCreate)] };
}

