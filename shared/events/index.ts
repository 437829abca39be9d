/**
 * The events area's public face. Producers of money moves, documents and signatures add an
 * outbox item to their own transaction with `eventOf`; a policy's moves are joined by the
 * events area's own contributions (joins-moves.ts, listed in shared/moves/); entry files call the
 * service; the delivery step is for the queue consumer and the retry schedule.
 */
export { amountOf, eventOf } from './outbox.js';
export { EVENT_TYPES, type EventType, type PolicyEventInput } from './model.js';
export { publishEvent, publishEventInTurn, runScheduledRetry } from './delivery.js';
export { cursor, eventTypePatterns, instant, subscriberUrl, subscriptionId } from './fields.js';
export { EVENTS_PERMISSION, createSubscription, listDeliveries, listEvents, listSubscriptions, pingSubscription, redeliver, redeliverFailed, removeSubscription, rotateSecret, updateSubscription } from './service.js';
