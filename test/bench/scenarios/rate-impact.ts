/**
 * The impact of a new rate on the book: a rate impact run over N in-force Florida policies
 * (RATE_IMPACT_POLICIES, 10,000 by default) through rate_impact, its batches consumed by 4
 * consumers as Lambda would run several, against rating each policy once in the same run shape
 * (the same watched terms read, each renewal drafted from its stored revision and rated once at
 * the current rates, as wide). Goal: the impact run at most 1.5x that. Then the run again with
 * the capacity metered: read units per policy. The policies are copies of one issued through the
 * API, seeded straight into the table (each its policy, its term on the renewal watch, its revision).
 */
import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { handler as ratePolicies } from '../../../events/queues/rate-impact/rate_policies.js';
import { referencePackageDocument } from '../../../shared/catalog/reference-package.js';
import { getProductCatalog } from '../../../shared/catalog/index.js';
import { previewRenewal } from '../../../shared/lifecycle/index.js';
import { config } from '../../../shared/platform/config.js';
import { mapLimited } from '../../../shared/platform/concurrency.js';
import { addDays } from '../../../shared/platform/dates.js';
import { batchWriteAll } from '../../../shared/platform/dynamo.js';
import { policyKey, renewalWatchIndex, revisionKey, termKey } from '../../../shared/policies/keys.js';
import { getPolicyWithTerms, loadRevision } from '../../../shared/policies/store.js';
import { partsRecordOf } from '../../../shared/policies/parts-store.js';
import { watchedTermPages } from '../../../shared/policies/index.js';
import { getRateImpactRun } from '../../../shared/products/impact-store.js';
import { rateRevision } from '../../../shared/rating/index.js';
import { startQueuePoller } from '../../../infra/local/queue-poller.js';
import { billedMeter } from '../billed-capacity.js';
import type { BenchContext, BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const WORKERS = 4;
/** What one consumer invocation rates at once: 10 messages, each previewing 8 terms at a time. */
const WIDTH = WORKERS * 10 * 8;

async function seed(policyId: string, count: number, expirationDate: string): Promise<void> {
  const base = (await getPolicyWithTerms(policyId))!;
  const template = (await loadRevision(base.policy.activeRevisionId))!;
  const issuedTerm = base.terms.find((candidate) => candidate.id === base.policy.activeTermId)!;
  const effectiveDate = addDays(expirationDate, -365);
  const requests = [];
  for (let n = 1; n <= count; n += 1) {
    const [id, termId, revisionId] = [randomUUID(), randomUUID(), randomUUID()];
    const policyNumber = `10-2097-${n}`;
    requests.push(
      { PutRequest: { Item: { ...policyKey(id), ...base.policy, id, policyNumber, activeTermId: termId, activeRevisionId: revisionId, version: 1 } } },
      { PutRequest: { Item: { ...termKey(id, termId), ...issuedTerm, renewal: null, id: termId, policyId: id, effectiveDate, expirationDate, revisionIds: [revisionId], revisionIndex: {}, version: 1, ...renewalWatchIndex(id, termId, expirationDate) } } },
      { PutRequest: { Item: { ...revisionKey(revisionId), ...template.header, id: revisionId, policyId: id, policyNumber, policyTermId: termId, termStart: effectiveDate, termEnd: expirationDate, revisionDate: effectiveDate, version: 1 } } },
    );
    // The template is a quote's revision: its parts in one record, copied as one.
    requests.push({ PutRequest: { Item: partsRecordOf(revisionId, [...template.risks, ...template.subLines, ...template.items, ...template.mortgagees].map((part) => ({ ...part, revisionId }))) } });
  }
  await batchWriteAll(requests, { concurrency: 8 });
}

/** The candidate of issue 33: the Florida base rate 4.20 → 4.50, Miami-Dade 1.60 → 1.70. */
function candidate(from: string): Record<string, any> {
  const document = structuredClone(referencePackageDocument()) as Record<string, any>;
  const florida = document['states/FL.json'];
  const next = structuredClone(florida.rateVersions[0]);
  Object.assign(next, { id: randomUUID(), name: 'Bench Florida rates 4.50', newBusinessEffectiveDate: from, renewalEffectiveDate: addDays(from, 1) });
  next.items['2deb7d04-daec-47e3-a98a-c9c075598673'].steps[0].rate = '4.50';
  florida.rateVersions.push(next);
  florida.territories.byCounty.find((row: { county: string }) => row.county === 'Miami-Dade').factor = '1.70';
  return document;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** A rate impact run from the call to its last batch, its batches consumed by WORKERS pollers. */
async function timedImpactRun(context: BenchContext, document: unknown, withinDays: number): Promise<{ seconds: number; batches: number; terms: number; planMs: number }> {
  const client = new SQSClient({});
  const pollers = Array.from({ length: WORKERS }, () => startQueuePoller({ client, queueUrl: config.queueUrl('rate-impact'), handler: ratePolicies, batchSize: 10, waitTimeSeconds: 1 }));
  const started = performance.now();
  try {
    // Posted directly (not context.call, which meters one call and stops): a metered run counts its consumers too.
    const response = await fetch(`${context.url}/api/v2/lines/rate_impact`, { method: 'POST', body: JSON.stringify({ api_key: context.administratorApiKey, line_file: document, filters: { renewing_within_days: withinDays } }) });
    const answer = (await response.json()) as { success?: boolean; data?: { run_id: string } };
    if (answer.success !== true) throw new Error(`rate_impact failed: ${JSON.stringify(answer)}`);
    const planMs = performance.now() - started;
    const runId = answer.data!.run_id;
    for (;;) {
      const run = await getRateImpactRun(runId);
      if (run?.planned && run.batchesDone >= run.batches) return { seconds: seconds(performance.now() - started), batches: run.batches, terms: run.termsRead, planMs: Math.round(planMs) };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await Promise.all(pollers.map((poller) => poller.stop()));
    client.destroy();
  }
}

/** The same terms read, each renewal drafted from its revision and rated once at the current rates, as wide as the consumers rate. */
async function timedRatingOnce(through: string, asOf: string): Promise<{ seconds: number; rated: number }> {
  const started = performance.now();
  const product = await getProductCatalog();
  const terms: Array<{ policyId: string; termId: string }> = [];
  for await (const page of watchedTermPages(through)) terms.push(...page);
  let rated = 0;
  await mapLimited(terms, WIDTH, async (term) => {
    const preview = await previewRenewal(term, product, asOf);
    if ('skipped' in preview) return;
    rateRevision(product, preview.toRate);
    rated += 1;
  });
  return { seconds: seconds(performance.now() - started), rated };
}

export const scenario: BenchScenario = {
  name: 'rate-impact',
  async run(context) {
    const count = Number(process.env.RATE_IMPACT_POLICIES ?? 10_000);
    const rows: BenchRow[] = [];
    const ok = async (path: string, body: Record<string, unknown>) => {
      const call = await context.call(path, body);
      if (call.body?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(call.body)}`);
      return call.body.data;
    };
    const today = new Date().toISOString().slice(0, 10);
    const quote = await ok(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
        named_insureds: [{ name: 'Bench Impact' }], locations: [{ address_zip: '33101' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    });
    await ok(`${P}/bind`, { bind_info: { policy_id: quote.policy_id } });
    await ok(`${P}/issue`, { issue_info: { policy_id: quote.policy_id } });
    // Ending in 200 days: the run's window (renewing within 200 days) holds these and none of the policies other scenarios issue today.
    const withinDays = 200;
    const expiration = addDays(today, withinDays);
    await seed(quote.policy_id, count, expiration);
    const document = candidate(addDays(today, 30));

    const once = await timedRatingOnce(expiration, today);
    const impact = await timedImpactRun(context, document, withinDays);
    const onceAgain = await timedRatingOnce(expiration, today);
    const baseline = Math.min(once.seconds, onceAgain.seconds);
    rows.push({ name: `rating each of ${once.rated} policies once (same terms read, renewal drafted, rated at the current rates, ${WIDTH} at once)`, seconds: baseline });
    rows.push({ name: `rate impact run over ${impact.terms} policies (${impact.batches} batches, ${WORKERS} consumers; the call answering in ${impact.planMs} ms)`, seconds: impact.seconds, ratioToRatingOnce: Math.round((impact.seconds / Math.max(baseline, 0.1)) * 100) / 100 });

    billedMeter.reset();
    const metered = await timedImpactRun(context, document, withinDays);
    billedMeter.enabled = false;
    rows.push({ name: `rate impact run, capacity metered (${metered.terms} policies)`, readUnits: Math.round(billedMeter.readUnits), writeUnits: Math.round(billedMeter.writeUnits), readUnitsPerPolicy: Math.round((billedMeter.readUnits / Math.max(metered.terms, 1)) * 100) / 100 });
    return rows;
  },
};
