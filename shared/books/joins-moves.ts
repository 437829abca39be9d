/**
 * The books' part in a policy's moves, listed per move in shared/moves/: each move adds its
 * written premium (by kind), fees and taxes, and its change of the policies in force to its
 * month and group, in the move's own transaction, and keeps the term's earning record (what the
 * term wrote, as layers earning daily pro rata): a move that changes what was already earned
 * (a back-dated endorsement, a cancellation) books the difference as earned the day it is decided.
 * What billing posts (billed, collected, refunded) lands from billing's postings (booksOfPosting).
 */
import type { AreaPart, CancelledTerm, CommittedRevision, EndorsedRevision, ReadsAhead, ReinstatedTerm, RenewedTerm, RewrittenPolicy, CancellationAhead, TermAhead, TransactionWrite } from '../lifecycle/index.js';
import { addDays } from '../platform/dates.js';
import { sum } from '../platform/money.js';
import { loadRevision, type RevisionSnapshot } from '../policies/index.js';
import type { BooksGroup, Counter, Counters, EarningLayer, TermEarning } from './model.js';
import { earnedThrough, groupOf, lastEarningDay, UNKNOWN_GROUP } from './rules.js';
import { booksCounterWrites, getTermEarning, readClosedMonths, termEarningWrite } from './store.js';
import { booksOfClaimMoney } from './postings.js';
import type { ClaimMoneyMove } from './model.js';

const part = (writes: TransactionWrite[]): AreaPart => ({ area: 'books', writes });

/** Counters by day for one term's move. */
class Posting {
  readonly days = new Map<string, Counters>();
  add(date: string, counters: Counters): this {
    const day = this.days.get(date) ?? {};
    for (const [counter, cents] of Object.entries(counters) as Array<[Counter, number]>) day[counter] = (day[counter] ?? 0) + cents;
    this.days.set(date, day);
    return this;
  }
  writes(policyId: string, group: BooksGroup): TransactionWrite[] {
    return [...this.days].flatMap(([date, counters]) => booksCounterWrites({ shardBy: policyId, group, date, counters }));
  }
}

/**
 * A term's earning record moved from `before` to `after` (its layers and stop day): what was
 * already earned under the old layers and would be under the new ones, through the day the
 * nightly earned, is booked as earned on the day decided.
 */
function earningMove(before: TermEarning | undefined, after: Omit<TermEarning, 'earnedThrough' | 'earnedCents' | 'lastDay' | 'version'>, decisionDate: string, posting: Posting): TransactionWrite {
  const earnedThroughDay = before?.earnedThrough ?? addDays(after.layers[0]?.from ?? decisionDate, -1);
  const nowEarned = earnedThrough(after, earnedThroughDay);
  const already = before?.earnedCents ?? 0;
  if (nowEarned !== already) posting.add(decisionDate, { earned: nowEarned - already });
  const record: TermEarning = { ...after, earnedThrough: earnedThroughDay, earnedCents: nowEarned, lastDay: lastEarningDay(after), version: (before?.version ?? 0) + 1 };
  return termEarningWrite(record, before ? before.version : null);
}

const later = (a: string, b: string) => (a > b ? a : b);

/** A new term (issue, renewal, a rewrite's new side): its written premium and fees, its place in force, its earning from its first day. */
function newTermWrites(
  term: { policyId: string; termId: string; effectiveDate: string; expirationDate: string; writtenPremiumCents: number; writtenFeeCents: number },
  snapshot: Pick<RevisionSnapshot, 'header' | 'risks'>,
  move: { decisionDate: string; written: Counter; kind: string },
): TransactionWrite[] {
  const group = groupOf(snapshot);
  const posting = new Posting()
    .add(move.decisionDate, { [move.written]: term.writtenPremiumCents, feesAndTaxes: term.writtenFeeCents })
    .add(term.effectiveDate, { inForceChange: 1 })
    .add(term.expirationDate, { inForceChange: -1 });
  const earning = earningMove(undefined, {
    policyId: term.policyId, termId: term.termId, group, stopsAt: null,
    layers: [{ cents: term.writtenPremiumCents, from: term.effectiveDate, to: term.expirationDate, kind: move.kind }],
  }, move.decisionDate, posting);
  return [earning, ...posting.writes(term.policyId, group)];
}

/** What a move posting to the books begins reading beside its own reads (lifecycle's wiring readAhead): the closed months its commit settles on. */
export const booksReadAhead = (): void => readClosedMonths();

/** Issue: new business written, the policy in force from its effective date to its expiration. */
export async function booksAtIssue(committed: CommittedRevision): Promise<AreaPart> {
  readClosedMonths();
  const snapshot = committed.asRead?.revision ?? (await loadRevision(committed.revisionId));
  if (!snapshot) return part([]);
  return part(newTermWrites(committed, snapshot, { decisionDate: committed.commitDate, written: 'writtenNewBusiness', kind: 'issue' }));
}

/** Renewal: the renewal term's premium written as renewals (nothing while held for review). */
export async function booksAtRenewal(renewed: RenewedTerm): Promise<AreaPart> {
  if (renewed.held) return part([]);
  return part(newTermWrites(renewed, renewed.revision, { decisionDate: renewed.decisionDate, written: 'writtenRenewals', kind: 'renewal' }));
}

/** A term's earning record, from the reads its move began (readAhead) when it has them. */
function earningAsRead(termId: string, reads: ReadsAhead | undefined) {
  return reads ? reads.once(`books:earning ${termId}`, () => getTermEarning(termId)) : getTermEarning(termId);
}

/**
 * What the books' part in an endorsement reads (the term's earning, the closed months its commit
 * settles on), begun beside the move's own reads: before the move knows whether the premium
 * changes, so an endorsement changing none has read the earning record for nothing.
 */
export function booksReadAheadAtEndorsement(term: TermAhead, reads: ReadsAhead): void {
  readClosedMonths();
  void earningAsRead(term.termId, reads);
}

/** An endorsement or a reversal: its additional (or return) premium written, earning from its date to the term's end. */
export async function booksAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<AreaPart> {
  if (mode.preview || (endorsed.premiumChangeCents === 0 && endorsed.feeChangeCents === 0)) return part([]);
  const before = await earningAsRead(endorsed.termId, endorsed.reads);
  const group = before?.group ?? groupOf(endorsed.revision);
  const posting = new Posting().add(endorsed.commitDate, { writtenEndorsements: endorsed.premiumChangeCents, feesAndTaxes: endorsed.feeChangeCents });
  const writes: TransactionWrite[] = [];
  if (before && endorsed.premiumChangeCents !== 0) {
    // Out of sequence, each date's change earns from its own date (the later revisions re-priced from theirs).
    const dated = endorsed.premiumChangeLayers && sum(endorsed.premiumChangeLayers.map((layer) => layer.cents)) === endorsed.premiumChangeCents
      ? endorsed.premiumChangeLayers
      : [{ from: endorsed.revisionDate, cents: endorsed.premiumChangeCents }];
    const layers: EarningLayer[] = dated.map((layer) => ({ cents: layer.cents, from: layer.from, to: endorsed.expirationDate, kind: 'endorsement' }));
    writes.push(earningMove(before, { ...before, layers: [...before.layers, ...layers] }, endorsed.commitDate, posting));
  }
  return part([...writes, ...posting.writes(endorsed.policyId, group)]);
}

/** What the books' part in a cancellation taking effect reads (the term's earning, the closed months its commit settles on), begun beside the move's own reads. */
export function booksReadAheadAtCancellation(term: CancellationAhead, reads: ReadsAhead): void {
  if (term.outcome !== 'cancelled') return;
  readClosedMonths();
  void earningAsRead(term.termId, reads);
}

/** The writes of a cancellation taking effect on a term's books, its written premium counted as `written`. */
async function cancellationWrites(cancelled: CancelledTerm, written: Counter): Promise<TransactionWrite[]> {
  const before = await earningAsRead(cancelled.termId, cancelled.asRead?.reads);
  if (before?.stopsAt) return [];
  const group = before?.group ?? UNKNOWN_GROUP;
  const posting = new Posting()
    .add(cancelled.decisionDate, { [written]: -cancelled.returnPremiumCents })
    .add(cancelled.termExpirationDate, { inForceChange: 1 })
    .add(later(cancelled.cancelDate, cancelled.termEffectiveDate), { inForceChange: -1 });
  const writes: TransactionWrite[] = [];
  if (before) {
    const layer: EarningLayer = { cents: -cancelled.returnPremiumCents, from: cancelled.cancelDate, to: cancelled.cancelDate, kind: 'cancellation' };
    writes.push(earningMove(before, { ...before, stopsAt: cancelled.cancelDate, layers: [...before.layers, layer] }, cancelled.decisionDate, posting));
  }
  return [...writes, ...posting.writes(cancelled.policyId, group)];
}

/** A cancellation taking effect: its return premium written back, everything else the term wrote earned on the cancel date, out of force from it. */
export async function booksAtCancellation(cancelled: CancelledTerm): Promise<AreaPart> {
  if (cancelled.outcome !== 'cancelled') return part([]);
  return part(await cancellationWrites(cancelled, 'writtenCancellations'));
}

/**
 * A reinstatement: the cancellation's return premium written again, less the premium of the
 * days without cover (their days' earning of the term's layers, the same pro rata), in force again.
 */
export async function booksAtReinstatement(reinstated: ReinstatedTerm): Promise<AreaPart> {
  const before = await getTermEarning(reinstated.termId);
  if (!before || !before.stopsAt) return part([]);
  const returned = before.layers.filter((layer) => layer.kind === 'cancellation' && layer.from === before.stopsAt).reduce((total, layer) => total - layer.cents, 0);
  const covered = before.layers.filter((layer) => layer.kind !== 'cancellation');
  const lapse = reinstated.lapseDays > 0
    ? earnedThrough({ layers: covered, stopsAt: null }, addDays(reinstated.reinstatementDate, -1)) - earnedThrough({ layers: covered, stopsAt: null }, addDays(reinstated.cancelDate, -1))
    : 0;
  const layers: EarningLayer[] = [...before.layers, { cents: returned, from: before.stopsAt, to: before.stopsAt, kind: 'reinstatement' }];
  if (lapse) layers.push({ cents: -lapse, from: reinstated.cancelDate, to: reinstated.reinstatementDate, kind: 'lapse' });
  const posting = new Posting()
    .add(reinstated.decisionDate, { writtenReinstatements: returned - lapse })
    .add(reinstated.termExpirationDate, { inForceChange: -1 })
    .add(later(reinstated.reinstatementDate, reinstated.termEffectiveDate), { inForceChange: 1 });
  const earning = earningMove(before, { ...before, stopsAt: null, layers }, reinstated.decisionDate, posting);
  return part([earning, ...posting.writes(reinstated.policyId, before.group)]);
}

/** A rewrite: the old term's cancellation and the new term's premium, both written as rewrites. */
export async function booksAtRewrite(rewritten: RewrittenPolicy, mode: { preview: boolean } = { preview: false }): Promise<AreaPart> {
  if (mode.preview) return part([]);
  const old = rewritten.cancelled ? await cancellationWrites(rewritten.cancelled, 'writtenRewrites') : [];
  const opened = newTermWrites(rewritten.committed, rewritten.revision, { decisionDate: rewritten.decisionDate, written: 'writtenRewrites', kind: 'rewrite' });
  return part([...old, ...opened]);
}

/**
 * The books' part in a claim's move (listed in shared/moves/claims.ts for every claim move): the
 * money it moves lands in the books in the move's own transaction; a move with none adds nothing.
 */
export const claimBooks = (move: ClaimMoneyMove): TransactionWrite[] => booksOfClaimMoney(move);
