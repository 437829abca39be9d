/**
 * The messages of the print-batches queue: one shard of a print date's run to put into mailing
 * batches (what the nightly planner fans out), or a whole print date (a run by hand, or a
 * message sent before the fan-out).
 */
import * as z from 'zod/mini';
import { parseDate } from '../platform/dates.js';
import { builtOnFirstUse } from '../platform/request-fields.js';
import { PRINT_SHARDS } from './print-shards.js';

export interface PrintRunRequest {
  printDate: string;
}

export class InvalidPrintRunRequestError extends Error {
  constructor() {
    super('A print-batches message must be {"printDate": "YYYY-MM-DD"}');
    this.name = 'InvalidPrintRunRequestError';
  }
}

/** One shard of run `run` of a print date (print-runs.ts planPrintRun). */
export interface PrintShardRequest extends PrintRunRequest {
  run: number;
  shard: number;
}

/** The consumer's schema: a date, and a run's shard when the planner fanned it out (built on first use). */
export const printRunMessage = builtOnFirstUse(() => z.object({
  printDate: z.string().check(z.refine((value) => parseDate(value) === value, 'must be a date YYYY-MM-DD')),
  run: z.optional(z.int().check(z.positive())),
  shard: z.optional(z.int().check(z.nonnegative(), z.lt(PRINT_SHARDS))),
}));

export function printRunRequest(body: string): PrintRunRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new InvalidPrintRunRequestError();
  }
  const printDate = (parsed as { printDate?: unknown } | null)?.printDate;
  if (typeof printDate !== 'string' || parseDate(printDate) !== printDate) throw new InvalidPrintRunRequestError();
  return { printDate };
}
