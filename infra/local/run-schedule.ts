/**
 * `npm run print-job [-- YYYY-MM-DD]` (or `tsx infra/local/run-schedule.ts <job> [YYYY-MM-DD]`):
 * runs a scheduled job on the service `npm start` runs, found by itself (infra/local/running-service.ts).
 * nightly_print queues the run of the date (today by default); the local print-batches
 * consumer assigns the mailing batches moments later.
 */
import { findRunningService, LocalToolError, postToService, runLocalTool } from './running-service.js';

const [job = 'nightly_print', printDate] = process.argv.slice(2).filter((arg) => arg !== '--');

await runLocalTool(async () => {
  if (printDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(printDate)) throw new LocalToolError(`${printDate} is not a date: give it as YYYY-MM-DD`);
  const answer = await postToService(findRunningService(), `/local/schedules/${job}`, printDate ? { printDate } : {});
  console.log(answer.status, JSON.stringify(answer.body));
  return answer.status === 200 ? 0 : 1;
});
