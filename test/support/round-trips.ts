/**
 * Counts a call's sequential round trips to DynamoDB, S3 and SQS: a middleware on every client
 * the service creates (shared/platform/clients.ts onClientCreated) notes each request as it
 * starts and ends. A request's round is one more than the latest round of the requests that had
 * ended when it started (the first requests are round 1): requests in flight together (started
 * with Promise.all) share a round, and a chain of requests each waiting for the last counts one
 * round a link, whatever runs beside it. The count is the call's deepest round: what it waits for
 * one after another. It depends on what the code waits for, not on the machine's load or speed
 * (a request started after an unrelated one happened to end is counted as waiting for it: an
 * upper bound), which is what makes it a goal that tests can hold.
 */
import type { ServiceClient } from '../../shared/platform/clients.js';

/** One round: the requests of that depth, as `Service.Command` (a retried request once). */
export type Round = string[];

export interface RoundTripMeter {
  /** Starts counting afresh (the rounds of the previous count are dropped). */
  start(): void;
  /** Stops counting and answers the rounds since start(), in order. */
  stop(): Round[];
  /** The middleware's hook: give it to onClientCreated. */
  attach(client: ServiceClient): void;
  /** How long each request of the last count took, in ms (for the bench's floors; no test holds a timing). */
  durations(): Array<{ request: string; ms: number }>;
}

type Stack = { add: (middleware: unknown, options: { step: string; name: string }) => void };

/** What a request reads or writes, named by its partitions' prefixes (`POLICY`, `APIKEY`), for the rounds' description. */
function partitionsOf(input: Record<string, any>): string {
  const prefix = (value: unknown) => (typeof value === 'string' ? value.split('#')[0] : typeof value === 'object' && value && 'S' in value ? String((value as { S: unknown }).S).split('#')[0] : '?');
  if (input.TransactItems) return `${input.TransactItems.length} items`;
  if (input.RequestItems) {
    const keys = Object.values(input.RequestItems as Record<string, { Keys?: Array<{ pk: unknown }> } | unknown[]>).flatMap((entry) => (Array.isArray(entry) ? [] : (entry.Keys ?? [])));
    return [...new Set(keys.map((key) => prefix(key.pk)))].join(',');
  }
  if (input.Key) return prefix(input.Key.pk);
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  const partition = values?.[':pk'] ?? (values ? Object.values(values)[0] : undefined);
  return `${input.IndexName ? `${input.IndexName}:` : ''}${prefix(partition)}`;
}

export function roundTripMeter(options: { detail?: boolean } = {}): RoundTripMeter {
  let counting = false;
  /** The latest round among the requests that have ended. */
  let ended = 0;
  let rounds: Round[] = [];
  let durations: Array<{ request: string; ms: number }> = [];
  const attached = new WeakSet<object>();
  return {
    durations: () => durations,
    start() {
      rounds = [];
      durations = [];
      ended = 0;
      counting = true;
    },
    stop() {
      counting = false;
      return rounds;
    },
    attach(client) {
      if (attached.has(client)) return;
      attached.add(client);
      const service = client.constructor.name.replace(/Client$/, '');
      (client.middlewareStack as unknown as Stack).add(
        (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
          if (!counting) return next(args);
          const round = ended + 1;
          while (rounds.length < round) rounds.push([]);
          const name = `${service}.${String(context.commandName ?? 'unknown').replace(/Command$/, '')}`;
          rounds[round - 1].push(options.detail && service === 'DynamoDB' ? `${name}(${partitionsOf((args as { input: Record<string, any> }).input)})` : name);
          const started = performance.now();
          try {
            return await next(args);
          } finally {
            ended = Math.max(ended, round);
            durations.push({ request: name, ms: performance.now() - started });
          }
        },
        // initialize: once a call, around its retries, so a retried request is one request of its round.
        { step: 'initialize', name: 'roundTripMeter' },
      );
    },
  };
}

/** The rounds as one line: `DynamoDB.GetItem | DynamoDB.GetItem + DynamoDB.Query | DynamoDB.TransactWriteItems`. */
export function describeRounds(rounds: readonly Round[]): string {
  return rounds.map((round) => round.join(' + ')).join(' | ');
}
