/**
 * The nightly renewal run: for one day, every term on the renewal watch that ends within the
 * carrier's lead days (or has ended) is decided (shared/lifecycle/renew.ts). The planner (an
 * EventBridge schedule, process_renewals without a policy number, or `npm run nightly --
 * renewals <date>` locally) reads the watch index, which lists only terms still to decide, and
 * fans them out to the nightly-renewals queue in batches; the consumer decides each term of a
 * batch. Every decision reads the state it changes, so a day run twice changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { getProductCatalog, getRenewalRules, longestRenewalLeadDays } from '../catalog/index.js';
import { mapLimited } from '../platform/concurrency.js';
import { sendInBatches } from '../platform/queue-sends.js';
import { addDays } from '../platform/dates.js';
import { countNightlyBatchDone, recordNightlyRun, nightlyBatchMessageOf, type NightlyBatchOf } from '../platform/nightly-runs.js';
import { watchedTermPages } from '../policies/index.js';
import type { RenewalDecision } from './renew.js';
import { clock } from '../platform/clock.js';

export const RENEWAL_JOB = 'renewals';
/** Terms per queue message: a renewal is a few reads and one transaction; 25 stay well inside a consumer's minute. */
export const TERMS_PER_BATCH = 25;
const DECISIONS_AT_ONCE = 8;

export type RenewalBatch = NightlyBatchOf<typeof RENEWAL_JOB, 'terms'>;

/** The message of the nightly-renewals queue: one batch of terms to decide. */
export const renewalBatchMessage = nightlyBatchMessageOf(RENEWAL_JOB, 'terms', TERMS_PER_BATCH);

/** Plans one day's renewal run: the watched terms ending by the day plus the lead days, sent to the queue in batches. */
export async function planRenewalRun(date: string): Promise<{ runId: string; batches: number; accounts: number }> {
  const runId = randomUUID();
  // A state whose notice needs longer than the carrier's lead days has its terms decided earlier.
  const [{ leadDays: carrierLeadDays }, product] = await Promise.all([getRenewalRules(), getProductCatalog()]);
  const leadDays = longestRenewalLeadDays(product, carrierLeadDays);
  const terms: Array<{ policyId: string; termId: string }> = [];
  for await (const page of watchedTermPages(addDays(date, leadDays))) terms.push(...page.map(({ policyId, termId }) => ({ policyId, termId })));
  const batches: RenewalBatch[] = [];
  for (let start = 0; start < terms.length; start += TERMS_PER_BATCH) batches.push({ job: RENEWAL_JOB, date, runId, batch: batches.length, terms: terms.slice(start, start + TERMS_PER_BATCH) });
  // Recorded before the batches go out, so that the first batch done finds the run to count itself in.
  await recordNightlyRun({ job: RENEWAL_JOB, date, runId, batches: batches.length, accounts: terms.length, startedAt: clock.now().toISOString() });
  await sendInBatches('nightly-renewals', batches.map((batch) => ({ id: String(batch.batch), body: batch })), `the batches of run ${runId}`);
  return { runId, batches: batches.length, accounts: terms.length };
}

/** Decides every term of one batch; answers how many took each decision. */
export async function decideRenewalBatch(batch: RenewalBatch, decide: (ref: { policyId: string; termId: string }, date: string) => Promise<RenewalDecision>): Promise<Record<string, number>> {
  const failures: unknown[] = [];
  const outcomes = await mapLimited(batch.terms, DECISIONS_AT_ONCE, async (ref) => {
    try {
      return await decide(ref, batch.date);
    } catch (error) {
      // The others are still decided; the batch then fails and is retried whole, which redoes nothing already done.
      failures.push(error);
      return undefined;
    }
  });
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of ${batch.terms.length} terms of renewal batch ${batch.batch} failed`);
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) if (outcome) counts[outcome.decision] = (counts[outcome.decision] ?? 0) + 1;
  const decided = outcomes.filter((outcome): outcome is RenewalDecision => !!outcome && outcome.decision !== 'none').map(({ policyNumber, decision, detail }) => ({ policyNumber, decision, detail }));
  await countNightlyBatchDone(batch.job, batch.date, batch.runId, decided);
  return counts;
}
