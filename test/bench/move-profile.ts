/**
 * Where a warm move's time goes: runs a new policy's moves (create_quote_extended, bind, issue,
 * makeManualPolicyPayment) `MOVE_PROFILE_RUNS` times (default 20) through one local service,
 * interleaved with the baseline (get_release_info), and prints for each the median duration, its
 * ratio to the baseline's median of the same run, and the round trips of its median call to
 * DynamoDB, S3 and SQS: each call's command, items, start and duration within the request, and
 * the time between round trips (the handler's own work). `wire`: of a round trip's time, what passed
 * between the signed request leaving and its answer arriving (the rest is the SDK's own work:
 * marshalling, signing, parsing). MOVE_PROFILE_KEYS=1 names each item and its size in bytes.
 *
 *   npx tsx test/bench/move-profile.ts
 */
import { newToken } from '../../shared/auth/secrets.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const { onClientCreated } = await import('../../shared/platform/clients.js');
const { startLocalService } = await import('../../infra/local/service.js');

type Trip = { command: string; items: number; startMs: number; ms: number; wireMs?: number; keys: string[] };
let trips: Trip[] = [];
let requestStarted = 0;
const itemsOf = (input: Record<string, any>): number => {
  if (input.TransactItems) return input.TransactItems.length;
  if (input.RequestItems) return Object.values(input.RequestItems as Record<string, any>).reduce((sum: number, value: any) => sum + (Array.isArray(value) ? value.length : value.Keys?.length ?? 0), 0);
  return 1;
};
onClientCreated((client) => {
  (client.middlewareStack as { add: (middleware: unknown, options: unknown) => void }).add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: unknown }) => {
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        const input = args.input as Record<string, any>;
        const keyOf = (body: Record<string, any> | undefined) => (body ? `${JSON.stringify(body.Key?.pk ?? body.Item?.pk ?? body.ExpressionAttributeValues ?? '')}|${JSON.stringify(body.Key?.sk ?? body.Item?.sk ?? body.IndexName ?? '')}` : '');
        const keys = input.TransactItems ? input.TransactItems.map((entry: Record<string, any>) => `${Object.keys(entry)[0]} ${keyOf(Object.values(entry)[0])} ${JSON.stringify(entry).length} B`) : [keyOf(input)];
        trips.push({ wireMs: (context as { moveProfileWireMs?: number }).moveProfileWireMs, keys, command: `${client.constructor.name.replace('Client', '')}.${String(context.commandName).replace('Command', '')}`, items: itemsOf(args.input as Record<string, any>), startMs: started - requestStarted, ms: performance.now() - started });
      }
    },
    { step: 'initialize', name: 'moveProfileTimer' },
  );
  (client.middlewareStack as { add: (middleware: unknown, options: unknown) => void }).add(
    (next: (args: unknown) => Promise<unknown>, context: unknown) => async (args: unknown) => {
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        // The call's context is shared by its steps: the timer above reads it once the call is over.
        (context as { moveProfileWireMs?: number }).moveProfileWireMs = performance.now() - started;
      }
    },
    { step: 'finalizeRequest', name: 'moveProfileWireTimer', priority: 'low' },
  );
});

const runs = Number(process.env.MOVE_PROFILE_RUNS ?? 20);
const apiKey = newToken('ias');
const service = await startLocalService({ port: 0, administratorApiKey: apiKey, consumers: false });
const post = async (path: string, body: Record<string, unknown>) => {
  trips = [];
  requestStarted = performance.now();
  const response = await fetch(`${service.url}${path}`, { method: 'POST', body: JSON.stringify({ api_key: apiKey, ...body }) });
  const answer = (await response.json()) as { success?: boolean; data: Record<string, any> };
  const ms = performance.now() - requestStarted;
  if (answer?.success !== true) throw new Error(`${path}: ${JSON.stringify(answer).slice(0, 400)}`);
  return { answer, ms, trips };
};
const P = '/api/v2/policies';
const today = new Date().toISOString().slice(0, 10);
const quoteBody = {
  quote_info: {
    effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
    named_insureds: [{ name: 'Bench Warm' }], locations: [{ address_zip: '10001' }],
    items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
  },
};
const samples: Record<string, Array<{ ms: number; trips: Trip[] }>> = { baseline: [], create_quote_extended: [], bind: [], issue: [], makeManualPolicyPayment: [] };
try {
  for (let n = 0; n < runs + 3; n += 1) {
    const keep = n >= 3; // the first three warm everything up
    const record = (name: string, call: { ms: number; trips: Trip[] }) => keep && samples[name].push({ ms: call.ms, trips: call.trips });
    record('baseline', await post('/api/v2/utils/get_release_info', {}));
    const quote = await post(`${P}/create_quote_extended`, quoteBody);
    record('create_quote_extended', quote);
    const policyId = quote.answer.data.policy_id;
    record('baseline', await post('/api/v2/utils/get_release_info', {}));
    record('bind', await post(`${P}/bind`, { bind_info: { policy_id: policyId } }));
    record('issue', await post(`${P}/issue`, { issue_info: { policy_id: policyId } }));
    record('baseline', await post('/api/v2/utils/get_release_info', {}));
    record('makeManualPolicyPayment', await post('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: quote.answer.data.quote_number, amount: '0.01' } }));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const baseline = median(samples.baseline.map((sample) => sample.ms));
  const { loadavg } = await import('node:os');
  console.log(`baseline get_release_info median ${baseline.toFixed(1)} ms of ${samples.baseline.length}; load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  for (const [name, list] of Object.entries(samples)) {
    if (name === 'baseline') continue;
    const sorted = [...list].sort((a, b) => a.ms - b.ms);
    const mid = sorted[Math.floor(sorted.length / 2)];
    const tripMs = mid.trips.reduce((sum, trip) => sum + trip.ms, 0);
    console.log(`\n${name}: median ${mid.ms.toFixed(1)} ms = ${(mid.ms / baseline).toFixed(2)}× baseline; ${mid.trips.length} round trips, ${tripMs.toFixed(1)} ms in them`);
    // What no change of reads can take away: the baseline's own work plus the move's transaction.
    const transactions = list.map((sample) => sample.trips.filter((trip) => trip.command.endsWith('TransactWriteItems')));
    const committed = transactions.filter((found) => found.length > 0);
    if (committed.length > 0) {
      const transactionMs = median(committed.map((found) => found.reduce((sum, trip) => sum + trip.ms, 0)));
      const items = median(committed.map((found) => found.reduce((sum, trip) => sum + trip.items, 0)));
      console.log(`  its transaction (${items} items): median ${transactionMs.toFixed(1)} ms; with the baseline's own work ${(baseline + transactionMs).toFixed(1)} ms = ${((baseline + transactionMs) / baseline).toFixed(2)}× baseline, the floor of this move with these items`);
    }
    if (process.env.MOVE_PROFILE_QUIET) continue;
    let end = 0;
    for (const trip of mid.trips) {
      const gap = trip.startMs - end;
      console.log(`  ${trip.startMs.toFixed(1).padStart(6)} +${gap.toFixed(1).padStart(5)} ${trip.command.padEnd(34)} ${String(trip.items).padStart(3)} items ${trip.ms.toFixed(1).padStart(6)} ms${trip.wireMs === undefined ? '' : ` (wire ${trip.wireMs.toFixed(1)})`}`);
      if (process.env.MOVE_PROFILE_KEYS) for (const key of trip.keys) console.log(`          ${key}`);
      end = Math.max(end, trip.startMs + trip.ms);
    }
    console.log(`  ${mid.ms.toFixed(1).padStart(6)} +${(mid.ms - end).toFixed(1).padStart(5)} (answer)`);
  }
} finally {
  await service.stop();
}
process.exit(0);
