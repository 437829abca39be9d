/**
 * What a call costs, priced from what the bench measured of it (DynamoDB capacity, duration),
 * and what a carrier's month costs from an activity profile. The prices are one dated table;
 * `npm run bench` prices every call it measures (results.json `costs`), and
 * `npx tsx test/bench/cost.ts` prints the monthly table docs/cost.md quotes from the last
 * results.json.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** us-east-1 list prices, on-demand, as published on the AWS pricing pages (checked 2026-11-25). */
export const PRICES = {
  checkedOn: '2026-11-25',
  region: 'us-east-1',
  /** DynamoDB on-demand, per request unit (a read unit: 4 KB strongly consistent; a write unit: 1 KB). */
  dynamoReadUnit: 0.125 / 1e6,
  dynamoWriteUnit: 0.625 / 1e6,
  /** Lambda on ARM (Graviton): per GB-second and per request. */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** API Gateway HTTP API, per request (first 300 million a month). */
  apiRequest: 1.0 / 1e6,
  /** S3 Standard: PUT and GET requests. */
  s3Put: 0.005 / 1000,
  s3Get: 0.0004 / 1000,
  /** SQS standard queue, per request (64 KB chunks). */
  sqsRequest: 0.4 / 1e6,
} as const;

/** The memory every function is deployed with (infra/constructs/service-function.ts). */
export const DEPLOYED_MEMORY_MB = 512;

export interface MeasuredCall {
  readUnits?: number;
  writeUnits?: number;
  /** Duration of the call as measured through the local service (an upper bound of the Lambda's own). */
  ms?: number;
  s3Gets?: number;
  s3Puts?: number;
  sqsRequests?: number;
  /** Called by another function or a schedule, not through API Gateway. */
  internal?: boolean;
}

export interface CallCost {
  dynamo: number;
  lambda: number;
  api: number;
  other: number;
  total: number;
}

/** The dollars one call costs, by part. */
export function callCost(call: MeasuredCall, memoryMb = DEPLOYED_MEMORY_MB): CallCost {
  const dynamo = (call.readUnits ?? 0) * PRICES.dynamoReadUnit + (call.writeUnits ?? 0) * PRICES.dynamoWriteUnit;
  // Lambda bills by the millisecond: the duration measured here, at the deployed memory.
  const lambda = ((call.ms ?? 0) / 1000) * (memoryMb / 1024) * PRICES.lambdaGbSecond + PRICES.lambdaRequest;
  const api = call.internal ? 0 : PRICES.apiRequest;
  const other = (call.s3Gets ?? 0) * PRICES.s3Get + (call.s3Puts ?? 0) * PRICES.s3Put + (call.sqsRequests ?? 0) * PRICES.sqsRequest;
  return { dynamo, lambda, api, other, total: dynamo + lambda + api + other };
}

/** Dollars per million calls, rounded to the cent. */
export const perMillion = (dollars: number) => Math.round(dollars * 1e6 * 100) / 100;

/** Where a profile line's figures come from: a bench row (scenario and name in results.json), or an estimate said to be one. */
export type ProfileSource = { scenario: string; row: string } | { estimate: MeasuredCall; basis: string };

/** A row of the policy-year scenario (test/bench/scenarios/policy-year.ts), which measures each call of a policy's year. */
const year = (row: string): ProfileSource => ({ scenario: 'policy-year', row });

/** The policy-year scenario's nightly rows: each run over its book, per policy a night. */
export const NIGHTLY_ROWS = {
  billing: 'nightly billing, per account a night, nothing due (one call)',
  renewals: 'nightly renewals, per term on the watch a night, none due (one call)',
  earning: 'nightly earning, per term earned a night (one call)',
} as const;
export const EVENT_DELIVERY_ROW = 'event delivery, per event (published, queued, delivered; one call)';
/** The same events, one each for as many policies, committed together (not priced: beside the row above, which commits them all for one policy). */
export const EVENT_DELIVERY_SPREAD_ROW = 'event delivery, per event of as many policies (published, queued, delivered; one call)';

/**
 * A document is asked for by a request written in the move's transaction, which the table's
 * stream pipe sends to the documents queue, whose consumer receives and deletes it: three SQS
 * requests the bench's service (its consumers off) does not make; create_deliverable measures the rest.
 */
const DELIVERABLE_REQUEST_QUEUE: MeasuredCall = { sqsRequests: 3 };

/**
 * What one policy does in a year, by call: the profile docs/cost.md states. A line priced from a
 * bench row reads that row's measured figures from results.json; the few calls no scenario
 * measures one at a time are estimates, each saying what it is estimated from.
 */
export const POLICY_YEAR_PROFILE: ReadonlyArray<{ what: string; perPolicyYear: number; source: ProfileSource; extra?: MeasuredCall }> = [
  { what: 'quotes (create_quote_extended), 3 per policy written', perPolicyYear: 3, source: { scenario: 'policy-year', row: 'create_quote_extended (one call)' } },
  { what: 'quote edits (rating information, properties), 6 per quote', perPolicyYear: 18, source: { scenario: 'quoting', row: 'update_rating_information on a quote (one call)' } },
  { what: 'bind', perPolicyYear: 1, source: { scenario: 'policy-year', row: 'bind (one call)' } },
  { what: 'issue', perPolicyYear: 1, source: { scenario: 'policy-year', row: 'issue with its invoice and Declaration request (one call)' } },
  { what: 'documents rendered and stored (the Declaration, the endorsement\'s, the renewal\'s two)', perPolicyYear: 4, source: { scenario: 'policy-year', row: 'create_deliverable Declaration (one call)' }, extra: DELIVERABLE_REQUEST_QUEUE },
  { what: 'payments (manual or lockbox line), monthly', perPolicyYear: 12, source: { scenario: 'policy-year', row: 'makeManualPolicyPayment (one call)' } },
  { what: 'endorsements issued, half a policy', perPolicyYear: 0.5, source: { scenario: 'policy-year', row: 'issue of the endorsement (one call)' } },
  { what: 'renewal', perPolicyYear: 1, source: { scenario: 'policy-year', row: 'process_renewals of one policy (renewed, account, invoice, two documents requested) (one call)' }, extra: { internal: true } },
  { what: 'documents printed (listed, fetched, marked), per file', perPolicyYear: 4 * 3, source: { scenario: 'policy-year', row: 'markAsPrinted, per file of 4 (one call)' } },
  { what: 'policy reads (retrieve_policy, terms, history)', perPolicyYear: 24, source: { scenario: 'policies', row: 'retrieve_policy by number (one call)' } },
  { what: 'searches', perPolicyYear: 12, source: { scenario: 'search', row: 'search "Quartermaine" (5 matches) @ 1000 policies' } },
  { what: 'nightly billing decisions, a night each', perPolicyYear: 365, source: { scenario: 'policy-year', row: NIGHTLY_ROWS.billing }, extra: { internal: true } },
];

type BenchResults = Record<string, unknown>;

/** A profile line's call: the bench row's measured capacity and duration, or its estimate. */
export function profileCall(line: (typeof POLICY_YEAR_PROFILE)[number], results: BenchResults): MeasuredCall & { measured: boolean } {
  if ('estimate' in line.source) return { ...line.source.estimate, ...line.extra, measured: false };
  const { scenario, row } = line.source;
  const rows = results[scenario];
  const found = Array.isArray(rows) ? (rows as Array<Record<string, unknown>>).find((candidate) => candidate.name === row) : undefined;
  if (!found) throw new Error(`results.json has no row "${row}" in scenario ${scenario}: run \`npm run bench -- --no-bundles ${scenario}\``);
  const measured = (key: 's3Gets' | 's3Puts' | 'sqsRequests') => Number(found[key] ?? 0) + (line.extra?.[key] ?? 0);
  return {
    readUnits: Number(found.readUnits ?? 0),
    writeUnits: Number(found.writeUnits ?? 0),
    ms: Number(found.ms ?? found.p50 ?? 0),
    s3Gets: measured('s3Gets'),
    s3Puts: measured('s3Puts'),
    sqsRequests: measured('sqsRequests'),
    ...(line.extra?.internal ? { internal: true } : {}),
    measured: true,
  };
}

/** Issue 22's targets: dollars per million calls of the profile's reads and of its writes. */
export const MIX_TARGETS = { readsPerMillion: 1.5, writesPerMillion: 5 } as const;

/** Dollars per million calls of the profile's mix: its reads (no write units) and its writes, each weighted by how often a policy makes them. */
export function mixCost(results: BenchResults): { readsPerMillion: number; writesPerMillion: number } {
  const weighted = (reads: boolean) => {
    let calls = 0;
    let dollars = 0;
    for (const line of POLICY_YEAR_PROFILE) {
      const call = profileCall(line, results);
      if (((call.writeUnits ?? 0) === 0) !== reads) continue;
      calls += line.perPolicyYear;
      dollars += line.perPolicyYear * callCost(call).total;
    }
    return perMillion(dollars / calls);
  };
  return { readsPerMillion: weighted(true), writesPerMillion: weighted(false) };
}

/** Storage: items a policy keeps (policy, terms, revisions with parts, billing rows, notes, index items), and its files. */
export const STORAGE_PER_POLICY = { dynamoKb: 60, s3Kb: 40, dynamoGbMonth: 0.25, s3GbMonth: 0.023 } as const;

export function monthlyCost(policies: number, results: BenchResults): { calls: number; perCall: number; storage: number; total: number; byLine: Array<{ what: string; dollars: number; measured: boolean }> } {
  const byLine = POLICY_YEAR_PROFILE.map((line) => {
    const call = profileCall(line, results);
    return { what: line.what, dollars: (policies * line.perPolicyYear * callCost(call).total) / 12, measured: call.measured };
  });
  const calls = POLICY_YEAR_PROFILE.reduce((sum, line) => sum + (policies * line.perPolicyYear) / 12, 0);
  const perCall = byLine.reduce((sum, line) => sum + line.dollars, 0);
  const storage = ((policies * STORAGE_PER_POLICY.dynamoKb) / 1024 / 1024) * STORAGE_PER_POLICY.dynamoGbMonth + ((policies * STORAGE_PER_POLICY.s3Kb) / 1024 / 1024) * STORAGE_PER_POLICY.s3GbMonth;
  return { calls, perCall, storage, total: perCall + storage, byLine };
}

/** The priced table of every bench row that measured capacity (results.json `costs`). */
export function pricedRows(results: Record<string, unknown>): Array<{ scenario: string; name: string; perMillionCalls: number; dynamo: number; lambda: number; api: number }> {
  const rows: Array<{ scenario: string; name: string; perMillionCalls: number; dynamo: number; lambda: number; api: number }> = [];
  for (const [scenario, list] of Object.entries(results)) {
    if (!Array.isArray(list)) continue;
    for (const row of list as Array<Record<string, unknown>>) {
      if (typeof row.name !== 'string' || !/\(one call\)/.test(row.name)) continue;
      const cost = callCost({ readUnits: Number(row.readUnits ?? 0), writeUnits: Number(row.writeUnits ?? 0), ms: Number(row.ms ?? row.p50 ?? 0) });
      rows.push({ scenario, name: row.name, perMillionCalls: perMillion(cost.total), dynamo: perMillion(cost.dynamo), lambda: perMillion(cost.lambda), api: perMillion(cost.api) });
    }
  }
  return rows;
}

/** Issue 35's goal: all in, per policy-year. */
export const POLICY_YEAR_GOAL_DOLLARS = 0.5;

/**
 * Issue 35's policy-year, end to end: the moves one policy makes in a year. Lines with a bench row
 * are measured; the rest are estimates, each saying what it stands on.
 */
export const ISSUE_35_POLICY_YEAR: ReadonlyArray<{ what: string; count: number; source: ProfileSource; extra?: MeasuredCall }> = [
  { what: 'quotes (create_quote_extended)', count: 3, source: year('create_quote_extended (one call)') },
  { what: 'bind', count: 1, source: year('bind (one call)') },
  { what: 'issue with its invoice', count: 1, source: year('issue with its invoice and Declaration request (one call)') },
  { what: 'documents rendered and stored (Declaration, endorsement\'s, renewal\'s two)', count: 4, source: year('create_deliverable Declaration (one call)'), extra: { ...DELIVERABLE_REQUEST_QUEUE, internal: true } },
  { what: 'installment payments', count: 11, source: year('makeManualPolicyPayment (one call)') },
  { what: 'lockbox payment (a file of one line)', count: 1, source: year('apply_lockbox_payment_transactions, one line (one call)') },
  { what: 'endorsement opened, edited and rated (4 calls)', count: 4, source: year('endorsement opened, edited and rated (new_revision, retrieve_revision_details, update_rating_information, rate_revision), per call (one call)') },
  { what: 'endorsement preview', count: 1, source: year('preview_revision of the endorsement (one call)') },
  { what: 'endorsement issue', count: 1, source: year('issue of the endorsement (one call)') },
  { what: 'nightly billing decisions (a night each)', count: 365, source: year(NIGHTLY_ROWS.billing), extra: { internal: true } },
  { what: 'nightly renewal watch (a night each)', count: 365, source: year(NIGHTLY_ROWS.renewals), extra: { internal: true } },
  { what: 'nightly earning (a night each)', count: 365, source: year(NIGHTLY_ROWS.earning), extra: { internal: true } },
  { what: 'prints: listed (getToBePrinted, per file)', count: 4, source: year('getToBePrinted, per file listed (one call)') },
  { what: 'prints: fetched (getAttachment)', count: 4, source: year('getAttachment of a file (one call)') },
  { what: 'prints: marked printed (markAsPrinted, per file)', count: 4, source: year('markAsPrinted, per file of 4 (one call)') },
  { what: 'event deliveries', count: 20, source: year(EVENT_DELIVERY_ROW), extra: { internal: true } },
  { what: 'renewal by the nightly run', count: 1, source: year('process_renewals of one policy (renewed, account, invoice, two documents requested) (one call)'), extra: { internal: true } },
];

/** Dollars one policy-year costs, by line and by part (DynamoDB, Lambda, API Gateway, S3 and SQS), plus a year of storage. */
export function policyYearCost(results: BenchResults) {
  const lines = ISSUE_35_POLICY_YEAR.map((line) => {
    const call = profileCall({ what: line.what, perPolicyYear: line.count, source: line.source, extra: line.extra }, results);
    const cost = callCost(call);
    return { what: line.what, count: line.count, dollars: line.count * cost.total, dynamo: line.count * cost.dynamo, lambda: line.count * cost.lambda, api: line.count * cost.api, s3AndSqs: line.count * cost.other, measured: call.measured };
  });
  const storage = (STORAGE_PER_POLICY.dynamoKb / 1024 / 1024) * STORAGE_PER_POLICY.dynamoGbMonth * 12 + (STORAGE_PER_POLICY.s3Kb / 1024 / 1024) * STORAGE_PER_POLICY.s3GbMonth * 12;
  const sum = (key: 'dollars' | 'dynamo' | 'lambda' | 'api' | 's3AndSqs') => lines.reduce((total, line) => total + line[key], 0);
  return { lines, storage, dynamo: sum('dynamo'), lambda: sum('lambda'), api: sum('api'), s3AndSqs: sum('s3AndSqs'), total: sum('dollars') + storage };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = JSON.parse(readFileSync(new URL('./results.json', import.meta.url), 'utf8')) as { results: Record<string, unknown> };
  console.table(pricedRows(results.results));
  const mix = mixCost(results.results);
  console.log(`the profile's mix: reads $${mix.readsPerMillion} per million (target ${MIX_TARGETS.readsPerMillion}), writes $${mix.writesPerMillion} per million (target ${MIX_TARGETS.writesPerMillion})`);
  for (const policies of [10_000, 100_000, 1_000_000]) {
    const month = monthlyCost(policies, results.results);
    console.log(`${policies} policies: ${Math.round(month.calls)} calls a month, $${month.perCall.toFixed(2)} calls + $${month.storage.toFixed(2)} storage = $${month.total.toFixed(2)} a month, $${((month.total * 12) / policies).toFixed(4)} a policy-year`);
    for (const line of [...month.byLine].sort((a, b) => b.dollars - a.dollars)) console.log(`  ${line.what}: $${line.dollars.toFixed(2)}${line.measured ? '' : ' (estimate)'}`);
  }
  const year = policyYearCost(results.results);
  console.log(`a policy-year: $${year.total.toFixed(5)} (goal $${POLICY_YEAR_GOAL_DOLLARS}): DynamoDB $${year.dynamo.toFixed(5)}, Lambda $${year.lambda.toFixed(5)} (${DEPLOYED_MEMORY_MB} MB), API Gateway $${year.api.toFixed(5)}, S3 and SQS $${year.s3AndSqs.toFixed(5)}, storage $${year.storage.toFixed(5)}`);
  for (const line of [...year.lines].sort((a, b) => b.dollars - a.dollars)) console.log(`  ${line.count} × ${line.what}: $${line.dollars.toFixed(5)}${line.measured ? '' : ' (estimate)'}`);
  for (const policies of [10_000, 100_000, 1_000_000]) console.log(`${policies} policies a month: $${(policies * year.total).toFixed(2)} for their policy-years (goal $${(policies * POLICY_YEAR_GOAL_DOLLARS).toFixed(0)})`);
}
