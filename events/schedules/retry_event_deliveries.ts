/**
 * The events' retry step, every minute: each delivery whose next attempt is due is attempted
 * again, each subscription's deliveries of a policy in order (shared/events/retry-schedule.ts
 * says when; after about 24 hours a delivery is kept as failed). Locally the event dispatcher
 * runs the same step at each poll.
 */
import { retryDueDeliveries } from '../../shared/events/delivery.js';
import { defineSchedule } from '../../shared/platform/schedule.js';

export const handler = defineSchedule({
  schedule: 'rate(1 minute)',
  resources: { table: 'write', secrets: ['data-key'] },
  run: async (): Promise<{ attempted: number }> => retryDueDeliveries(),
});
