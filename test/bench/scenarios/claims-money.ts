/**
 * A claim's money (issue 46): a claim payment's warm latency beside a policy payment's
 * (makeManualPolicyPayment), both as ratios to the run's baseline and to each other, 4 at a
 * time on one claim as on one policy; and the loss report (reports/losses) of a month of a
 * 10,000-policy book with 50, then 500 claims reported in it, in read units: a report whose
 * cost follows the month's activity reads about the same whatever the size of the book (its
 * premium side is the month's seeded aggregates of 10,000 policies, as the books scenario seeds
 * them), and not ten times more for ten times the claims where they fall in the same groups.
 * The loss report is the books' (claims-books): where this service has none, its rows say so.
 */
import { randomUUID } from 'node:crypto';
import { aggregateKey, SHARDS } from '../../../shared/books/keys.js';
import { batchWriteAll, type BatchWriteRequest } from '../../../shared/platform/dynamo.js';
import type { BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const C = '/api/v2/claims';
const X = '/api/v2/claim_exposures';
const POLICIES = 10_000;
const CLAIMS = 500;
const round = (value: number) => Math.round(value * 100) / 100;

/** The month's premium aggregates of a 10,000-policy book (20 agencies × 3 states), as its moves leave them. */
async function seedBookMonth(month: string): Promise<void> {
  const requests: BatchWriteRequest[] = [];
  for (let agency = 0; agency < 20; agency += 1) {
    const agencyId = randomUUID();
    for (const state of ['NY', 'NJ', 'CT']) {
      for (let shard = 0; shard < SHARDS; shard += 1) {
        const perItem = POLICIES / 60 / SHARDS;
        const group = { state, line: 'homeowners', policyType: 'ho3', agency: agencyId, rateVersion: 'rv-1' };
        requests.push({ PutRequest: { Item: { ...aggregateKey(month, 'current', shard, group), entity: 'BooksAggregate', month, ...group, writtenNewBusiness: Math.round((perItem * 82662) / 12), earned: Math.round(perItem * 7020), inForceChange: 0 } } });
      }
    }
  }
  await batchWriteAll(requests, { concurrency: 4 });
}

export const scenario: BenchScenario = {
  name: 'claims-money',
  async run(context) {
    const rows: BenchRow[] = [];
    const ok = async (path: string, body: Record<string, unknown>) => {
      const call = await context.call(path, body);
      if (call.body?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(call.body).slice(0, 300)}`);
      return call;
    };
    const today = new Date().toISOString().slice(0, 10);
    const quote = await ok(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
        named_insureds: [{ name: 'Bench Claims' }], locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    });
    const policyId = quote.body.data.policy_id;
    const policyNumber = quote.body.data.quote_number;
    await ok(`${P}/bind`, { bind_info: { policy_id: policyId } });
    await ok(`${P}/issue`, { issue_info: { policy_id: policyId } });

    const report = async () =>
      (await ok(`${C}/new_claim`, { policy_number: policyNumber, loss_date: today, peril: 'WTR', description: 'Bench', reported_by: { name: 'Bench Claims', relation: 'insured' }, confirm_new: true })).body.data.id as string;
    const claimId = await report();
    const insured = (await ok(`${C}/get_claim`, { claim_id: claimId })).body.data.insured_contact_id as string;
    const exposureId = (await ok(`${X}/create_exposure`, { claim_id: claimId, coverage: 'Dwelling' })).body.data.id as string;

    // The same shape of call on each side: one payment of 0.01 (an expense payment takes no deductible and no limit), confirmed as a repeat.
    const claimPayment = { exposure_id: exposureId, cost_type: 'expense', amount: '0.01', payees: [insured], method: 'check', invoice_number: 'BENCH', confirm_duplicate: true };
    const policyPayment = { json_dict: { policyNumber, amount: '0.01' } };
    const claimOne = await ok(`${X}/make_payment`, claimPayment);
    const policyOne = await ok('/api/v1/payments/makeManualPolicyPayment', policyPayment);
    rows.push({ name: 'make_payment, a claim expense payment (one call)', readUnits: claimOne.readUnits, writeUnits: claimOne.writeUnits, ms: round(claimOne.ms) });
    rows.push({ name: 'makeManualPolicyPayment (one call)', readUnits: policyOne.readUnits, writeUnits: policyOne.writeUnits, ms: round(policyOne.ms) });
    const claimLatency = await context.latency(`${X}/make_payment`, claimPayment, { requests: 100, concurrency: 4 });
    const policyLatency = await context.latency('/api/v1/payments/makeManualPolicyPayment', policyPayment, { requests: 100, concurrency: 4 });
    rows.push({ name: 'make_payment warm latency, 4 at a time on one claim', ...claimLatency });
    rows.push({ name: 'makeManualPolicyPayment warm latency, 4 at a time on one policy', ...policyLatency });
    rows.push({ name: 'claim payment / policy payment (p50)', ratio: round(claimLatency.p50 / policyLatency.p50) });

    // The loss report of the month, as the month's claims grow tenfold over the same book.
    const month = today.slice(0, 7);
    await seedBookMonth(month);
    const body = { from_month: month, to_month: month, group_by: ['state'] };
    const probe = await context.call('/api/v2/reports/losses', body);
    if (probe.status === 404) {
      rows.push({ name: 'reports/losses: not served by this branch (the books\' loss report, claims-books); not measured' });
      return rows;
    }
    const addClaims = async (count: number) => {
      for (let n = 0; n < count; n += 1) await ok(`${X}/create_exposure`, { claim_id: await report(), coverage: 'Dwelling' });
    };
    const premium = await ok('/api/v2/reports/premium', body);
    rows.push({ name: `premium report, a month of ${POLICIES} policies (one call)`, readUnits: premium.readUnits });
    await addClaims(49);
    const fifty = await ok('/api/v2/reports/losses', body);
    rows.push({ name: `loss report, ${POLICIES} policies, 50 claims in the month`, readUnits: fifty.readUnits, ms: round(fifty.ms) });
    await addClaims(CLAIMS - 50);
    const fiveHundred = await ok('/api/v2/reports/losses', body);
    rows.push({ name: `loss report, ${POLICIES} policies, ${CLAIMS} claims in the month`, readUnits: fiveHundred.readUnits, ms: round(fiveHundred.ms) });
    rows.push({ name: `loss report read units: ${CLAIMS} claims / 50 claims`, ratio: round(fiveHundred.readUnits / fifty.readUnits) });
    rows.push({ name: 'loss report / premium report (read units)', ratio: round(fiveHundred.readUnits / premium.readUnits) });
    return rows;
  },
};
