/**
 * How apply_lockbox_payment_transactions hands a large file to lockbox-runs.ts. Starting a run
 * stores the file in the bucket and queues its chunks: the S3 and SQS clients, about 150 KiB a
 * function would otherwise parse at every cold start, for the few mornings whose file is large.
 * So lockbox-runs is loaded by the first large file only (a module of its own beside the bundle).
 */
import { createHash, randomUUID } from 'node:crypto';
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import type { LockboxRun } from './lockbox-runs.js';

/** Files up to this many lines are applied within the call (the bench: 1,000 lines in 7-12 s of the call's 29). */
export const LOCKBOX_SYNC_LINES = 1000;

const asUuid = (hash: string) => `${hash.slice(0, 8)}-${hash.slice(8, 12)}-4${hash.slice(13, 16)}-8${hash.slice(17, 20)}-${hash.slice(20, 32)}`;

/**
 * The id of a file: sent with an Idempotency-Key, the same key starts (and answers) the same run;
 * without one, the same lines from the same sender are the same file, so a file sent again is
 * answered as it was the first time (its lines' answers are kept by this id), never judged again.
 */
export function lockboxFileId(sentBy: string, idempotencyKey?: string, transactions?: readonly unknown[]): string {
  if (idempotencyKey) return asUuid(createHash('sha256').update(`${sentBy}\u0000lockbox\u0000${idempotencyKey}`).digest('hex'));
  if (!transactions) return randomUUID();
  return asUuid(createHash('sha256').update(`${sentBy}\u0000lockbox-file\u0000`).update(JSON.stringify(transactions)).digest('hex'));
}

const lockboxRuns = /* @__PURE__ */ moduleOnFirstUse<typeof import('./lockbox-runs.js')>(new URL('./lockbox-runs.mjs', import.meta.url), new URL('./lockbox-runs.ts', import.meta.url));

/** Accepts a large file: stored, its run recorded, its chunks queued (lockbox-runs.ts startLockboxRun). */
export async function startLargeLockboxFile(transactions: readonly unknown[], sentBy: string, idempotencyKey?: string): Promise<LockboxRun> {
  return (await lockboxRuns()).startLockboxRun(transactions, sentBy, lockboxFileId(sentBy, idempotencyKey, transactions));
}
