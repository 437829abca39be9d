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
