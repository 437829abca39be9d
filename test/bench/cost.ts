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

/**
 * What one policy does in a year, by call: the profile docs/cost.md states. Each line names the
 * bench row whose measurement prices it.
 */
export const POLICY_YEAR_PROFILE: ReadonlyArray<{ what: string; perPolicyYear: number; row: string; call: MeasuredCall }> = [
  { what: 'quotes (create_quote_extended), 3 per policy written', perPolicyYear: 3, row: 'create_quote_extended (one call)', call: { readUnits: 2.5, writeUnits: 7, ms: 50 } },
  { what: 'quote edits (rating information, properties), 6 per quote', perPolicyYear: 18, row: 'update_rating_information (one call)', call: { readUnits: 6, writeUnits: 6, ms: 42 } },
  { what: 'bind and issue', perPolicyYear: 1, row: 'issue with its Full Pay invoice (one call)', call: { readUnits: 15.5, writeUnits: 28, ms: 349, sqsRequests: 2 } },
  { what: 'Declaration rendered and stored', perPolicyYear: 1, row: 'create_deliverable Declaration (one call)', call: { readUnits: 6.5, writeUnits: 8, ms: 48, s3Puts: 1, internal: true } },
  { what: 'payments (manual or lockbox line), monthly', perPolicyYear: 12, row: 'makeManualPolicyPayment (one call)', call: { readUnits: 5, writeUnits: 12, ms: 78 } },
  { what: 'endorsements (preview and issue)', perPolicyYear: 0.5, row: 'issue of an endorsement (bench endorsements)', call: { readUnits: 25, writeUnits: 30, ms: 150, sqsRequests: 1 } },
  { what: 'renewal by the nightly run', perPolicyYear: 1, row: 'process_renewals of one policy', call: { readUnits: 11.5, writeUnits: 12, ms: 105, sqsRequests: 2, internal: true } },
  { what: 'documents printed (getToBePrinted, getAttachment, markAsPrinted), per file', perPolicyYear: 4, row: 'markAsPrinted write units per file as AWS bills it (print-runs), with getToBePrinted\'s 0.13 RCU a file', call: { readUnits: 1.15, writeUnits: 9.3, ms: 2, s3Gets: 1 } },
  { what: 'policy reads (retrieve_policy, terms, history)', perPolicyYear: 24, row: 'retrieve_policy by number (one call)', call: { readUnits: 7.5, writeUnits: 0, ms: 18 } },
  { what: 'searches', perPolicyYear: 12, row: 'search (5 matches)', call: { readUnits: 5, writeUnits: 0, ms: 13 } },
  { what: 'nightly billing decisions (accounts owing)', perPolicyYear: 30, row: 'nightly billing, per account decided', call: { readUnits: 4, writeUnits: 1, ms: 5, internal: true } },
];

/** Storage: items a policy keeps (policy, terms, revisions with parts, billing rows, notes, index items), and its files. */
export const STORAGE_PER_POLICY = { dynamoKb: 60, s3Kb: 40, dynamoGbMonth: 0.25, s3GbMonth: 0.023 } as const;

export function monthlyCost(policies: number): { calls: number; perCall: number; storage: number; total: number; byLine: Array<{ what: string; dollars: number }> } {
  const byLine = POLICY_YEAR_PROFILE.map((line) => ({ what: line.what, dollars: (policies * line.perPolicyYear * callCost(line.call).total) / 12 }));
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = JSON.parse(readFileSync(new URL('./results.json', import.meta.url), 'utf8')) as { results: Record<string, unknown> };
  console.table(pricedRows(results.results));
  for (const policies of [10_000, 100_000, 1_000_000]) {
    const month = monthlyCost(policies);
    console.log(`${policies} policies: ${Math.round(month.calls)} calls a month, $${month.perCall.toFixed(2)} calls + $${month.storage.toFixed(2)} storage = $${month.total.toFixed(2)} a month, $${((month.total * 12) / policies).toFixed(4)} a policy-year`);
    for (const line of [...month.byLine].sort((a, b) => b.dollars - a.dollars).slice(0, 3)) console.log(`  ${line.what}: $${line.dollars.toFixed(2)}`);
  }
}
