/**
 * Events: how soon a subscriber hears of a move. Twenty policies are issued; then payments are
 * posted at 20 a second for 60 seconds (one a second per policy), with the local runtime's own
 * event pipe and consumers running as `npm start` runs them, and one subscriber on the machine
 * (a local HTTP server answering 204). Each event is timed from its commit (its `occurred_at`,
 * stamped just before the transaction commits) to its first delivery attempt, reported as p50
 * and p99 beside the baseline call (get_release_info) measured in the same run; per-policy order
 * and duplicates are counted. Then the publication rate: 1,000 outbox events committed while
 * nothing publishes, drained.
 *
 * Goal (issue 35): p50 ≤ 1 s, p99 ≤ 3 s. Calls here go unmetered (the bench's DynamoDB meter
 * reads item sizes, which would slow the service under test).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocalWorkers } from '../../../infra/local/service.js';
import { eventOf } from '../../../shared/events/index.js';
import { pendingEvents } from '../../../shared/events/store.js';
import { runTransaction } from '../../../shared/platform/transactions.js';
import type { BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const POLICIES = 20;
const MOVES_PER_SECOND = 20;
const SECONDS = Number(process.env.BENCH_EVENTS_SECONDS ?? 60);
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * CPU seconds this process and its children (DynamoDB Local, the SQS server when spawned) have
 * used: on a shared machine the wall-clock figures move with the load, CPU spent per event much less.
 */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      // After the command: state, ppid, ..., utime (12th) and stime (13th), in clock ticks.
      if (Number(fields[1]) === process.pid) children += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // The process ended meanwhile.
    }
  }
  return (own.user + own.system) / 1e6 + children;
}

async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

export const scenario: BenchScenario = {
  name: 'events',
  async run(context) {
    const rows: BenchRow[] = [];
    /** Event id → its arrivals (ms since epoch), and what it was. */
    const arrivals = new Map<string, { at: number[]; occurredAt: string; type: string; policyId: string }>();
    /** Policy → event ids in the order they first arrived. */
    const arrivalOrder = new Map<string, string[]>();
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk)).on('end', () => {
        const event = JSON.parse(body);
        const known = arrivals.get(event.id);
        if (known) known.at.push(Date.now());
        else {
          arrivals.set(event.id, { at: [Date.now()], occurredAt: event.occurred_at, type: event.type, policyId: event.policy_id });
          arrivalOrder.set(event.policy_id, [...(arrivalOrder.get(event.policy_id) ?? []), event.id]);
        }
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const ok = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${context.url}${path}`, { method: 'POST', body: JSON.stringify({ api_key: context.administratorApiKey, ...body }) });
      const answer = (await response.json()) as { success: boolean; data: any };
      if (answer?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(answer).slice(0, 300)}`);
      return answer.data;
    };

    const today = new Date().toISOString().slice(0, 10);
    const policies: Array<{ policyId: string; policyNumber: string }> = [];
    for (let n = 0; n < POLICIES; n += 1) {
      const quote = await ok(`${P}/create_quote_extended`, {
        quote_info: {
          effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
          named_insureds: [{ name: 'Bench Events' }], locations: [{ address_zip: '10001' }],
          items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
        },
      });
      await ok(`${P}/bind`, { bind_info: { policy_id: quote.policy_id } });
      await ok(`${P}/issue`, { issue_info: { policy_id: quote.policy_id } });
      policies.push({ policyId: quote.policy_id, policyNumber: quote.quote_number });
    }
    // Subscribed after the policies' own events, so that only the payments are measured.
    await ok('/api/v2/events/create', { url, event_types: ['payment.posted', 'policy.endorsed'] });

    let workers = await startLocalWorkers({ only: ['events', 'event-retries'] });
    try {
      // The baseline call, in this run, on this machine's load.
      const baseline = await context.latency('/api/v2/utils/get_release_info', {}, { requests: 100, concurrency: 2 });
      const payments = MOVES_PER_SECOND * SECONDS;
      const cpuBefore = cpuSeconds();
      const started = Date.now();
      const sent: Array<Promise<unknown>> = [];
      // A payment the loaded machine could not post in time is counted, not fatal: its event never existed.
      let refused = 0;
      for (let n = 0; n < payments; n += 1) {
        const due = started + (n * 1000) / MOVES_PER_SECOND;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        sent.push(ok('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policies[n % POLICIES].policyNumber, amount: '0.01' } }).catch(() => (refused += 1)));
      }
      await Promise.all(sent);
      const sentSeconds = (Date.now() - started) / 1000;
      const posted = () => [...arrivals.values()].filter((arrival) => arrival.type === 'payment.posted');
      const complete = await waitFor(() => posted().length >= payments - refused, 180_000);
      const cpuMsPerPayment = ((cpuSeconds() - cpuBefore) * 1000) / Math.max(1, posted().length);
      const delays = posted().map((arrival) => arrival.at[0] - Date.parse(arrival.occurredAt)).sort((a, b) => a - b);
      // Per-policy order: each policy's events first arrive in the order they were committed (event ids sort by time).
      let outOfOrder = 0;
      for (const ids of arrivalOrder.values()) ids.forEach((id, index) => (outOfOrder += index > 0 && id < ids[index - 1] ? 1 : 0));
      const p50 = quantile(delays, 0.5);
      const p99 = quantile(delays, 0.99);
      rows.push({ name: 'get_release_info (baseline, this run)', p50: baseline.p50, p99: baseline.p99 });
      rows.push({
        name: `payment.posted, commit to first delivery attempt: ${payments} payments asked at ${MOVES_PER_SECOND}/s for ${SECONDS} s over ${POLICIES} policies (goal p50 ≤ 1000 ms, p99 ≤ 3000 ms)`,
        sentPerSecond: round(payments / sentSeconds, 1),
        paymentsFailed: refused,
        delivered: delays.length,
        complete: complete ? 'yes' : 'no',
        p50ms: p50,
        p99ms: p99,
        maxms: delays.at(-1),
        p50VsBaseline: round(p50 / baseline.p50, 1),
        outOfOrder,
        sentTwice: posted().filter((arrival) => arrival.at.length > 1).length,
        // The payment's call and its event's delivery, all in: node and DynamoDB Local.
        cpuMsPerEvent: round(cpuMsPerPayment, 1),
      });

      // Publication rate: outbox events committed while nothing publishes, then drained.
      await workers.close();
      const backlog = 1000;
      const before = arrivals.size;
      const writes = Array.from({ length: backlog }, (_, n) => {
        const policy = policies[n % policies.length];
        return eventOf({ type: 'policy.endorsed', policyId: policy.policyId, policyNumber: policy.policyNumber, transactionId: `bench-${n}` });
      });
      for (let start = 0; start < writes.length; start += 25) await runTransaction(writes.slice(start, start + 25), { label: 'bench events' });
      const drainCpu = cpuSeconds();
      const drainStarted = performance.now();
      workers = await startLocalWorkers({ only: ['events', 'event-retries'] });
      const drained = await waitFor(async () => arrivals.size - before >= backlog && (await pendingEvents(1)).length === 0, 300_000);
      const seconds = (performance.now() - drainStarted) / 1000;
      rows.push({ name: `${backlog} outbox events published and delivered (one subscriber)`, complete: drained ? 'yes' : 'no', seconds: round(seconds, 1), eventsPerSecond: Math.round((arrivals.size - before) / seconds), cpuMsPerEvent: round(((cpuSeconds() - drainCpu) * 1000) / Math.max(1, arrivals.size - before), 1) });
    } finally {
      await workers.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    return rows;
  },
};
