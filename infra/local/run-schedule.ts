/**
 * `npm run print-job [-- YYYY-MM-DD]` (or `tsx infra/local/run-schedule.ts <job> [YYYY-MM-DD]`):
 * runs a scheduled job on the service `npm start` runs, with the administrator's API key from
 * .data/admin-api-key (or BOOTSTRAP_API_KEY). nightly_print queues the run of the date (today
 * by default); the local print-batches consumer assigns the mailing batches moments later.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [job = 'nightly_print', printDate] = process.argv.slice(2);
const keyFile = join(root, '.data', 'admin-api-key');
const apiKey = process.env.BOOTSTRAP_API_KEY ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined);
if (!apiKey) {
  console.error('No administrator API key: start the service with `npm start` first, or set BOOTSTRAP_API_KEY');
  process.exit(1);
}
const base = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const response = await fetch(`${base}/local/schedules/${job}`, {
  method: 'POST',
  headers: { authorization: apiKey },
  body: JSON.stringify(printDate ? { printDate } : {}),
});
console.log(response.status, await response.text());
process.exit(response.ok ? 0 : 1);
