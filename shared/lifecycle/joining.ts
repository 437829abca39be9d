/**
 * How an area joins a policy's move, the one way: a contribution is a function of the move's
 * facts (what the move decided, as plain data) that answers the area's part, its writes for the
 * move's ONE transaction and, where the move has a preview, what a preview shows of them. Each
 * move declares what it asks of the areas (its contribution lists and its reads) as a typed
 * wiring beside it (`IssueWiring` in issue.ts, `CancelWiring` in cancel.ts, ...); each area keeps
 * its contributions in its `joins-moves.ts`; one wiring module per move (shared/moves/) lists them.
 */
import type { TransactionWrite } from '../platform/transactions.js';

/** One area's part in a move: its writes (none when previewing) and, for a move with a preview, what the preview shows of them. */
export interface AreaPart {
  area: string;
  writes: TransactionWrite[];
  preview?: unknown;
}

/** Whether the move commits or only previews (preview_revision): a previewed part writes nothing. */
export interface JoinMode {
  preview: boolean;
}

export const COMMITTING: JoinMode = { preview: false };

/** One area's part in a move, a function of the move's facts. */
export type Contribution<Facts> = (facts: Facts, mode: JoinMode) => Promise<AreaPart>;

/**
 * The reads a move began for its parts, each once: what an area's part needs of the move's
 * subject (billing's account, the books' earning record, the commission terms) is begun by the
 * wiring's readAhead beside the move's own reads, and the part then takes it from here rather
 * than reading after the move decided. One per move (the facts carry it): nothing outlives it.
 */
export interface ReadsAhead {
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

export function readsAhead(): ReadsAhead {
  const begun = new Map<string, Promise<unknown>>();
  return {
    once<T>(key: string, read: () => Promise<T>): Promise<T> {
      let found = begun.get(key) as Promise<T> | undefined;
      if (!found) {
        found = read();
        // A move refused before its parts are asked leaves the read unawaited.
        found.catch(() => undefined);
        begun.set(key, found);
      }
      return found;
    },
  };
}

/** Every contribution of a list asked for its part, in the order listed. */
export function joinMove<Facts>(contributions: readonly Contribution<Facts>[], facts: Facts, mode: JoinMode = COMMITTING): Promise<AreaPart[]> {
  return Promise.all(contributions.map((contribute) => contribute(facts, mode)));
}

/** The writes of the parts, in order: what lands in the move's transaction. */
export function writesOf(parts: readonly AreaPart[]): TransactionWrite[] {
  return parts.flatMap((part) => part.writes);
}

/** What a preview shows, by area (an area showing nothing is left out). */
export function previewsOf(parts: readonly AreaPart[]): Record<string, unknown> {
  return Object.fromEntries(parts.filter((part) => part.preview !== undefined).map((part) => [part.area, part.preview]));
}

/** The writes of every contribution of a list, committing: what most moves ask. */
export async function joinedWrites<Facts>(contributions: readonly Contribution<Facts>[], facts: Facts): Promise<TransactionWrite[]> {
  return writesOf(await joinMove(contributions, facts));
}

/** A move as its callers see it: its own arguments, the wiring already given. */
export type Wired<Move> = Move extends (wiring: never, ...args: infer Args) => infer Result ? (...args: Args) => Result : never;

/**
 * Binding a move to its wiring: `wired(cancelWiring, cancelPolicy)` is the cancel move with its
 * contributions and reads listed once (shared/moves/cancel.ts). Entry files and the nightly jobs
 * call wired moves, never a move with a list of their own.
 */
export function wired<Wiring, Args extends unknown[], Result>(wiring: Wiring, move: (wiring: Wiring, ...args: Args) => Result): (...args: Args) => Result {
  return (...args: Args) => move(wiring, ...args);
}
