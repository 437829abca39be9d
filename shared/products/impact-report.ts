/**
 * What a rate impact run answers, from the policies it rated: counts and premiums before and
 * after, policies and dollars by band of change, the same by state and by territory, the
 * largest changes with the rating step that moved each most, fees and surcharges apart from
 * premium, and what the renewal cap held back. Pure: plain figures in, the report out.
 */
import { formatCents, toAmount, type Cents } from '../platform/money.js';

/** One policy rated as its next renewal would be, at its current rates and at the candidate's. */
export interface PolicyImpact {
  policyNumber: string;
  state: string;
  territory: string;
  before: RatedFigures;
  after: RatedFigures;
  /** The rating step (`<item>: <step>`) whose part of the premium changed most between the two traces; null when nothing moved. */
  movedMostBy: string | null;
}

export interface RatedFigures {
  /** Premium charged (after any renewal cap). */
  premiumCents: Cents;
  /** Premium as the rates alone would have it (equal to premiumCents when no cap applied). */
  uncappedPremiumCents: Cents;
  /** Every fee, surcharges included; never part of premium. */
  feeCents: Cents;
  /** The part of the fees that is states' taxes, surcharges and assessments. */
  chargeCents: Cents;
  rateVersion: string | null;
}

/** The bands of premium change, each holding its lower bound: a change of exactly −5% is in "−5 to 0". */
export const CHANGE_BANDS = [
  { band: 'below -10%', from: null, to: -10 },
  { band: '-10% to -5%', from: -10, to: -5 },
  { band: '-5% to 0%', from: -5, to: 0 },
  { band: '0% to 5%', from: 0, to: 5 },
  { band: '5% to 10%', from: 5, to: 10 },
  { band: '10% to 25%', from: 10, to: 25 },
  { band: 'above 25%', from: 25, to: null },
] as const;

export type ChangeBand = (typeof CHANGE_BANDS)[number]['band'];

/**
 * The band of a change from `before` to `after`, compared exactly in cents (no rounded
 * percent decides a band). A policy with no premium before is "above 25%" when it gains
 * any, "0% to 5%" when it stays at none.
 */
export function bandOf(beforeCents: Cents, afterCents: Cents): ChangeBand {
  const change = afterCents - beforeCents;
  // change / before ≥ bound / 100  ⇔  100 × change ≥ bound × before (before > 0).
  const atLeast = (bound: number) => (beforeCents > 0 ? 100 * change >= bound * beforeCents : change > 0 || bound <= 0);
  for (let index = CHANGE_BANDS.length - 1; index >= 0; index -= 1) {
    const { from } = CHANGE_BANDS[index];
    if (from === null || atLeast(from)) return CHANGE_BANDS[index].band;
  }
  return CHANGE_BANDS[0].band;
}

/** A change in percent to two decimals, as a string ("7.14", "-3.50"); "0.00" from no premium. */
export function changePercent(beforeCents: Cents, afterCents: Cents): string {
  if (beforeCents === 0) return '0.00';
  const basisPoints = Math.round(((afterCents - beforeCents) * 10_000) / beforeCents);
  const sign = basisPoints < 0 ? '-' : '';
  const absolute = Math.abs(basisPoints);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

export interface BandFigures {
  band: ChangeBand;
  policies: number;
  premium_before: number;
  premium_after: number;
  change: number;
}

export interface BookFigures {
  policies: number;
  premium_before: number;
  premium_after: number;
  /** The candidate's premium as its rates alone would have it, no renewal cap applied. */
  premium_after_uncapped: number;
  change: number;
  change_percent: string;
  fees_before: number;
  fees_after: number;
  surcharges_before: number;
  surcharges_after: number;
  /** Renewals the candidate's cap holds down, and by how much premium in all. */
  capped_policies: number;
  capped_by: number;
  bands: BandFigures[];
  /** The bands as they would be with no renewal cap. */
  bands_uncapped: BandFigures[];
}

export interface LargestChange {
  policy_number: string;
  state: string;
  territory: string;
  premium_before: number;
  premium_after: number;
  premium_after_uncapped: number;
  change: number;
  change_percent: string;
  capped: boolean;
  moved_most_by: string | null;
}

export interface ImpactReport extends BookFigures {
  by_state: Record<string, BookFigures>;
  by_territory: Record<string, BookFigures>;
  largest_changes: LargestChange[];
}

/** How many changes the report lists. */
export const LARGEST_CHANGES_LISTED = 20;

const total = (values: readonly Cents[]) => values.reduce((all, value) => all + value, 0);

function bandsOf(policies: readonly PolicyImpact[], after: (policy: PolicyImpact) => Cents): BandFigures[] {
  const byBand = new Map<ChangeBand, PolicyImpact[]>(CHANGE_BANDS.map(({ band }) => [band, []]));
  for (const policy of policies) byBand.get(bandOf(policy.before.premiumCents, after(policy)))!.push(policy);
  return CHANGE_BANDS.map(({ band }) => {
    const members = byBand.get(band)!;
    const before = total(members.map((policy) => policy.before.premiumCents));
    const afterCents = total(members.map(after));
    return { band, policies: members.length, premium_before: toAmount(before), premium_after: toAmount(afterCents), change: toAmount(afterCents - before) };
  });
}

/** The figures of a set of policies (the book in scope, one state, one territory). */
export function bookFigures(policies: readonly PolicyImpact[]): BookFigures {
  const sumOf = (pick: (policy: PolicyImpact) => Cents) => total(policies.map(pick));
  const before = sumOf((policy) => policy.before.premiumCents);
  const after = sumOf((policy) => policy.after.premiumCents);
  const capped = policies.filter((policy) => policy.after.uncappedPremiumCents > policy.after.premiumCents);
  return {
    policies: policies.length,
    premium_before: toAmount(before),
    premium_after: toAmount(after),
    premium_after_uncapped: toAmount(sumOf((policy) => policy.after.uncappedPremiumCents)),
    change: toAmount(after - before),
    change_percent: changePercent(before, after),
    fees_before: toAmount(sumOf((policy) => policy.before.feeCents)),
    fees_after: toAmount(sumOf((policy) => policy.after.feeCents)),
    surcharges_before: toAmount(sumOf((policy) => policy.before.chargeCents)),
    surcharges_after: toAmount(sumOf((policy) => policy.after.chargeCents)),
    capped_policies: capped.length,
    capped_by: toAmount(total(capped.map((policy) => policy.after.uncappedPremiumCents - policy.after.premiumCents))),
    bands: bandsOf(policies, (policy) => policy.after.premiumCents),
    bands_uncapped: bandsOf(policies, (policy) => policy.after.uncappedPremiumCents),
  };
}

function groupedBy(policies: readonly PolicyImpact[], key: (policy: PolicyImpact) => string): Record<string, BookFigures> {
  const groups = new Map<string, PolicyImpact[]>();
  for (const policy of policies) {
    const group = groups.get(key(policy));
    if (group) group.push(policy);
    else groups.set(key(policy), [policy]);
  }
  return Object.fromEntries([...groups.keys()].sort().map((name) => [name, bookFigures(groups.get(name)!)]));
}

/** The largest changes in dollars either way (the larger rise first on a tie, then the policy number). */
export function largestChanges(policies: readonly PolicyImpact[], count = LARGEST_CHANGES_LISTED): LargestChange[] {
  const changeOf = (policy: PolicyImpact) => policy.after.premiumCents - policy.before.premiumCents;
  return [...policies]
    .sort((a, b) => Math.abs(changeOf(b)) - Math.abs(changeOf(a)) || changeOf(b) - changeOf(a) || a.policyNumber.localeCompare(b.policyNumber))
    .slice(0, count)
    .map((policy) => ({
      policy_number: policy.policyNumber,
      state: policy.state,
      territory: policy.territory,
      premium_before: toAmount(policy.before.premiumCents),
      premium_after: toAmount(policy.after.premiumCents),
      premium_after_uncapped: toAmount(policy.after.uncappedPremiumCents),
      change: toAmount(changeOf(policy)),
      change_percent: changePercent(policy.before.premiumCents, policy.after.premiumCents),
      capped: policy.after.uncappedPremiumCents > policy.after.premiumCents,
      moved_most_by: policy.movedMostBy,
    }));
}

export function impactReport(policies: readonly PolicyImpact[]): ImpactReport {
  return {
    ...bookFigures(policies),
    by_state: groupedBy(policies, (policy) => policy.state),
    by_territory: groupedBy(policies, (policy) => `${policy.state} ${policy.territory}`),
    largest_changes: largestChanges(policies),
  };
}

/** One rated item's trace, as the engine answers it. */
export interface TracedItem {
  id: string;
  name: string;
  ratingDetails: ReadonlyArray<{ name: string; runningTotalCents: Cents }>;
}

/**
 * The step that moved a policy's premium most: for each item in both ratings, each step's
 * part of the item's total (its running total less the one before it) before and after; the
 * step whose part changed most in dollars. A rate raised at the base moves the base step; a
 * territory factor raised moves the territory step by more than the base when it is larger.
 */
export function movedMostBy(before: readonly TracedItem[], after: readonly TracedItem[]): string | null {
  const parts = (item: TracedItem) => {
    const byStep = new Map<string, Cents>();
    let previous = 0;
    for (const detail of item.ratingDetails) {
      byStep.set(detail.name, (byStep.get(detail.name) ?? 0) + detail.runningTotalCents - previous);
      previous = detail.runningTotalCents;
    }
    return byStep;
  };
  const beforeById = new Map(before.map((item) => [item.id, item]));
  let best: { label: string; moved: Cents } | null = null;
  for (const item of after) {
    const earlier = beforeById.get(item.id);
    const was = earlier ? parts(earlier) : new Map<string, Cents>();
    const now = parts(item);
    for (const step of new Set([...was.keys(), ...now.keys()])) {
      const moved = Math.abs((now.get(step) ?? 0) - (was.get(step) ?? 0));
      if (moved > 0 && (!best || moved > best.moved)) best = { label: `${item.name}: ${step}`, moved };
    }
  }
  return best?.label ?? null;
}

/** The per-policy rows as CSV (the CLI's --csv): one line a policy, amounts with two decimals. */
export function impactCsv(policies: readonly PolicyImpact[]): string {
  const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const header = 'policy_number,state,territory,premium_before,premium_after,premium_after_uncapped,change,change_percent,band,fees_before,fees_after,surcharges_before,surcharges_after,rate_version_before,rate_version_after,moved_most_by';
  const rows = policies.map((policy) =>
    [
      policy.policyNumber,
      policy.state,
      policy.territory,
      formatCents(policy.before.premiumCents),
      formatCents(policy.after.premiumCents),
      formatCents(policy.after.uncappedPremiumCents),
      formatCents(policy.after.premiumCents - policy.before.premiumCents),
      changePercent(policy.before.premiumCents, policy.after.premiumCents),
      bandOf(policy.before.premiumCents, policy.after.premiumCents),
      formatCents(policy.before.feeCents),
      formatCents(policy.after.feeCents),
      formatCents(policy.before.chargeCents),
      formatCents(policy.after.chargeCents),
      policy.before.rateVersion ?? '',
      policy.after.rateVersion ?? '',
      policy.movedMostBy ?? '',
    ]
      .map((value) => quote(String(value)))
      .join(','),
  );
  return [header, ...rows].join('\n') + '\n';
}
