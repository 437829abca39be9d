/**
 * The nightly billing run at carrier scale (issue 22 item 3): the same day run over 10,000, then
 * 30,000, then 100,000 accounts (seeded straight into the table, each with an invoice not yet
 * due, so every account is read by the planner and decided by a consumer), with 4 local
 * consumers. It reports the seconds per 10,000 accounts at each size (linear growth keeps that
 * figure flat), the planner's own seconds (one Lambda invocation: it reads the account list and
 * queues batches of 100) and the longest consumer invocation (10 messages of 100 accounts), the
 * two figures that must stay within a Lambda invocation's minutes at any size. At each size, the
 * lockbox matchfile too: every seeded account owes, so it lists them all, paged by 40,000 lines;
 * its seconds and read units per 10,000 owing accounts, against a bare envelope call.
 * `npm run bench -- --no-bundles nightly-scale` (about 12 minutes on a 2-core machine).
 */
import { handler as decideAccounts } from '../../../events/queues/nightly-billing/decide_accounts.js';
import { planNightlyBilling } from '../../../shared/billing/nightly.js';
import { timedNightlyRun } from '../scenario-helpers.js';
import type { BenchRow, BenchScenario } from '../types.js';
import { seedAccounts } from './billing.js';

const SIZES = [10_000, 30_000, 100_000];
const nightlyBilling = { job: 'billing', queue: 'nightly-billing' as const, consumer: decideAccounts, plan: planNightlyBilling };

export const scenario: BenchScenario = {
  name: 'nightly-scale',
  async run(context) {
    const rows: BenchRow[] = [];
    const baseline = await context.call('/api/v2/utils/get_release_info', {});
    let seeded = 0;
    let perTenThousandAtFirst = 0;
    for (const [step, size] of SIZES.entries()) {
      const seedStarted = performance.now();
      // Due in 2300: read, decided, nothing to do; each step's accounts numbered in a year of their own.
      await seedAccounts(size - seeded, 2301 + step, '2300-01-01');
      const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
      seeded = size;
      const run = await timedNightlyRun(nightlyBilling, '2299-06-01', 4);
      const perTenThousand = Math.round((run.seconds / (run.accounts / 10_000)) * 10) / 10;
      perTenThousandAtFirst ||= perTenThousand;
      rows.push({
        name: `nightly billing over ${run.accounts.toLocaleString('en-US')} accounts (4 consumers)`,
        seconds: run.seconds,
        secondsPer10000: perTenThousand,
        ratioPer10000ToFirst: Math.round((perTenThousand / perTenThousandAtFirst) * 100) / 100,
        plannerSeconds: run.planSeconds,
        longestConsumerSeconds: run.longestBatchSeconds,
        batches: run.batches,
        seedSeconds,
      });
      // The whole matchfile, page after page, as the bank's download takes it.
      let after: string | undefined;
      let lines = 0;
      let ms = 0;
      let readUnits = 0;
      let calls = 0;
      do {
        const call = await context.call('/api/v2/policies/retrieve_lockbox_matchfile_info', after ? { after } : {});
        if (call.body?.success !== true) throw new Error(`the matchfile failed: ${JSON.stringify(call.body).slice(0, 300)}`);
        lines += call.body.data.length;
        ms += call.ms;
        readUnits += call.readUnits;
        calls += 1;
        after = call.body.next_after;
      } while (after);
      rows.push({
        name: `retrieve_lockbox_matchfile_info, ${lines.toLocaleString('en-US')} owing accounts, in ${calls} page${calls === 1 ? '' : 's'}`,
        seconds: Math.round(ms / 100) / 10,
        secondsPer10000: Math.round((ms / 1000 / (lines / 10_000)) * 100) / 100,
        readUnitsPer1000: Math.round((readUnits / (lines / 1000)) * 10) / 10,
        ratioToBaselineCall: Math.round(ms / calls / baseline.ms),
      });
    }
    return rows;
  },
};
