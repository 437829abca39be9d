/**
 * A claim's deadlines as work: what comes due within so many days and what is overdue, per state
 * (claims/deadlines), and the nightly run that flags each due date its day passed unmet as breached
 * (events/schedules/nightly_claim_deadlines.ts). Both read the deadline listings of each state the
 * product's clocks run in (one query a state, never a scan); a breach is a claim move like any other.
 */
import { getClaimsRules } from '../catalog/index.js';
import { clock } from '../platform/clock.js';
import { addDays, todayIso } from '../platform/dates.js';
import { nightlyDecisionInstant, recordNightlyRun, countNightlyBatchDone } from '../platform/nightly-runs.js';
import { reaches, type Principal } from '../platform/principal.js';
import { RecordChangedError } from '../platform/transactions.js';
import { randomUUID } from 'node:crypto';
import { breachDueDates, deadlineStanding, dueDateChanges, soonestFirst, statesWithClocks } from './deadline-rules.js';
import { ClaimRuleError, type DeadlineListing } from './model.js';
import { commitClaimMove } from './moves.js';
import { stateOf } from './service.js';
import { deadlinesDue, getClaimWhole } from './store.js';

/** The states to read: the one asked (which must have clocks), else every state the rules have clocks for. */
async function statesAsked(state: string | undefined): Promise<string[]> {
  const states = statesWithClocks((await getClaimsRules()).clocks);
  if (state === undefined) return states;
  const wanted = state.trim().toUpperCase();
  if (!states.includes(wanted)) throw new ClaimRuleError(`state: ${wanted.slice(0, 2)} has no claim clocks in the product's rules (they run in ${states.join(', ') || 'no state'})`);
  return [wanted];
}

function deadlineToWire(listing: DeadlineListing, today: string) {
  const standing = deadlineStanding(listing.dueDate, today);
  return {
    claim_id: listing.claimId,
    claim_number: listing.claimNumber,
    state: listing.state,
    clock: listing.clockId,
    what: listing.what,
    due_date: listing.dueDate,
    standing: standing.standing,
    days_left: standing.daysLeft,
    days_overdue: standing.daysOverdue,
    breached_at: listing.breachedAt ?? null,
  };
}

/**
 * What comes due within `dueWithinDays` calendar days of today (0: today) and everything overdue,
 * soonest first, within the caller's reach (an agent: his agencies' claims only).
 */
export async function claimDeadlines(principal: Principal, request: { dueWithinDays: number; state?: string }) {
  const states = await statesAsked(request.state);
  const today = todayIso(clock.now());
  const through = addDays(today, request.dueWithinDays);
  const listed = (await Promise.all(states.map((state) => deadlinesDue(state, through)))).flat();
  const deadlines = listed.filter((listing) => reaches(principal, listing)).sort(soonestFirst);
  return { as_of: today, through, states, deadlines: deadlines.map((listing) => deadlineToWire(listing, today)) };
}

// ------------------------------------------------------------------ the nightly breach run

/** Who the nightly run's moves are by. */
export const NIGHTLY_DEADLINES_BY = 'nightly-claim-deadlines';
/** The run's name among the nightly runs (`npm run nightly -- claim_deadlines <date>`). */
export const NIGHTLY_DEADLINES_JOB = 'claim_deadlines';
const CLAIMS_AT_ONCE = 4;
const ATTEMPTS = 3;

export interface BreachFlagged {
  claimId: string;
  claimNumber: string;
  policyNumber: string;
  clocks: Array<{ clock: string; what: string; dueDate: string }>;
}

/** One claim's due dates that `day` finds passed unmet, flagged in one claim move; nothing when none is (a second run, a claim met or closed meanwhile). */
async function flagClaim(claimId: string, day: string, at: string): Promise<BreachFlagged | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const whole = await getClaimWhole(claimId);
    if (!whole) return undefined;
    const { dueDates, breached } = breachDueDates(whole.claim, day, at);
    if (breached.length === 0) return undefined;
    const claim = { ...whole.claim, dueDates, updatedAt: at > whole.claim.updatedAt ? at : whole.claim.updatedAt };
    const first = breached[0];
    try {
      await commitClaimMove({
        kind: 'deadline_breached',
        label: `Claim ${claim.claimNumber}`,
        at,
        by: NIGHTLY_DEADLINES_BY,
        before: stateOf(whole),
        after: stateOf({ ...whole, claim }),
        changes: dueDateChanges(whole.claim.dueDates, dueDates),
        reason: breached.map((dueDate) => `${dueDate.what}: due ${dueDate.dueDate}, not met`).join('; '),
        event: {
          type: 'claim.deadline_breached',
          // The clock and due date (the earliest when a night finds several), and every one it found.
          data: { clock: first.clockId, what: first.what, due_date: first.dueDate, deadlines: breached.map((dueDate) => ({ clock: dueDate.clockId, what: dueDate.what, due_date: dueDate.dueDate })) },
        },
      });
      return { claimId, claimNumber: claim.claimNumber, policyNumber: claim.policyNumber, clocks: breached.map((dueDate) => ({ clock: dueDate.clockId, what: dueDate.what, dueDate: dueDate.dueDate })) };
    } catch (error) {
      // The claim moved between the read and the commit (an adjuster's change): read it again.
      if (error instanceof RecordChangedError && attempt < ATTEMPTS) continue;
      throw error;
    }
  }
}

/**
 * The nightly run of `day`: in each state with clocks, the deadlines due before `day` that are not
 * flagged yet, each claim's flagged in one move dated at noon of `day` (`deadline_breached`, event
 * `claim.deadline_breached`). A breached deadline stays listed, overdue, until met; the run skips it.
 * The run is recorded as a nightly run of one batch, so `npm run nightly -- claim_deadlines <day>` reports it.
 */
export async function flagDeadlineBreaches(day: string) {
  const states = await statesAsked(undefined);
  const at = nightlyDecisionInstant(day).toISOString();
  const listed = (await Promise.all(states.map((state) => deadlinesDue(state, addDays(day, -1))))).flat();
  const claimIds = [...new Set(listed.filter((listing) => !listing.breachedAt).map((listing) => listing.claimId))];
  const runId = randomUUID();
  await recordNightlyRun({ job: NIGHTLY_DEADLINES_JOB, date: day, runId, batches: 1, accounts: claimIds.length, startedAt: clock.now().toISOString() });
  const flagged: BreachFlagged[] = [];
  for (let next = 0; next < claimIds.length; next += CLAIMS_AT_ONCE) {
    const done = await Promise.all(claimIds.slice(next, next + CLAIMS_AT_ONCE).map((claimId) => flagClaim(claimId, day, at)));
    for (const one of done) if (one) flagged.push(one);
  }
  flagged.sort((a, b) => a.claimNumber.localeCompare(b.claimNumber, 'en', { numeric: true }));
  await countNightlyBatchDone(
    NIGHTLY_DEADLINES_JOB,
    day,
    runId,
    flagged.map((one) => ({ policyNumber: one.claimNumber, decision: 'breached', detail: `${one.clocks.map((due) => `${due.clock} due ${due.dueDate}`).join(', ')} breached (policy ${one.policyNumber})` })),
  );
  return {
    runId,
    date: day,
    states,
    batches: 1,
    accounts: claimIds.length,
    breached: flagged.map((one) => ({ claim_id: one.claimId, claim_number: one.claimNumber, deadlines: one.clocks.map((due) => ({ clock: due.clock, what: due.what, due_date: due.dueDate })) })),
  };
}
