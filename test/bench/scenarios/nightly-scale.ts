/**
 * The nightly billing run at carrier scale (issue 22 item 3): the same day run over 10,000, then
 * 30,000, then 100,000 accounts (seeded straight into the table, each with an invoice not yet
 * due, so every account is read by the planner and decided by a consumer), with 4 local
 * consumers. It reports the seconds per 10,000 accounts at each size (linear growth keeps that
 * figure flat), the planner's own seconds (one Lambda invocation: it reads the account list and
 * queues batches of 100) and the longest consumer invocation (10 messages of 100 accounts), the
 * two figures that must stay within a Lambda invocation's minutes at any size.
 * `npm run bench -- --no-bundles nightly-scale` (about 10 minutes on a 2-core machine).
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
  async run() {
    const rows: BenchRow[] = [];
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
    }
    return rows;
  },
};
