/**
 * Makes a race happen on purpose: the first `parties` writes of one kind wait for each
 * other before any is sent, so every request that reaches its write has read the same
 * state before any of them changes it. Works on the service under test because the
 * local server runs its handlers in the test's own process, on the same DynamoDB client.
 */
import { randomUUID } from 'node:crypto';
import { documentClient } from '../../shared/platform/clients.js';

export interface WriteBarrier {
  /** How many writes have reached the barrier. */
  arrived(): number;
  remove(): void;
}

export function holdWritesUntilAllArrive(parties: number, commandName = 'TransactWriteItemsCommand'): WriteBarrier {
  const stack = documentClient().middlewareStack;
  const name = `write-barrier-${randomUUID()}`;
  let arrived = 0;
  let openBarrier!: () => void;
  const allArrived = new Promise<void>((resolve) => (openBarrier = resolve));
  stack.add(
    (next, context) => async (args) => {
      if (context.commandName === commandName && arrived < parties) {
        arrived += 1;
        if (arrived === parties) openBarrier();
        await allArrived;
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { arrived: () => arrived, remove: () => stack.remove(name) };
}

/**
 * The worst case of many writers on one record, every round: the writes of one kind are held
 * until every writer still writing has arrived (or none has arrived for `quietMs`), then sent
 * together, so that each round every writer has read the same state. A writer whose write
 * succeeded, or that gave up, is not waited for again.
 */
export function holdEveryRoundOfWrites(writers: number, commandName = 'TransactWriteItemsCommand', quietMs = 1500): WriteBarrier {
  const stack = documentClient().middlewareStack;
  const name = `round-barrier-${randomUUID()}`;
  let written = 0;
  let arrived = 0;
  let waiting: Array<() => void> = [];
  let quiet: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(quiet);
    const released = waiting;
    waiting = [];
    for (const go of released) go();
  };
  stack.add(
    (next, context) => async (args) => {
      if (context.commandName !== commandName) return next(args);
      arrived += 1;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        clearTimeout(quiet);
        if (waiting.length >= writers - written) release();
        else quiet = setTimeout(release, quietMs);
      });
      const result = await next(args);
      written += 1;
      return result;
    },
    { step: 'initialize', name },
  );
  return { arrived: () => arrived, remove: () => { clearTimeout(quiet); release(); stack.remove(name); } };
}
