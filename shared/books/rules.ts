/**
 * The books' rules, plain functions over plain data: which counters an account-history row
 * moves, how a term's written premium earns (daily pro rata, each written amount over its own
 * days, rounded on the running total so the days add up to the cent), the journal entries a
 * day's counters post, and a report's lines from the months' counters (balances are running sums,
 * so unearned_end = unearned_start + written − earned holds by construction).
 */
import { addDays, addMonths, daysBetween } from '../platform/dates.js';
import { prorate, type Cents } from '../platform/money.js';
import {
  COUNTERS, GROUP_DIMENSIONS, type BooksGroup, type Counter, type Counters, type EarningLayer, type GroupDimension, type JournalLine, type PremiumReportLine, type TermEarning,
} from './model.js';

export const monthOf = (date: string) => date.slice(0, 7);
export const nextMonth = (month: string) => addMonths(`${month}-01`, 1).slice(0, 7);
export const firstDayOf = (month: string) => `${month}-01`;
export const lastDayOf = (month: string) => addDays(firstDayOf(nextMonth(month)), -1);

/** The months from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= to; month = nextMonth(month)) months.push(month);
  return months;
}

/** A revision's group: its primary property's state, line, policy type, agency and rate version (`-` for none). */
export function groupOf(revision: { header: { lineId: string; policyTypeId: string; agencyId: string | null; rateVersion?: { id: string } }; risks: ReadonlyArray<{ primary?: boolean | null; address_state?: string | null }> }): BooksGroup {
  const primary = revision.risks.find((risk) => risk.primary) ?? revision.risks[0];
  return {
    state: primary?.address_state || '-',
    line: revision.header.lineId || '-',
    policyType: revision.header.policyTypeId || '-',
    agency: revision.header.agencyId || '-',
    rateVersion: revision.header.rateVersion?.id || '-',
  };
}

export const UNKNOWN_GROUP: BooksGroup = { state: '-', line: '-', policyType: '-', agency: '-', rateVersion: '-' };

export function addCounters(into: Counters, more: Counters, sign = 1): Counters {
  for (const [counter, cents] of Object.entries(more) as Array<[Counter, number]>) into[counter] = (into[counter] ?? 0) + sign * cents;
  return into;
}

/** What an account-history row moves: a payment collects (an NSF reversal un-collects), a refund paid out refunds, every other row bills. */
export function countersOfRow(row: { type: string; amountCents: Cents }): Counters {
  if (row.amountCents === 0) return {};
  if (row.type === 'Payment' || row.type === 'NSF Reversal') return { collected: -row.amountCents };
  if (row.type === 'Refund') return { refunded: row.amountCents };
  return { billed: row.amountCents };
}

// ---------------------------------------------------------------- earning

/** What a layer has earned through `day` (inclusive): its days in force so far over all its days, pro rata (platform/money's prorate). */
export function layerEarned(layer: EarningLayer, day: string): Cents {
  const days = daysBetween(layer.from, layer.to);
  if (days <= 0) return day >= layer.from ? layer.cents : 0;
  const elapsed = Math.max(0, Math.min(days, daysBetween(layer.from, day) + 1));
  return prorate(layer.cents, elapsed, days);
}

/** What a term has earned through `day`: each layer pro rata; from its stop day on (a cancellation), all it wrote. */
export function earnedThrough(earning: Pick<TermEarning, 'layers' | 'stopsAt'>, day: string): Cents {
  if (earning.stopsAt !== null && day >= earning.stopsAt) return earning.layers.reduce((total, layer) => total + layer.cents, 0);
  return earning.layers.reduce((total, layer) => total + layerEarned(layer, day), 0);
}

/** The last day a term earns anything: its stop day, or the last day of its latest layer. */
export function lastEarningDay(earning: Pick<TermEarning, 'layers' | 'stopsAt'>): string {
  if (earning.stopsAt !== null) return earning.stopsAt;
  const ends = earning.layers.map((layer) => (layer.to > layer.from ? addDays(layer.to, -1) : layer.from));
  return ends.reduce((last, end) => (end > last ? end : last), '0000-00-00');
}

/**
 * What the nightly books for a term run through `day`: the earning of each month from the day
 * after `earnedThrough` to `day` (a run that missed days catches up, month by month), each the
 * difference of running totals so that the pieces add up to the total exactly.
 */
export function earningPieces(earning: Pick<TermEarning, 'layers' | 'stopsAt' | 'earnedThrough' | 'earnedCents'>, day: string): Array<{ date: string; cents: Cents }> {
  if (day <= earning.earnedThrough) return [];
  const pieces: Array<{ date: string; cents: Cents }> = [];
  let booked = earning.earnedCents;
  let from = addDays(earning.earnedThrough, 1);
  while (from <= day) {
    const monthEnd = lastDayOf(monthOf(from));
    const through = monthEnd < day ? monthEnd : day;
    const total = earnedThrough(earning, through);
    if (total !== booked) pieces.push({ date: through, cents: total - booked });
    booked = total;
    from = addDays(through, 1);
  }
  return pieces;
}

// ---------------------------------------------------------------- the journal

const written = (counters: Counters) => (counters.writtenNewBusiness ?? 0) + (counters.writtenEndorsements ?? 0) + (counters.writtenRenewals ?? 0)
  + (counters.writtenCancellations ?? 0) + (counters.writtenReinstatements ?? 0) + (counters.writtenRewrites ?? 0);

/**
 * A day's journal entries from its counters: each a debit and a credit of one amount (a negative
 * amount posts the other way round), so every day balances by construction.
 */
export function journalOfDay(date: string, counters: Counters): JournalLine[] {
  const lines: JournalLine[] = [];
  const post = (cents: number, debit: JournalLine['account'], credit: JournalLine['account'], memo: string) => {
    if (cents === 0) return;
    const [dr, cr] = cents > 0 ? [debit, credit] : [credit, debit];
    const amount = Math.abs(cents);
    lines.push({ date, account: dr, debit: amount, credit: 0, memo }, { date, account: cr, debit: 0, credit: amount, memo });
  };
  post(written(counters), 'Premium written not yet billed', 'Unearned premium', 'Premium written');
  post(counters.feesAndTaxes ?? 0, 'Premium written not yet billed', 'Fees and taxes payable', 'Fees, taxes and surcharges written');
  post(counters.billed ?? 0, 'Premium receivable', 'Premium written not yet billed', 'Billed');
  post(counters.collected ?? 0, 'Cash', 'Premium receivable', 'Collected');
  post(counters.refunded ?? 0, 'Premium receivable', 'Refunds payable', 'Refund owed');
  post(counters.refunded ?? 0, 'Refunds payable', 'Cash', 'Refund paid');
  post(counters.earned ?? 0, 'Unearned premium', 'Earned premium', 'Premium earned');
  post(counters.commission ?? 0, 'Commission expense', 'Commission payable', 'Agency commission');
  return lines;
}

/** The balance of each account after the lines (debit positive), for a trial balance. */
export function trialBalance(lines: readonly JournalLine[]): Record<string, Cents> {
  const balances: Record<string, Cents> = {};
  for (const line of lines) balances[line.account] = (balances[line.account] ?? 0) + line.debit - line.credit;
  return balances;
}

// ---------------------------------------------------------------- the report

/** One stored aggregate, as the report reads it. */
export interface MonthAggregate {
  month: string;
  kind: 'current' | 'adjustment';
  group: BooksGroup;
  counters: Counters;
}

const dimensionValue = (group: BooksGroup, dimension: GroupDimension) =>
  ({ state: group.state, line: group.line, policy_type: group.policyType, agency: group.agency, rate_version: group.rateVersion })[dimension];

export function groupLabel(group: BooksGroup, by: readonly GroupDimension[]): Partial<Record<GroupDimension, string>> {
  return Object.fromEntries(by.map((dimension) => [dimension, dimensionValue(group, dimension)]));
}

const cents = (value: number) => Math.round(value) / 100;

/**
 * The report's lines for the months asked, from the balances each group carried into the first
 * of them (`opening`, by finest group) and every aggregate of those months: per month, the groups
 * rolled up to `by`; each month's balances run on from the month before.
 */
export function premiumReportLines(months: readonly string[], opening: ReadonlyArray<{ group: BooksGroup; counters: Counters }>, aggregates: readonly MonthAggregate[], by: readonly GroupDimension[]): PremiumReportLine[] {
  const keyOf = (group: BooksGroup) => JSON.stringify(groupLabel(group, by));
  const running = new Map<string, { unearned: number; receivable: number; inForce: number; group: BooksGroup }>();
  const balanceOf = (group: BooksGroup) => {
    const key = keyOf(group);
    if (!running.has(key)) running.set(key, { unearned: 0, receivable: 0, inForce: 0, group });
    return running.get(key)!;
  };
  const applyBalances = (balance: ReturnType<typeof balanceOf>, counters: Counters) => {
    balance.unearned += written(counters) - (counters.earned ?? 0);
    balance.receivable += (counters.billed ?? 0) - (counters.collected ?? 0) + (counters.refunded ?? 0);
    balance.inForce += counters.inForceChange ?? 0;
  };
  for (const { group, counters } of opening) applyBalances(balanceOf(group), counters);
  const lines: PremiumReportLine[] = [];
  for (const month of months) {
    const byGroup = new Map<string, { group: BooksGroup; current: Counters; adjustment: Counters | null }>();
    for (const aggregate of aggregates.filter((candidate) => candidate.month === month)) {
      const key = keyOf(aggregate.group);
      if (!byGroup.has(key)) byGroup.set(key, { group: aggregate.group, current: {}, adjustment: null });
      const entry = byGroup.get(key)!;
      if (aggregate.kind === 'adjustment') entry.adjustment = addCounters(entry.adjustment ?? {}, aggregate.counters);
      else addCounters(entry.current, aggregate.counters);
    }
    // Groups with balances and no activity this month still show their balances.
    for (const [key, balance] of running) if (!byGroup.has(key) && (balance.unearned || balance.receivable || balance.inForce)) byGroup.set(key, { group: balance.group, current: {}, adjustment: null });
    for (const key of [...byGroup.keys()].sort()) {
      const { group, current, adjustment } = byGroup.get(key)!;
      for (const [kind, counters] of [['prior_period_adjustments', adjustment], ['current', current]] as const) {
        if (!counters) continue;
        const balance = balanceOf(group);
        const start = { ...balance };
        applyBalances(balance, counters);
        lines.push({
          month, kind, group: groupLabel(group, by),
          written: {
            new_business: cents(counters.writtenNewBusiness ?? 0), endorsements: cents(counters.writtenEndorsements ?? 0), renewals: cents(counters.writtenRenewals ?? 0),
            cancellations: cents(counters.writtenCancellations ?? 0), reinstatements: cents(counters.writtenReinstatements ?? 0), rewrites: cents(counters.writtenRewrites ?? 0), total: cents(written(counters)),
          },
          earned: cents(counters.earned ?? 0),
          unearned_start: cents(start.unearned), unearned_end: cents(balance.unearned),
          fees_and_taxes: cents(counters.feesAndTaxes ?? 0),
          billed: cents(counters.billed ?? 0), collected: cents(counters.collected ?? 0), refunded: cents(counters.refunded ?? 0), commission: cents(counters.commission ?? 0),
          receivable_start: cents(start.receivable), receivable_end: cents(balance.receivable),
          policies_in_force_end: balance.inForce,
        });
      }
    }
  }
  return lines;
}

const csvCell = (value: string | number) => (typeof value === 'string' && /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : String(value));

export function premiumReportCsv(lines: readonly PremiumReportLine[], by: readonly GroupDimension[]): string {
  const head = ['month', 'kind', ...by, 'written_new_business', 'written_endorsements', 'written_renewals', 'written_cancellations', 'written_reinstatements', 'written_rewrites', 'written_total',
    'earned', 'unearned_start', 'unearned_end', 'fees_and_taxes', 'billed', 'collected', 'refunded', 'commission', 'receivable_start', 'receivable_end', 'policies_in_force_end'];
  const money = (amount: number) => amount.toFixed(2);
  const rows = lines.map((line) => [
    line.month, line.kind, ...by.map((dimension) => csvCell(line.group[dimension] ?? '')),
    ...[line.written.new_business, line.written.endorsements, line.written.renewals, line.written.cancellations, line.written.reinstatements, line.written.rewrites, line.written.total,
      line.earned, line.unearned_start, line.unearned_end, line.fees_and_taxes, line.billed, line.collected, line.refunded, line.commission, line.receivable_start, line.receivable_end].map(money),
    String(line.policies_in_force_end),
  ].join(','));
  return `${[head.join(','), ...rows].join('\n')}\n`;
}

export function journalCsv(lines: readonly JournalLine[]): string {
  const rows = lines.map((line) => [line.date, csvCell(line.account), (line.debit / 100).toFixed(2), (line.credit / 100).toFixed(2), csvCell(line.memo)].join(','));
  return `${['date,account,debit,credit,memo', ...rows].join('\n')}\n`;
}

export const isCounter = (name: string): name is Counter => (COUNTERS as readonly string[]).includes(name);
export const isDimension = (name: string): name is GroupDimension => (GROUP_DIMENSIONS as readonly string[]).includes(name);
