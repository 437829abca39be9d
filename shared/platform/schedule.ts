/**
 * A scheduled job's handler, as `defineConsumer` is a queue consumer's: its EventBridge
 * expression (UTC) and what its role is granted travel with the handler, where the CDK app
 * (infra/workers.ts) reads them; the job itself is one function of the scheduled event (or of
 * the event a run by hand gives it, `{ date }`, `{ printDate }`).
 */
import type { ResourceAccess } from './operation.js';

export interface ScheduleDefinition<Event, Result> {
  /** `cron(...)` or `rate(...)`, evaluated in UTC. */
  schedule: string;
  resources: ResourceAccess;
  run: (event: Event) => Promise<Result>;
}

export type ScheduledHandler<Event, Result> = ((event?: Event) => Promise<Result>) & { scheduled: { schedule: string; resources: ResourceAccess } };

export function defineSchedule<Event extends object, Result>(definition: ScheduleDefinition<Event, Result>): ScheduledHandler<Event, Result> {
  const handler = (event?: Event) => definition.run(event ?? ({} as Event));
  return Object.assign(handler, { scheduled: { schedule: definition.schedule, resources: definition.resources } });
}
