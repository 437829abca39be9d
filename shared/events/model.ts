/**
 * What the events area keeps: the outbox item a move or money move writes in its own
 * transaction (a policy event), an integrator's subscription, and one delivery of an event to
 * one subscription with every attempt. Plain data and the area's errors.
 */
import { BusinessRuleError } from '../platform/errors.js';

/** Every event the service emits, as integrators subscribe to them. */
export const EVENT_TYPES = [
  'policy.quoted',
  'policy.bound',
  'policy.issued',
  'policy.endorsed',
  'policy.renewed',
  'policy.non_renewed',
  'policy.expired',
  'policy.cancellation_pending',
  'policy.cancelled',
  /** A pending cancellation withdrawn (the nightly job found the balance paid in time). */
  'policy.cancellation_rescinded',
  'policy.reinstated',
  /** A policy rewritten (rewrite_policy): the old term cancelled Rewritten, the new term in its place. */
  'policy.rewritten',
  'payment.posted',
  'payment.reversed',
  'invoice.created',
  'deliverable.created',
  'deliverable.printed',
  'signature.completed',
  /** A binding moratorium declared or lifted (shared/moratoriums): its id stands where a policy's would, its number is empty. */
  'moratorium.declared',
  'moratorium.lifted',
  /** A claim's moves (shared/claims): the policy's id and number stand for the claim's policy, the transaction is the claim. */
  'claim.reported',
  'claim.updated',
  'claim.closed',
  'claim.reopened',
  'claim.deadline_breached',
  /** A claim's money (part two): a reserve set, a payment waiting approval, issued or voided, a recovery received. */
  'claim.reserve_changed',
  'claim.payment_pending_approval',
  'claim.payment_issued',
  'claim.payment_voided',
  'claim.recovery_received',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Events about the carrier's whole book, not one agency's policy: every subscription matching the type receives them, an agency's too. */
export const CARRIER_WIDE_EVENT_TYPES: ReadonlySet<EventType> = new Set(['moratorium.declared', 'moratorium.lifted']);

/** What a producer says happened; the events area adds the id and the outbox's bookkeeping. */
export interface PolicyEventInput {
  type: EventType;
  policyId: string;
  policyNumber: string;
  /** The agency owning the policy: an agency's subscription receives its own policies' events only. */
  agencyId?: string | null;
  /** The record the move wrote (a revision, a payment, an invoice, a deliverable). */
  transactionId: string;
  /** When it happened (the move's decision instant); default now. */
  occurredAt?: string;
  /** The few fields a consumer needs: ids, dates, amounts as numbers with two decimals. */
  data?: Record<string, unknown>;
}

/** An event as stored in the outbox and as delivered (the wire form is `wireEvent`). */
export interface PolicyEvent {
  eventId: string;
  type: EventType;
  occurredAt: string;
  policyId: string;
  policyNumber: string;
  agencyId: string | null;
  transactionId: string;
  data: Record<string, unknown>;
  /** When the delivery step fanned it out to the subscriptions (absent while pending). */
  publishedAt?: string;
}

/** The thin payload integrators receive and `list_events` answers. */
export interface WireEvent {
  id: string;
  type: EventType;
  occurred_at: string;
  policy_id: string;
  policy_number: string;
  transaction_id: string;
  data: Record<string, unknown>;
}

export const wireEvent = (event: PolicyEvent): WireEvent => ({
  id: event.eventId,
  type: event.type,
  occurred_at: event.occurredAt,
  policy_id: event.policyId,
  policy_number: event.policyNumber,
  transaction_id: event.transactionId,
  data: event.data,
});

/** A signing secret, sealed at rest; a rotated one stays valid until `validUntil`. */
export interface SealedSecret {
  sealed: string;
  createdAt: string;
  validUntil?: string;
}

export interface Subscription {
  subscriptionId: string;
  url: string;
  /** Exact types or patterns (`policy.*`, `*`). */
  eventTypes: string[];
  description: string;
  /** null: every agency's events (an Administrator's subscription); else that agency's only. */
  agencyId: string | null;
  active: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  secrets: SealedSecret[];
  version: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  at: string;
  /** The subscriber's HTTP status; absent when none came (refused, timed out). */
  statusCode?: number;
  durationMs: number;
  /** The first characters of the answer, or what went wrong reaching it. */
  responseExcerpt: string;
}

export interface Delivery {
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: EventType;
  policyId: string;
  event: WireEvent;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Attempts since it was last (re)queued: what the retry schedule counts. */
  attemptsInRound: number;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt?: string;
  failedAt?: string;
  /** A worker is sending it until then; another worker leaves it alone. */
  leaseUntil?: string;
  version: number;
}

export class SubscriptionNotFoundError extends BusinessRuleError {
  constructor(subscriptionId: string) {
    super(`Subscription ${subscriptionId.slice(0, 60)} was not found`);
    this.name = 'SubscriptionNotFoundError';
  }
}

export class DeliveryNotFoundError extends BusinessRuleError {
  constructor(deliveryId: string) {
    super(`Delivery ${deliveryId.slice(0, 120)} was not found`);
    this.name = 'DeliveryNotFoundError';
  }
}
