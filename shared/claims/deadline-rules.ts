/**
 * The rules of a claim's deadlines once its state's clocks have set them (rules.ts reckons them and
 * says what meets them): which states have clocks, which due dates a night finds breached, how a
 * listed deadline stands on a day, and how a move records what it did to them. Pure; unit-tested
 * (test/unit/claims-deadlines.test.ts).
 */
import type { ClaimClock } from '../catalog/index.js';
import { daysBetween } from '../platform/dates.js';
import type { ClaimChange, ClaimStatus, DeadlineListing, DueDate } from './model.js';

/** The states the product's clocks run in, in alphabetical order. */
export function statesWithClocks(clocks: ReadonlyArray<Pick<ClaimClock, 'state'>>): string[] {
  return [...new Set(clocks.map((clock) => clock.state.toUpperCase()))].sort();
}

/** Whether a claim's due date is listed among the deadlines to work: not met, on a claim not closed (reopening lists it again). */
export function isListedDeadline(claimStatus: ClaimStatus, dueDate: Pick<DueDate, 'status'>): boolean {
  return claimStatus !== 'closed' && dueDate.status !== 'met';
}

/**
 * The nightly run of `day`: every open due date before `day` (its due date ended unmet) becomes
 * `breached`, flagged at `at`. A due date already breached, or met, is left as it is, so a day run
 * twice flags nothing twice; a closed claim has nothing to breach.
 */
export function breachDueDates(claim: { status: ClaimStatus; dueDates: readonly DueDate[] }, day: string, at: string): { dueDates: DueDate[]; breached: DueDate[] } {
  if (claim.status === 'closed') return { dueDates: [...claim.dueDates], breached: [] };
  const breached: DueDate[] = [];
  const dueDates = claim.dueDates.map((dueDate) => {
    if (dueDate.status !== 'open' || dueDate.dueDate >= day) return dueDate;
    const flagged: DueDate = { ...dueDate, status: 'breached', breachedAt: at };
    breached.push(flagged);
    return flagged;
  });
  return { dueDates, breached };
}

/** A listed deadline as of `today`: due (with the calendar days left, 0 on its day) or overdue (with the days past it). */
export function deadlineStanding(dueDate: string, today: string): { standing: 'due' | 'overdue'; daysLeft: number | null; daysOverdue: number | null } {
  const left = daysBetween(today, dueDate);
  return left >= 0 ? { standing: 'due', daysLeft: left, daysOverdue: null } : { standing: 'overdue', daysLeft: null, daysOverdue: -left };
}

/** Soonest first: by due date, then claim number (numerically), then clock. */
export function soonestFirst(a: DeadlineListing, b: DeadlineListing): number {
  return a.dueDate.localeCompare(b.dueDate) || a.claimNumber.localeCompare(b.claimNumber, 'en', { numeric: true }) || a.clockId.localeCompare(b.clockId);
}

const standingOf = (dueDate: DueDate) => ({ due_date: dueDate.dueDate, status: dueDate.status, met_at: dueDate.metAt, met_by: dueDate.metBy, breached_at: dueDate.breachedAt });

/**
 * What a move did to the claim's due dates, one change per clock (`due_dates.<clock>`) from its
 * standing before to its standing after: a clock started, met, breached, moved with its start.
 */
export function dueDateChanges(before: readonly DueDate[], after: readonly DueDate[]): ClaimChange['changes'] {
  const changes: ClaimChange['changes'] = [];
  for (const dueDate of after) {
    const was = before.find((candidate) => candidate.clockId === dueDate.clockId);
    const from = was ? standingOf(was) : null;
    const to = standingOf(dueDate);
    if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ field: `due_dates.${dueDate.clockId}`, from, to });
  }
  for (const was of before) if (!after.some((dueDate) => dueDate.clockId === was.clockId)) changes.push({ field: `due_dates.${was.clockId}`, from: standingOf(was), to: null });
  return changes;
}

/** The clocks a move met, for its event (`met_clocks`), when it met any. */
export function metNow(before: readonly DueDate[], after: readonly DueDate[]): { met_clocks?: string[] } {
  const met = after.filter((dueDate) => dueDate.status === 'met' && before.find((was) => was.clockId === dueDate.clockId)?.status !== 'met').map((dueDate) => dueDate.clockId);
  return met.length > 0 ? { met_clocks: met } : {};
}
