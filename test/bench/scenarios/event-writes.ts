/**
 * Event deliveries, write by write: which items, and which code path, an event's delivery writes
 * as AWS bills them (test/bench/billed-capacity.ts, its onWrite). EVENTS events (20, or
 * BENCH_EVENT_WRITES) are committed while nothing publishes, then published and delivered to one
 * subscriber by the local events pipe and consumers: first all of one policy (each message fans
 * out the policy's earlier events and walks the same deliveries), then one each of as many
 * policies; then all of one policy again, each message handled by a worker of its own at once
 * (publishEvent called directly, as Lambdas apart would: the events consumer takes a policy's
 * messages in turn only within its process). Prints, for each case, every kind of write (command, item, its index entries before
 * and after, what it holds, refused or not, the events area's functions that made it) with its
 * units; the rows give the units per event. What the policy-year prices is in policy-year.ts.
 */
import { countingSubscriber, deliveredByLocalWorkers } from '../scenario-helpers.js';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { eventOf, publishEvent } from '../../../shared/events/index.js';
import { runTransaction } from '../../../shared/platform/transactions.js';
import { billedMeter, type BilledWrite } from '../billed-capacity.js';
import type { BenchRow, BenchScenario } from '../types.js';

const EVENTS = Number(process.env.BENCH_EVENT_WRITES ?? 20);

/** The events area's functions that made the write (async stack frames, innermost first). */
function pathOf(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = stack.split('\n').filter((line) => line.includes('shared/events/')).map((line) => line.trim().replace(/^at (async )?/, '').replace(/ \(.*$/, ''));
  return frames.slice(0, 3).join(' < ');
}

/** What a write wrote: command, item kind, index entries before -> after, what it holds, refused or not, and where from. */
function label(write: BilledWrite): string {
  const key = unmarshall(write.key);
  const kind = String(key.pk).startsWith('EVENTSUB#') ? 'delivery' : String(key.pk).startsWith('EVENTS#POLICY') ? 'event' : String(key.pk).split('#')[0];
  const b = write.before ? unmarshall(write.before) : undefined;
  const a = write.after ? unmarshall(write.after) : undefined;
  const idx = (item: any) => (item ? ['gsi1pk', 'gsi2pk', 'gsi3pk'].filter((n) => item[n]).map((n) => n.slice(0, 4)).join('+') : '-');
  const what = a ? `${a.status ?? ''}${a.leaseUntil ? ',leased' : ''}${a.walkAgain ? ',knock' : ''}` : '';
  return `${write.command.replace('ItemCommand', '')} ${kind} [${idx(b)} -> ${idx(a)}] ${what}${write.applied ? '' : ' refused'} @ ${pathOf()}`;
}

export const scenario: BenchScenario = {
  name: 'event-writes',
  async run(context) {
    const rows: BenchRow[] = [];
    const subscriber = await countingSubscriber();
    const created = await context.call('/api/v2/events/create', { url: subscriber.url, event_types: ['policy.endorsed'] });
    if (created.body?.success !== true) throw new Error(JSON.stringify(created.body));
    const cases = ['one', 'spread', 'one, workers apart'] as const;
    const names = {
      one: `per event, ${EVENTS} of one policy committed at once`,
      spread: `per event, one each of ${EVENTS} policies committed at once`,
      'one, workers apart': `per event, ${EVENTS} of one policy committed at once, each message its own worker`,
    };
    for (const which of cases) {
      const base = `bench-writes-${cases.indexOf(which)}-${Date.now()}`;
      const writes = Array.from({ length: EVENTS }, (_, n) => eventOf({ type: 'policy.endorsed', policyId: which === 'spread' ? `${base}-${n}` : base, policyNumber: 'P-1', transactionId: `bench-writes-${n}` }));
      for (let start = 0; start < writes.length; start += 25) await runTransaction(writes.slice(start, start + 25), { label: 'bench events' });
      subscriber.reset();
      const tally = new Map<string, { n: number; units: number }>();
      billedMeter.reset();
      billedMeter.onWrite = (write) => {
        const l = label(write);
        const t = tally.get(l) ?? { n: 0, units: 0 };
        t.n += 1;
        t.units += write.units;
        tally.set(l, t);
      };
      const started = performance.now();
      if (which === 'one, workers apart') {
        await Promise.all(writes.map((write) => publishEvent(base, (write.Put!.Item as { eventId: string }).eventId)));
      } else {
        await deliveredByLocalWorkers(subscriber, EVENTS);
      }
      billedMeter.enabled = false;
      billedMeter.onWrite = undefined;
      console.log(`\n=== ${which}: ${subscriber.arrived()}/${EVENTS} delivered, ${billedMeter.writeUnits} WCU (${(billedMeter.writeUnits / EVENTS).toFixed(1)}/event), ${billedMeter.readUnits} RCU, ${billedMeter.sqsRequests} SQS, ${Math.round(performance.now() - started)} ms`);
      for (const [l, t] of [...tally.entries()].sort((x, y) => y[1].units - x[1].units)) console.log(`${String(t.units).padStart(5)} WCU ${String(t.n).padStart(4)}x  ${l}`);
      if (subscriber.arrived() < EVENTS) throw new Error(`${subscriber.arrived()} of ${EVENTS} events (${which}) delivered`);
      rows.push({ name: names[which], writeUnits: billedMeter.writeUnits / EVENTS, readUnits: billedMeter.readUnits / EVENTS, sqsRequests: billedMeter.sqsRequests / EVENTS });
    }
    await subscriber.close();
    return rows;
  },
};
