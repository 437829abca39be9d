/**
 * Issue 47: the sequential round trips of each move to DynamoDB, S3 and SQS, beside its goal
 * (get_release_info 1: authentication in one read; every move, the claims' FNOL and payment among them, at most 3: one round of reads in
 * parallel, the number where one is allocated, the transaction). Counted by the meter of
 * test/support/round-trips.ts: requests in flight together are one round. A count depends on
 * what the code waits for, not on the machine, so it holds on a loaded machine as on AWS.
 *
 *   npm run bench -- --no-bundles round-trips
 *
 * Each measured call follows a get_release_info with the same key, so that the key's last use
 * (stamped at most once a minute) is fresh and its write is not counted in the move. Beside the
 * count, each call's duration and its ratio to its floor (the baseline's median plus the move's own
 * transaction, as test/bench/move-profile.ts measures it): one call each, timings of a shared machine.
 */
import { onClientCreated } from '../../../shared/platform/clients.js';
import { addDays } from '../../../shared/platform/dates.js';
import { describeRounds, roundTripMeter } from '../../support/round-trips.js';
import type { BenchContext, BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const C = '/api/v2/claims';
const X = '/api/v2/claim_exposures';
const RELEASE_INFO = '/api/v2/utils/get_release_info';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';

// ROUND_TRIPS_DETAIL=1 names each request's partitions (`DynamoDB.Query(POLICY)`).
const meter = roundTripMeter({ detail: process.env.ROUND_TRIPS_DETAIL === '1' });
let attached = false;

/** The baseline's duration, medians of the get_release_info calls made before each measured call (interleaved with them). */
let baselineMs: number[] = [];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function counted(context: BenchContext, rows: BenchRow[], name: string, goal: number, path: string, body: Record<string, unknown>) {
  baselineMs.push((await context.call(RELEASE_INFO, {})).ms);
  meter.start();
  const call = await context.call(path, body);
  const rounds = meter.stop();
  if (call.body?.success !== true) throw new Error(`${name}: ${JSON.stringify(call.body).slice(0, 400)}`);
  // The move's floor (as test/bench/move-profile.ts has it): the baseline's own work plus the move's transaction alone.
  // One call each, on a machine others load: printed, not a goal held here.
  const transactionMs = meter.durations().filter((entry) => entry.request.startsWith('DynamoDB.TransactWriteItems')).reduce((sum, entry) => sum + entry.ms, 0);
  const floorMs = median(baselineMs) + transactionMs;
  rows.push({ name, roundTrips: rounds.length, goal, withinGoal: rounds.length <= goal ? 'yes' : 'no', requests: rounds.flat().length, ms: Math.round(call.ms * 10) / 10, floorMs: Math.round(floorMs * 10) / 10, toFloor: Math.round((call.ms / floorMs) * 100) / 100, rounds: describeRounds(rounds) });
  return call.body.data;
}

export const scenario: BenchScenario = {
  name: 'round-trips',
  async run(context) {
    if (!attached) onClientCreated((client) => meter.attach(client));
    attached = true;
    const rows: BenchRow[] = [];
    baselineMs = [];
    const today = new Date().toISOString().slice(0, 10);
    const ok = async (path: string, body: Record<string, unknown>) => {
      const call = await context.call(path, body);
      if (call.body?.success !== true) throw new Error(`${path}: ${JSON.stringify(call.body).slice(0, 400)}`);
      return call.body.data;
    };
    // Warm every function the count goes through once (a first call loads modules on first use, reads the catalog).
    await context.call(RELEASE_INFO, {});
    await counted(context, rows, 'get_release_info', 1, RELEASE_INFO, {});

    const quoteBody = {
      quote_info: {
        effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
        named_insureds: [{ name: 'Bench Trips' }], locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    };
    // A first policy through the same moves, uncounted: the catalog, the rating tables and the books' memo are then warm.
    const warm = await ok(`${P}/create_quote_extended`, quoteBody);
    await ok(`${P}/bind`, { bind_info: { policy_id: warm.policy_id } });
    await ok(`${P}/issue`, { issue_info: { policy_id: warm.policy_id } });

    const quote = await counted(context, rows, 'create_quote_extended', 3, `${P}/create_quote_extended`, quoteBody);
    await counted(context, rows, 'bind', 3, `${P}/bind`, { bind_info: { policy_id: quote.policy_id } });
    await counted(context, rows, 'issue', 3, `${P}/issue`, { issue_info: { policy_id: quote.policy_id } });
    await counted(context, rows, 'makeManualPolicyPayment', 3, '/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: quote.quote_number, amount: '10.00' } });

    // An endorsement opened, edited and rated (uncounted), then its issue.
    const revisionId = (await ok(`${P}/new_revision`, { policy_id: quote.policy_id, revision_date: addDays(today, 10) })).revision_id;
    const details = await ok(`${P}/retrieve_revision_details`, { revision_id: revisionId });
    const dwelling = details.items.find((item: { name: string }) => item.name === 'Dwelling');
    await ok(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 260000 }] });
    await ok(`${P}/rate_revision`, { revision_id: revisionId });
    await counted(context, rows, "an endorsement's issue", 3, `${P}/issue`, { issue_info: { policy_id: quote.policy_id, revision_id: revisionId } });

    const claim = await counted(context, rows, 'new_claim (FNOL)', 3, `${C}/new_claim`, {
      policy_number: quote.quote_number, loss_date: today, reported_date: today, peril: 'WTR', description: 'A pipe burst in the kitchen',
      reported_by: { name: 'Pat Example', relation: 'insured', phone: '555-0100' },
    });
    // A loss payment on the claim's Dwelling exposure (opened uncounted; an expense payment first warms the function).
    const insured = (await ok(`${C}/get_claim`, { claim_id: claim.id })).insured_contact_id;
    const exposureId = (await ok(`${X}/create_exposure`, { claim_id: claim.id, coverage: 'Dwelling' })).id;
    await ok(`${X}/make_payment`, { exposure_id: exposureId, cost_type: 'expense', amount: '10.00', payees: [insured], method: 'check', invoice_number: 'TRIPS-0' });
    await counted(context, rows, 'make_payment (a claim loss payment)', 3, `${X}/make_payment`, { exposure_id: exposureId, cost_type: 'loss', amount: '2500.00', payees: [insured], method: 'check', invoice_number: 'TRIPS-1' });
    await counted(context, rows, 'cancel_policy', 3, `${P}/cancel_policy`, { policy_id: quote.policy_id, cancel_date: addDays(today, 20), cancel_reason_id: INSUREDS_REQUEST });

    // A cancellation owing a refund: a second policy paid in full (and more: the overpayment is refunded at once), cancelled, its credit refunded.
    const paid = await ok(`${P}/create_quote_extended`, quoteBody);
    await ok(`${P}/bind`, { bind_info: { policy_id: paid.policy_id } });
    await ok(`${P}/issue`, { issue_info: { policy_id: paid.policy_id } });
    await ok('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: paid.quote_number, amount: '5000.00' } });
    await counted(context, rows, 'cancel_policy owing a refund', 3, `${P}/cancel_policy`, { policy_id: paid.policy_id, cancel_date: addDays(today, 20), cancel_reason_id: INSUREDS_REQUEST });

    for (const row of rows) console.log(`${String(row.name).padEnd(24)} ${row.roundTrips} round trips (goal ${row.goal}${row.withinGoal === 'yes' ? '' : ', OVER'}); ${row.ms} ms, ${row.toFloor}× its floor of ${row.floorMs} ms: ${row.rounds}`);
    return rows;
  },
};
