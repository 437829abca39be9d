/**
 * How billing dates and names the rows it posts: every row its own id, dated by the instant of
 * the request that posts it (rows posted together a millisecond apart, so they keep their order).
 */
import { randomUUID } from 'node:crypto';
import type { EntryContext } from './account-history.js';

/** The context of a new row: who posted it, the policy's status then, and when. */
export function entryContext(generatedBy: string, policyStatus: string, postedAt: string): EntryContext {
  return { id: randomUUID(), postedAt, generatedBy, policyStatus };
}

/** An instant `offsetMs` after `now`, so that rows posted together keep their order. */
export const instant = (now: Date, offsetMs = 0) => new Date(now.getTime() + offsetMs).toISOString();
