/**
 * The books' rules, plain functions over plain data: which counters an account-history row
 * moves, how a term's written premium earns (daily pro rata, each written amount over its own
 * days, rounded on the running total so the days add up to the cent), the journal entries a
 * day's counters post, and a report's lines from the months' counters (balances are running sums,
 * so unearned_end = unearned_start + written − earned holds by construction).
 */
import { addDays, addMonths, daysBetween } from '../platform/dates.js';
import { prorate, ratioOfCents, type Cents } from '../platform/money.js';
import {
  COUNTERS, GROUP_DIMENSIONS, LOSS_GROUP_DIMENSIONS, SHARED_DIMENSIONS, type BooksGroup, type ClaimMoney, type ClaimMoneyMove, type Counter, type Counters, type EarningLayer, type GroupDimension,
  type JournalLine, type LossCounter, type LossCounters, type LossGroup, type LossGroupDimension, type LossReportLine, type PremiumLossColumns, type PremiumReportLine, type TermEarning,
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

export function addCounters<C extends Partial<Record<string, number>>>(into: C, more: C, sign = 1): C {
  const sums = into as Record<string, number>;
  for (const [counter, cents] of Object.entries(more) as Array<[string, number]>) sums[counter] = (sums[counter] ?? 0) + sign * cents;
  return into;
}

// ---------------------------------------------------------------- a claim's money

/** A claim's loss group: its property's state, line, policy type, agency, catastrophe and accident year (`-` for none). */
export function lossGroupOf(claim: ClaimMoneyMove['after']['claim']): LossGroup {
  return {
    state: claim.state || '-',
    line: claim.lineId || '-',
    policyType: claim.policyTypeId || '-',
    agency: claim.agencyId || '-',
    catastrophe: claim.catastropheId || '-',
    accidentYear: claim.lossDate ? claim.lossDate.slice(0, 4) : '-',
  };
}

/** Which loss counter a claim's money entry moves. */
function lossCounterOf(entry: ClaimMoney): LossCounter {
  const expense = entry.costType === 'expense';
  switch (entry.kind) {
    case 'paid': return expense ? 'paidExpense' : 'paidLoss';
    case 'reserve_change': return expense ? 'reserveChangeExpense' : 'reserveChangeLoss';
    case 'recovered': return expense ? 'recoveredExpense' : 'recoveredLoss';
    case 'recovery_reserve_change': return 'recoveryReserveChange';
    case 'deductible_reimbursed': return 'deductibleReimbursed';
    case 'check_cleared': return 'checksCleared';
  }
}

/** The loss counters of a move's money entries, summed (signed cents). */
export function countersOfClaimMoney(money: readonly ClaimMoney[]): LossCounters {
  const counters: LossCounters = {};
  for (const entry of money) {
    if (!entry.amountCents) continue;
    const counter = lossCounterOf(entry);
    counters[counter] = (counters[counter] ?? 0) + entry.amountCents;
  }
  return counters;
}

const incurredLossOf = (counters: LossCounters) => (counters.paidLoss ?? 0) + (counters.reserveChangeLoss ?? 0) - (counters.recoveredLoss ?? 0);
const incurredExpenseOf = (counters: LossCounters) => (counters.paidExpense ?? 0) + (counters.reserveChangeExpense ?? 0) - (counters.recoveredExpense ?? 0);

/** The loss ratio: incurred over earned (platform/money.ts ratioOfCents). */
export const lossRatio = (incurredCents: number, earnedCents: number): number | null => ratioOfCents(incurredCents, earnedCents);

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
export function journalOfDay(date: string, counters: Counters & LossCounters): JournalLine[] {
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
  // A claim's money. A reserve moved is charged to the expense of its cost type; a payment approved
  // is charged there too and owed as a check, so the payment's draw-down of its reserve and the
  // payment net to Dr reserves / Cr checks payable, and the expense accounts hold paid + change in
  // reserves − recoveries: what the loss report calls incurred.
  post(counters.reserveChangeLoss ?? 0, 'Losses incurred', 'Loss and LAE reserves', 'Loss reserve changed');
  post(counters.reserveChangeExpense ?? 0, 'Loss adjustment expense', 'Loss and LAE reserves', 'LAE reserve changed');
  post(counters.paidLoss ?? 0, 'Losses incurred', 'Claim checks payable', 'Loss payment approved');
  post(counters.paidExpense ?? 0, 'Loss adjustment expense', 'Claim checks payable', 'LAE payment approved');
  post(counters.checksCleared ?? 0, 'Claim checks payable', 'Cash', 'Claim check cleared');
  post(counters.recoveredLoss ?? 0, 'Cash', 'Losses incurred', 'Recovery received (the carrier\'s share)');
  post(counters.recoveredExpense ?? 0, 'Cash', 'Loss adjustment expense', 'Recovery received on expense');
  // The insured's deductible out of a recovery is received for him and owed on by a check of its own: no loss cost of the carrier.
  post(counters.deductibleReimbursed ?? 0, 'Cash', 'Claim checks payable', 'Recovery received for the insured (his deductible)');
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

/** The premium report as CSV; with `losses`, the loss columns after the premium's (a ratio to four decimals, empty when there is none). */
export function premiumReportCsv(lines: ReadonlyArray<PremiumReportLine & Partial<PremiumLossColumns>>, by: readonly GroupDimension[], options: { losses?: boolean } = {}): string {
  const head = ['month', 'kind', ...by, 'written_new_business', 'written_endorsements', 'written_renewals', 'written_cancellations', 'written_reinstatements', 'written_rewrites', 'written_total',
    'earned', 'unearned_start', 'unearned_end', 'fees_and_taxes', 'billed', 'collected', 'refunded', 'commission', 'receivable_start', 'receivable_end', 'policies_in_force_end'];
  const lossHead = ['paid_loss', 'paid_expense', 'case_reserves_end', 'recoveries', 'incurred_loss', 'loss_ratio'] as const;
  const money = (amount: number) => amount.toFixed(2);
  const rows = lines.map((line) => [
    line.month, line.kind, ...by.map((dimension) => csvCell(line.group[dimension] ?? '')),
    ...[line.written.new_business, line.written.endorsements, line.written.renewals, line.written.cancellations, line.written.reinstatements, line.written.rewrites, line.written.total,
      line.earned, line.unearned_start, line.unearned_end, line.fees_and_taxes, line.billed, line.collected, line.refunded, line.commission, line.receivable_start, line.receivable_end].map(money),
    String(line.policies_in_force_end),
    ...(options.losses ? lossHead.map((column) => {
      const value = line[column];
      return value === null || value === undefined ? '' : column === 'loss_ratio' ? value.toFixed(4) : money(value);
    }) : []),
  ].join(','));
  return `${[[...head, ...(options.losses ? lossHead : [])].join(','), ...rows].join('\n')}\n`;
}

export function journalCsv(lines: readonly JournalLine[]): string {
  const rows = lines.map((line) => [line.date, csvCell(line.account), (line.debit / 100).toFixed(2), (line.credit / 100).toFixed(2), csvCell(line.memo)].join(','));
  return `${['date,account,debit,credit,memo', ...rows].join('\n')}\n`;
}

export const isCounter = (name: string): name is Counter => (COUNTERS as readonly string[]).includes(name);
export const isDimension = (name: string): name is GroupDimension => (GROUP_DIMENSIONS as readonly string[]).includes(name);

// ---------------------------------------------------------------- the loss report

/** One stored loss aggregate, as the loss report reads it. */
export interface MonthLossAggregate {
  month: string;
  kind: 'current' | 'adjustment';
  group: LossGroup;
  counters: LossCounters;
}

const lossDimensionValue = (group: LossGroup, dimension: LossGroupDimension) =>
  ({ state: group.state, line: group.line, policy_type: group.policyType, agency: group.agency, catastrophe: group.catastrophe, accident_year: group.accidentYear })[dimension];

export function lossGroupLabel(group: LossGroup, by: readonly LossGroupDimension[]): Partial<Record<LossGroupDimension, string>> {
  return Object.fromEntries(by.map((dimension) => [dimension, lossDimensionValue(group, dimension)]));
}

const isShared = (dimension: string): dimension is (typeof SHARED_DIMENSIONS)[number] => (SHARED_DIMENSIONS as readonly string[]).includes(dimension);

/**
 * The loss report's lines for the months asked, from the balances each loss group carried into
 * the first of them (`opening`) and every loss aggregate of those months, rolled up to `by`; each
 * line's earned premium is that of the premium aggregates of its month and kind sharing its state,
 * line, policy type and agency as asked (a catastrophe's or an accident year's line divides by the
 * earned premium of the rest of its group: its points of the whole loss ratio). Case reserves and
 * recovery reserves run on month to month, so case_reserves_end = case_reserves_start + the
 * reserve changes, by construction. Grouped by the shared dimensions only, a group that earned
 * premium and has no claim shows too (a loss ratio of 0).
 */
export function lossReportLines(
  months: readonly string[],
  opening: ReadonlyArray<{ group: LossGroup; counters: LossCounters }>,
  aggregates: readonly MonthLossAggregate[],
  premium: readonly MonthAggregate[],
  by: readonly LossGroupDimension[],
): LossReportLine[] {
  const sharedBy = by.filter(isShared);
  const premiumOnlyRows = sharedBy.length === by.length;
  type Label = Partial<Record<LossGroupDimension, string>>;
  const running = new Map<string, { caseReserves: number; recoveryReserves: number; label: Label }>();
  const balanceOf = (label: Label) => {
    const key = JSON.stringify(label);
    if (!running.has(key)) running.set(key, { caseReserves: 0, recoveryReserves: 0, label });
    return running.get(key)!;
  };
  const applyBalances = (balance: ReturnType<typeof balanceOf>, counters: LossCounters) => {
    balance.caseReserves += (counters.reserveChangeLoss ?? 0) + (counters.reserveChangeExpense ?? 0);
    balance.recoveryReserves += counters.recoveryReserveChange ?? 0;
  };
  for (const { group, counters } of opening) applyBalances(balanceOf(lossGroupLabel(group, by)), counters);
  const earnedKey = (month: string, kind: 'current' | 'adjustment', label: Label) => JSON.stringify([month, kind, ...sharedBy.map((dimension) => label[dimension])]);
  const earned = new Map<string, number>();
  for (const aggregate of premium) {
    const label = groupLabel(aggregate.group, sharedBy) as Label;
    const key = earnedKey(aggregate.month, aggregate.kind, label);
    earned.set(key, (earned.get(key) ?? 0) + (aggregate.counters.earned ?? 0));
  }
  const lines: LossReportLine[] = [];
  for (const month of months) {
    const byGroup = new Map<string, { label: Label; current: LossCounters; adjustment: LossCounters | null }>();
    const entryOf = (label: Label) => {
      const key = JSON.stringify(label);
      if (!byGroup.has(key)) byGroup.set(key, { label, current: {}, adjustment: null });
      return byGroup.get(key)!;
    };
    for (const aggregate of aggregates.filter((candidate) => candidate.month === month)) {
      const entry = entryOf(lossGroupLabel(aggregate.group, by));
      if (aggregate.kind === 'adjustment') entry.adjustment = addCounters(entry.adjustment ?? {}, aggregate.counters);
      else addCounters(entry.current, aggregate.counters);
    }
    if (premiumOnlyRows) {
      for (const aggregate of premium.filter((candidate) => candidate.month === month && candidate.counters.earned)) {
        const entry = entryOf(groupLabel(aggregate.group, sharedBy) as Label);
        if (aggregate.kind === 'adjustment') entry.adjustment ??= {};
      }
    }
    // Groups with reserves outstanding and no activity this month still show them.
    for (const [key, balance] of running) if (!byGroup.has(key) && (balance.caseReserves || balance.recoveryReserves)) byGroup.set(key, { label: balance.label, current: {}, adjustment: null });
    for (const key of [...byGroup.keys()].sort()) {
      const { label, current, adjustment } = byGroup.get(key)!;
      for (const [kind, counters] of [['prior_period_adjustments', adjustment], ['current', current]] as const) {
        if (!counters) continue;
        const balance = balanceOf(label);
        const start = balance.caseReserves;
        applyBalances(balance, counters);
        const earnedCents = earned.get(earnedKey(month, kind === 'current' ? 'current' : 'adjustment', label)) ?? 0;
        const incurredLoss = incurredLossOf(counters);
        const incurredExpense = incurredExpenseOf(counters);
        lines.push({
          month, kind, group: label,
          paid_loss: cents(counters.paidLoss ?? 0), paid_expense: cents(counters.paidExpense ?? 0),
          reserve_change_loss: cents(counters.reserveChangeLoss ?? 0), reserve_change_expense: cents(counters.reserveChangeExpense ?? 0),
          case_reserves_start: cents(start), case_reserves_end: cents(balance.caseReserves),
          recoveries: cents((counters.recoveredLoss ?? 0) + (counters.recoveredExpense ?? 0)), deductible_reimbursed: cents(counters.deductibleReimbursed ?? 0),
          recovery_reserves_end: cents(balance.recoveryReserves),
          incurred_loss: cents(incurredLoss), incurred_expense: cents(incurredExpense), incurred_total: cents(incurredLoss + incurredExpense),
          earned_premium: cents(earnedCents),
          loss_ratio: lossRatio(incurredLoss, earnedCents), loss_and_expense_ratio: lossRatio(incurredLoss + incurredExpense, earnedCents),
        });
      }
    }
  }
  return lines;
}

export const LOSS_REPORT_COLUMNS = [
  'paid_loss', 'paid_expense', 'reserve_change_loss', 'reserve_change_expense', 'case_reserves_start', 'case_reserves_end', 'recoveries', 'deductible_reimbursed',
  'recovery_reserves_end', 'incurred_loss', 'incurred_expense', 'incurred_total', 'earned_premium', 'loss_ratio', 'loss_and_expense_ratio',
] as const;

const ratioCell = (ratio: number | null) => (ratio === null ? '' : ratio.toFixed(4));

export function lossReportCsv(lines: readonly LossReportLine[], by: readonly LossGroupDimension[]): string {
  const rows = lines.map((line) => [
    line.month, line.kind, ...by.map((dimension) => csvCell(line.group[dimension] ?? '')),
    ...LOSS_REPORT_COLUMNS.map((column) => (column === 'loss_ratio' || column === 'loss_and_expense_ratio' ? ratioCell(line[column]) : (line[column] as number).toFixed(2))),
  ].join(','));
  return `${[['month', 'kind', ...by, ...LOSS_REPORT_COLUMNS].join(','), ...rows].join('\n')}\n`;
}

const NO_LOSS_COLUMNS: PremiumLossColumns = { paid_loss: null, paid_expense: null, case_reserves_end: null, recoveries: null, incurred_loss: null, loss_ratio: null };

/** A premium line of a group that has only losses in a month: no premium, no balances (a group with balances has its own line). */
function premiumLineWithout(month: string, kind: PremiumReportLine['kind'], group: PremiumReportLine['group']): PremiumReportLine {
  return {
    month, kind, group,
    written: { new_business: 0, endorsements: 0, renewals: 0, cancellations: 0, reinstatements: 0, rewrites: 0, total: 0 },
    earned: 0, unearned_start: 0, unearned_end: 0, fees_and_taxes: 0, billed: 0, collected: 0, refunded: 0, commission: 0, receivable_start: 0, receivable_end: 0, policies_in_force_end: 0,
  };
}

/**
 * The premium report's lines with their loss columns: the loss report's lines of the same
 * dimensions joined by month, kind and group (a group with losses and no premium line gets one).
 * Losses are not kept by rate version: grouped by it, the loss columns are null.
 */
export function withLossColumns(lines: readonly PremiumReportLine[], losses: readonly LossReportLine[], by: readonly GroupDimension[]): Array<PremiumReportLine & PremiumLossColumns> {
  if (by.includes('rate_version')) return lines.map((line) => ({ ...line, ...NO_LOSS_COLUMNS }));
  const keyOf = (line: { month: string; kind: string; group: object }) => JSON.stringify([line.month, line.kind, line.group]);
  const lossOf = new Map(losses.map((loss) => [keyOf(loss), loss]));
  const all = [...lines];
  const present = new Set(lines.map(keyOf));
  for (const loss of losses) if (!present.has(keyOf(loss))) all.push(premiumLineWithout(loss.month, loss.kind, loss.group as PremiumReportLine['group']));
  const order = (line: PremiumReportLine) => [line.month, JSON.stringify(line.group), line.kind === 'prior_period_adjustments' ? 0 : 1] as const;
  all.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : x[2] - y[2];
  });
  return all.map((line) => {
    const loss = lossOf.get(keyOf(line));
    const incurredCents = Math.round((loss?.incurred_loss ?? 0) * 100);
    return {
      ...line,
      paid_loss: loss?.paid_loss ?? 0, paid_expense: loss?.paid_expense ?? 0, case_reserves_end: loss?.case_reserves_end ?? 0, recoveries: loss?.recoveries ?? 0,
      incurred_loss: loss?.incurred_loss ?? 0, loss_ratio: lossRatio(incurredCents, Math.round(line.earned * 100)),
    };
  });
}

export const isLossDimension = (name: string): name is LossGroupDimension => (LOSS_GROUP_DIMENSIONS as readonly string[]).includes(name);
