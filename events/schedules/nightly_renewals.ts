/**
 * The nightly renewal run, planned every day at 05:30 UTC for that day: the terms on the
 * renewal watch that end within the lead days (or have ended) are fanned out to the
 * nightly-renewals queue in batches (events/queues/nightly-renewals).
 * Locally: `npm run nightly -- renewals 2027-05-01`.
 */
import { todayIso } from '../../shared/platform/dates.js';
import { defineSchedule } from '../../shared/platform/schedule.js';
import { planRenewalRun } from '../../shared/lifecycle/index.js';

/** An EventBridge scheduled event (its `time` names the day), or `{ date }` for a run by hand. */
export const handler = defineSchedule({
  schedule: 'cron(30 5 * * ? *)',
  resources: { table: 'write', queues: ['nightly-renewals'] },
  run: async (event: { time?: string; date?: string }) => {
    const date = /^\d{4}-\d{2}-\d{2}$/.test(event.date ?? '') ? event.date! : event.time ? event.time.slice(0, 10) : todayIso();
    return planRenewalRun(date);
  },
});
