/**
 * The books (issue 32): the premium report of a month of a 10,000-policy book against one
 * retrieve_policy (read units and warm latency, and their ratio), and the nightly earning of a
 * day over 10,000 terms in force. The month's aggregates and the terms' earning records are
 * seeded straight into the table as the moves of 10,000 policies leave them (20 agencies × 3
 * states × 2 rate versions, 4 shards each; issuing 10,000 policies through the API would take
 * the bench an hour): the report's cost follows the groups, never the policies.
 */
import { randomUUID } from 'node:crypto';
import { earnedAsTheNightRuns } from '../scenario-helpers.js';
import { aggregateKey, earningListing, EARNING_BUCKETS, SHARDS, shardOf, termEarningKey } from '../../../shared/books/keys.js';
import type { BooksGroup, TermEarning } from '../../../shared/books/model.js';
import { batchWriteAll, type BatchWriteRequest } from '../../../shared/platform/dynamo.js';
import type { BenchRow, BenchScenario } from '../types.js';
import { meteredCaller } from '../scenario-helpers.js';

const POLICIES = 10_000;
const MONTH = '2026-03';
const groups: BooksGroup[] = Array.from({ length: 20 }, () => randomUUID()).flatMap((agency) =>
  ['NY', 'NJ', 'CT'].flatMap((state) => ['rv-1', 'rv-2'].map((rateVersion) => ({ state, line: 'homeowners', policyType: 'ho3', agency, rateVersion }))));

async function seedMonth(): Promise<void> {
  const requests: BatchWriteRequest[] = [];
  for (const group of groups) {
    for (let shard = 0; shard < SHARDS; shard += 1) {
      const perItem = POLICIES / groups.length / SHARDS;
      const day: Record<string, number> = {};
      for (let d = 1; d <= 31; d += 1) day[`earned/${String(d).padStart(2, '0')}`] = Math.round(perItem * 226);
      requests.push({
        PutRequest: {
          Item: {
            ...aggregateKey(MONTH, 'current', shard, group), entity: 'BooksAggregate', month: MONTH, ...group,
            writtenNewBusiness: Math.round(perItem * 82662 / 12), feesAndTaxes: Math.round(perItem * 2500 / 12), earned: Math.round(perItem * 7020),
            billed: Math.round(perItem * 7100), collected: Math.round(perItem * 6900), inForceChange: 0, ...day,
          },
        },
      });
    }
  }
  await batchWriteAll(requests, { concurrency: 4 });
}

/** `count` terms in force, each earning from 2026-03-15 on (the policy-year scenario earns a book of its own). */
export async function seedTerms(count = POLICIES): Promise<void> {
  const requests: BatchWriteRequest[] = [];
  for (let index = 0; index < count; index += 1) {
    const termId = randomUUID();
    const effective = `2025-${String((index % 12) + 1).padStart(2, '0')}-15`;
    const earning: TermEarning = {
      policyId: randomUUID(), termId, group: groups[index % groups.length], stopsAt: null,
      layers: [{ cents: 82662, from: effective, to: `2026${effective.slice(4)}`, kind: 'issue' }],
      earnedThrough: '2026-03-14', earnedCents: 0, lastDay: `2026${effective.slice(4, 8)}14`, version: 1,
    };
    requests.push({ PutRequest: { Item: { ...termEarningKey(termId), entity: 'TermEarning', ...earning, ...earningListing(shardOf(termId, EARNING_BUCKETS), earning.lastDay, termId) } } });
  }
  await batchWriteAll(requests, { concurrency: 4 });
}

export const scenario: BenchScenario = {
  name: 'books',
  async run(context) {
    const rows: BenchRow[] = [];
    const call = meteredCaller(context, rows);
    const created = await call('create_policy', '/api/v2/policies/create_policy', { inception_date: '2026-03-01' });
    await seedMonth();
    const body = { from_month: MONTH, to_month: MONTH, group_by: ['agency'] };
    await context.call('/api/v2/reports/premium', body); // warm
    const policyCall = await context.call('/api/v2/policies/retrieve_policy', { policy_number: created.data.policy_number });
    const reportCall = await context.call('/api/v2/reports/premium', body);
    if (reportCall.body?.success !== true || reportCall.body.data.lines.length !== 20) throw new Error(`premium report failed: ${JSON.stringify(reportCall.body).slice(0, 300)}`);
    const policyLatency = await context.latency('/api/v2/policies/retrieve_policy', { policy_number: created.data.policy_number }, { requests: 40, concurrency: 1 });
    const reportLatency = await context.latency('/api/v2/reports/premium', body, { requests: 40, concurrency: 1 });
    rows.push({ name: `retrieve_policy (one call)`, readUnits: policyCall.readUnits, p50: policyLatency.p50 });
    rows.push({ name: `premium report, a month of ${POLICIES} policies (${groups.length} groups × ${SHARDS} shards)`, readUnits: reportCall.readUnits, p50: reportLatency.p50 });
    rows.push({
      name: 'premium report / retrieve_policy',
      readUnits: Math.round((reportCall.readUnits / policyCall.readUnits) * 100) / 100,
      p50: Math.round((reportLatency.p50 / policyLatency.p50) * 100) / 100,
    });
    await seedTerms();
    const started = Date.now();
    const earned = await earnedAsTheNightRuns('2026-03-15');
    rows.push({ name: `nightly earning of a day over ${POLICIES} terms`, seconds: Math.round((Date.now() - started) / 100) / 10, terms: earned.terms });
    const again = Date.now();
    const rerun = await earnedAsTheNightRuns('2026-03-15');
    rows.push({ name: 'the same day run again (earns nothing)', seconds: Math.round((Date.now() - again) / 100) / 10, terms: rerun.terms });
    return rows;
  },
};
