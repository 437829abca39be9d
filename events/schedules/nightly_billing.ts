/**
 * The nightly billing run, planned every day at 05:00 UTC for that day: the accounts that may
 * owe are fanned out to the nightly-billing queue in batches (events/queues/nightly-billing).
 * Locally: `npm run nightly -- billing 2026-05-01`.
 */
import { todayIso } from '../../shared/platform/dates.js';
import { defineSchedule } from '../../shared/platform/schedule.js';
import { planNightlyBilling } from '../../shared/billing/index.js';

/** An EventBridge scheduled event (its `time` names the day), or `{ date }` for a run by hand. */
export const handler = defineSchedule({
  schedule: 'cron(0 5 * * ? *)',
  resources: { table: 'write', queues: ['nightly-billing'] },
  run: async (event: { time?: string; date?: string }) => {
    const date = /^\d{4}-\d{2}-\d{2}$/.test(event.date ?? '') ? event.date! : event.time ? event.time.slice(0, 10) : todayIso();
    return planNightlyBilling(date);
  },
});
