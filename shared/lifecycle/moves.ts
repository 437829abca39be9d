/**
 * Binding a move to the wiring: `wired(wiring, cancelPolicy)` is the cancel move with the
 * contributions and reads registered once (shared/moves.ts). Entry files and the nightly job
 * call wired moves, never a move with a list of their own.
 */
import type { MoveWiring } from './model.js';

/** A move as its callers see it: its own arguments, the wiring already given. */
export type Wired<Move> = Move extends (wiring: MoveWiring, ...args: infer Args) => infer Result ? (...args: Args) => Result : never;

export function wired<Args extends unknown[], Result>(wiring: MoveWiring, move: (wiring: MoveWiring, ...args: Args) => Result): (...args: Args) => Result {
  return (...args: Args) => move(wiring, ...args);
}
