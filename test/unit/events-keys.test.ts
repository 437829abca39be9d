/** The events area's declared records (shared/events/records.ts), on the exact DynamoDB parameters they produce. */
import { describe, expect, it } from 'vitest';
import { deliveryRecord, EVENT_LIST_SHARDS, legacyDeliveryRecord, legacyPolicyEventRecord, policyEventRecord } from '../../shared/events/records.js';

const event = (policyId: string, eventId: string, agencyId: string | null) =>
  ({ eventId, policyId, agencyId, type: 'policy.issued', occurredAt: '2026-11-28T10:00:00.000Z', policyNumber: '10-2026-1', transactionId: null, data: {} }) as never;

describe('the all-events and pending lists', () => {
  it("put a policy's events in one shard of each, the same for every event of the policy, and spread policies over all shards", () => {
    const listed = policyEventRecord.item(event('policy-1', 'evt_01', 'agency-9'));
    expect(listed).toMatchObject({ pk: 'EVENTS#POLICY#policy-1', sk: 'EVENT#evt_01', gsi1pk: expect.stringMatching(/^EVENTS#ALL#[0-7]$/), gsi1sk: 'evt_01', gsi3pk: 'EVENTS#AGENCY#agency-9', gsi3sk: 'evt_01' });
    expect(listed).not.toHaveProperty('shard');
    const other = policyEventRecord.item(event('policy-1', 'evt_02', null));
    expect(other.gsi1pk).toBe(listed.gsi1pk);
    expect(other).not.toHaveProperty('gsi3pk');
    expect({ gsi2pk: listed.gsi2pk, gsi2sk: listed.gsi2sk }).toEqual({ gsi2pk: String(listed.gsi1pk).replace('EVENTS#ALL', 'EVENTS#pending'), gsi2sk: 'evt_01' });
    const shards = new Set(Array.from({ length: 200 }, (_, index) => policyEventRecord.item(event(`policy-${index}`, 'evt', null)).gsi1pk));
    expect(shards.size).toBe(EVENT_LIST_SHARDS);
  });

  it('are read shard by shard, and in the unsharded partitions events written before the shards carry', () => {
    expect(policyEventRecord.query({ shard: 0 }, { index: 'gsi1', sort: { gt: { eventId: 'evt_05' } } })).toEqual({
      IndexName: 'gsi1', KeyConditionExpression: '#pk = :pk AND #sk > :sk', ExpressionAttributeNames: { '#pk': 'gsi1pk', '#sk': 'gsi1sk' }, ExpressionAttributeValues: { ':pk': 'EVENTS#ALL#0', ':sk': 'evt_05' },
    });
    expect(legacyPolicyEventRecord.query({}, { index: 'gsi1' })).toEqual({ IndexName: 'gsi1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'gsi1pk' }, ExpressionAttributeValues: { ':pk': 'EVENTS#ALL' } });
    expect(legacyPolicyEventRecord.query({}, { index: 'gsi2' }).ExpressionAttributeValues).toEqual({ ':pk': 'EVENTS#pending' });
    expect(policyEventRecord.query({ policyId: 'p-1' }, { sort: { lte: { eventId: 'evt_05' } }, newestFirst: true, consistent: true })).toEqual({
      KeyConditionExpression: '#pk = :pk AND #sk <= :sk', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' }, ExpressionAttributeValues: { ':pk': 'EVENTS#POLICY#p-1', ':sk': 'EVENT#evt_05' }, ScanIndexForward: false, ConsistentRead: true,
    });
  });
});

describe('the due-deliveries index', () => {
  const delivery = (deliveryId: string, nextAttemptAt: string | null, status = 'pending') =>
    deliveryRecord.item({ subscriptionId: 'sub_1', policyId: 'p-1', eventId: 'evt_01', status, nextAttemptAt, version: 1 } as never, { deliveryId });

  it('spreads pending deliveries over the shards by delivery id, sorted by when they are due, and leaves out the rest', () => {
    const entry = delivery('delivery-1', '2026-11-28T10:00:05.000Z');
    expect(entry).toMatchObject({ pk: 'EVENTSUB#sub_1#POLICY#p-1', sk: 'DELIVERY#evt_01', gsi1pk: 'EVENTSUB#sub_1#DELIVERIES', gsi1sk: 'evt_01#p-1', gsi2pk: expect.stringMatching(/^EVENTDELIVERIES#due#[0-7]$/), gsi2sk: '2026-11-28T10:00:05.000Z#delivery-1' });
    expect(entry).not.toHaveProperty('deliveryId');
    expect(delivery('delivery-1', '2026-11-28T11:00:00.000Z').gsi2pk).toBe(entry.gsi2pk);
    expect(delivery('delivery-1', '2026-11-28T11:00:00.000Z', 'delivered')).not.toHaveProperty('gsi2pk');
    expect(delivery('delivery-1', null)).not.toHaveProperty('gsi2pk');
    const shards = new Set(Array.from({ length: 200 }, (_, index) => delivery(`delivery-${index}`, '2026-11-28T10:00:05.000Z').gsi2pk));
    expect(shards.size).toBe(EVENT_LIST_SHARDS);
  });

  it('is read shard by shard up to the instant, and in the unsharded partition deliveries written before the shards carry', () => {
    const upTo = { sort: { lte: { nextAttemptAt: '2026-11-28T10:00:05.000Z', deliveryId: '~' } } } as const;
    expect(deliveryRecord.query({ dueShard: 3 }, { index: 'gsi2', ...upTo }).ExpressionAttributeValues).toEqual({ ':pk': 'EVENTDELIVERIES#due#3', ':sk': '2026-11-28T10:00:05.000Z#~' });
    expect(legacyDeliveryRecord.query({}, { index: 'gsi2', ...upTo })).toEqual({
      IndexName: 'gsi2', KeyConditionExpression: '#pk = :pk AND #sk <= :sk', ExpressionAttributeNames: { '#pk': 'gsi2pk', '#sk': 'gsi2sk' }, ExpressionAttributeValues: { ':pk': 'EVENTDELIVERIES#due', ':sk': '2026-11-28T10:00:05.000Z#~' },
    });
    expect(deliveryRecord.query({ subscriptionId: 'sub_1', policyId: 'p-1' }, { sort: { between: [{ eventId: 'evt_03' }, { eventId: '~' }] } }).ExpressionAttributeValues).toEqual({ ':pk': 'EVENTSUB#sub_1#POLICY#p-1', ':from': 'DELIVERY#evt_03', ':to': 'DELIVERY#~' });
  });
});

describe("the outbox's pipe to the events queue", () => {
  it('finds what it filters on in the item the producer writes: its entity, and the attribute the message carries', async () => {
    const { TABLE_PIPES } = await import('../../shared/platform/queues.js');
    const { policyEventPut } = await import('../../shared/events/store.js');
    const pipe = TABLE_PIPES.find((candidate) => candidate.queue === 'events')!;
    process.env.TABLE_NAME ??= 'T';
    const item = (policyEventPut(event('policy-1', 'evt_01', null)) as { Put: { Item: Record<string, unknown> } }).Put.Item;
    expect(item.entity).toBe(pipe.entity);
    expect(pipe.entity).toBe(policyEventRecord.declaration.entity);
    expect(item[pipe.attribute]).toBe('policy-1/evt_01');
  });
});
