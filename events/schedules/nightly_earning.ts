/**
 * The nightly earning, planned every day at 04:30 UTC for the day before: every term still
 * earning earns its premium of the days since it was last earned, into its month's aggregates
 * (shared/books). A day run twice earns once. Locally: `npx tsx infra/local/run-schedule.ts nightly_earning` (or `handler({ date })`).
 */
import { earnDay } from '../../shared/books/index.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { defineSchedule } from '../../shared/platform/schedule.js';

/** An EventBridge scheduled event (its `time` names the day it runs: it earns the day before), or `{ date }` for a run by hand. */
export const handler = defineSchedule({
  schedule: 'cron(30 4 * * ? *)',
  resources: { table: 'write' },
  run: async (event: { time?: string; date?: string }) => {
    const date = /^\d{4}-\d{2}-\d{2}$/.test(event.date ?? '') ? event.date! : addDays(event.time ? event.time.slice(0, 10) : todayIso(), -1);
    return earnDay(date);
  },
});
