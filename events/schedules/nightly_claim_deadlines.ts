/**
 * The nightly claim deadlines run, every day at 05:45 UTC for that day: in each state the product's
 * claims clocks run in, every deadline due before the day and not met is flagged breached, one claim
 * move per claim (`deadline_breached`, event `claim.deadline_breached`). A day run twice flags nothing
 * twice. Locally: `npm run nightly -- claim_deadlines 2027-01-14`.
 */
import { flagDeadlineBreaches } from '../../shared/claims/index.js';
import { todayIso } from '../../shared/platform/dates.js';
import { defineSchedule } from '../../shared/platform/schedule.js';

/** An EventBridge scheduled event (its `time` names the day), or `{ date }` for a run by hand. */
export const handler = defineSchedule({
  schedule: 'cron(45 5 * * ? *)',
  resources: { table: 'write' },
  run: async (event: { time?: string; date?: string }) => {
    const date = /^\d{4}-\d{2}-\d{2}$/.test(event.date ?? '') ? event.date! : event.time ? event.time.slice(0, 10) : todayIso();
    return flagDeadlineBreaches(date);
  },
});
