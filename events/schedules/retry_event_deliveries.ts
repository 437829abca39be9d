/**
 * The events' retry step, every minute: each delivery whose next attempt is due is attempted
 * again, each subscription's deliveries of a policy in order (shared/events/retry-schedule.ts
 * says when; after about 24 hours a delivery is kept as failed). Locally the event dispatcher
 * runs the same step at each poll.
 */
import type { ResourceAccess } from '../../shared/platform/operation.js';
import { retryDueDeliveries } from '../../shared/events/delivery.js';

export const schedule = 'rate(1 minute)';

export const resources: ResourceAccess = { table: 'write', secrets: ['data-key'] };

export async function handler(): Promise<{ attempted: number }> {
  return retryDueDeliveries();
}
