/**
 * The subscriptions' operations (functions/v2/events/*): who may manage which subscription,
 * the checks on what is asked, and the wire forms. Administrators manage every subscription;
 * a caller with an agency scope manages its agency's subscriptions, which receive that agency's
 * policies' events only. A subscription outside the caller's reach answers as if it did not exist.
 */
import { BusinessRuleError, PermissionDeniedError, ValidationError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { seal } from '../platform/sealing.js';
import { attempt, deliverInOrder } from './delivery.js';
import { eventIdFloor, newEventId, newSubscriptionId, partsOfDeliveryId, SUBSCRIPTION_ID_PATTERN } from './ids.js';
import { DeliveryNotFoundError, SubscriptionNotFoundError, wireEvent, type Delivery, type DeliveryStatus, type Subscription, type WireEvent } from './model.js';
import { matchesAny, namesSomeEvent } from './patterns.js';
import { allowsHttpLocalhost } from './settings.js';
import { isReachableSubscriberHost } from './subscriber-addresses.js';
import { newSigningSecret } from './signing.js';
import {
  allSubscriptions,
  deleteSubscription,
  eventsAfter,
  getDelivery,
  getSubscription,
  putNewSubscription,
  replaceDelivery,
  replaceSubscription,
  subscriptionDeliveries,
} from './store.js';
import { clock } from '../platform/clock.js';

/**
 * The permission the events operations ask: Administrators hold every permission, and an
 * agency's key `policies:read`; reachOf below then refuses every other caller (403).
 */
export const EVENTS_PERMISSION = 'policies:read';

/** How long a rotated secret still signs deliveries beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
const PAGE = 100;

type Reach = { all: true } | { all: false; agencyIds: string[] };

function reachOf(principal: Principal): Reach {
  if (principal.isAdministrator) return { all: true };
  if (principal.scope === 'agency' && principal.agencyIds.length > 0) return { all: false, agencyIds: principal.agencyIds };
  throw new PermissionDeniedError();
}

const reaches = (reach: Reach, subscription: Subscription) => reach.all || (subscription.agencyId !== null && reach.agencyIds.includes(subscription.agencyId));

async function subscriptionWithinReach(principal: Principal, subscriptionId: string): Promise<Subscription> {
  const reach = reachOf(principal);
  const found = SUBSCRIPTION_ID_PATTERN.test(subscriptionId) ? await getSubscription(subscriptionId) : undefined;
  if (!found || !reaches(reach, found)) throw new SubscriptionNotFoundError(subscriptionId);
  return found;
}

/** A subscriber's URL: HTTPS to a public host, or http to this machine where the setting allows it (locally). */
export function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(['url: must be an absolute URL']);
  }
  if (parsed.username || parsed.password) throw new ValidationError(['url: must not carry credentials']);
  if (!isReachableSubscriberHost(parsed.hostname)) throw new ValidationError(['url: must name a public host, not a private, loopback or link-local address']);
  if (parsed.protocol === 'https:') return parsed.toString();
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'http:' && local && allowsHttpLocalhost()) return parsed.toString();
  throw new ValidationError([allowsHttpLocalhost() ? 'url: must be https (or http to localhost)' : 'url: must be https']);
}

function checkedTypes(patterns: readonly string[]): string[] {
  if (patterns.length === 0) throw new ValidationError(['event_types: must name at least one event type or pattern']);
  patterns.forEach((pattern, index) => {
    if (!namesSomeEvent(pattern)) throw new ValidationError([`event_types[${index}]: ${JSON.stringify(pattern.slice(0, 40))} names no event (policy.issued, policy.*, *)`]);
  });
  return [...new Set(patterns)];
}

export interface SubscriptionWire {
  subscription_id: string;
  url: string;
  event_types: string[];
  description: string;
  agency_id: string | null;
  active: boolean;
  created_at: string;
  updated_at: string;
}

const subscriptionWire = (subscription: Subscription): SubscriptionWire => ({
  subscription_id: subscription.subscriptionId,
  url: subscription.url,
  event_types: subscription.eventTypes,
  description: subscription.description,
  agency_id: subscription.agencyId,
  active: subscription.active,
  created_at: subscription.createdAt,
  updated_at: subscription.updatedAt,
});

const sealedSecret = (subscriptionId: string, secret: string, createdAt: string) => ({ sealed: seal(secret, `EventSubscription#${subscriptionId}`), createdAt });

export async function createSubscription(
  principal: Principal,
  request: { url: string; eventTypes: string[]; description?: string; agencyId?: string },
  now = clock.now(),
): Promise<SubscriptionWire & { secret: string }> {
  const reach = reachOf(principal);
  let agencyId: string | null = request.agencyId ?? null;
  if (!reach.all) {
    agencyId = request.agencyId ?? reach.agencyIds[0];
    if (!reach.agencyIds.includes(agencyId)) throw new ValidationError(['agency_id: must be an agency of the caller']);
  }
  const url = checkedUrl(request.url);
  const eventTypes = checkedTypes(request.eventTypes);
  const subscriptionId = newSubscriptionId();
  const secret = newSigningSecret();
  const at = now.toISOString();
  const subscription: Subscription = {
    subscriptionId, url, eventTypes, description: request.description ?? '', agencyId, active: true,
    createdBy: principal.contactId, createdAt: at, updatedAt: at, secrets: [sealedSecret(subscriptionId, secret, at)], version: 1,
  };
  await putNewSubscription(subscription);
  return { ...subscriptionWire(subscription), secret };
}

export async function listSubscriptions(principal: Principal): Promise<SubscriptionWire[]> {
  const reach = reachOf(principal);
  return (await allSubscriptions()).filter((subscription) => reaches(reach, subscription)).map(subscriptionWire);
}

export async function updateSubscription(
  principal: Principal,
  request: { subscriptionId: string; url?: string; eventTypes?: string[]; description?: string; active?: boolean },
  now = clock.now(),
): Promise<SubscriptionWire> {
  const found = await subscriptionWithinReach(principal, request.subscriptionId);
  const updated: Subscription = {
    ...found,
    ...(request.url !== undefined ? { url: checkedUrl(request.url) } : {}),
    ...(request.eventTypes !== undefined ? { eventTypes: checkedTypes(request.eventTypes) } : {}),
    ...(request.description !== undefined ? { description: request.description } : {}),
    ...(request.active !== undefined ? { active: request.active } : {}),
    updatedAt: now.toISOString(),
    version: found.version + 1,
  };
  await replaceSubscription(updated);
  return subscriptionWire(updated);
}

export async function removeSubscription(principal: Principal, subscriptionId: string): Promise<{ subscription_id: string }> {
  await subscriptionWithinReach(principal, subscriptionId);
  await deleteSubscription(subscriptionId);
  return { subscription_id: subscriptionId };
}

/** A new secret, answered once; the previous one keeps signing beside it for 24 hours. */
export async function rotateSecret(principal: Principal, subscriptionId: string, now = clock.now()): Promise<{ subscription_id: string; secret: string; previous_valid_until: string }> {
  const found = await subscriptionWithinReach(principal, subscriptionId);
  const at = now.toISOString();
  const previousValidUntil = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const secret = newSigningSecret();
  const kept = found.secrets
    .filter((old) => !old.validUntil || old.validUntil > at)
    .map((old) => ({ ...old, validUntil: old.validUntil && old.validUntil < previousValidUntil ? old.validUntil : previousValidUntil }));
  await replaceSubscription({ ...found, secrets: [sealedSecret(subscriptionId, secret, at), ...kept], updatedAt: at, version: found.version + 1 });
  return { subscription_id: subscriptionId, secret, previous_valid_until: previousValidUntil };
}

export interface AttemptWire {
  at: string;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string;
}

/** Sends a signed `ping` to the subscriber now and answers what came back (not kept as a delivery). */
export async function pingSubscription(principal: Principal, subscriptionId: string, now = clock.now()): Promise<{ event: WireEvent | Record<string, unknown>; attempt: AttemptWire; delivered: boolean }> {
  const found = await subscriptionWithinReach(principal, subscriptionId);
  const id = newEventId(now);
  const event = { id, type: 'ping', occurred_at: now.toISOString(), data: { subscription_id: subscriptionId } };
  const attempted = await attempt(found, id, JSON.stringify(event), { now: () => now });
  const wire = attemptWire(attempted);
  return { event, attempt: wire, delivered: wire.status_code !== null && wire.status_code >= 200 && wire.status_code < 300 };
}

const attemptWire = (attempted: Delivery['attempts'][number]): AttemptWire => ({
  at: attempted.at,
  status_code: attempted.statusCode ?? null,
  duration_ms: attempted.durationMs,
  response_excerpt: attempted.responseExcerpt,
});

export interface DeliveryWire {
  delivery_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  policy_id: string;
  status: DeliveryStatus;
  created_at: string;
  delivered_at: string | null;
  failed_at: string | null;
  next_attempt_at: string | null;
  attempts: AttemptWire[];
}

const deliveryWire = (delivery: Delivery): DeliveryWire => ({
  delivery_id: delivery.deliveryId,
  subscription_id: delivery.subscriptionId,
  event_id: delivery.eventId,
  event_type: delivery.eventType,
  policy_id: delivery.policyId,
  status: delivery.status,
  created_at: delivery.createdAt,
  delivered_at: delivery.deliveredAt ?? null,
  failed_at: delivery.failedAt ?? null,
  next_attempt_at: delivery.nextAttemptAt,
  attempts: delivery.attempts.map(attemptWire),
});

/** Every delivery of a subscription after the cursor, oldest event first, with every attempt. */
export async function listDeliveries(principal: Principal, request: { subscriptionId: string; status?: DeliveryStatus; after?: string }): Promise<{ deliveries: DeliveryWire[]; next_cursor: string | null }> {
  const found = await subscriptionWithinReach(principal, request.subscriptionId);
  const page = await subscriptionDeliveries(found.subscriptionId, request.after, (delivery) => !request.status || delivery.status === request.status, PAGE);
  return { deliveries: page.deliveries.map(deliveryWire), next_cursor: page.cursor };
}

/** Queued again from the start of the retry schedule, and attempted now (in its policy's order). */
async function requeue(delivery: Delivery, now: Date): Promise<boolean> {
  const { failedAt: _failed, deliveredAt: _delivered, leaseUntil: _lease, ...rest } = delivery;
  return replaceDelivery({ ...rest, status: 'pending', attemptsInRound: 0, nextAttemptAt: now.toISOString(), version: delivery.version + 1 });
}

export async function redeliver(principal: Principal, deliveryId: string, now = clock.now()): Promise<DeliveryWire> {
  const parts = partsOfDeliveryId(deliveryId);
  if (!parts) throw new DeliveryNotFoundError(deliveryId);
  const subscription = await subscriptionWithinReach(principal, parts.subscriptionId).catch(() => {
    throw new DeliveryNotFoundError(deliveryId);
  });
  const delivery = await getDelivery(parts.subscriptionId, parts.policyId, parts.eventId);
  if (!delivery) throw new DeliveryNotFoundError(deliveryId);
  if (delivery.status === 'pending') {
    // Still being retried (the integrator fixed the endpoint): sent now, in its policy's order; a
    // success ends its retries, a failure leaves its retry schedule as it was.
    await deliverInOrder(subscription, parts.policyId, {}, { sendNowThrough: delivery.deliveryId });
  } else {
    if (!(await requeue(delivery, now))) throw new BusinessRuleError(`Delivery ${deliveryId} changed meanwhile; ask again`);
    await deliverInOrder(subscription, parts.policyId);
  }
  return deliveryWire((await getDelivery(parts.subscriptionId, parts.policyId, parts.eventId))!);
}

/** Every failed delivery of a subscription (of events since `since`) queued again and attempted. */
export async function redeliverFailed(principal: Principal, request: { subscriptionId: string; since?: Date }, now = clock.now()): Promise<{ requeued: number }> {
  const subscription = await subscriptionWithinReach(principal, request.subscriptionId);
  const after = request.since ? eventIdFloor(request.since) : undefined;
  const failed: Delivery[] = [];
  let cursor: string | undefined = after;
  for (;;) {
    const page = await subscriptionDeliveries(subscription.subscriptionId, cursor, (delivery) => delivery.status === 'failed', 1000);
    failed.push(...page.deliveries);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  let requeued = 0;
  for (const delivery of failed) if (await requeue(delivery, now)) requeued += 1;
  const policies = [...new Set(failed.map((delivery) => delivery.policyId))];
  for (const policyId of policies) await deliverInOrder(subscription, policyId);
  return { requeued };
}

/** The pull stream: events after the cursor (an event id), oldest first, of the caller's reach. */
export async function listEvents(principal: Principal, request: { after?: string; types?: string[] }): Promise<{ events: WireEvent[]; next_cursor: string | null }> {
  const reach = reachOf(principal);
  const types = request.types?.length ? checkedTypes(request.types) : undefined;
  const events = await eventsAfter({ agencyIds: reach.all ? 'all' : reach.agencyIds }, request.after, (event) => !types || matchesAny(types, event.type), PAGE);
  return { events: events.map(wireEvent), next_cursor: events.length ? events[events.length - 1].eventId : (request.after ?? null) };
}
