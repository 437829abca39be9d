/**
 * The events area's keys: the only code that knows them.
 *
 * - A policy's events share a partition (`EVENTS#POLICY#<policyId>`), sorted by event id, which
 *   sorts by time: the per-policy sequence. While an event waits to be fanned out it carries gsi2
 *   in the pending partition of its shard (the local runtime polls them; in AWS the stream carries it).
 * - gsi1 `EVENTS#ALL#<0-7>` and gsi3 `EVENTS#AGENCY#<agencyId>` list events by id for `list_events`.
 *   Every event of every move writes gsi1 and gsi2, so both are sharded by a hash of the policy id
 *   (a policy's events stay in one shard, in order) and read by merging the shards in event id
 *   order. Events written before the shards carry the unsharded partitions, which are read too.
 * - Subscriptions share one partition (a handful of records, read whole at each fan-out).
 * - A subscription's deliveries of one policy share a partition, sorted by event id: what
 *   ordered delivery walks, strongly consistent. gsi1 lists a subscription's deliveries;
 *   gsi2 holds the deliveries still to attempt, by when (an operator's sweep): every delivery
 *   is written there while pending, so it is sharded by a hash of the delivery's id like the
 *   event lists (entries written before the shards sit in the unsharded partition, read too).
 */
import { stableShard } from '../platform/shards.js';

/** Shards of the all-events list and of the pending list: 8,000 index writes a second between them. */
export const EVENT_LIST_SHARDS = 8;
const EVENTS_PENDING_PARTITION = 'EVENTS#pending';
const DELIVERIES_DUE_PARTITION = 'EVENTDELIVERIES#due';
const ALL_EVENTS_PARTITION = 'EVENTS#ALL';
const eventShard = (policyId: string) => stableShard(policyId, EVENT_LIST_SHARDS);
/** Every shard's partition, then the unsharded one events written before the shards carry. */
const partitionsOf = (base: string) => [...Array.from({ length: EVENT_LIST_SHARDS }, (_, shard) => `${base}#${shard}`), base];

export const policyEventsPartition = (policyId: string) => `EVENTS#POLICY#${policyId}`;
export const eventKey = (policyId: string, eventId: string) => ({ pk: policyEventsPartition(policyId), sk: `EVENT#${eventId}` });
export const eventListIndexes = (policyId: string, eventId: string, agencyId: string | null) => ({
  gsi1pk: `${ALL_EVENTS_PARTITION}#${eventShard(policyId)}`,
  gsi1sk: eventId,
  ...(agencyId ? { gsi3pk: agencyEventsPartition(agencyId), gsi3sk: eventId } : {}),
});
export const agencyEventsPartition = (agencyId: string) => `EVENTS#AGENCY#${agencyId}`;
export const pendingEventIndex = (policyId: string, eventId: string) => ({ gsi2pk: `${EVENTS_PENDING_PARTITION}#${eventShard(policyId)}`, gsi2sk: eventId });

/** One query per shard of the all-events list (and the unsharded partition): merged by event id. */
export const allEventsQueries = (after: string | undefined) =>
  partitionsOf(ALL_EVENTS_PARTITION).map((partition) => ({
    IndexName: 'gsi1',
    KeyConditionExpression: after ? 'gsi1pk = :pk AND gsi1sk > :after' : 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': partition, ...(after ? { ':after': after } : {}) },
  }));
export const agencyEventsQuery = (agencyId: string, after: string | undefined) => ({
  IndexName: 'gsi3',
  KeyConditionExpression: after ? 'gsi3pk = :pk AND gsi3sk > :after' : 'gsi3pk = :pk',
  ExpressionAttributeValues: { ':pk': agencyEventsPartition(agencyId), ...(after ? { ':after': after } : {}) },
});
/** One query per shard of the pending list (and the unsharded partition): merged by event id. */
export const pendingEventsQueries = () =>
  partitionsOf(EVENTS_PENDING_PARTITION).map((partition) => ({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
  }));
/**
 * A policy's event `eventId` and the ones before it, newest first (consistent: the base table).
 * Events are fanned out oldest first, so the ones still waiting are the newest: the reader stops
 * at the first earlier one fanned out instead of reading the policy's whole history.
 */
export const eventAndEarlierNewestFirstQuery = (policyId: string, eventId: string) => ({
  KeyConditionExpression: 'pk = :pk AND sk <= :sk',
  ExpressionAttributeValues: { ':pk': policyEventsPartition(policyId), ':sk': `EVENT#${eventId}` },
  ScanIndexForward: false,
  ConsistentRead: true,
});
/** Whether an event item still waits to be fanned out (it carries the pending index). */
export const isPendingEventItem = (item: Record<string, unknown>) => item.gsi2pk !== undefined;

const SUBSCRIPTIONS_PARTITION = 'EVENTSUBSCRIPTIONS';
export const subscriptionKey = (subscriptionId: string) => ({ pk: SUBSCRIPTIONS_PARTITION, sk: `SUB#${subscriptionId}` });
export const subscriptionsQuery = () => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
  ExpressionAttributeValues: { ':pk': SUBSCRIPTIONS_PARTITION, ':sub': 'SUB#' },
  ConsistentRead: true,
});

const deliveriesPartition = (subscriptionId: string, policyId: string) => `EVENTSUB#${subscriptionId}#POLICY#${policyId}`;
export const deliveryKey = (subscriptionId: string, policyId: string, eventId: string) => ({ pk: deliveriesPartition(subscriptionId, policyId), sk: `DELIVERY#${eventId}` });
export const subscriptionDeliveriesIndex = (subscriptionId: string, eventId: string, policyId: string) => ({ gsi1pk: `EVENTSUB#${subscriptionId}#DELIVERIES`, gsi1sk: `${eventId}#${policyId}` });
export const dueDeliveryIndex = (nextAttemptAt: string, deliveryId: string) => ({ gsi2pk: `${DELIVERIES_DUE_PARTITION}#${stableShard(deliveryId, EVENT_LIST_SHARDS)}`, gsi2sk: `${nextAttemptAt}#${deliveryId}` });
/** A subscription's deliveries of one policy not yet delivered nor failed, in the policy's order. */
/** Open deliveries of the partition, or only those from `fromEventId` on (a walk reading again what came after its first read). */
export const openDeliveriesQuery = (subscriptionId: string, policyId: string, fromEventId?: string) => ({
  KeyConditionExpression: fromEventId ? 'pk = :pk AND sk BETWEEN :from AND :to' : 'pk = :pk AND begins_with(sk, :delivery)',
  FilterExpression: '#status = :pending',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: {
    ':pk': deliveriesPartition(subscriptionId, policyId),
    ...(fromEventId ? { ':from': `DELIVERY#${fromEventId}`, ':to': 'DELIVERY#~' } : { ':delivery': 'DELIVERY#' }),
    ':pending': 'pending',
  },
  ConsistentRead: true,
});
export const subscriptionDeliveriesQuery = (subscriptionId: string, after: string | undefined) => ({
  IndexName: 'gsi1',
  KeyConditionExpression: after ? 'gsi1pk = :pk AND gsi1sk > :after' : 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': `EVENTSUB#${subscriptionId}#DELIVERIES`, ...(after ? { ':after': after } : {}) },
});
/** Deliveries due by `until`, soonest first: one query a shard (and the unsharded partition), merged by the reader. */
export const dueDeliveriesQueries = (until: string) =>
  partitionsOf(DELIVERIES_DUE_PARTITION).map((partition) => ({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :until',
    ExpressionAttributeValues: { ':pk': partition, ':until': `${until}#~` },
  }));
