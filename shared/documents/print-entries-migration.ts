/**
 * The one-time move of the print queue from the layout before print entries (every printable
 * file record indexed whole on gsi3 `PRINTABLE`, and on gsi2 `PRINTQUEUE#tbd` while waiting) to
 * the print entries of keys.ts. Run at local start and by the nightly print planner (in AWS:
 * invoke the nightly print function once after deploying, docs/deploy.md); it walks the old
 * index once, then records that it is done, so later runs cost one read; the planner gives it
 * ten of its fifteen minutes, and a history larger than that goes on at the next run. Each file moves in
 * one transaction on the condition that its record is still as read, so a file marked or
 * deleted meanwhile by the code before the change is taken again as it now is.
 */
import { mapLimited } from '../platform/concurrency.js';
import { documentsMigrationDone, legacyPrintableFiles, markDocumentsMigrationDone, moveFileToPrintEntries } from './store.js';

export const PRINT_ENTRIES_MIGRATION = 'print-entries-v1';
const FILES_AT_ONCE = 16;
/** Walks of the old index: a file changed while it was being moved is found again by the next walk. */
const MAX_WALKS = 5;

export interface PrintEntriesMigrationOptions {
  /** Walk even if recorded done (tests). */
  evenIfDone?: boolean;
  /** Start no page after this instant (epoch ms): a run of a large history goes on at the next call. */
  stopAt?: number;
}

/** Moves what is still on the old index; answers how many files it moved (0 once done) and whether none is left. */
export async function movePrintQueueToEntries(options: PrintEntriesMigrationOptions = {}): Promise<{ moved: number; done: boolean }> {
  if (!options.evenIfDone && (await documentsMigrationDone(PRINT_ENTRIES_MIGRATION))) return { moved: 0, done: true };
  let moved = 0;
  for (let walk = 0; walk < MAX_WALKS; walk += 1) {
    let left = 0;
    for await (const files of legacyPrintableFiles()) {
      if (options.stopAt !== undefined && Date.now() >= options.stopAt) return { moved, done: false };
      const results = await mapLimited(files, FILES_AT_ONCE, (file) => moveFileToPrintEntries(file, file.waiting));
      moved += results.filter(Boolean).length;
      left += results.filter((result) => !result).length;
    }
    if (left === 0) {
      await markDocumentsMigrationDone(PRINT_ENTRIES_MIGRATION, { moved });
      return { moved, done: true };
    }
  }
  // Files kept changing under the walk: not marked done, so the next run takes them.
  return { moved, done: false };
}
