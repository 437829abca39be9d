/**
 * Lockbox files of any size. A file too large to apply within one call is accepted at once:
 * stored in S3, cut into chunks that keep all the lines of one lockbox number together (so each
 * chunk judges its lines exactly as one synchronous application would: the first of two equal
 * checks posts, the second is answered "already posted"), and the chunks are applied in parallel
 * from the `lockbox-chunks` queue. Each line's answer is written with its money (a success in the
 * posting's own transaction), so a chunk delivered twice or interrupted and delivered again
 * answers what it answered the first time and posts nothing twice. retrieve_lockbox_file_result
 * answers the lines in file order once every chunk is done.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import * as z from 'zod/mini';
import { builtOnFirstUse } from '../platform/request-fields.js';
import { s3Client } from '../platform/clients.js';
import { sendInBatches } from '../platform/queue-sends.js';
import { config } from '../platform/config.js';
import { NotFoundError } from '../platform/errors.js';
import { lockboxNumberOf } from './lockbox.js';
import { countLockboxChunkDone, getLockboxRun, keepLockboxRefusals, keptLockboxAnswers, lockboxAnswerPages, lockboxSuccessesWrite, putNewLockboxRun, type LockboxLineAnswer, type LockboxRun } from './store.js';

export { getLockboxRun, type LockboxRun } from './store.js';
import type { LockboxTransactionResult, PaymentJoin } from './model.js';
import { applyLockboxTransactions } from './lockbox-application.js';
import { clock } from '../platform/clock.js';

/** Lines a chunk carries at most (one lockbox number's lines are never split). */
export const LOCKBOX_CHUNK_LINES = 250;

const fileObjectKey = (fileId: string) => `lockbox-files/${fileId}.json`;

export const lockboxChunkMessage = builtOnFirstUse(() => z.object({
  fileId: z.string().check(z.minLength(1), z.maxLength(100)),
  chunk: z.int().check(z.nonnegative()),
  lines: z.array(z.int().check(z.nonnegative())).check(z.maxLength(20_000)),
}));
export type LockboxChunk = z.infer<ReturnType<typeof lockboxChunkMessage>>;


/** The chunks of a file: its line numbers grouped by lockbox number, groups packed in file order into chunks of about LOCKBOX_CHUNK_LINES. */
export function lockboxChunks(transactions: readonly unknown[]): number[][] {
  const groups = new Map<string, number[]>();
  transactions.forEach((transaction, line) => {
    const number = lockboxNumberOf(transaction);
    // Appended in place: a file of one number's 50,000 lines is grouped in one pass, not rebuilt per line.
    const group = groups.get(number);
    if (group) group.push(line);
    else groups.set(number, [line]);
  });
  const chunks: number[][] = [];
  let current: number[] = [];
  for (const lines of groups.values()) {
    if (current.length > 0 && current.length + lines.length > LOCKBOX_CHUNK_LINES) {
      chunks.push(current);
      current = [];
    }
    for (const line of lines) current.push(line);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Accepts a large file: stored, its run recorded, its chunks queued. A file id already started answers that run. */
export async function startLockboxRun(transactions: readonly unknown[], sentBy: string, fileId: string, now = clock.now()): Promise<LockboxRun> {
  const existing = await getLockboxRun(fileId);
  if (existing) return existing;
  const chunks = lockboxChunks(transactions);
  await s3Client().send(new PutObjectCommand({ Bucket: config.bucketName(), Key: fileObjectKey(fileId), Body: JSON.stringify(transactions), ContentType: 'application/json' }));
  const run: LockboxRun = { fileId, lines: transactions.length, chunks: chunks.length, chunksDone: 0, startedAt: now.toISOString(), sentBy };
  // The same key sent twice at once: the other call started the run.
  if (!(await putNewLockboxRun(run))) return (await getLockboxRun(fileId))!;
  await sendInBatches('lockbox-chunks', chunks.map((lines, chunk) => ({ id: String(chunk), body: { fileId, chunk, lines } satisfies LockboxChunk })), `the chunks of file ${fileId}`);
  return run;
}

type LineAnswer = LockboxLineAnswer;

/**
 * Applies one chunk: the lines not answered yet, the successes of each posting transaction recorded
 * in it (one item for its lines), the refusals after, then the chunk counted once. `joins` are the
 * areas joined to a payment (shared/moves/payment.ts), as a manual payment's.
 */
export async function applyLockboxChunk(message: LockboxChunk, now = clock.now(), joins: readonly PaymentJoin[] = []): Promise<{ applied: number; alreadyAnswered: number }> {
  const file = await s3Client().send(new GetObjectCommand({ Bucket: config.bucketName(), Key: fileObjectKey(message.fileId) }));
  const transactions = JSON.parse(await file.Body!.transformToString('utf8')) as unknown[];
  const answered = await keptLockboxAnswers(message.fileId, message.chunk);
  const pending = message.lines.filter((line) => !answered.has(line));
  if (pending.length > 0) {
    const results = await applyLockboxTransactions(
      pending.map((line) => transactions[line]),
      now,
      { recordSuccess: (indexes) => [lockboxSuccessesWrite(message.fileId, message.chunk, indexes.map((index) => pending[index]))], joins },
    );
    await keepLockboxRefusals(message.fileId, message.chunk, results.flatMap((result, index): LineAnswer[] => (result.result === 'success' ? [] : [{ line: pending[index], ...result }])));
  }
  // Counted once: a redelivery of a chunk that had finished leaves the count as it is.
  await countLockboxChunkDone(message.fileId, message.chunk);
  return { applied: pending.length, alreadyAnswered: answered.size };
}

/** A file's answers in line order once every chunk is done; its progress before. */
export async function lockboxRunResult(fileId: string, reader: { contactId: string; isAdministrator: boolean }) {
  const run = await getLockboxRun(fileId);
  if (!run || (run.sentBy !== reader.contactId && !reader.isAdministrator)) throw new NotFoundError(`Lockbox file ${fileId}`);
  if (run.chunksDone < run.chunks) return { file_id: fileId, status: 'applying' as const, lines: run.lines, chunks: run.chunks, chunks_done: run.chunksDone };
  const results: LockboxTransactionResult[] = new Array(run.lines);
  const answer = ({ line, result, detail }: LineAnswer) => {
    // A line two deliveries of its chunk answered at once: the one that posted it tells.
    if (results[line]?.result !== 'success') results[line] = { result, detail };
  };
  for await (const answers of lockboxAnswerPages(fileId)) answers.forEach(answer);
  return { file_id: fileId, status: 'done' as const, lines: run.lines, chunks: run.chunks, chunks_done: run.chunksDone, results };
}
