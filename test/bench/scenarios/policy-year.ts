/**
 * A policy-year, call by call (issue 35): what test/bench/cost.ts prices. One policy goes through
 * its year through the local service: three quotes, bind, issue, its Declaration, payments (manual
 * and a lockbox line), an endorsement (opened, edited, rated, previewed, issued), four files
 * printed (listed, fetched, marked), its events delivered to a subscriber, the nightly runs'
 * share, and its renewal. Each row is one call measured as cost.ts reads it: duration (ms, the
 * Lambda's billed time is at most this), DynamoDB read and write units as AWS bills them
 * (test/bench/billed-capacity.ts), and the S3 and SQS requests it made.
 *
 * What runs behind the API (event deliveries, the nightly runs) is metered over a window in which
 * only it runs, divided by what it handled: per event delivered, per policy a night. The event
 * deliveries twice: the policy's EVENTS events committed at once (what is priced), and as many
 * events of as many policies, one each, committed at once (each policy's event alone).
 *
 * Then the warm moves of a new policy: medians of 20 calls each of create_quote_extended, bind,
 * issue and makeManualPolicyPayment, interleaved with the baseline (get_release_info) in the
 * same run, and their ratios to it (goal: within 3×). These calls go unmetered.
 */
import { loadavg } from 'node:os';
import { handler as decideAccounts } from '../../../events/queues/nightly-billing/decide_accounts.js';
import { handler as decideTerms } from '../../../events/queues/nightly-renewals/decide_terms.js';
import { countingSubscriber, deliveredByLocalWorkers, earnedAsTheNightRuns } from '../scenario-helpers.js';
import { lockboxPolicyNumber } from '../../../shared/billing/lockbox.js';
import { planNightlyBilling } from '../../../shared/billing/nightly.js';
import { eventOf } from '../../../shared/events/index.js';
import { planRenewalRun } from '../../../shared/lifecycle/nightly-renewals.js';
import { addDays } from '../../../shared/platform/dates.js';
import { runTransaction } from '../../../shared/platform/transactions.js';
import { getPolicyWithTerms, loadRevision } from '../../../shared/policies/store.js';
import { billedMeter } from '../billed-capacity.js';
import { EVENT_DELIVERY_ROW, EVENT_DELIVERY_SPREAD_ROW, NIGHTLY_ROWS } from '../cost.js';
import { timedNightlyRun } from '../scenario-helpers.js';
import type { BenchCall, BenchContext, BenchRow, BenchScenario } from '../types.js';
import { seedAccounts } from './billing.js';
import { seedTerms } from './books.js';
import { seedPolicies } from './renewals.js';

const P = '/api/v2/policies';
const WARM_CALLS = Number(process.env.BENCH_WARM_CALLS ?? 20);
const EVENTS = 40;
const NIGHTLY_BOOK = 1000;

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A row as cost.ts reads it, from one call or from a window divided by what it handled. */
function row(name: string, measured: Pick<BenchCall, 'ms' | 'readUnits' | 'writeUnits' | 's3Gets' | 's3Puts' | 'sqsRequests'>, per = 1, extra: Record<string, number | string> = {}): BenchRow {
  return {
    name,
    readUnits: round(measured.readUnits / per, 3),
    writeUnits: round(measured.writeUnits / per, 3),
    ms: round(measured.ms / per, 2),
    s3Gets: round(measured.s3Gets / per, 3),
    s3Puts: round(measured.s3Puts / per, 3),
    sqsRequests: round(measured.sqsRequests / per, 3),
    ...extra,
  };
}

/** Meters everything this process does against the stores while `work` runs (nothing else may run meanwhile). */
async function window(work: () => Promise<void>) {
  billedMeter.reset();
  const started = performance.now();
  try {
    await work();
  } finally {
    billedMeter.enabled = false;
  }
  // The meter's own reads of sizes are taken off, as for a call; where work ran in parallel they can sum past the window: then the window whole (an upper bound).
  const elapsed = performance.now() - started;
  return { ms: elapsed > billedMeter.overheadMs ? elapsed - billedMeter.overheadMs : elapsed, readUnits: billedMeter.readUnits, writeUnits: billedMeter.writeUnits, s3Gets: billedMeter.s3Gets, s3Puts: billedMeter.s3Puts, sqsRequests: billedMeter.sqsRequests };
}

function quoteBody(effective: string, name: string) {
  return {
    quote_info: {
      effective_date: `${effective.slice(5, 7)}/${effective.slice(8, 10)}/${effective.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
      named_insureds: [{ name }], locations: [{ address_line1: '1 Main Street', address_zip: '10001' }],
      items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
    },
  };
}

export const scenario: BenchScenario = {
  name: 'policy-year',
  async run(context) {
    const rows: BenchRow[] = [];
    const ok = async (path: string, body: Record<string, unknown>, file = false) => {
      const call = await context.call(path, body);
      // A file's answer is the file itself, not an envelope.
      if (file ? call.status !== 200 : call.body?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(call.body).slice(0, 400)}`);
      return call;
    };
    const today = new Date().toISOString().slice(0, 10);

    // ---------------------------------------------------------------- the year of one policy
    let quote!: BenchCall;
    for (let n = 0; n < 3; n += 1) quote = await ok(`${P}/create_quote_extended`, quoteBody(today, 'Bench Year'));
    rows.push(row('create_quote_extended (one call)', quote));
    const policyId = quote.body.data.policy_id as string;
    const policyNumber = quote.body.data.quote_number as string;
    rows.push(row('bind (one call)', await ok(`${P}/bind`, { bind_info: { policy_id: policyId } })));
    rows.push(row('issue with its invoice and Declaration request (one call)', await ok(`${P}/issue`, { issue_info: { policy_id: policyId } })));
    const revisionId = (await ok(`${P}/retrieve_policy`, { policy_id: policyId })).body.data.active_revision.id as string;
    rows.push(row('create_deliverable Declaration (one call)', await ok('/api/v1/deliverables/create_deliverable', { revision_id: revisionId, deliverable_type: 'Declaration' })));
    await ok('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount: '0.01' } });
    rows.push(row('makeManualPolicyPayment (one call)', await ok('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount: '0.01' } })));
    // A lockbox line must pay at least what the account asks for: the first answer names it.
    const asked = await ok(`${P}/apply_lockbox_payment_transactions`, { transactions: [{ policy: lockboxPolicyNumber(policyNumber), check: '70000', payment: '0.01' }] });
    const minimum = /minimum acceptable ([\d.]+)/.exec(String(asked.body.data[0]?.detail))?.[1] ?? '0.01';
    const lockbox = await ok(`${P}/apply_lockbox_payment_transactions`, { transactions: [{ policy: lockboxPolicyNumber(policyNumber), check: '70001', payment: minimum }] });
    if (lockbox.body.data[0]?.result !== 'success') throw new Error(`the lockbox line did not post: ${JSON.stringify(lockbox.body.data)}`);
    rows.push(row('apply_lockbox_payment_transactions, one line (one call)', lockbox));

    // The endorsement: opened, its dwelling's limit raised, rated, previewed, issued.
    const opened = await ok(`${P}/new_revision`, { policy_id: policyId, revision_date: addDays(today, 30) });
    const endorsementId = opened.body.data.revision_id as string;
    const details = await ok(`${P}/retrieve_revision_details`, { revision_id: endorsementId });
    const dwelling = (details.body.data.items as Array<{ id: string; name: string }>).find((item) => item.name === 'Dwelling')!;
    const edited = await ok(`${P}/update_rating_information`, { revision_id: endorsementId, items: [{ id: dwelling.id, limit: 260000 }] });
    const rated = await ok(`${P}/rate_revision`, { revision_id: endorsementId });
    const edits = [opened, details, edited, rated];
    const sum = (key: 'ms' | 'readUnits' | 'writeUnits' | 's3Gets' | 's3Puts' | 'sqsRequests') => edits.reduce((total, call) => total + call[key], 0);
    rows.push(row('endorsement opened, edited and rated (new_revision, retrieve_revision_details, update_rating_information, rate_revision), per call (one call)', { ms: sum('ms'), readUnits: sum('readUnits'), writeUnits: sum('writeUnits'), s3Gets: sum('s3Gets'), s3Puts: sum('s3Puts'), sqsRequests: sum('sqsRequests') }, edits.length, { calls: edits.length }));
    rows.push(row('preview_revision of the endorsement (one call)', await ok(`${P}/preview_revision`, { revision_id: endorsementId })));
    rows.push(row('issue of the endorsement (one call)', await ok(`${P}/issue`, { issue_info: { policy_id: policyId, revision_id: endorsementId } })));

    // Prints: four files of the policy listed, fetched and marked printed.
    const fileIds: string[] = [];
    for (const deliverableType of ['Declaration', 'Installment Billing Statement', 'Declaration', 'Installment Billing Statement']) {
      const created = await ok('/api/v1/deliverables/create_deliverable', { revision_id: revisionId, deliverable_type: deliverableType, print_state: 'tbd' });
      fileIds.push(created.body.data.file_id);
    }
    const listed = await ok('/api/v1/printing/getToBePrinted', {});
    const listedFiles = Math.max(1, (listed.body.data?.files ?? listed.body.data?.data ?? listed.body.files ?? []).length || fileIds.length);
    rows.push(row('getToBePrinted, per file listed (one call)', listed, listedFiles, { files: listedFiles }));
    rows.push(row('getAttachment of a file (one call)', await ok('/api/v1/printing/getAttachment', { id: fileIds[0] }, true)));
    rows.push(row('markAsPrinted, per file of 4 (one call)', await ok('/api/v1/printing/markAsPrinted', { file_ids: fileIds }), fileIds.length, { files: fileIds.length }));

    // Events: EVENTS committed while nothing delivers, then published and delivered to one subscriber;
    // first all of this policy's, then one each of EVENTS policies (the same subscriber receives both).
    const subscriber = await countingSubscriber();
    try {
      await ok('/api/v2/events/create', { url: subscriber.url, event_types: ['policy.endorsed'] });
      const delivered = async (policyOf: (n: number) => string, label: string) => {
        subscriber.reset();
        const writes = Array.from({ length: EVENTS }, (_, n) => eventOf({ type: 'policy.endorsed', policyId: policyOf(n), policyNumber, transactionId: `bench-year-${label}-${n}` }));
        for (let start = 0; start < writes.length; start += 25) await runTransaction(writes.slice(start, start + 25), { label: 'bench events' });
        const measured = await window(() => deliveredByLocalWorkers(subscriber, EVENTS));
        if (subscriber.arrived() < EVENTS) throw new Error(`${subscriber.arrived()} of ${EVENTS} events (${label}) delivered`);
        return measured;
      };
      rows.push(row(EVENT_DELIVERY_ROW, await delivered(() => policyId, 'one'), EVENTS, { events: EVENTS, policies: 1 }));
      rows.push(row(EVENT_DELIVERY_SPREAD_ROW, await delivered((n) => `${policyId}-${n}`, 'spread'), EVENTS, { events: EVENTS, policies: EVENTS }));
    } finally {
      await subscriber.close();
    }

    // The renewal, as the nightly run makes it a month before the term ends.
    const renewed = await ok(`${P}/process_renewals`, { policy_number: policyNumber, renew_date: addDays(today, 335) });
    if (!renewed.body.data.renewal_term_id) throw new Error(`process_renewals did not renew: ${JSON.stringify(renewed.body.data)}`);
    rows.push(row('process_renewals of one policy (renewed, account, invoice, two documents requested) (one call)', renewed));

    // The nightly runs' share: billing and renewals over a book of NIGHTLY_BOOK, nothing due; the day's earning over every term on record.
    await seedAccounts(NIGHTLY_BOOK, 2097, '2033-01-01');
    const base = (await getPolicyWithTerms(policyId))!;
    const template = (await loadRevision(base.policy.activeRevisionId))!;
    await seedPolicies(template, base, NIGHTLY_BOOK, 2098, '2034-06-30', false);
    await seedTerms(NIGHTLY_BOOK);
    const nightlyWorkers = 4;
    let accounts = 0;
    const billing = await window(async () => {
      accounts = (await timedNightlyRun({ job: 'billing', queue: 'nightly-billing', consumer: decideAccounts, plan: planNightlyBilling }, addDays(today, 1), nightlyWorkers)).accounts;
    });
    const renewals = await window(async () => {
      await (timedNightlyRun({ job: 'renewals', queue: 'nightly-renewals', consumer: decideTerms, plan: planRenewalRun }, addDays(today, 1), nightlyWorkers));
    });
    let earned = 0;
    const earning = await window(async () => {
      earned = (await earnedAsTheNightRuns('2026-03-15')).terms;
    });
    // Lambda bills each consumer's time: up to `nightlyWorkers` run at once over the window.
    rows.push(row(NIGHTLY_ROWS.billing, { ...billing, ms: billing.ms * nightlyWorkers }, Math.max(1, accounts), { accounts }));
    // The renewal run reads only the watch's due window: its share is its cost over the book it watches.
    rows.push(row(NIGHTLY_ROWS.renewals, { ...renewals, ms: renewals.ms * nightlyWorkers }, NIGHTLY_BOOK, { terms: NIGHTLY_BOOK }));
    rows.push(row(NIGHTLY_ROWS.earning, earning, Math.max(1, earned), { terms: earned }));


    // ---------------------------------------------------------------- the warm moves, against the baseline
    rows.push(...(await warmMoves(context, today)));
    return rows;
  },
};

/** Medians of WARM_CALLS warm calls of a new policy's moves, interleaved with the baseline; unmetered. */
async function warmMoves(context: BenchContext, today: string): Promise<BenchRow[]> {
  const post = async (path: string, body: Record<string, unknown>) => {
    const started = performance.now();
    const response = await fetch(`${context.url}${path}`, { method: 'POST', body: JSON.stringify({ api_key: context.administratorApiKey, ...body }) });
    const answer = (await response.json()) as { success?: boolean; data?: any };
    const ms = performance.now() - started;
    if (answer?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(answer).slice(0, 300)}`);
    return { ms, data: answer.data };
  };
  const times: Record<string, number[]> = { baseline: [], create_quote_extended: [], bind: [], issue: [], makeManualPolicyPayment: [] };
  const load: number[] = [];
  for (let n = 0; n < WARM_CALLS + 3; n += 1) {
    const keep = n >= 3;
    const record = (name: string, ms: number) => keep && times[name].push(ms);
    record('baseline', (await post('/api/v2/utils/get_release_info', {})).ms);
    const quote = await post(`${P}/create_quote_extended`, quoteBody(today, 'Bench Warm'));
    record('create_quote_extended', quote.ms);
    record('baseline', (await post('/api/v2/utils/get_release_info', {})).ms);
    record('bind', (await post(`${P}/bind`, { bind_info: { policy_id: quote.data.policy_id } })).ms);
    record('issue', (await post(`${P}/issue`, { issue_info: { policy_id: quote.data.policy_id } })).ms);
    record('baseline', (await post('/api/v2/utils/get_release_info', {})).ms);
    record('makeManualPolicyPayment', (await post('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: quote.data.quote_number, amount: '0.01' } })).ms);
    load.push(loadavg()[0]);
  }
  const baseline = median(times.baseline);
  const averageLoad = round(load.reduce((total, value) => total + value, 0) / load.length, 2);
  return [
    { name: `warm get_release_info (baseline), median of ${times.baseline.length}`, p50: round(baseline), loadAverage: averageLoad },
    ...['create_quote_extended', 'bind', 'issue', 'makeManualPolicyPayment'].map((move) => ({
      name: `warm ${move}, median of ${times[move].length} (goal within 3× the baseline)`,
      p50: round(median(times[move])),
      ratioToBaseline: round(median(times[move]) / baseline, 2),
      loadAverage: averageLoad,
    })),
  ];
}
