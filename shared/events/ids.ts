/**
 * Ids of the events area. An event id sorts by time (12 hex digits of epoch milliseconds, a
 * counter for events of one millisecond in this process, random digits), so a policy's events
 * sort in the order they were written: the per-policy sequence. A delivery id names its
 * subscription, policy and event, so a delivery is found from its id alone.
 */
import { randomBytes } from 'node:crypto';
import { clock } from '../platform/clock.js';

let lastMillis = 0;
let counter = 0;

export function newEventId(at: Date = clock.now()): string {
  const millis = Math.max(at.getTime(), lastMillis);
  counter = millis === lastMillis ? counter + 1 : 0;
  lastMillis = millis;
  return `evt_${millis.toString(16).padStart(12, '0')}${counter.toString(16).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
}

/** The smallest event id at or after an instant: a lower bound for ids of events since then. */
export const eventIdFloor = (at: Date): string => `evt_${at.getTime().toString(16).padStart(12, '0')}`;

export const newSubscriptionId = (): string => `sub_${randomBytes(12).toString('hex')}`;

export const EVENT_ID_PATTERN = /^evt_[0-9a-f]{24}$/;
export const SUBSCRIPTION_ID_PATTERN = /^sub_[0-9a-f]{24}$/;
const POLICY_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export const deliveryIdOf = (subscriptionId: string, policyId: string, eventId: string) => `dlv.${subscriptionId}.${policyId}.${eventId}`;

export function partsOfDeliveryId(deliveryId: string): { subscriptionId: string; policyId: string; eventId: string } | undefined {
  const [prefix, subscriptionId, policyId, eventId, ...rest] = deliveryId.split('.');
  if (prefix !== 'dlv' || rest.length > 0 || !subscriptionId || !policyId || !eventId) return undefined;
  if (!SUBSCRIPTION_ID_PATTERN.test(subscriptionId) || !POLICY_ID_PATTERN.test(policyId) || !EVENT_ID_PATTERN.test(eventId)) return undefined;
  return { subscriptionId, policyId, eventId };
}
