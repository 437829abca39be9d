/**
 * Queue consumers and scheduled jobs, derived from the events/ tree by convention so that
 * adding one is adding a file:
 *
 *   events/queues/<queue-name>/<consumer>.ts   export const handler (an SQS handler that
 *                                              reports partial batch failures); wired to the
 *                                              queue with its batch size (shared/platform/
 *                                              queues.ts) and reportBatchItemFailures
 *   events/schedules/<job>.ts                  export const handler = defineSchedule({ schedule:
 *                                              'cron(0 5 * * ? *)', resources, run }) (an
 *                                              EventBridge cron or rate expression, UTC)
 *
 * A consumer is `export const handler = defineConsumer({ queue, message, resources, ... })`
 * (shared/platform/consumer.ts), a job `defineSchedule` (shared/platform/schedule.ts); a hand-written handler may
 * `export const resources: ResourceAccess` (as an operation declares it) to say what its role is granted; without it a worker gets `{ table: 'write' }` and nothing
 * else. A consumer can always receive and delete from its own queue. Helpers belong in
 * shared/: every .ts file in these folders is deployed as a function.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ResourceAccess } from '../shared/platform/operation.js';
import { CONSUMER_TIMEOUT_SECONDS, isQueueName, QUEUE_NAMES, type QueueName } from '../shared/platform/queues.js';
import { importModule, validateResources } from './operations.js';

export const EVENTS_DIR = fileURLToPath(new URL('../events', import.meta.url));

export const DEFAULT_WORKER_RESOURCES: ResourceAccess = { table: 'write' };

/** Timeout of a queue consumer; the queues' visibility timeout (shared/platform/queues.ts) is six times this. */
export const CONSUMER_TIMEOUT = Duration.seconds(CONSUMER_TIMEOUT_SECONDS);
/** Timeout of a scheduled job (Lambda's maximum). */
export const JOB_TIMEOUT = Duration.minutes(15);

export interface QueueConsumerSpec {
  queue: QueueName;
  name: string;
  entry: string;
  /** Stable identifier usable in resource names: `signature-events-record_event`. */
  id: string;
  resources: ResourceAccess;
  /** Its handler is traced (defineConsumer's `tracing`): active X-Ray tracing on. */
  traced: boolean;
}

export interface ScheduledJobSpec {
  name: string;
  entry: string;
  id: string;
  /** `cron(...)` or `rate(...)`, evaluated in UTC. */
  schedule: string;
  resources: ResourceAccess;
}

const isSourceFile = (name: string) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts');

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && isSourceFile(entry.name))
    .map((entry) => entry.name)
    .sort();
}

async function loadWorker(entry: string, where: string): Promise<{ resources: ResourceAccess; module: Record<string, unknown> }> {
  const module = await importModule(entry);
  if (typeof module.handler !== 'function') throw new Error(`${where} must export a \`handler\` function`);
  // A consumer written with defineConsumer (shared/platform/consumer.ts), or a job with defineSchedule, carries its own declaration.
  const made = module.handler as { consumer?: { resources?: unknown }; scheduled?: { resources?: unknown } };
  const declared = module.resources ?? made.consumer?.resources ?? made.scheduled?.resources;
  const resources = declared === undefined ? DEFAULT_WORKER_RESOURCES : validateResources(declared, where);
  return { resources, module };
}

/** Consumers under `<eventsDir>/queues/<queue-name>/`. */
export async function loadQueueConsumers(eventsDir = EVENTS_DIR): Promise<QueueConsumerSpec[]> {
  const queuesDir = join(eventsDir, 'queues');
  if (!existsSync(queuesDir)) return [];
  const consumers: QueueConsumerSpec[] = [];
  for (const entry of readdirSync(queuesDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(queuesDir, entry.name);
    if (!entry.isDirectory()) {
      if (entry.isFile() && isSourceFile(entry.name)) {
        throw new Error(`events/queues/${entry.name} is not at events/queues/<queue-name>/<consumer>.ts`);
      }
      continue;
    }
    if (!isQueueName(entry.name)) {
      throw new Error(`events/queues/${entry.name}/ names no queue (known: ${QUEUE_NAMES.join(', ')})`);
    }
    const queue = entry.name as QueueName;
    for (const file of sourceFiles(full)) {
      const name = file.slice(0, -'.ts'.length);
      const path = join(full, file);
      const where = `events/${relative(eventsDir, path)}`;
      const { resources, module } = await loadWorker(path, where);
      const declaredQueue = (module.handler as { consumer?: { queue?: string } }).consumer?.queue;
      if (declaredQueue !== undefined && declaredQueue !== queue) throw new Error(`${where} consumes ${declaredQueue}; its folder says ${queue}`);
      const traced = (module.handler as { consumer?: { traced?: boolean } }).consumer?.traced === true;
      consumers.push({ queue, name, entry: path, id: `${queue}-${name}`, resources, traced });
    }
  }
  return consumers;
}

const SCHEDULE_EXPRESSION = /^(cron|rate)\(.+\)$/;

/** Jobs under `<eventsDir>/schedules/`. */
export async function loadScheduledJobs(eventsDir = EVENTS_DIR): Promise<ScheduledJobSpec[]> {
  const schedulesDir = join(eventsDir, 'schedules');
  const jobs: ScheduledJobSpec[] = [];
  for (const file of sourceFiles(schedulesDir)) {
    const name = file.slice(0, -'.ts'.length);
    const path = join(schedulesDir, file);
    const where = `events/schedules/${file}`;
    const { resources, module } = await loadWorker(path, where);
    const schedule = module.schedule ?? (module.handler as { scheduled?: { schedule?: unknown } }).scheduled?.schedule;
    if (typeof schedule !== 'string' || !SCHEDULE_EXPRESSION.test(schedule.trim())) {
      throw new Error(`${where} must export \`schedule\` (a handler made with defineSchedule carries it): an EventBridge expression such as 'cron(0 5 * * ? *)' or 'rate(1 day)'`);
    }
    jobs.push({ name, entry: path, id: `schedule-${name}`, schedule: schedule.trim(), resources });
  }
  return jobs;
}
