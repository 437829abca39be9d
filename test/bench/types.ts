/**
 * The benchmark (`npm run bench`) runs every scenario in test/bench/scenarios
 * against one local service, in-process, with DynamoDB consumed capacity metered.
 * A scenario file exports `scenario: BenchScenario`.
 */
export interface BenchCall {
  status: number;
  body: any;
  /** Consumed capacity of the DynamoDB calls this request made. */
  readUnits: number;
  writeUnits: number;
  ms: number;
  /** S3 and SQS requests the call made (test/bench/billed-capacity.ts meterRequests). */
  s3Gets: number;
  s3Puts: number;
  sqsRequests: number;
}

export interface BenchContext {
  url: string;
  administratorApiKey: string;
  /** POSTs `body` (with the administrator's api_key unless `apiKey` is given, and `headers`) and meters it. */
  call(path: string, body?: Record<string, unknown>, options?: { apiKey?: string; headers?: Record<string, string> }): Promise<BenchCall>;
  /** Warm latency of repeated calls: p50/p99 in ms and requests per second. */
  latency(path: string, body: Record<string, unknown>, options?: { requests?: number; concurrency?: number }): Promise<{ p50: number; p99: number; rps: number }>;
}

export interface BenchRow {
  /** What was measured, e.g. `lookupContactByName @ 20000 contacts`. */
  name: string;
  [metric: string]: string | number | undefined;
}

export interface BenchScenario {
  name: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}
