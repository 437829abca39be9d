/** What several bench scenarios do alike: one metered call as a row, and names to fill a table with. */
import type { BenchContext, BenchRow } from './types.js';

/**
 * A caller that makes one call, records its capacity and time as a row of `rows`, and answers
 * the envelope; a call that does not succeed stops the scenario (a figure of a failure means nothing).
 */
export function meteredCaller(context: BenchContext, rows: BenchRow[]) {
  return async (name: string, path: string, body: Record<string, unknown>) => {
    const call = await context.call(path, body);
    if (call.body?.success !== true) throw new Error(`${name} failed: ${JSON.stringify(call.body)}`);
    rows.push({ name: `${name} (one call)`, readUnits: call.readUnits, writeUnits: call.writeUnits, ms: Math.round(call.ms * 10) / 10 });
    return call.body;
  };
}

/** A surname from the letters a-p only (base 16), unique per index: "Baaaason", "Baaabson", ... */
export function benchSurname(index: number): string {
  let word = '';
  let rest = index;
  do {
    word = String.fromCharCode(97 + (rest % 16)) + word;
    rest = Math.floor(rest / 16);
  } while (rest > 0);
  return `B${word.padStart(4, 'a')}son`;
}
