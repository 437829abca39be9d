/**
 * What delivering a policy's events writes (each write is billed, a refused one too): a policy's
 * events committed together are handled one after the other by the events consumer's step, each
 * written once; a walk that stops behind a delivery already knocked on does not knock again; a
 * message does not mark an earlier event another worker fanned out; a delivery of a policy's
 * event is stored within 1 KB (one write unit a copy). Order and at-least-once as in
 * events-retries.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEvent, publishEventInTurn } from '../../shared/events/delivery.js';
import { eventOf } from '../../shared/events/index.js';
import { deliveryRecord } from '../../shared/events/records.js';
import { eventAndEarlierPending, openDeliveries } from '../../shared/events/store.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { itemSize } from '../support/item-size.js';
import { runTransaction } from '../../shared/platform/transactions.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { holdingFirstAnswer, startSubscriber, type Subscriber } from '../support/subscriber.js';

const E = '/api/v2/events';

interface Written {
  command: string;
  sk: string;
  expression?: string;
  refused: boolean;
}

/** Every table write this process sends from now on, with the item it names and whether its condition refused it. */
function recordWrites(fail?: (write: Written) => boolean): { writes: Written[]; stop(): void } {
  const stack = documentClient().middlewareStack;
  const name = `write-recorder-${randomUUID()}`;
  const writes: Written[] = [];
  stack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      if (!['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand'].includes(command)) return next(args);
      const input = args.input as { Item?: { sk?: unknown }; Key?: { sk?: unknown }; UpdateExpression?: string };
      // Plain values, or AttributeValues where the document client has marshalled them already.
      const sk = input.Item?.sk ?? input.Key?.sk;
      const write: Written = { command, sk: String((sk as { S?: string } | undefined)?.S ?? sk ?? ''), expression: input.UpdateExpression, refused: false };
      writes.push(write);
      if (fail?.(write)) throw new Error('worker killed');
      try {
        return await next(args);
      } catch (error) {
        if ((error as { name?: string }).name === 'ConditionalCheckFailedException') write.refused = true;
        throw error;
      }
    },
    { step: 'initialize', name },
  );
  return { writes, stop: () => stack.remove(name) };
}

async function committed(policyId: string, count: number): Promise<string[]> {
  const writes = Array.from({ length: count }, (_, n) => eventOf({ type: 'policy.endorsed', policyId, policyNumber: 'P-WRITES', transactionId: `test-writes-${n}` }));
  await runTransaction(writes, { label: 'test events' });
  return writes.map((write) => (write.Put!.Item as { eventId: string }).eventId);
}

describe("what a policy's event deliveries write", () => {
  let service: TestService;
  let subscriber: Subscriber;
  let subscriptionId: string;
  beforeAll(async () => {
    service = await startTestService({ consumers: false });
    subscriber = await startSubscriber();
    ({ subscription_id: subscriptionId } = ok(await service.call(`${E}/create`, { url: subscriber.url, event_types: ['policy.endorsed'] })));
  });
  afterAll(async () => {
    await subscriber?.close();
    await service?.stop();
  });

  it("handles a policy's events committed together, their messages at once, one after the other: each sent once, in order, written three times, none refused", async () => {
    const policyId = `writes-${randomUUID().slice(0, 8)}`;
    const events = await committed(policyId, 8);
    const recorder = recordWrites();
    try {
      await Promise.all(events.map((eventId) => publishEventInTurn(policyId, eventId)));
    } finally {
      recorder.stop();
    }
    expect(subscriber.received.filter((received) => received.event.policy_id === policyId).map((received) => received.event.id)).toEqual(events);
    expect(recorder.writes.filter((write) => write.refused)).toEqual([]);
    // Its delivery, written leased to the walk that sends it; the event marked fanned out; the delivery's outcome.
    expect(recorder.writes).toHaveLength(3 * events.length);
    expect(await openDeliveries(subscriptionId, policyId)).toEqual([]);
  });

  it('does not knock again on a delivery another walk holds that was knocked on already', async () => {
    const policyId = `writes-${randomUUID().slice(0, 8)}`;
    const [first] = await committed(policyId, 1);
    const { sent, post, answerFirst, firstSent } = holdingFirstAnswer(first);
    const firstMessage = publishEvent(policyId, first, { post });
    await firstSent();
    // The second's walk stops behind the first and knocks on it; the third's stops behind it too.
    const [second] = await committed(policyId, 1);
    await publishEvent(policyId, second, { post });
    const [third] = await committed(policyId, 1);
    const recorder = recordWrites();
    try {
      await publishEvent(policyId, third, { post });
    } finally {
      recorder.stop();
    }
    expect(recorder.writes.filter((write) => write.sk === `DELIVERY#${first}`)).toEqual([]);
    expect(sent).toEqual([first]);
    // The walk sending the first, knocked on once, reads again and sends both, in order, each once.
    answerFirst();
    await firstMessage;
    expect(sent).toEqual([first, second, third]);
    expect(await openDeliveries(subscriptionId, policyId)).toEqual([]);
  });

  it('leaves the mark of an earlier event another worker fanned out to that event; it is sent once, in order, and marked by its own message', async () => {
    const policyId = `writes-${randomUUID().slice(0, 8)}`;
    const [first, second, third] = await committed(policyId, 3);
    const sent: string[] = [];
    const post = async (_url: string, _headers: Record<string, string>, body: string) => (sent.push(JSON.parse(body).id), { status: 200, body: 'ok' });
    const t0 = new Date('2030-03-01T00:00:00.000Z');
    // The third's message comes first: its worker writes the first's delivery and dies marking it.
    const dies = recordWrites((write) => write.command === 'UpdateItemCommand' && write.sk === `EVENT#${first}`);
    try {
      await expect(publishEvent(policyId, third, { now: () => t0, post })).rejects.toThrow('worker killed');
    } finally {
      dies.stop();
    }
    expect(sent).toEqual([]);
    // The second's message, once that worker's lease is over: the first's delivery is there, its mark is not this message's to write.
    const later = new Date(t0.getTime() + 360_000);
    const recorder = recordWrites();
    try {
      await publishEvent(policyId, second, { now: () => later, post });
    } finally {
      recorder.stop();
    }
    expect(recorder.writes.filter((write) => write.sk === `EVENT#${first}`)).toEqual([]);
    expect(sent).toEqual([first, second]);
    // The first's own message marks it and sends nothing again; the third's, coming back, sends the third.
    await publishEvent(policyId, first, { now: () => later, post });
    await publishEvent(policyId, third, { now: () => later, post });
    expect(sent).toEqual([first, second, third]);
    expect((await eventAndEarlierPending(policyId, first)).event?.publishedAt).toBeDefined();
    expect(await openDeliveries(subscriptionId, policyId)).toEqual([]);
  });

  it("stores a delivery of a policy's event within 1 KB, and lists it under the id redeliver takes", async () => {
    const policyId = randomUUID();
    const write = eventOf({ type: 'policy.endorsed', policyId, policyNumber: 'HO-2026-000123', transactionId: 'test-writes-size-0001' });
    await runTransaction([write], { label: 'test event' });
    const eventId = (write.Put!.Item as { eventId: string }).eventId;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let posted = false;
    const post = async () => {
      posted = true;
      await answered;
      return { status: 204, body: '' };
    };
    const message = publishEvent(policyId, eventId, { post });
    while (!posted) await new Promise((resolve) => setTimeout(resolve, 20));
    // As written, leased to the walk sending it: the largest it is.
    const stored = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: deliveryRecord.key({ subscriptionId, policyId, eventId }), ConsistentRead: true }));
    expect(stored.Item).toBeDefined();
    expect(itemSize(marshall(stored.Item!, { removeUndefinedValues: true }))).toBeLessThanOrEqual(1024);
    answer();
    await message;
    const listed = ok(await service.call(`${E}/list_deliveries`, { subscription_id: subscriptionId }));
    const delivery = (listed.deliveries as Array<{ delivery_id: string; event_id: string; status: string }>).find((candidate) => candidate.event_id === eventId);
    expect(delivery).toMatchObject({ delivery_id: `dlv.${subscriptionId}.${policyId}.${eventId}`, status: 'delivered' });
    expect(ok(await service.call(`${E}/redeliver`, { delivery_id: delivery!.delivery_id }))).toMatchObject({ delivery_id: delivery!.delivery_id, status: 'delivered' });
  });
});
