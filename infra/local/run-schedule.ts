/**
 * `npm run print-job [-- YYYY-MM-DD]` (or `tsx infra/local/run-schedule.ts <job> [YYYY-MM-DD]`):
 * runs a scheduled job on the service `npm start` runs, found by itself (infra/local/running-service.ts).
 * nightly_print queues the run of the date (the service's today by default); the local
 * print-batches consumers put its files into mailing batches moments later, and the tool waits
 * for them to say what was batched, or, when nothing was, why and which date has files.
 */
import { addDays } from '../../shared/platform/dates.js';
import { findRunningService, LocalToolError, postToService, runLocalTool, type RunningService } from './running-service.js';

const [job = 'nightly_print', printDate] = process.argv.slice(2).filter((arg) => arg !== '--');

interface WaitingFile {
  print_date: string;
  batch?: string;
}

interface PrintQueueAnswer {
  processing: string;
  files: WaitingFile[];
  continue_after?: string;
}

async function printQueue(service: RunningService, window: Record<string, unknown>): Promise<PrintQueueAnswer> {
  const answer = await postToService(service, '/api/v1/printing/getToBePrinted', { json_dict: window });
  if (answer.status !== 200 || answer.body?.success !== true) throw new LocalToolError(`getToBePrinted answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body.data as PrintQueueAnswer;
}

/** What the run of `date` batched, once its consumers are done (or as far as they came in a minute). */
async function reportPrintRun(service: RunningService, date: string): Promise<void> {
  let answer = await printQueue(service, { from_date: date, to_date: date, ignore_state: true });
  for (const giveUp = Date.now() + 60_000; answer.processing !== 'done' && Date.now() < giveUp; ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    answer = await printQueue(service, { from_date: date, to_date: date, ignore_state: true });
  }
  const more = answer.continue_after ? 'at least ' : '';
  const files = answer.files.filter((file) => file.print_date === date);
  const batches = new Set(files.map((file) => file.batch).filter(Boolean)).size;
  if (answer.processing !== 'done') {
    console.log(`print run ${date}: still running after a minute (${files.length} files of that date so far); getToBePrinted's processing says when it is done`);
  } else if (files.length > 0) {
    console.log(`print run ${date}: ${more}${files.length} file${files.length === 1 ? '' : 's'} in ${batches} mailing batch${batches === 1 ? '' : 'es'} (one envelope per recipient and policy)`);
  } else {
    // Files print on business days: one made on a weekend or a holiday waits for the next one.
    const later = await printQueue(service, { from_date: addDays(date, 1), to_date: addDays(date, 366) });
    const next = later.files[0]?.print_date;
    console.log(
      `print run ${date}: nothing to print on that date` +
        (next ? `; the next print date with files waiting is ${next} (npm run print-job -- ${next})` : '; no file is waiting to print on a later date either'),
    );
  }
}

await runLocalTool(async () => {
  if (printDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(printDate)) throw new LocalToolError(`${printDate} is not a date: give it as YYYY-MM-DD`);
  const service = findRunningService();
  const answer = await postToService(service, `/local/schedules/${job}`, printDate ? { printDate } : {});
  if (answer.status !== 200 || answer.body?.success !== true) {
    console.error(`${job} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return 1;
  }
  if (job === 'nightly_print') await reportPrintRun(service, answer.body.data.printDate);
  else console.log(`${job}: ${JSON.stringify(answer.body.data)}`);
  return 0;
});
