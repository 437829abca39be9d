/**
 * What billing's postings add to the books: every account-history row posted (an invoice, a
 * payment, an NSF reversal, a refund paid out, a return premium ...) moves its day's billed,
 * collected or refunded counters for the account's group; an invoice voided (a cancellation's
 * installments never billed) takes its amount back from the day it was to be billed, and one
 * billed again (a reinstatement) adds it back. So the report's billed, collected and refunded are
 * the sums of the account histories, and receivable is their running balance.
 */
import type { TransactionWrite } from '../platform/transactions.js';
import { todayIso } from '../platform/dates.js';
import type { BooksGroup, ClaimMoneyMove, Counters } from './model.js';
import { addCounters, countersOfClaimMoney, countersOfRow, lossGroupOf, UNKNOWN_GROUP } from './rules.js';
import { booksCounterWrites, lossCounterWrites } from './store.js';

interface PostedRow {
  type: string;
  date: string;
  amountCents: number;
}

/** The books' writes of a posting to an account (the account's group as billing recorded it when it opened the account). */
export function booksOfPosting(account: { policyId: string; booksGroup?: BooksGroup | null }, rows: { posted: readonly PostedRow[]; voided?: readonly PostedRow[]; billedAgain?: readonly PostedRow[] }): TransactionWrite[] {
  const days = new Map<string, Counters>();
  const add = (row: PostedRow, sign: number) => {
    const counters = countersOfRow(row);
    if (!Object.keys(counters).length) return;
    days.set(row.date, addCounters(days.get(row.date) ?? {}, counters, sign));
  };
  rows.posted.forEach((row) => add(row, 1));
  rows.voided?.forEach((row) => add(row, -1));
  rows.billedAgain?.forEach((row) => add(row, 1));
  const group = account.booksGroup ?? UNKNOWN_GROUP;
  return [...days].flatMap(([date, counters]) => booksCounterWrites({ shardBy: account.policyId, group, date, counters }));
}

/**
 * The books' writes of agency commission (Commission expense / Commission payable in the
 * journal): for the commissions area to hand its figure to, in the move's transaction, as
 * billing hands its rows (the books do not compute commission: shared/commissions does).
 */
export function booksOfCommission(commission: { policyId: string; group: BooksGroup | null; date: string; commissionCents: number }): TransactionWrite[] {
  return booksCounterWrites({ shardBy: commission.policyId, group: commission.group ?? UNKNOWN_GROUP, date: commission.date, counters: { commission: commission.commissionCents } });
}

/**
 * The books' writes of a claim's move: its money entries (payments, reserve changes, recoveries,
 * the deductible passed on, checks cleared) as loss counters of the claim's loss group on the day
 * the move was decided, for the claim's move to commit in its own transaction. A move that moves
 * no money writes nothing. Shards follow the claim, so one claim's moves meet on one item.
 */
export function booksOfClaimMoney(move: ClaimMoneyMove): TransactionWrite[] {
  if (!move.money?.length) return [];
  const { claim } = move.after;
  return lossCounterWrites({ shardBy: claim.claimId, group: lossGroupOf(claim), date: todayIso(new Date(move.at)), counters: countersOfClaimMoney(move.money) });
}
