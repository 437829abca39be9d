/**
 * The events area's public face. Producers (moves, money moves, documents, signatures) add an
 * outbox item to their own transaction with `eventWrite`, or register `eventsAt(...)` for a
 * move in shared/moves.ts; entry files call the service; the delivery step is for the queue
 * consumer and the retry schedule.
 */
export { amountOf, eventsAt, eventWrite } from './outbox.js';
export { EVENT_TYPES, type EventType, type PolicyEventInput } from './model.js';
