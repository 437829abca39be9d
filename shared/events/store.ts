/**
 * The events area's records (records.ts): the outbox item a producer's transaction carries, the
 * subscriptions, and the deliveries. The only code that knows the area's keys.
 */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { deleteItem, getItem, isConditionalCheckFailure, putItem, queryAll, queryPages, type QueryInput } from '../platform/dynamo.js';
import { ConcurrentChangeError } from '../platform/errors.js';
import { narrowed } from '../platform/records.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { deliveryRecord, EVENT_LIST_SHARDS, legacyDeliveryRecord, legacyPolicyEventRecord, policyEventRecord, subscriptionRecord } from './records.js';
import { deliveryIdOf } from './ids.js';
import type { Delivery, PolicyEvent, Subscription } from './model.js';

export const POLICY_EVENT_ENTITY = policyEventRecord.declaration.entity;
const table = () => config.tableName();

/** One query per shard of a sharded list, then one of the unsharded partition records written before the shards carry. */
function everyShard(sharded: (shard: number) => QueryInput, unsharded: QueryInput): QueryInput[] {
  return [...Array.from({ length: EVENT_LIST_SHARDS }, (_, shard) => sharded(shard)), unsharded];
}

/** Whether an event item still waits to be fanned out (it carries the pending index, gsi2). */
const isPendingEventItem = (item: Record<string, unknown>) => item.gsi2pk !== undefined;

/** Sort keys after the cursor, when there is one. */
const afterCursor = (cursor: string | undefined, attribute: string) => (cursor ? { sort: { gt: { [attribute]: cursor } } } : {});

/** `<policyId>/<eventId>`: what the stream's message carries (the pipe copies this attribute). */
export const eventKeyOf = (event: Pick<PolicyEvent, 'policyId' | 'eventId'>) => `${event.policyId}/${event.eventId}`;

// ---------------------------------------------------------------- outbox

/** The outbox item, as one write of the producer's transaction. */
export function policyEventPut(event: PolicyEvent): TransactionWrite {
  return policyEventRecord.create({ eventKey: eventKeyOf(event), ...event });
}

const asEvent = (item: Record<string, unknown>) => {
  const { eventKey: _key, ...rest } = policyEventRecord.parse(item);
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
  // Consistent (the base table): the event and the ones before it, newest first.
  const query = policyEventRecord.query({ policyId }, { sort: { lte: { eventId } }, newestFirst: true, consistent: true });
  for await (const page of queryPages({ ...query, Limit: 10 })) {
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
    everyShard((shard) => policyEventRecord.query({ shard }, { index: 'gsi2' }), legacyPolicyEventRecord.query({}, { index: 'gsi2' })).map(async (query) => {
      const pending: PolicyEvent[] = [];
      for await (const page of queryPages({ ...query, Limit: limit })) {
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
        Key: policyEventRecord.key(event),
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
export async function eventsAfter(scope: { agencyIds: readonly string[] | 'all' }, cursor: string | undefined, accept: (event: PolicyEvent) => boolean, limit: number): Promise<PolicyEvent[]> {
  // Each list (a shard, or an agency's) answers its first `limit` after the cursor; merged, the first `limit` of all.
  const queries =
    scope.agencyIds === 'all'
      ? everyShard((shard) => policyEventRecord.query({ shard }, { index: 'gsi1', ...afterCursor(cursor, 'eventId') }), legacyPolicyEventRecord.query({}, { index: 'gsi1', ...afterCursor(cursor, 'eventId') }))
      : scope.agencyIds.map((agencyId) => policyEventRecord.query({ agencyId }, { index: 'gsi3', ...afterCursor(cursor, 'eventId') }));
  const lists = await Promise.all(
    queries.map(async (query) => {
      const found: PolicyEvent[] = [];
      // Pages of `limit`: nine lists are read for a page, none of them past what could be answered.
      for await (const page of queryPages({ ...query, Limit: Math.max(limit, 1) })) {
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

export async function putNewSubscription(subscription: Subscription): Promise<void> {
  await putItem(subscriptionRecord.create(subscription));
}

/** Replaces a subscription read at `subscription.version - 1`; a concurrent change is refused. */
export async function replaceSubscription(subscription: Subscription): Promise<void> {
  try {
    await putItem(subscriptionRecord.replace(subscription, subscription.version - 1));
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConcurrentChangeError(`Subscription ${subscription.subscriptionId}`);
    throw error;
  }
}

export async function getSubscription(subscriptionId: string): Promise<Subscription | undefined> {
  const item = await getItem(subscriptionRecord.key({ subscriptionId }));
  return item ? subscriptionRecord.parse(item) : undefined;
}

export async function allSubscriptions(): Promise<Subscription[]> {
  return (await queryAll(subscriptionRecord.query({}, { consistent: true }))).map(subscriptionRecord.parse);
}

export async function deleteSubscription(subscriptionId: string): Promise<void> {
  await deleteItem(subscriptionRecord.remove({ subscriptionId }));
}

// ---------------------------------------------------------------- deliveries

/**
 * A delivery's item. Its id is not stored: it names the subscription, policy and event the item
 * holds already (deliveryIdOf), and its hundred bytes took a delivery of a policy's event past
 * 1 KB, doubling every write of it and of its index entries.
 */
function deliveryItem(delivery: Delivery) {
  const { deliveryId, ...stored } = delivery;
  return deliveryRecord.item(stored, { deliveryId });
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
  const { [WALK_AGAIN]: knock, ...stored } = deliveryRecord.parse(item) as Omit<Delivery, 'deliveryId'> & { [WALK_AGAIN]?: boolean };
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
        Key: deliveryRecord.key(delivery),
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
  const item = await getItem(deliveryRecord.key({ subscriptionId, policyId, eventId }));
  return item ? asDelivery(item) : undefined;
}

/** A subscription's deliveries of one policy still to make, in the policy's order (from `fromEventId`'s on, when given). */
export async function openDeliveries(subscriptionId: string, policyId: string, fromEventId?: string): Promise<Delivery[]> {
  const query = narrowed(deliveryRecord.query({ subscriptionId, policyId }, { ...(fromEventId ? { sort: { between: [{ eventId: fromEventId }, { eventId: '~' }] } } : {}), consistent: true }), {
    filter: { expression: '#status = :pending', names: { '#status': 'status' }, values: { ':pending': 'pending' } },
  });
  return (await queryAll(query)).map(asDelivery);
}

/** One page of a subscription's deliveries after the cursor (`<eventId>#<policyId>`), oldest first. */
export async function subscriptionDeliveries(subscriptionId: string, after: string | undefined, accept: (delivery: Delivery) => boolean, limit: number): Promise<{ deliveries: Delivery[]; cursor: string | null }> {
  const deliveries: Delivery[] = [];
  let cursor: string | null = null;
  // The cursor is a listing's sort key, `<eventId>#<policyId>`.
  const split = after?.indexOf('#') ?? -1;
  const from = after === undefined ? undefined : split < 0 ? { eventId: after } : { eventId: after.slice(0, split), policyId: after.slice(split + 1) };
  for await (const page of queryPages(deliveryRecord.query({ subscriptionId }, { index: 'gsi1', ...(from ? { sort: { gt: from } } : {}) }))) {
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
  const upTo = { sort: { lte: { nextAttemptAt: until, deliveryId: '~' } } };
  const queries = everyShard((dueShard) => deliveryRecord.query({ dueShard }, { index: 'gsi2', ...upTo }), legacyDeliveryRecord.query({}, { index: 'gsi2', ...upTo }));
  const shards = await Promise.all(queries.map((query) => documentClient().send(new QueryCommand({ ...query, TableName: table(), Limit: limit }))));
  const due = shards.flatMap((result) => result.Items ?? []).sort((a, b) => (String(a.gsi2sk) < String(b.gsi2sk) ? -1 : 1));
  return due.slice(0, limit).map(asDelivery);
}
