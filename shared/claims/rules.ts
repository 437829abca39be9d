/**
 * The claims area's rules, pure: numbers, the term and revision in force on a loss date, the due
 * dates of a state's clocks, the duplicate window, the catastrophe a loss falls in, the search
 * dimensions of a claim. No I/O; unit-tested (test/unit/claims-rules.test.ts).
 */
import type { ClaimClock, ClaimsRules } from '../catalog/index.js';
import { addBusinessDays } from '../platform/business-days.js';
import { addDays, daysBetween } from '../platform/dates.js';
import type { CatastropheRecord, ClaimRecord, ClaimSummary, DueDate } from './model.js';

/** `CL-2026-1`: the carrier's prefix, the year of the report, the year's running number. */
export function claimNumberOf(prefix: string, year: string, n: number): string {
  return `${prefix}-${year}-${n}`;
}

/** The counter a report draws from: one a year when numbers restart yearly, else one for all time. */
export function numberYear(rules: Pick<ClaimsRules, 'claimNumber'>, reportedDate: string): string {
  return rules.claimNumber.restartsYearly ? reportedDate.slice(0, 4) : 'ALL';
}

export interface TermSpan {
  id: string;
  effectiveDate: string;
  expirationDate: string;
  cancellationStatus?: 'pending' | 'cancelled' | null;
  cancelDate?: string | null;
  archivedOn?: string | null;
  lapses?: Array<{ from: string; to: string }>;
}

/** The term whose cover the loss date falls in, or why none does. */
export function termAtLoss<T extends TermSpan>(terms: readonly T[], inceptionDate: string, lossDate: string): { term: T } | { reason: string } {
  const live = terms.filter((term) => !term.archivedOn).sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
  const term = live.find((candidate) => lossDate >= candidate.effectiveDate && lossDate < candidate.expirationDate);
  if (!term) {
    const first = live[0];
    if (!first || lossDate < (first.effectiveDate ?? inceptionDate)) return { reason: `the loss date ${lossDate} is before the policy's inception on ${first?.effectiveDate ?? inceptionDate}` };
    const ended = [...live].reverse().find((candidate) => candidate.expirationDate <= lossDate);
    return { reason: `the loss date ${lossDate} is after the term that ended on ${ended?.expirationDate ?? live[live.length - 1].expirationDate}, and no later term was in force` };
  }
  if (term.cancellationStatus === 'cancelled' && term.cancelDate && lossDate >= term.cancelDate) {
    return { reason: `the policy was cancelled effective ${term.cancelDate}, before the loss date ${lossDate}` };
  }
  const lapse = (term.lapses ?? []).find((candidate) => lossDate >= candidate.from && lossDate < candidate.to);
  if (lapse) return { reason: `the loss date ${lossDate} falls in a lapse of cover from ${lapse.from} to ${lapse.to}` };
  return { term };
}

/** When a clock comes due from a date: calendar days, or the service's business days. */
export function dueFrom(clock: Pick<ClaimClock, 'days' | 'calendar'>, from: string): string {
  return clock.calendar === 'business' ? addBusinessDays(from, clock.days) : addDays(from, clock.days);
}

/**
 * The claim's due dates by its state's clocks: each clock whose starting date the claim has
 * (`notice` is the reported date; any other is the latest claim date of that type). A due date
 * already met or breached keeps its standing; a clock whose starting date moved is reckoned afresh.
 */
export function dueDatesOf(
  clocks: readonly ClaimClock[],
  claim: Pick<ClaimRecord, 'state' | 'reportedDate' | 'dueDates'>,
  claimDates: ReadonlyArray<{ type: string; date: string; recordedAt?: string }>,
): DueDate[] {
  const latest = new Map<string, string>();
  for (const claimDate of claimDates) if ((latest.get(claimDate.type) ?? '') < claimDate.date) latest.set(claimDate.type, claimDate.date);
  const due: DueDate[] = [];
  for (const clock of clocks.filter((candidate) => candidate.state === claim.state)) {
    const fromDate = clock.from === 'notice' ? claim.reportedDate : latest.get(clock.from);
    if (!fromDate) continue;
    const dueDate = dueFrom(clock, fromDate);
    const before = claim.dueDates.find((candidate) => candidate.clockId === clock.id);
    if (before && before.fromDate === fromDate && before.status !== 'open') {
      due.push(before);
      continue;
    }
    const fresh: DueDate = { clockId: clock.id, what: clock.what, from: clock.from, fromDate, dueDate, calendar: clock.calendar, status: 'open', metAt: null, metBy: null, breachedAt: before?.fromDate === fromDate ? before.breachedAt : null };
    // A clock that starts when the claim already reached what it asks (an investigation begun before the proof of loss) is met at once.
    const meeting = claimDates.filter((claimDate) => meets(fresh, claimDate.type, claimDate.date)).sort((a, b) => a.date.localeCompare(b.date))[0];
    due.push(meeting ? meetDueDates([fresh], meeting.type, meeting.date, meeting.recordedAt ?? `${meeting.date}T00:00:00.000Z`)[0] : fresh);
  }
  return due;
}

/** The claim dates (and moves) that meet each clock: a clock is met when the claim reaches what it asks. */
export const CLOCK_MET_BY: Readonly<Record<string, readonly string[]>> = {
  acknowledge: ['acknowledged', 'acknowledgement_sent'],
  begin_investigation: ['investigation_started', 'inspection'],
  pay_or_deny: ['paid', 'denied', 'closed'],
  accept_or_reject: ['accepted', 'rejected', 'denied'],
  pay: ['paid', 'closed'],
};

/**
 * Clocks that what happened before they started meets as well: an investigation begun before the
 * proof of loss arrived has begun. A decision (accept, reject, pay) answers only a start before it:
 * a proof of loss received again after a rejection asks for a decision again.
 */
export const CLOCK_MET_BEFORE_ITS_START: ReadonlySet<string> = new Set(['acknowledge', 'begin_investigation']);

/** Whether `event` on `day` meets the due date: it is what the clock asks, and (but for a clock met before its start) on or after the date the clock runs from. */
function meets(dueDate: DueDate, event: string, day: string): boolean {
  return (CLOCK_MET_BY[dueDate.clockId] ?? []).includes(event) && (day >= dueDate.fromDate || CLOCK_MET_BEFORE_ITS_START.has(dueDate.clockId));
}

/**
 * The due dates with those met by `event` (a claim date type or a move) on `day` marked met, recorded
 * at `at` by `event`. Met after its due date, a due date is breached (the nightly run's flag kept, or
 * flagged at `at`); met on or before it (a date recorded late), a flag the nightly run raised meanwhile
 * is lifted.
 */
export function meetDueDates(dueDates: readonly DueDate[], event: string, day: string, at: string): DueDate[] {
  return dueDates.map((dueDate) => {
    if (dueDate.status === 'met' || !meets(dueDate, event, day)) return dueDate;
    return { ...dueDate, status: 'met', metAt: at, metBy: event, breachedAt: day > dueDate.dueDate ? (dueDate.breachedAt ?? at) : null };
  });
}

/** Whether a report repeats an earlier one: the same policy and peril, loss dates within the window. */
export function isPossibleDuplicate(earlier: Pick<ClaimSummary, 'lossDate' | 'perilCode'>, report: { lossDate: string; perilCode: string }, windowDays: number): boolean {
  return earlier.perilCode === report.perilCode && Math.abs(daysBetween(earlier.lossDate, report.lossDate)) <= windowDays;
}

/** The catastrophe a loss falls in: its dates hold the loss date and its states (and counties, where it names any) the property. */
export function catastropheOf(catastrophes: readonly CatastropheRecord[], loss: { lossDate: string; state: string; countyCode: string | null }): CatastropheRecord | undefined {
  return catastrophes.find(
    (catastrophe) =>
      loss.lossDate >= catastrophe.from &&
      loss.lossDate <= catastrophe.to &&
      catastrophe.states.includes(loss.state) &&
      (catastrophe.counties.length === 0 || (loss.countyCode !== null && catastrophe.counties.includes(loss.countyCode))),
  );
}

/** The words of a name a search finds it by: lower case, letters and digits, two characters or more. */
export function nameWords(name: string): string[] {
  return [...new Set(name.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 2))].slice(0, 8);
}

/** `caseload`: an adjuster's claims still open (not closed), what auto_assign_claim counts as his load. */
export const SEARCH_DIMENSIONS = ['all', 'status', 'adjuster', 'peril', 'catastrophe', 'state', 'agency', 'policy', 'claimant', 'name', 'caseload'] as const;
export type SearchDimension = (typeof SEARCH_DIMENSIONS)[number];

/** Every listing a claim is found under: one per dimension value. */
export function listingsOf(summary: ClaimSummary, claimantIds: readonly string[]): Array<{ dimension: SearchDimension; value: string }> {
  const listings: Array<{ dimension: SearchDimension; value: string }> = [
    { dimension: 'all', value: 'claims' },
    { dimension: 'status', value: summary.status === 'reopened' ? 'open' : summary.status },
    { dimension: 'peril', value: summary.perilCode },
    { dimension: 'state', value: summary.state },
    { dimension: 'policy', value: summary.policyId },
  ];
  if (summary.adjusterContactId) listings.push({ dimension: 'adjuster', value: summary.adjusterContactId });
  if (summary.adjusterContactId && summary.status !== 'closed') listings.push({ dimension: 'caseload', value: summary.adjusterContactId });
  if (summary.catastropheId) listings.push({ dimension: 'catastrophe', value: summary.catastropheId });
  if (summary.agencyId) listings.push({ dimension: 'agency', value: summary.agencyId });
  for (const contactId of new Set(claimantIds)) listings.push({ dimension: 'claimant', value: contactId });
  for (const word of nameWords(summary.insuredName)) listings.push({ dimension: 'name', value: word });
  return listings;
}

export function summaryOf(claim: ClaimRecord): ClaimSummary {
  return {
    claimId: claim.claimId,
    claimNumber: claim.claimNumber,
    policyId: claim.policyId,
    policyNumber: claim.policyNumber,
    agencyId: claim.agencyId,
    contactIds: claim.contactIds,
    insuredName: claim.insuredName,
    lossDate: claim.lossDate,
    reportedDate: claim.reportedDate,
    perilCode: claim.perilCode,
    status: claim.status,
    state: claim.state,
    adjusterContactId: claim.adjusterContactId,
    catastropheId: claim.catastropheId,
    termId: claim.coverage.termId,
  };
}

/** What changed between two versions of a claim, field by field (the fields a user changes). */
export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>, fields: readonly string[]): Array<{ field: string; from: unknown; to: unknown }> {
  return fields.filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null)).map((field) => ({ field, from: before[field] ?? null, to: after[field] ?? null }));
}

/** Losses counted against a renewal: loss dates within three years before `asOf`. */
export function lossesWithinYears(claims: ReadonlyArray<Pick<ClaimSummary, 'lossDate'>>, asOf: string, years = 3): number {
  const since = `${Number(asOf.slice(0, 4)) - years}${asOf.slice(4)}`;
  return claims.filter((claim) => claim.lossDate > since && claim.lossDate <= asOf).length;
}
