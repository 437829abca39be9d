/**
 * The books' operations: the premium report (the months' aggregates, rolled up), closing a month,
 * the journal by day with its trial balance, and the nightly earning. Reports read the months
 * they show (and, for the balances carried into the first, the last closing and the open months
 * since): never the book.
 */
import { clock } from '../platform/clock.js';
import { addDays, todayIso } from '../platform/dates.js';
import { BusinessRuleError, ConcurrentChangeError, NotFoundError, PermissionDeniedError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction, type TransactionWrite } from '../platform/transactions.js';
import { ACCOUNTS, type BooksGroup, type Counters, type GroupDimension, type JournalLine, type LossCounters, type LossGroup, type LossGroupDimension, type TermEarning } from './model.js';
import {
  addCounters, earningPieces, journalCsv, journalOfDay, lossReportCsv, lossReportLines, monthOf, monthsBetween, nextMonth, premiumReportCsv, premiumReportLines, trialBalance, withLossColumns,
  type MonthAggregate, type MonthLossAggregate,
} from './rules.js';
import {
  booksCounterWrites, closeState, closeWrites, forgetCloseState, closingsOf, dayCounters, earningTerms, getTermEarning, lossClosingsOf, monthAggregates, monthLossAggregates, termEarningWrite, writeClosings,
} from './store.js';

const previousMonth = (month: string) => monthOf(addDays(`${month}-01`, -1));

/** Whom a report line reaches: everyone for Administrators and those who read every record; an agent his agencies' lines. */
function reachOf(principal: Principal, agencyId?: string): (group: { agency: string }) => boolean {
  const all = principal.isAdministrator || principal.scope === 'all';
  if (agencyId !== undefined && !all && !principal.agencyIds.includes(agencyId)) throw new NotFoundError(`agency_id: agency ${agencyId.slice(0, 40)}`);
  if (agencyId !== undefined) return (group) => group.agency === agencyId;
  if (all) return () => true;
  if (principal.scope !== 'agency') throw new PermissionDeniedError('The books\' reports show an agency its own lines only');
  const reached = new Set(principal.agencyIds);
  return (group) => reached.has(group.agency);
}

/** The running totals of every group through the month before `month`: the last closing, and the open months since. */
async function totalsBefore(month: string): Promise<Array<{ group: BooksGroup; counters: Counters }>> {
  const state = await closeState(true);
  const prev = previousMonth(month);
  const closingsThrough = state.closingsThrough;
  let base: Array<{ group: BooksGroup; counters: Counters }> = [];
  let from: string | undefined;
  if (closingsThrough && state.firstClosing && prev >= state.firstClosing) {
    const closingMonth = prev <= closingsThrough ? prev : closingsThrough;
    base = await closingsOf(closingMonth);
    from = nextMonth(closingMonth);
  } else {
    from = [...state.months].sort()[0];
  }
  const months = from && from <= prev ? monthsBetween(from, prev) : [];
  const aggregates = (await Promise.all(months.map(monthAggregates))).flat();
  return rollUp([...base, ...aggregates]);
}

/** The running loss totals of every loss group through the month before `month`: the last closing, and the open months since (as premium's). */
async function lossTotalsBefore(month: string): Promise<Array<{ group: LossGroup; counters: LossCounters }>> {
  const state = await closeState(true);
  const prev = previousMonth(month);
  let base: Array<{ group: LossGroup; counters: LossCounters }> = [];
  let from: string | undefined;
  if (state.closingsThrough && state.firstClosing && prev >= state.firstClosing) {
    const closingMonth = prev <= state.closingsThrough ? prev : state.closingsThrough;
    base = await lossClosingsOf(closingMonth);
    from = nextMonth(closingMonth);
  } else {
    from = [...state.months].sort()[0];
  }
  const months = from && from <= prev ? monthsBetween(from, prev) : [];
  const aggregates = (await Promise.all(months.map(monthLossAggregates))).flat();
  return rollUp([...base, ...aggregates]);
}

/** Counters summed by finest group. */
function rollUp<G, C extends Partial<Record<string, number>>>(rows: ReadonlyArray<{ group: G; counters: C }>): Array<{ group: G; counters: C }> {
  const byGroup = new Map<string, { group: G; counters: C }>();
  for (const row of rows) {
    const key = JSON.stringify(row.group);
    if (!byGroup.has(key)) byGroup.set(key, { group: row.group, counters: {} as C });
    addCounters(byGroup.get(key)!.counters, row.counters);
  }
  return [...byGroup.values()];
}

export interface PremiumReportRequest {
  fromMonth: string;
  toMonth: string;
  groupBy: GroupDimension[];
  format: 'json' | 'csv';
  agencyId?: string;
}

/** The premium report: per month and group, written (by kind), earned, unearned, fees and taxes, billed, collected, refunded, receivable, policies in force, and the group's losses. */
export async function premiumReport(principal: Principal, request: PremiumReportRequest) {
  if (request.toMonth < request.fromMonth) throw new BusinessRuleError(`to_month: ${request.toMonth} is before from_month ${request.fromMonth}`);
  const months = monthsBetween(request.fromMonth, request.toMonth);
  if (months.length > 36) throw new BusinessRuleError('to_month: a report spans at most 36 months');
  const reaches = reachOf(principal, request.agencyId);
  const withLosses = !request.groupBy.includes('rate_version');
  const [opening, aggregates, state, lossOpening, lossAggregates] = await Promise.all([
    totalsBefore(request.fromMonth), Promise.all(months.map(monthAggregates)).then((all) => all.flat()), closeState(true),
    withLosses ? lossTotalsBefore(request.fromMonth) : Promise.resolve([]), withLosses ? Promise.all(months.map(monthLossAggregates)).then((all) => all.flat()) : Promise.resolve([]),
  ]);
  const premium = aggregates.filter((row: MonthAggregate) => reaches(row.group));
  const premiumLines = premiumReportLines(months, opening.filter((row) => reaches(row.group)), premium, request.groupBy);
  const losses = withLosses
    ? lossReportLines(months, lossOpening.filter((row) => reaches(row.group)), lossAggregates.filter((row: MonthLossAggregate) => reaches(row.group)), premium, request.groupBy as LossGroupDimension[])
    : [];
  const lines = withLossColumns(premiumLines, losses, request.groupBy);
  return {
    from_month: request.fromMonth,
    to_month: request.toMonth,
    group_by: request.groupBy,
    closed_through: state.closedThrough,
    lines,
    ...(request.format === 'csv' ? { csv: premiumReportCsv(lines, request.groupBy, { losses: true }) } : {}),
  };
}

export interface LossReportRequest {
  fromMonth: string;
  toMonth: string;
  groupBy: LossGroupDimension[];
  format: 'json' | 'csv';
  agencyId?: string;
}

/** What a loss line's ratios divide by, as the answer says it. */
const EARNED_BASIS = 'earned premium of the line\'s month and kind for its state, line, policy type and agency as grouped; a catastrophe\'s or accident year\'s line divides by the earned premium of the rest of its group, so such lines add up to the whole loss ratio';

/**
 * The loss report: per month and loss group, paid loss and expense, case reserves at start and
 * end, recoveries, incurred, earned premium and the loss ratios (rules.lossReportLines). Reads the
 * months it shows, premium's and losses' items of each, and the balances carried into the first.
 */
export async function lossReport(principal: Principal, request: LossReportRequest) {
  if (request.toMonth < request.fromMonth) throw new BusinessRuleError(`to_month: ${request.toMonth} is before from_month ${request.fromMonth}`);
  const months = monthsBetween(request.fromMonth, request.toMonth);
  if (months.length > 36) throw new BusinessRuleError('to_month: a report spans at most 36 months');
  const reaches = reachOf(principal, request.agencyId);
  const [opening, aggregates, premium, state] = await Promise.all([
    lossTotalsBefore(request.fromMonth), Promise.all(months.map(monthLossAggregates)).then((all) => all.flat()), Promise.all(months.map(monthAggregates)).then((all) => all.flat()), closeState(true),
  ]);
  const lines = lossReportLines(months, opening.filter((row) => reaches(row.group)), aggregates.filter((row) => reaches(row.group)), premium.filter((row) => reaches(row.group)), request.groupBy);
  return {
    from_month: request.fromMonth,
    to_month: request.toMonth,
    group_by: request.groupBy,
    closed_through: state.closedThrough,
    earned_premium_basis: EARNED_BASIS,
    lines,
    ...(request.format === 'csv' ? { csv: lossReportCsv(lines, request.groupBy) } : {}),
  };
}

/**
 * Closing a month: every month through it is closed (a move dated into one lands in the open
 * month as a prior-period adjustment), then the running totals of each group at its end are
 * frozen (the balances a later report starts from). Months close in order, once each, after they end.
 */
export async function closeMonth(principal: Principal, month: string) {
  if (!principal.isAdministrator) throw new PermissionDeniedError('Only an Administrator may close a month');
  const today = todayIso(clock.now());
  if (month >= monthOf(today)) throw new BusinessRuleError(`month: ${month} has not ended (today is ${today})`);
  const state = await closeState(true);
  if (state.closedThrough !== null && month <= state.closedThrough) throw new BusinessRuleError(`month: ${month} is already closed (closed through ${state.closedThrough})`);
  if (state.closedThrough !== null && month !== nextMonth(state.closedThrough)) throw new BusinessRuleError(`month: close ${nextMonth(state.closedThrough)} first (months close in order)`);
  const closedAt = clock.now().toISOString();
  try {
    await runTransaction(closeWrites(month, state.closedThrough, [], principal.contactId, closedAt, { closingsThrough: state.closingsThrough, firstClosing: state.firstClosing }), { label: 'The closed months' });
    forgetCloseState();
  } catch (error) {
    if (error instanceof ConcurrentChangeError) throw new BusinessRuleError(`month: another close was made meanwhile; read the report again`);
    throw error;
  }
  // No wait: a posting landing in the month carries its fence's guard, so none commits into it after the close did (store.landingGuard).
  const [before, aggregates, lossesBefore, lossAggregates] = await Promise.all([totalsBefore(month), monthAggregates(month), lossTotalsBefore(month), monthLossAggregates(month)]);
  await writeClosings(month, rollUp([...before, ...aggregates]), rollUp([...lossesBefore, ...lossAggregates]));
  const report = premiumReportLines([month], before, aggregates, []);
  const losses = lossReportLines([month], lossesBefore, lossAggregates, aggregates, []);
  return { month, closed_through: month, closed_at: closedAt, closed_by: principal.contactId, figures: withLossColumns(report, losses, []), loss_figures: losses };
}

/** The journal from one day to another: each day's entries (they balance), and the trial balance at the end. */
export async function journal(principal: Principal, request: { fromDate: string; toDate: string; format: 'json' | 'csv' }) {
  if (!(principal.isAdministrator || principal.scope === 'all')) throw new PermissionDeniedError('The journal is the carrier\'s: Administrators and underwriters read it');
  if (request.toDate < request.fromDate) throw new BusinessRuleError(`to_date: ${request.toDate} is before from_date ${request.fromDate}`);
  const months = monthsBetween(monthOf(request.fromDate), monthOf(request.toDate));
  if (months.length > 13) throw new BusinessRuleError('to_date: a journal spans at most 13 months');
  const perDay = new Map<string, Counters & LossCounters>();
  for (const month of months) {
    for (const day of await dayCounters(month, request.fromDate, request.toDate)) perDay.set(day.date, addCounters(perDay.get(day.date) ?? {}, day.counters));
  }
  const days = [...perDay.keys()].sort().map((date) => {
    const lines = journalOfDay(date, perDay.get(date)!);
    const debits = lines.reduce((total, line) => total + line.debit, 0);
    const credits = lines.reduce((total, line) => total + line.credit, 0);
    return { date, lines: lines.map(wireLine), debits: debits / 100, credits: credits / 100, balanced: debits === credits };
  });
  // The trial balance at to_date: the running totals through the month before, and the days of its month through to_date.
  const endMonth = monthOf(request.toDate);
  const [premiumBefore, lossesBefore] = await Promise.all([totalsBefore(endMonth), lossTotalsBefore(endMonth)]);
  const through: Counters & LossCounters = {};
  for (const row of [...premiumBefore, ...lossesBefore]) addCounters<Counters & LossCounters>(through, row.counters);
  for (const day of await dayCounters(endMonth, `${endMonth}-01`, request.toDate)) addCounters(through, day.counters);
  const balances = trialBalance(journalOfDay(request.toDate, through));
  const trial = ACCOUNTS.map((account) => ({ code: account.code, account: account.name, balance: (balances[account.name] ?? 0) / 100 }));
  const allLines = [...perDay.keys()].sort().flatMap((date) => journalOfDay(date, perDay.get(date)!));
  return {
    from_date: request.fromDate,
    to_date: request.toDate,
    days,
    trial_balance: { as_of: request.toDate, accounts: trial },
    ...(request.format === 'csv' ? { csv: journalCsv(allLines) } : {}),
  };
}

const wireLine = (line: JournalLine) => ({ account: line.account, debit: line.debit / 100, credit: line.credit / 100, memo: line.memo });

const EARNING_BATCH = 20;

/**
 * The nightly earning of a day: each term still earning (the book in force, listed apart) earns
 * what its layers earned since the day it was last earned through, month by month, into its
 * group's aggregates; its record says through when, so a day run twice earns once. Terms are
 * written in batches, each one transaction (a term a move changed meanwhile is earned on its own).
 */
export async function earnDay(date: string): Promise<{ date: string; terms: number; earnedCents: number }> {
  let terms = 0;
  let earnedCents = 0;
  for await (const page of earningTerms()) {
    const due = page.filter((earning) => earning.earnedThrough < date && earning.layers.some((layer) => layer.from <= date));
    for (let start = 0; start < due.length; start += EARNING_BATCH) {
      const batch = due.slice(start, start + EARNING_BATCH);
      try {
        await runTransaction(batch.flatMap((earning) => earningWrites(earning, date).writes), { label: `The earning of ${date}` });
        for (const earning of batch) earnedCents += earningWrites(earning, date).cents;
        terms += batch.length;
      } catch (error) {
        if (!(error instanceof ConcurrentChangeError)) throw error;
        for (const earning of batch) {
          const earned = await earnOne(earning.termId, date);
          if (earned !== undefined) {
            terms += 1;
            earnedCents += earned;
          }
        }
      }
    }
  }
  return { date, terms, earnedCents };
}

function earningWrites(earning: TermEarning, date: string): { writes: TransactionWrite[]; cents: number } {
  const pieces = earningPieces(earning, date);
  const cents = pieces.reduce((total, piece) => total + piece.cents, 0);
  const record: TermEarning = { ...earning, earnedThrough: date, earnedCents: earning.earnedCents + cents, version: earning.version + 1 };
  return {
    writes: [termEarningWrite(record, earning.version), ...pieces.flatMap((piece) => booksCounterWrites({ shardBy: earning.policyId, group: earning.group, date: piece.date, counters: { earned: piece.cents } }))],
    cents,
  };
}

async function earnOne(termId: string, date: string): Promise<number | undefined> {
  const earning = await getTermEarning(termId);
  if (!earning || earning.earnedThrough >= date) return undefined;
  const { writes, cents } = earningWrites(earning, date);
  await runTransaction(writes, { label: `The earning of ${date}` });
  return cents;
}

