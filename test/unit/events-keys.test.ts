/** The events area's key builders, on the exact DynamoDB parameters they produce. */
import { describe, expect, it } from 'vitest';
import { allEventsQueries, dueDeliveriesQueries, dueDeliveryIndex, EVENT_LIST_SHARDS, eventListIndexes, pendingEventIndex, pendingEventsQueries } from '../../shared/events/keys.js';

describe('the all-events and pending lists', () => {
  it("put a policy's events in one shard of each, the same for every event of the policy, and spread policies over all shards", () => {
    const listed = eventListIndexes('policy-1', 'evt_01', 'agency-9');
    expect(listed).toEqual({ gsi1pk: expect.stringMatching(/^EVENTS#ALL#[0-7]$/), gsi1sk: 'evt_01', gsi3pk: 'EVENTS#AGENCY#agency-9', gsi3sk: 'evt_01' });
    expect(eventListIndexes('policy-1', 'evt_02', null).gsi1pk).toBe(listed.gsi1pk);
    expect(pendingEventIndex('policy-1', 'evt_01')).toEqual({ gsi2pk: listed.gsi1pk.replace('EVENTS#ALL', 'EVENTS#pending'), gsi2sk: 'evt_01' });
    const shards = new Set(Array.from({ length: 200 }, (_, index) => eventListIndexes(`policy-${index}`, 'evt', null).gsi1pk));
    expect(shards.size).toBe(EVENT_LIST_SHARDS);
  });

  it('are read shard by shard, and in the unsharded partitions events written before the shards carry', () => {
    expect(allEventsQueries('evt_05').map((query) => query.ExpressionAttributeValues[':pk'])).toEqual([
      'EVENTS#ALL#0', 'EVENTS#ALL#1', 'EVENTS#ALL#2', 'EVENTS#ALL#3', 'EVENTS#ALL#4', 'EVENTS#ALL#5', 'EVENTS#ALL#6', 'EVENTS#ALL#7', 'EVENTS#ALL',
    ]);
    expect(allEventsQueries('evt_05')[0]).toEqual({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :after', ExpressionAttributeValues: { ':pk': 'EVENTS#ALL#0', ':after': 'evt_05' } });
    expect(allEventsQueries(undefined)[8]).toEqual({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'EVENTS#ALL' } });
    expect(pendingEventsQueries().at(-1)).toEqual({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': 'EVENTS#pending' } });
  });
});

describe('the due-deliveries index', () => {
  it('spreads pending deliveries over the shards by delivery id, sorted by when they are due', () => {
    const entry = dueDeliveryIndex('2026-11-28T10:00:05.000Z', 'delivery-1');
    expect(entry).toEqual({ gsi2pk: expect.stringMatching(/^EVENTDELIVERIES#due#[0-7]$/), gsi2sk: '2026-11-28T10:00:05.000Z#delivery-1' });
    expect(dueDeliveryIndex('2026-11-28T11:00:00.000Z', 'delivery-1').gsi2pk).toBe(entry.gsi2pk);
    const shards = new Set(Array.from({ length: 200 }, (_, index) => dueDeliveryIndex('2026-11-28T10:00:05.000Z', `delivery-${index}`).gsi2pk));
    expect(shards.size).toBe(EVENT_LIST_SHARDS);
  });

  it('is read shard by shard up to the instant, and in the unsharded partition deliveries written before the shards carry', () => {
    const queries = dueDeliveriesQueries('2026-11-28T10:00:05.000Z');
    expect(queries.map((query) => query.ExpressionAttributeValues[':pk'])).toEqual([
      'EVENTDELIVERIES#due#0', 'EVENTDELIVERIES#due#1', 'EVENTDELIVERIES#due#2', 'EVENTDELIVERIES#due#3',
      'EVENTDELIVERIES#due#4', 'EVENTDELIVERIES#due#5', 'EVENTDELIVERIES#due#6', 'EVENTDELIVERIES#due#7', 'EVENTDELIVERIES#due',
    ]);
    expect(queries[8]).toEqual({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :until', ExpressionAttributeValues: { ':pk': 'EVENTDELIVERIES#due', ':until': '2026-11-28T10:00:05.000Z#~' } });
  });
});
