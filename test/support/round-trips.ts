/**
 * Counts a call's sequential round trips to DynamoDB, S3 and SQS: a middleware on every client
 * the service creates (shared/platform/clients.ts onClientCreated) notes each request as it
 * starts and ends. A round begins when a request starts while none is in flight; requests that
 * overlap in flight (started together with Promise.all, or one started while another waits) are
 * one round, as the caller waits for them once. The count does not depend on the machine's load
 * or speed, only on what the code waits for, which is what makes it a goal that tests can hold.
 */
import type { ServiceClient } from '../../shared/platform/clients.js';

/** One round: the requests that were in flight together, as `Service.Command` (a retried request once). */
export type Round = string[];

export interface RoundTripMeter {
  /** Starts counting afresh (the rounds of the previous count are dropped). */
  start(): void;
  /** Stops counting and answers the rounds since start(), in order. */
  stop(): Round[];
  /** The middleware's hook: give it to onClientCreated. */
  attach(client: ServiceClient): void;
}

type Stack = { add: (middleware: unknown, options: { step: string; name: string }) => void };

export function roundTripMeter(): RoundTripMeter {
  let counting = false;
  let inFlight = 0;
  let rounds: Round[] = [];
  const attached = new WeakSet<object>();
  return {
    start() {
      rounds = [];
      inFlight = 0;
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
          if (inFlight === 0) rounds.push([]);
          rounds[rounds.length - 1].push(`${service}.${String(context.commandName ?? 'unknown').replace(/Command$/, '')}`);
          inFlight += 1;
          try {
            return await next(args);
          } finally {
            inFlight -= 1;
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
