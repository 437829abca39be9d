/** Asking the registered contributions of a move for their writes. */
import type { TransactionWrite } from '../platform/transactions.js';
import type { Contribution, MoveEvents, MoveName, MoveWiring } from './model.js';

/** The writes every contribution registered for `move` answers to its event, in the order registered. */
export async function contributedWrites<Move extends MoveName>(wiring: Pick<MoveWiring, 'contributions'>, move: Move, event: MoveEvents[Move]): Promise<TransactionWrite[]> {
  const contributions = wiring.contributions[move] as ReadonlyArray<Contribution<MoveEvents[Move]>>;
  return (await Promise.all(contributions.map((contribute) => contribute(event)))).flat();
}
