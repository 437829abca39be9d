/**
 * The books area's records (keys.ts): the only code that knows its keys. Every counter lands
 * through a counter write (platform/transactions.ts): merged with the move's other counters to
 * the same item, and settled at commit into the open month when its own month is closed (a
 * prior-period adjustment), so a closed month's items never change again.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { batchWriteAll, queryAll } from '../platform/dynamo.js';
import { counterWrite, withoutStorageKeys, type CounterWrite, type TransactionWrite } from '../platform/transactions.js';
import { addDays } from '../platform/dates.js';
import { clock } from '../platform/clock.js';
import {
  aggregateKey, closeKey, closingKey, closingsQuery, EARNING_BUCKETS, earningListing, earningQuery, FENCE_SHARDS, lossAggregateKey, lossClosingKey, lossClosingsQuery, monthAggregatesQuery,
  monthLossAggregatesQuery, closeFenceKey, SHARDS, shardOf, termEarningKey,
} from './keys.js';
import { COUNTERS, LOSS_COUNTERS, type BooksGroup, type Counters, type LossCounters, type LossGroup, type TermEarning } from './model.js';
import { firstDayOf, monthOf, nextMonth, type MonthAggregate, type MonthLossAggregate } from './rules.js';

const table = () => config.tableName();

// ---------------------------------------------------------------- the closed months

export interface CloseState {
  /** Every month through this one is closed (null: none is). */
  closedThrough: string | null;
  /** The running totals are frozen through this month (its closing), and from this one on. */
  closingsThrough: string | null;
  firstClosing: string | null;
  /** The months that hold figures (the report's balances start at the first). */
  months: Set<string>;
}

let cached: { at: number; state: Promise<CloseState> } | undefined;
/**
 * How long a posting settles on the closed months it read. A stale read is safe: a landing in
 * a month that may be closing carries its fence's guard (landingGuard), which fails once a
 * close committed after the read, and the counters are then settled on a fresh one. A month the
 * read does not know to hold figures has its marker written (the same fields, if absent), and the
 * memo takes it in once that commit lands, so that this process writes a marker once, not by every
 * posting while the memo lasts, and never reads at the commit. Readers read fresh.
 */
const CLOSE_MEMO_MS = 60_000;

/** What is closed and which months hold figures: read once a minute by postings, fresh by readers and after a guard failed. */
export function closeState(fresh = false): Promise<CloseState> {
  const now = Date.now();
  if (!fresh && cached && now - cached.at < CLOSE_MEMO_MS) return cached.state;
  const state = (async () => {
    const items = await queryAll({ TableName: table(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': closeKey().pk }, ConsistentRead: true });
    const close = items.find((item) => item.sk === closeKey().sk);
    return {
      closedThrough: (close?.closedThrough as string | undefined) ?? null,
      closingsThrough: (close?.closingsThrough as string | undefined) ?? null,
      firstClosing: (close?.firstClosing as string | undefined) ?? null,
      months: new Set(items.filter((item) => item.sk.startsWith('MONTH#')).map((item) => item.month as string)) };
  })();
  cached = { at: now, state };
  state.catch(() => (cached = undefined));
  return state;
}

/** A month whose marker a commit of this process wrote: the memo knows it holds figures from now on. */
function noteMonthHeld(month: string): void {
  void cached?.state.then((state) => state.months.add(month), () => undefined);
}

/** A close committed by this process: its postings read the closed months afresh. */
export function forgetCloseState(): void {
  cached = undefined;
}

/**
 * Begins reading the closed months for a move about to post to the books, so that its commit
 * (which settles each counter's month on them) finds them read: the read runs beside the move's
 * own reads instead of after them. Not again while the memo lasts.
 */
export function readClosedMonths(): void {
  // A memo near its end would lapse before the commit and put a read on its path: begin a fresh one instead.
  if (!cached || Date.now() - cached.at > CLOSE_MEMO_MS - 1_000) void closeState(true);
}

/** Where a day's counters land: its own month, or (closed) the first open month, named an adjustment. */
function landing(date: string, state: CloseState): { date: string; month: string; adjustment: boolean } {
  if (state.closedThrough === null || monthOf(date) > state.closedThrough) return { date, month: monthOf(date), adjustment: false };
  const open = nextMonth(state.closedThrough);
  return { date: firstDayOf(open), month: open, adjustment: true };
}

/**
 * The guard of a landing in `month` settled on the months closed through `closedThrough`, when a
 * close could be under way: the month has ended (or ends by tomorrow, for clocks a little apart).
 * Checked in the posting's transaction, it fails once the next close has committed, and the runner
 * settles the counters afresh: so a closing, read after its close commits, has every counter that
 * will ever land in its month.
 */
export function landingGuard(closedThrough: string | null, month: string, shardBy: string, today = clock.today()): TransactionWrite | undefined {
  if (month >= monthOf(addDays(today, 1))) return undefined;
  return { ConditionCheck: { TableName: table(), Key: closeFenceKey(closedThrough, shardOf(shardBy, FENCE_SHARDS)), ConditionExpression: 'attribute_not_exists(pk)' } };
}

const groupFields = (group: BooksGroup) => ({ entity: 'BooksAggregate', state: group.state, line: group.line, policyType: group.policyType, agency: group.agency, rateVersion: group.rateVersion });
const lossGroupFields = (group: LossGroup) => ({
  entity: 'BooksLossAggregate', state: group.state, line: group.line, policyType: group.policyType, agency: group.agency, catastrophe: group.catastrophe, accidentYear: group.accidentYear,
});

/** A day's counters kept on its month's aggregate, each as `<counter>/<DD>`: the journal reads them from the same items as the report. */
const dayCounter = (counter: string, date: string) => `${counter}/${date.slice(8, 10)}`;

function withDays(counters: Record<string, number>, date: string): Record<string, number> {
  return { ...counters, ...Object.fromEntries(Object.entries(counters).map(([counter, cents]) => [dayCounter(counter, date), cents])) };
}

/**
 * The writes of a day's counters for a group: its month's aggregate (the month's counters, and
 * the day's for the journal), and the month's marker the first time the month holds figures.
 */
export function booksCounterWrites(posting: { shardBy: string; group: BooksGroup; date: string; counters: Counters }): TransactionWrite[] {
  return monthCounterWrites({ ...posting, fields: groupFields(posting.group), keyOf: (month, kind, shard) => aggregateKey(month, kind, shard, posting.group) });
}

/** The writes of a day's loss counters for a claim's loss group: as premium's, on the month's loss items. */
export function lossCounterWrites(posting: { shardBy: string; group: LossGroup; date: string; counters: LossCounters }): TransactionWrite[] {
  return monthCounterWrites({ ...posting, fields: lossGroupFields(posting.group), keyOf: (month, kind, shard) => lossAggregateKey(month, kind, shard, posting.group) });
}

/** Premium's and losses' counter writes alike: landing in their own month, or (closed) the first open one as an adjustment. */
function monthCounterWrites(posting: {
  shardBy: string; date: string; counters: Record<string, number | undefined>; fields: Record<string, string>;
  keyOf: (month: string, kind: 'current' | 'adjustment', shard: number) => Record<string, string>;
}): TransactionWrite[] {
  const counters = Object.fromEntries(Object.entries(posting.counters).filter(([, cents]) => cents)) as Record<string, number>;
  if (!Object.keys(counters).length) return [];
  const shard = shardOf(posting.shardBy, SHARDS);
  return [
    counterWrite({
      tableName: table(),
      key: posting.keyOf(monthOf(posting.date), 'current', shard),
      counters: withDays(counters, posting.date),
      fields: { ...posting.fields, month: monthOf(posting.date) },
      settle: async (_write, { fresh }) => {
        const state = await closeState(fresh);
        const land = landing(posting.date, state);
        const guard = landingGuard(state.closedThrough, land.month, posting.shardBy);
        return {
          key: posting.keyOf(land.month, land.adjustment ? 'adjustment' : 'current', shard),
          counters: withDays(counters, land.date),
          fields: { month: land.month, kind: land.adjustment ? 'adjustment' : 'current' },
          ...(guard ? { guard } : {}),
        };
      },
    }),
    counterWrite({
      tableName: table(),
      key: { pk: closeKey().pk, sk: `MONTH#${monthOf(posting.date)}` },
      counters: {},
      fields: { entity: 'BooksMonth' },
      settle: async (_write, { fresh }) => {
        const state = await closeState(fresh);
        const land = landing(posting.date, state);
        // A month the memo does not know may have had its marker written since it was read (by another process):
        // written again (the same fields, if absent) rather than read again on the commit's path; once this
        // transaction commits the memo knows it, so this process writes it once.
        return state.months.has(land.month) ? null : { key: { pk: closeKey().pk, sk: `MONTH#${land.month}` }, fields: { month: land.month }, landed: () => noteMonthHeld(land.month) };
      },
    }),
  ];
}

function countersOf(item: Record<string, unknown>): Counters {
  const counters: Counters = {};
  for (const counter of COUNTERS) if (typeof item[counter] === 'number' && item[counter] !== 0) counters[counter] = item[counter] as number;
  return counters;
}

const groupOfItem = (item: Record<string, unknown>): BooksGroup => ({
  state: String(item.state), line: String(item.line), policyType: String(item.policyType), agency: String(item.agency), rateVersion: String(item.rateVersion),
});

/** A month's aggregates (every group and shard): one query of its partition. */
export async function monthAggregates(month: string): Promise<MonthAggregate[]> {
  return (await queryAll({ TableName: table(), ...monthAggregatesQuery(month) })).map((item) => ({
    month, kind: (String(item.sk).startsWith('AGG#adjustment#') ? 'adjustment' : 'current') as MonthAggregate['kind'], group: groupOfItem(item), counters: countersOf(item),
  }));
}

function lossCountersOf(item: Record<string, unknown>): LossCounters {
  const counters: LossCounters = {};
  for (const counter of LOSS_COUNTERS) if (typeof item[counter] === 'number' && item[counter] !== 0) counters[counter] = item[counter] as number;
  return counters;
}

const lossGroupOfItem = (item: Record<string, unknown>): LossGroup => ({
  state: String(item.state), line: String(item.line), policyType: String(item.policyType), agency: String(item.agency), catastrophe: String(item.catastrophe), accidentYear: String(item.accidentYear),
});

/** A month's loss aggregates (every loss group and shard): one query of its partition's loss items. */
export async function monthLossAggregates(month: string): Promise<MonthLossAggregate[]> {
  return (await queryAll({ TableName: table(), ...monthLossAggregatesQuery(month) })).map((item) => ({
    month, kind: (String(item.sk).startsWith('LOSS#adjustment#') ? 'adjustment' : 'current') as MonthLossAggregate['kind'], group: lossGroupOfItem(item), counters: lossCountersOf(item),
  }));
}

/** The running loss totals frozen when a month was closed, by loss group. */
export async function lossClosingsOf(month: string): Promise<Array<{ group: LossGroup; counters: LossCounters }>> {
  return (await queryAll({ TableName: table(), ...lossClosingsQuery(month) })).map((item) => ({ group: lossGroupOfItem(item), counters: lossCountersOf(item) }));
}

/** The running totals frozen when a month was closed, by group. */
export async function closingsOf(month: string): Promise<Array<{ group: BooksGroup; counters: Counters }>> {
  return (await queryAll({ TableName: table(), ...closingsQuery(month) })).map((item) => ({ group: groupOfItem(item), counters: countersOf(item) }));
}

/** A day range's journal counters (within one month), by day: the day counters of the month's aggregates, premium's and losses'. */
export async function dayCounters(month: string, from: string, to: string): Promise<Array<{ date: string; counters: Counters & LossCounters }>> {
  const days = new Map<string, Record<string, number>>();
  const known = new Set<string>([...COUNTERS, ...LOSS_COUNTERS]);
  const [premium, losses] = await Promise.all([queryAll({ TableName: table(), ...monthAggregatesQuery(month) }), queryAll({ TableName: table(), ...monthLossAggregatesQuery(month) })]);
  for (const item of [...premium, ...losses]) {
    for (const [attribute, cents] of Object.entries(item)) {
      const [counter, day] = attribute.split('/');
      if (day === undefined || typeof cents !== 'number' || !known.has(counter)) continue;
      const date = `${month}-${day}`;
      if (date < from || date > to) continue;
      const counters = days.get(date) ?? {};
      counters[counter] = (counters[counter] ?? 0) + cents;
      days.set(date, counters);
    }
  }
  return [...days].map(([date, counters]) => ({ date, counters: counters as Counters & LossCounters }));
}

/** Closing a month: its running totals by group frozen, and the watermark moved to it (under the one read, so two closes do not cross). */
export function closeWrites(month: string, previous: string | null, closings: Array<{ group: BooksGroup; counters: Counters }>, closedBy: string, closedAt: string, closeExtras?: Record<string, unknown>): TransactionWrite[] {
  return [
    {
      Put: {
        TableName: table(),
        Item: { ...closeKey(), entity: 'BooksClose', closedThrough: month, closedBy, closedAt, ...(closeExtras ?? {}) },
        ...(previous === null ? { ConditionExpression: 'attribute_not_exists(pk)' } : { ConditionExpression: 'closedThrough = :previous', ExpressionAttributeValues: { ':previous': previous } }),
      },
    },
    ...closings.map(({ group, counters }) => ({ Put: { TableName: table(), Item: { ...closingKey(month, group), ...groupFields(group), entity: 'BooksClosing', month, ...counters } } })),
    // The fence of the state this close ends: a posting that settled on it and commits after this lands again, in the open month.
    ...Array.from({ length: FENCE_SHARDS }, (_, shard) => ({ Put: { TableName: table(), Item: { ...closeFenceKey(previous, shard), entity: 'BooksCloseFence', closedThrough: month, closedAt } } })),
  ];
}

// ---------------------------------------------------------------- a term's earning

function earningItem(earning: TermEarning): Record<string, unknown> {
  const stillEarning = earning.earnedThrough < earning.lastDay;
  return { ...termEarningKey(earning.termId), entity: 'TermEarning', ...earning, ...(stillEarning ? earningListing(shardOf(earning.termId, EARNING_BUCKETS), earning.lastDay, earning.termId) : {}) };
}

export async function getTermEarning(termId: string): Promise<TermEarning | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: termEarningKey(termId), ConsistentRead: true }));
  return Item ? withoutStorageKeys<TermEarning>(Item) : undefined;
}

/** A term's earning record written (created, or replaced under the version read). */
export function termEarningWrite(earning: TermEarning, expectedVersion: number | null): TransactionWrite {
  return {
    Put: {
      TableName: table(),
      Item: earningItem(earning),
      ...(expectedVersion === null ? { ConditionExpression: 'attribute_not_exists(pk)' } : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expectedVersion } }),
    },
  };
}

/** The terms still earning, bucket by bucket, in pages (the nightly's work list: the book in force, never the whole book). */
export async function* earningTerms(pageSize = 100): AsyncGenerator<TermEarning[]> {
  for (let bucket = 0; bucket < EARNING_BUCKETS; bucket += 1) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(new QueryCommand({ TableName: table(), ...earningQuery(bucket), Limit: pageSize, ...(start ? { ExclusiveStartKey: start } : {}) }));
      const items = (page.Items ?? []).map((item) => withoutStorageKeys<TermEarning>(item));
      if (items.length) yield items;
      start = page.LastEvaluatedKey;
    } while (start);
  }
}


/** The closing of a month written: its running totals by group, premium's and losses' (a batch; the month is already closed, nothing else writes them), then the close record says so. */
export async function writeClosings(month: string, closings: Array<{ group: BooksGroup; counters: Counters }>, lossClosings: Array<{ group: LossGroup; counters: LossCounters }> = []): Promise<void> {
  await batchWriteAll([
    ...closings.map(({ group, counters }) => ({ PutRequest: { Item: { ...closingKey(month, group), ...groupFields(group), entity: 'BooksClosing', month, ...counters } } })),
    ...lossClosings.map(({ group, counters }) => ({ PutRequest: { Item: { ...lossClosingKey(month, group), ...lossGroupFields(group), entity: 'BooksLossClosing', month, ...counters } } })),
  ]);
  await documentClient().send(new UpdateCommand({
    TableName: table(), Key: closeKey(),
    UpdateExpression: 'SET closingsThrough = :month, firstClosing = if_not_exists(firstClosing, :month)',
    ExpressionAttributeValues: { ':month': month },
  }));
}
