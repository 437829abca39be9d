/**
 * The events area's records (keys.ts): the outbox item a producer's transaction carries, the
 * subscriptions, and the deliveries. The only code that knows the area's keys.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryAll, queryPages } from '../platform/dynamo.js';
import { ConcurrentChangeError } from '../platform/errors.js';
import { withoutStorageKeys, type TransactionWrite } from '../platform/transactions.js';
import {
  agencyEventsQuery,
  allEventsQueries,
  deliveryKey,
  dueDeliveriesQueries,
  dueDeliveryIndex,
  eventAndEarlierNewestFirstQuery,
  eventKey,
  eventListIndexes,
  isPendingEventItem,
  openDeliveriesQuery,
  pendingEventIndex,
  pendingEventsQueries,
  subscriptionDeliveriesIndex,
  subscriptionDeliveriesQuery,
  subscriptionKey,
  subscriptionsQuery,
} from './keys.js';
import { deliveryIdOf } from './ids.js';
import type { Delivery, PolicyEvent, Subscription } from './model.js';

export const POLICY_EVENT_ENTITY = 'PolicyEvent';
const table = () => config.tableName();

/** `<policyId>/<eventId>`: what the stream's message carries (the pipe copies this attribute). */
export const eventKeyOf = (event: Pick<PolicyEvent, 'policyId' | 'eventId'>) => `${event.policyId}/${event.eventId}`;

// ---------------------------------------------------------------- outbox

/** The outbox item, as one write of the producer's transaction. */
export function policyEventPut(event: PolicyEvent): TransactionWrite {
  return {
    Put: {
      TableName: table(),
      Item: {
        ...eventKey(event.policyId, event.eventId),
        entity: POLICY_EVENT_ENTITY,
        eventKey: eventKeyOf(event),
        ...eventListIndexes(event.policyId, event.eventId, event.agencyId),
        ...pendingEventIndex(event.policyId, event.eventId),
        ...event,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

const asEvent = (item: Record<string, unknown>) => {
  const { eventKey: _key, ...rest } = withoutStorageKeys<PolicyEvent & { eventKey?: string }>(item);
  return rest as PolicyEvent;
};

/**
 * The event, and the policy's events before it not yet fanned out, oldest first: one read.
 * Read newest first, a small page at a time, up to the first earlier one fanned out: the events
 * before it were fanned out before it (publishEvent marks them oldest first), so the read costs
 * what is waiting, not the policy's history. An event committed later than a newer one was
 * fanned out is not found here; its own message fans it out.
 */
export async function eventAndEarlierPending(policyId: string, eventId: string): Promise<{ event: PolicyEvent | undefined; earlierPending: PolicyEvent[] }> {
  let event: PolicyEvent | undefined;
  const waiting: PolicyEvent[] = [];
  for await (const page of queryPages({ TableName: table(), ...eventAndEarlierNewestFirstQuery(policyId, eventId), Limit: 10 })) {
    for (const item of page.items) {
      if (item.eventId === eventId) {
        event = asEvent(item);
        continue;
      }
      if (!isPendingEventItem(item)) return { event, earlierPending: waiting.reverse() };
      waiting.push(asEvent(item));
    }
  }
  return { event, earlierPending: waiting.reverse() };
}

/** Events waiting to be fanned out, oldest first (what the local runtime polls): the oldest `limit` of every shard, merged. */
export async function pendingEvents(limit = 100): Promise<PolicyEvent[]> {
  const shards = await Promise.all(
    pendingEventsQueries().map(async (query) => {
      const pending: PolicyEvent[] = [];
      for await (const page of queryPages({ TableName: table(), ...query, Limit: limit })) {
        pending.push(...page.items.map(asEvent));
        if (pending.length >= limit) break;
      }
      return pending;
    }),
  );
  return shards.flat().sort((a, b) => (a.eventId < b.eventId ? -1 : 1)).slice(0, limit);
}

/** Takes a fanned-out event out of the pending index; marking it twice changes nothing. */
export async function markEventPublished(event: PolicyEvent, at: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: table(),
        Key: eventKey(event.policyId, event.eventId),
        UpdateExpression: 'SET publishedAt = :at REMOVE gsi2pk, gsi2sk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt)',
        ExpressionAttributeValues: { ':at': at },
      }),
    )
    .catch((error) => {
      if (!isConditionalCheckFailure(error)) throw error;
    });
}

/** One page of events after the cursor: every agency's, or those of the agencies named. */
export async function eventsAfter(scope: { agencyIds: readonly string[] | 'all' }, after: string | undefined, accept: (event: PolicyEvent) => boolean, limit: number): Promise<PolicyEvent[]> {
  // Each list (a shard, or an agency's) answers its first `limit` after the cursor; merged, the first `limit` of all.
  const queries = scope.agencyIds === 'all' ? allEventsQueries(after) : scope.agencyIds.map((agencyId) => agencyEventsQuery(agencyId, after));
  const lists = await Promise.all(
    queries.map(async (query) => {
      const found: PolicyEvent[] = [];
      // Pages of `limit`: nine lists are read for a page, none of them past what could be answered.
      for await (const page of queryPages({ TableName: table(), ...query, Limit: Math.max(limit, 1) })) {
        for (const item of page.items) {
          const event = asEvent(item);
          if (accept(event)) found.push(event);
        }
        if (found.length >= limit) break;
      }
      return found;
    }),
  );
  return lists.flat().sort((a, b) => (a.eventId < b.eventId ? -1 : 1)).slice(0, limit);
}

// ---------------------------------------------------------------- subscriptions

const asSubscription = (item: Record<string, unknown>) => withoutStorageKeys<Subscription>(item);

export async function putNewSubscription(subscription: Subscription): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: table(), Item: { ...subscriptionKey(subscription.subscriptionId), entity: 'EventSubscription', ...subscription }, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

/** Replaces a subscription read at `subscription.version - 1`; a concurrent change is refused. */
export async function replaceSubscription(subscription: Subscription): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...subscriptionKey(subscription.subscriptionId), entity: 'EventSubscription', ...subscription },
        ConditionExpression: 'attribute_exists(pk) AND version = :read',
        ExpressionAttributeValues: { ':read': subscription.version - 1 },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConcurrentChangeError(`Subscription ${subscription.subscriptionId}`);
    throw error;
  }
}

export async function getSubscription(subscriptionId: string): Promise<Subscription | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: table(), Key: subscriptionKey(subscriptionId), ConsistentRead: true }));
  return found.Item ? asSubscription(found.Item) : undefined;
}

export async function allSubscriptions(): Promise<Subscription[]> {
  return (await queryAll({ TableName: table(), ...subscriptionsQuery() })).map(asSubscription);
}

export async function deleteSubscription(subscriptionId: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: subscriptionKey(subscriptionId) }));
}

// ---------------------------------------------------------------- deliveries

/**
 * A delivery's item. Its id is not stored: it names the subscription, policy and event the item
 * holds already (deliveryIdOf), and its hundred bytes took a delivery of a policy's event past
 * 1 KB, doubling every write of it and of its index entries.
 */
function deliveryItem(delivery: Delivery) {
  const { deliveryId: _id, ...stored } = delivery;
  return {
    ...deliveryKey(delivery.subscriptionId, delivery.policyId, delivery.eventId),
    entity: 'EventDelivery',
    ...subscriptionDeliveriesIndex(delivery.subscriptionId, delivery.eventId, delivery.policyId),
    ...(delivery.status === 'pending' && delivery.nextAttemptAt ? dueDeliveryIndex(delivery.nextAttemptAt, delivery.deliveryId) : {}),
    ...stored,
  };
}

/**
 * A walk that stops behind a delivery another walk holds knocks on it (`walkAgain`): the holder
 * learns of it from the item its next write of that delivery replaces, and reads the policy's
 * open deliveries again once its own are settled. Not part of the delivery itself.
 */
const WALK_AGAIN = 'walkAgain';

/** Deliveries read already knocked on: knocking again at the same version would change nothing. */
const knockedWhenRead = new WeakSet<Delivery>();

const asDelivery = (item: Record<string, unknown>) => {
  const { [WALK_AGAIN]: knock, ...stored } = withoutStorageKeys<Delivery & { [WALK_AGAIN]?: boolean }>(item);
  // Items written before the id was left out carry it too: the same id.
  const delivery: Delivery = { ...stored, deliveryId: deliveryIdOf(stored.subscriptionId, stored.policyId, stored.eventId) };
  if (knock === true) knockedWhenRead.add(delivery);
  return delivery;
};

/** Creates a delivery unless one of that event to that subscription exists (a repeated fan-out). */
export async function putNewDelivery(delivery: Delivery): Promise<boolean> {
  try {
    await documentClient().send(new PutCommand({ TableName: table(), Item: deliveryItem(delivery), ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

/** Replaces a delivery read at `delivery.version - 1`; false when another worker changed it first. */
export async function replaceDelivery(delivery: Delivery): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({ TableName: table(), Item: deliveryItem(delivery), ConditionExpression: 'attribute_exists(pk) AND version = :read', ExpressionAttributeValues: { ':read': delivery.version - 1 } }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

/**
 * Replaces a delivery a walk read at `delivery.version - 1` (its lease, its outcome): `replaced`
 * false when another worker changed it first; `knocked` when another walk stopped behind it
 * meanwhile and left what follows to this one.
 */
export async function replaceWalkedDelivery(delivery: Delivery): Promise<{ replaced: boolean; knocked: boolean }> {
  try {
    const answer = await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: deliveryItem(delivery),
        ConditionExpression: 'attribute_exists(pk) AND version = :read',
        ExpressionAttributeValues: { ':read': delivery.version - 1 },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return { replaced: true, knocked: answer.Attributes?.[WALK_AGAIN] === true };
  } catch (error) {
    if (isConditionalCheckFailure(error)) return { replaced: false, knocked: false };
    throw error;
  }
}

/**
 * Knocks on a delivery another walk holds, as read at `delivery.version` (the knock leaves the
 * version as it is, so the holder's write still lands): false when it changed since (settled,
 * released or taken over), and the knocker must read again instead.
 */
export async function knockOnDelivery(delivery: Delivery): Promise<boolean> {
  // Knocked on already when read (a knock leaves the version as it is): its holder reads again
  // from that knock, and a second write would bill the item and its index entries for nothing.
  if (knockedWhenRead.has(delivery)) return true;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: deliveryKey(delivery.subscriptionId, delivery.policyId, delivery.eventId),
        UpdateExpression: 'SET #knock = :true',
        ConditionExpression: 'attribute_exists(pk) AND version = :read',
        ExpressionAttributeNames: { '#knock': WALK_AGAIN },
        ExpressionAttributeValues: { ':true': true, ':read': delivery.version },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

export async function getDelivery(subscriptionId: string, policyId: string, eventId: string): Promise<Delivery | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: table(), Key: deliveryKey(subscriptionId, policyId, eventId), ConsistentRead: true }));
  return found.Item ? asDelivery(found.Item) : undefined;
}

/** A subscription's deliveries of one policy still to make, in the policy's order (from `fromEventId`'s on, when given). */
export async function openDeliveries(subscriptionId: string, policyId: string, fromEventId?: string): Promise<Delivery[]> {
  return (await queryAll({ TableName: table(), ...openDeliveriesQuery(subscriptionId, policyId, fromEventId) })).map(asDelivery);
}

/** One page of a subscription's deliveries after the cursor (`<eventId>#<policyId>`), oldest first. */
export async function subscriptionDeliveries(subscriptionId: string, after: string | undefined, accept: (delivery: Delivery) => boolean, limit: number): Promise<{ deliveries: Delivery[]; cursor: string | null }> {
  const deliveries: Delivery[] = [];
  let cursor: string | null = null;
  for await (const page of queryPages({ TableName: table(), ...subscriptionDeliveriesQuery(subscriptionId, after) })) {
    for (const item of page.items) {
      cursor = item.gsi1sk as string;
      const delivery = asDelivery(item);
      if (accept(delivery)) deliveries.push(delivery);
      if (deliveries.length >= limit) return { deliveries, cursor };
    }
  }
  return { deliveries, cursor: null };
}

/** Deliveries due by `until`, soonest first: the soonest `limit` of every shard, merged. */
export async function dueDeliveries(until: string, limit = 500): Promise<Delivery[]> {
  const shards = await Promise.all(dueDeliveriesQueries(until).map((query) => documentClient().send(new QueryCommand({ TableName: table(), ...query, Limit: limit }))));
  const due = shards.flatMap((result) => result.Items ?? []).sort((a, b) => (String(a.gsi2sk) < String(b.gsi2sk) ? -1 : 1));
  return due.slice(0, limit).map(asDelivery);
}
