/**
 * The lockbox matchfile the bank downloads (retrieve_lockbox_matchfile_info): every policy with
 * an amount due, from the lockbox-due records (the accounts that owe), whole or in pages of
 * shards, each policy on exactly one page.
 */
import { todayIso } from '../platform/dates.js';
import { clock } from '../platform/clock.js';
import { BusinessRuleError } from '../platform/errors.js';
import { LOCKBOX_DUE_SHARDS } from './lockbox-shards.js';
import { matchfileLinesOf, type LockboxDue } from './lockbox.js';
import type { LockboxMatchRecord } from './model.js';
import { lockboxDuePage } from './store.js';

/** Lockbox-due records read in one query page: a page of 1,000 records stays under DynamoDB's 1 MB. */
const LOCKBOX_DUES_PER_PAGE = 1000;
/**
 * The most matchfile lines one answer carries (also the largest page_size): 25,000 lines of at
 * most ~140 bytes stay well under Lambda's 6 MB answer.
 */
export const MATCHFILE_LINES_PER_ANSWER = 25_000;

/** The matchfile is larger than one answer carries: it is asked for in pages. */
export class MatchfileTooLargeError extends BusinessRuleError {
  constructor() {
    super(`The matchfile has more lines than the ${MATCHFILE_LINES_PER_ANSWER} one answer carries: ask for it in pages with page_size (at most ${MATCHFILE_LINES_PER_ANSWER}) and each answer's next_page_token as page_token`);
    this.name = 'MatchfileTooLargeError';
  }
}

/** A page_token that no answer gave. */
export class InvalidPageTokenError extends BusinessRuleError {
  constructor() {
    super('page_token: not a token a matchfile answer gave (ask again from the first page, without page_token)');
    this.name = 'InvalidPageTokenError';
  }
}

/** Where a paged matchfile read stands: the shard being read and the last record key taken from it. */
export interface MatchfileCursor {
  shard: number;
  afterSk?: string;
}

export function encodePageToken(cursor: MatchfileCursor): string {
  return Buffer.from(JSON.stringify(cursor.afterSk === undefined ? [cursor.shard] : [cursor.shard, cursor.afterSk])).toString('base64url');
}

export function decodePageToken(token: string): MatchfileCursor {
  try {
    const [shard, afterSk] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    if (typeof shard !== 'number' || !Number.isInteger(shard) || shard < 0 || shard >= LOCKBOX_DUE_SHARDS) throw new InvalidPageTokenError();
    if (afterSk !== undefined && (typeof afterSk !== 'string' || afterSk.length > 400)) throw new InvalidPageTokenError();
    return afterSk === undefined ? { shard } : { shard, afterSk: afterSk as string };
  } catch {
    throw new InvalidPageTokenError();
  }
}

/**
 * Lockbox-due records of one shard from `cursor`, whole policies only (a policy's terms are read
 * together: which one the matchfile shows depends on all of them), until at least `wanted` lines
 * are found or the shard ends. Answers the lines and where the next read starts (none at the shard's end).
 */
async function matchfileLinesOfShard(
  cursor: MatchfileCursor,
  wanted: number,
  asOf: string,
  found: { lines: number; limit: number } = { lines: 0, limit: Number.POSITIVE_INFINITY },
): Promise<{ records: Array<{ policyNumber: string; record: LockboxMatchRecord }>; next?: MatchfileCursor }> {
  const records: Array<{ policyNumber: string; record: LockboxMatchRecord }> = [];
  let afterSk = cursor.afterSk;
  let pending: Array<LockboxDue & { sk: string }> = [];
  for (;;) {
    // Each record gives at most one line: reading no more records than lines still wanted, a page never holds more than asked.
    const page = await lockboxDuePage(cursor.shard, { afterSk, limit: Math.min(LOCKBOX_DUES_PER_PAGE, Math.max(1, wanted - records.length)) });
    const read = [...pending, ...page.dues];
    // The last policy of a page that did not end the shard may go on in the next page: kept for it.
    const lastPolicy = page.lastSk ? read.at(-1)?.policyId : undefined;
    const whole = lastPolicy ? read.filter((due) => due.policyId !== lastPolicy) : read;
    pending = lastPolicy ? read.filter((due) => due.policyId === lastPolicy) : [];
    const lines = matchfileLinesOf(whole, asOf);
    records.push(...lines);
    found.lines += lines.length;
    // Shards read in parallel count their lines together: past the limit, none reads on.
    if (!page.lastSk || found.lines > found.limit) return { records };
    afterSk = page.lastSk;
    if (records.length >= wanted && whole.length > 0) return { records, next: { shard: cursor.shard, afterSk: whole.at(-1)!.sk } };
  }
}

/** retrieve_lockbox_matchfile_info, whole: every policy with an amount due, amounts in pennies, in policy-number order. */
export async function lockboxMatchfile(now = clock.now()): Promise<LockboxMatchRecord[]> {
  const today = todayIso(now);
  const found = { lines: 0, limit: MATCHFILE_LINES_PER_ANSWER };
  const shards = await Promise.all(Array.from({ length: LOCKBOX_DUE_SHARDS }, (_, shard) => matchfileLinesOfShard({ shard }, Number.POSITIVE_INFINITY, today, found)));
  if (found.lines > MATCHFILE_LINES_PER_ANSWER) throw new MatchfileTooLargeError();
  return shards
    .flatMap((shard) => shard.records)
    .sort((a, b) => a.policyNumber.localeCompare(b.policyNumber))
    .map((line) => line.record);
}

/**
 * retrieve_lockbox_matchfile_info, one page: `pageSize` lines (fewer only on the last page), in
 * shard order, and the token of the next page (null after the last). Every owing policy is on
 * exactly one page of a walk from the first page to the last.
 */
export async function lockboxMatchfilePage(request: { pageSize: number; pageToken?: string }, now = clock.now()): Promise<{ records: LockboxMatchRecord[]; nextPageToken: string | null }> {
  const today = todayIso(now);
  let cursor: MatchfileCursor | undefined = request.pageToken ? decodePageToken(request.pageToken) : { shard: 0 };
  const records: LockboxMatchRecord[] = [];
  while (cursor && records.length < request.pageSize) {
    const read = await matchfileLinesOfShard(cursor, request.pageSize - records.length, today);
    records.push(...read.records.map((line) => line.record));
    cursor = read.next ?? (cursor.shard + 1 < LOCKBOX_DUE_SHARDS ? { shard: cursor.shard + 1 } : undefined);
  }
  return { records, nextPageToken: cursor ? encodePageToken(cursor) : null };
}
