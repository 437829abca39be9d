/** The request fields of the events operations, on the house vocabulary. */
import * as z from 'zod/mini';
import { boundedString, list } from '../platform/request-fields.js';

export const subscriberUrl = () => boundedString(2048, { nonEmpty: true, typeMessage: 'must be the https URL, on a public host, that receives the events' }).check(z.meta({ examples: ['https://example.com/webhooks/insurance'] }));
export const eventTypePatterns = () =>
  list(boundedString(60, { nonEmpty: true }), 40).check(z.minLength(1, 'must name at least one event type or pattern'), z.meta({ examples: [['policy.issued', 'payment.*']] }));
export const subscriptionId = () => boundedString(40, { nonEmpty: true, typeMessage: 'must be a subscription_id from create or list' }).check(z.meta({ examples: ['sub_0123456789abcdef01234567'] }));
export const cursor = () => boundedString(200, { nonEmpty: true });
/** An ISO date (midnight UTC) or instant. */
export const instant = () =>
  z.pipe(
    boundedString(40, { nonEmpty: true }).check(z.refine((value) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && !Number.isNaN(Date.parse(value)), 'must be an ISO date or instant')),
    z.transform((value: string) => new Date(value)),
  );
