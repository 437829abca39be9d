/**
 * The whole service on one machine: embedded stores, provisioned resources, the
 * reference product, an Administrator, the local API and the queue consumers.
 * `npm start` and the integration tests both run it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  applyLocalEnvironment,
  ensureAdministrator,
  newLocalResourceNames,
  provisionResources,
  sealStoredIdentifiers,
  backfillLockboxDues,
  seedReferenceProduct,
  type LocalResourceNames,
} from './bootstrap.js';
import { isQueueName, QUEUES, queueUrlVariable, type QueueName } from '../../shared/platform/queues.js';
import { movePrintQueueToEntries } from '../../shared/documents/print-entries-migration.js';
import { startEventDispatcher, startRequestDispatcher } from './pipe-dispatchers.js';
import { localRoutes } from './local-routes.js';
import { startQueuePoller } from './queue-poller.js';
import { startLocalApi } from './server.js';
import { freePort, startEmbeddedStores, type EmbeddedStores } from './stores.js';

export const EVENTS_DIR = fileURLToPath(new URL('../../events', import.meta.url));

export interface LocalServiceOptions {
  port?: number;
  /** Keep data here between runs; without it everything lives in memory. */
  dataDir?: string;
  /** Reuse already running stores (tests share one set per run). */
  stores?: EmbeddedStores;
  names?: LocalResourceNames;
  administratorApiKey: string;
  oauthClient?: { clientId: string; clientSecret: string };
  /**
   * Run the queue consumers of events/queues (default true), or only those of the queues
   * named; with any consumer the deliverable requests' dispatcher runs too (infra/local/pipe-dispatchers.ts, the local stand-in for the table's stream pipe), and with the events consumer the events' dispatcher (infra/local/pipe-dispatchers.ts).
   */
  consumers?: boolean | QueueName[];
  /** Where the queue consumers live (default events/). */
  eventsDir?: string;
  /** The database out of the terminal's process group (`npm start`: Ctrl-C stops the service, which stops the database last). */
  detachedDatabase?: boolean;
  /** How long an operation may run, as a function's timeout (default OPERATION_TIMEOUT_SECONDS): tests of load shorten it. */
  operationTimeoutSeconds?: number;
}

export interface LocalService {
  url: string;
  port: number;
  names: LocalResourceNames;
  administratorContactId: string;
  stop(): Promise<void>;
}

export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const ownStores = !options.stores;
  const stores = options.stores ?? (await startEmbeddedStores({ ...(options.dataDir ? { dataDir: join(options.dataDir, 'stores') } : {}), detachedDatabase: options.detachedDatabase ?? false }));
  const stoppers: Array<() => Promise<void>> = [];
  try {
    const port = options.port || (await freePort());
    const names = options.names ?? newLocalResourceNames('local');
    applyLocalEnvironment(stores, names, `http://localhost:${port}`);
    await provisionResources(names);
    await seedReferenceProduct();
    await sealStoredIdentifiers();
    await movePrintQueueToEntries();
    await backfillLockboxDues();
    const { contactId } = await ensureAdministrator({ apiKey: options.administratorApiKey, oauthClient: options.oauthClient });
    const whereTheKeyIs = options.dataDir
      ? `A local run's administrator key is in ${join(options.dataDir, 'admin-api-key')} (or is BOOTSTRAP_API_KEY, when that was set at start)`
      : "A local run's administrator key is in .data/admin-api-key; one started with --memory has the key it printed at start (or BOOTSTRAP_API_KEY, when that was set)";
    const api = await startLocalApi({ port, routes: await localRoutes({ eventsDir: options.eventsDir ?? EVENTS_DIR }), advice: { whereTheKeyIs }, ...(options.operationTimeoutSeconds ? { operationTimeoutSeconds: options.operationTimeoutSeconds } : {}) });
    stoppers.push(api.close);
    // Stopped in reverse: the consumers first, so that none is still polling stores already gone.
    if (ownStores) stoppers.push(stores.stop);
    /** The pipes and the queue pollers: told to stop all at once, so that none goes on polling while another winds down. */
    let workers: LocalWorkers | undefined;
    const stopPolling = () => workers?.stopPolling() ?? Promise.resolve();
    if (options.consumers !== false) {
      const only = Array.isArray(options.consumers) ? options.consumers : undefined;
      workers = await startLocalWorkers({ eventsDir: options.eventsDir, only });
      // Stopped in reverse: after every pipe and poller, their clients.
      stoppers.push(workers.close);
    }
    return {
      url: api.url,
      port: api.port,
      names,
      administratorContactId: contactId,
      // Quietly, in order: the API takes no new request, the pipes and the consumers stop polling, their clients close, then the stores stop.
      stop: async () => {
        // Every pipe and poller is told at once (none starts another call), before anything else stops.
        const polled = stopPolling();
        await api.close().catch(() => undefined);
        await polled;
        for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    if (ownStores) await stores.stop();
    throw error;
  }
}

/**
 * The queue consumers of events/queues (or those of the queues named) and the table's pipes
 * standing in for the stream: the deliverable requests' always, the events' when the events
 * consumer runs. Answers what stops them all.
 */
export interface LocalWorkers {
  /** Tells every pipe and poller to stop at once (none starts another call). */
  stopPolling(): Promise<void>;
  /** Stops them, then closes their clients. */
  close(): Promise<void>;
}

export async function startLocalWorkers(options: { eventsDir?: string; only?: readonly QueueName[] } = {}): Promise<LocalWorkers> {
  const { only } = options;
  const consumers = await startConsumers(options.eventsDir ?? EVENTS_DIR, only);
  const polling = [...consumers.pollers];
  const pipeClient = new SQSClient({});
  polling.push(startRequestDispatcher({ sqs: pipeClient }).stop);
  if (!only || only.includes('events')) polling.push(startEventDispatcher({ sqs: pipeClient }).stop);
  let stopped: Promise<void> | undefined;
  const stopPolling = () => (stopped ??= Promise.all(polling.map((stop) => stop().catch(() => undefined))).then(() => undefined));
  return {
    stopPolling,
    close: async () => {
      await stopPolling();
      pipeClient.destroy();
      await consumers.closeClient();
    },
  };
}

/**
 * Local pollers per consumer, where one would fall behind: Lambda runs a queue's batches
 * concurrently, the local poller one at a time. The events consumer waits on subscribers and
 * must keep up with every move of the service.
 */
const LOCAL_POLLERS: Partial<Record<QueueName, number>> = { events: 4, 'event-retries': 2 };

/**
 * events/queues/<queue-name>/<consumer>.ts consumes <queue-name>, driven by a poller
 * exactly as Lambda's event source mapping would drive it (batches, partial failures).
 */
async function startConsumers(eventsDir: string, only?: readonly QueueName[]): Promise<{ pollers: Array<() => Promise<void>>; closeClient(): Promise<void> }> {
  const queuesDir = join(eventsDir, 'queues');
  const stoppers: Array<() => Promise<void>> = [];
  if (!existsSync(queuesDir)) return { pollers: stoppers, closeClient: async () => undefined };
  const client = new SQSClient({});
  for (const queue of readdirSync(queuesDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    if (!isQueueName(queue.name)) throw new Error(`events/queues/${queue.name}/ names no queue of shared/platform/queues.ts`);
    if (only && !only.includes(queue.name)) continue;
    const envName = queueUrlVariable(queue.name);
    const queueUrl = process.env[envName];
    if (!queueUrl) throw new Error(`events/queues/${queue.name} has no queue: ${envName} is not set`);
    const attributes = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
    for (const file of readdirSync(join(queuesDir, queue.name)).filter((name) => name.endsWith('.ts'))) {
      const module = await import(pathToFileURL(join(queuesDir, queue.name, file)).href);
      for (let n = 0; n < (LOCAL_POLLERS[queue.name] ?? 1); n += 1) {
        const poller = startQueuePoller({
          client,
          queueUrl,
          queueArn: attributes.Attributes?.QueueArn,
          handler: module.handler,
          batchSize: QUEUES[queue.name].batchSize,
          // A long poll answers as soon as a message comes: the longest wait costs nothing while idle.
          waitTimeSeconds: 20,
          onError: (error) => console.error(`consumer events/queues/${queue.name}/${file} failed`, error),
        });
        stoppers.push(() => poller.stop());
      }
    }
  }
  return { pollers: stoppers, closeClient: async () => client.destroy() };
}
