/**
 * Events: how many outbox events a second the local stack publishes and delivers (the event
 * dispatcher standing in for the stream, the events consumer, one subscriber), and the delay
 * from a payment's commit to its signed delivery (p50, p99) while payments are sent at 100 a
 * second over 20 policies. The subscriber is a local HTTP server answering 204.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQSClient } from '@aws-sdk/client-sqs';
import { handler as deliverEvents } from '../../../events/queues/events/deliver_events.js';
import { startEventDispatcher } from '../../../infra/local/pipe-dispatchers.js';
import { startQueuePoller } from '../../../infra/local/queue-poller.js';
import { eventOf } from '../../../shared/events/index.js';
import { pendingEvents } from '../../../shared/events/store.js';
import { config } from '../../../shared/platform/config.js';
import { runTransaction } from '../../../shared/platform/transactions.js';
import type { BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

export const scenario: BenchScenario = {
  name: 'events',
  async run(context) {
    const rows: BenchRow[] = [];
    const arrivals = new Map<string, { at: number; occurredAt: string; type: string }>();
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk)).on('end', () => {
        const event = JSON.parse(body);
        if (!arrivals.has(event.id)) arrivals.set(event.id, { at: Date.now(), occurredAt: event.occurred_at, type: event.type });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const ok = async (path: string, body: Record<string, unknown>) => {
      const call = await context.call(path, body);
      if (call.body?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(call.body).slice(0, 300)}`);
      return call.body.data;
    };
    await ok('/api/v2/events/create', { url, event_types: ['payment.posted', 'policy.endorsed'] });

    const client = new SQSClient({});
    const pollers = Array.from({ length: 2 }, () => startQueuePoller({ client, queueUrl: config.queueUrl('events'), handler: deliverEvents, batchSize: 5, waitTimeSeconds: 1 }));
    let dispatcher = startEventDispatcher({ sqs: client, pollMs: 50 });
    try {
      const today = new Date().toISOString().slice(0, 10);
      const policies: Array<{ policyId: string; policyNumber: string }> = [];
      for (let n = 0; n < 20; n += 1) {
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

      // Payments sent at 100 a second for 5 seconds; each one's delivery is timed from its commit (occurred_at).
      const payments = 500;
      const started = Date.now();
      const sent: Array<Promise<unknown>> = [];
      for (let n = 0; n < payments; n += 1) {
        const due = started + n * 10;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        sent.push(ok('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policies[n % policies.length].policyNumber, amount: '0.01' } }));
      }
      await Promise.all(sent);
      const sentSeconds = (Date.now() - started) / 1000;
      const posted = () => [...arrivals.values()].filter((arrival) => arrival.type === 'payment.posted');
      const complete = await waitFor(() => posted().length >= payments, 180_000);
      const delays = posted().map((arrival) => arrival.at - Date.parse(arrival.occurredAt)).sort((a, b) => a - b);
      rows.push({
        name: `payment.posted delivered, ${payments} payments sent at ${Math.round(payments / sentSeconds)}/s over 20 policies`,
        delivered: delays.length,
        complete: complete ? 'yes' : 'no',
        p50ms: quantile(delays, 0.5),
        p99ms: quantile(delays, 0.99),
      });

      // Publication rate: outbox events committed while nothing publishes, then drained.
      await dispatcher.stop();
      const backlog = 1000;
      const before = arrivals.size;
      const writes = Array.from({ length: backlog }, (_, n) => {
        const policy = policies[n % policies.length];
        return eventOf({ type: 'policy.endorsed', policyId: policy.policyId, policyNumber: policy.policyNumber, transactionId: `bench-${n}` });
      });
      for (let start = 0; start < writes.length; start += 25) await runTransaction(writes.slice(start, start + 25), { label: 'bench events' });
      const drainStarted = performance.now();
      dispatcher = startEventDispatcher({ sqs: client, pollMs: 50 });
      const drained = await waitFor(async () => arrivals.size - before >= backlog && (await pendingEvents(1)).length === 0, 300_000);
      const seconds = (performance.now() - drainStarted) / 1000;
      rows.push({ name: `${backlog} outbox events published and delivered (one subscriber, 2 consumers)`, complete: drained ? 'yes' : 'no', seconds: Math.round(seconds * 10) / 10, eventsPerSecond: Math.round((arrivals.size - before) / seconds) });
    } finally {
      await dispatcher.stop();
      await Promise.all(pollers.map((poller) => poller.stop()));
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    return rows;
  },
};
