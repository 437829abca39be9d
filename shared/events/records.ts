/**
 * The events area's stored records, declared once (shared/platform/records.ts). Only the area's
 * store imports this module.
 *
 * - A policy's events share a partition, sorted by event id, which sorts by time: the per-policy
 *   sequence. While an event waits to be fanned out it carries gsi2 in the pending partition of its
 *   shard (the local runtime polls them; in AWS the stream carries it).
 * - gsi1 (every event) and gsi3 (an agency's) list events by id for `list_events`. Every event of
 *   every move writes gsi1 and gsi2, so both are sharded by a hash of the policy id (a policy's events
 *   stay in one shard, in order) and read by merging the shards in event id order. Events written
 *   before the shards carry the unsharded partitions, which are read too (the legacy declarations).
 * - Subscriptions share one partition (a handful of records, read whole at each fan-out).
 * - A subscription's deliveries of one policy share a partition, sorted by event id: what ordered
 *   delivery walks, strongly consistent. gsi1 lists a subscription's deliveries; gsi2 holds the
 *   deliveries still to attempt, by when (an operator's sweep), sharded by a hash of the delivery's id
 *   like the event lists (entries written before the shards sit in the unsharded partition, read too).
 */
import { defineRecord } from '../platform/records.js';
import { stableShard } from '../platform/shards.js';
import type { Delivery, PolicyEvent, Subscription } from './model.js';

/** Shards of the all-events list, the pending list and the due deliveries: 8,000 index writes a second between them. */
export const EVENT_LIST_SHARDS = 8;

const shardOf = (id: unknown) => (id === undefined ? undefined : stableShard(String(id), EVENT_LIST_SHARDS));

/** An event as stored: with `eventKey` (`<policyId>/<eventId>`), what the stream's message carries. */
export type StoredPolicyEvent = PolicyEvent & { eventKey?: string };

/**
 * The outbox: type, occurredAt, policyId, policyNumber, agencyId, transactionId, data, `eventKey` (`<policyId>/<eventId>`, what the
 * stream's message carries), publishedAt once fanned out. Listed on gsi1 (every event) and gsi3 (when the policy has an agency), and on
 * gsi2 until fanned out; `shard` is a hash of the policy id, 0 to 7. Written by the producer's own transaction (`attribute_not_exists(pk)`).
 */
export const policyEventRecord = /* @__PURE__ */ defineRecord<StoredPolicyEvent>({
  entity: 'PolicyEvent',
  key: { pk: 'EVENTS#POLICY#${policyId}', sk: 'EVENT#${eventId}' },
  indexes: {
    gsi1: { pk: 'EVENTS#ALL#${shard}', sk: '${eventId}' },
    gsi2: { pk: 'EVENTS#pending#${shard}', sk: '${eventId}' },
    gsi3: { pk: 'EVENTS#AGENCY#${agencyId}', sk: '${eventId}' },
  },
  computed: { shard: ({ policyId }) => shardOf(policyId) },
});

/** An event written before the lists were sharded, on their unsharded partitions: read, never written so. */
export const legacyPolicyEventRecord = /* @__PURE__ */ defineRecord<StoredPolicyEvent>({
  entity: 'PolicyEvent',
  key: { pk: 'EVENTS#POLICY#${policyId}', sk: 'EVENT#${eventId}' },
  indexes: { gsi1: { pk: 'EVENTS#ALL', sk: '${eventId}' }, gsi2: { pk: 'EVENTS#pending', sk: '${eventId}' } },
});

/**
 * A webhook subscription: url, eventTypes (patterns), description, agencyId (null: every agency), active, createdBy, `secrets` (`whsec_`
 * secrets sealed with context `EventSubscription#<id>`; a rotated one carries `validUntil`, 24 h), version.
 */
export const subscriptionRecord = /* @__PURE__ */ defineRecord<Subscription>({
  entity: 'EventSubscription',
  key: { pk: 'EVENTSUBSCRIPTIONS', sk: 'SUB#${subscriptionId}' },
});

/**
 * One event for one subscription: the event's wire payload, status (`pending`, `delivered`, `failed`), attempts (at, statusCode,
 * durationMs, responseExcerpt; the last 40), attemptsInRound, nextAttemptAt, leaseUntil while a worker sends it (written with the
 * delivery: the walk that wrote it sends it first), `walkAgain` once another walk knocked on it while it was held (gone with the next
 * write), version. Its delivery id is not stored (it names the subscription, policy and event the item holds: kept, it took a delivery
 * past 1 KB). On gsi2 only while pending, in the shard (`dueShard`, 0 to 7) of a hash of its id.
 */
export const deliveryRecord = /* @__PURE__ */ defineRecord<Omit<Delivery, 'deliveryId'>>({
  entity: 'EventDelivery',
  key: { pk: 'EVENTSUB#${subscriptionId}#POLICY#${policyId}', sk: 'DELIVERY#${eventId}' },
  indexes: {
    gsi1: { pk: 'EVENTSUB#${subscriptionId}#DELIVERIES', sk: '${eventId}#${policyId}' },
    gsi2: { pk: 'EVENTDELIVERIES#due#${dueShard}', sk: '${nextAttemptAt}#${deliveryId}' },
  },
  computed: { dueShard: ({ status, deliveryId }) => (status === 'pending' ? shardOf(deliveryId) : undefined) },
});

/** A delivery due before the due list was sharded, on its unsharded partition: read, never written so. */
export const legacyDeliveryRecord = /* @__PURE__ */ defineRecord<Omit<Delivery, 'deliveryId'>>({
  entity: 'EventDelivery',
  key: { pk: 'EVENTSUB#${subscriptionId}#POLICY#${policyId}', sk: 'DELIVERY#${eventId}' },
  indexes: { gsi2: { pk: 'EVENTDELIVERIES#due', sk: '${nextAttemptAt}#${deliveryId}' } },
});

/** Every declaration of the area, for docs/data-model.md. */
export const EVENTS_RECORDS = [policyEventRecord, legacyPolicyEventRecord, subscriptionRecord, deliveryRecord, legacyDeliveryRecord] as const;
