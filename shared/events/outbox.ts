/**
 * How producers record what happened: one outbox item written in the producer's own
 * transaction (the move's, the money move's), so an event exists exactly when its writes do.
 */
import type { TransactionWrite } from '../platform/transactions.js';
import { newEventId } from './ids.js';
import type { PolicyEvent, PolicyEventInput } from './model.js';
import { policyEventPut } from './store.js';
import { clock } from '../platform/clock.js';

/** The event a producer records, given its facts: the events area builds the outbox item, as one write of the producer's own transaction. */
export function eventOf(input: PolicyEventInput): TransactionWrite {
  const occurredAt = input.occurredAt ?? clock.now().toISOString();
  const event: PolicyEvent = {
    eventId: newEventId(),
    type: input.type,
    occurredAt,
    policyId: input.policyId,
    policyNumber: input.policyNumber,
    agencyId: input.agencyId ?? null,
    transactionId: input.transactionId,
    data: input.data ?? {},
  };
  return policyEventPut(event);
}

/** Cents as the wire's number with two decimals. */
export const amountOf = (cents: number): number => Math.round(cents) / 100;
