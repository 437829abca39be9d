/**
 * Keys of the billing area (see docs/data-model.md, Billing). A policy's billing lives in
 * its own partition `BILLING#<policyId>`: one account record per term (balance, status,
 * non-payment state, version), the account-history rows of each term, and the check
 * numbers already posted to the policy (the lockbox's natural key). Pure functions only.
 */
import { stableShard } from '../platform/shards.js';
import { LOCKBOX_DUE_SHARDS } from './lockbox-shards.js';

export type Key = { pk: string; sk: string };

/** The account lists are spread over this many index partitions so no one partition takes every write. */
export const ACCOUNT_LIST_SHARDS = 8;

export const billingPartition = (policyId: string) => `BILLING#${policyId}`;
export const accountKey = (policyId: string, termId: string): Key => ({ pk: billingPartition(policyId), sk: `TERM#${termId}#ACCOUNT` });
export const entryKey = (policyId: string, termId: string, entryId: string): Key => ({ pk: billingPartition(policyId), sk: `TERM#${termId}#ENTRY#${entryId}` });
/** A check number posted to a policy: written with the payment, so the same check never posts twice. */
export const checkKey = (policyId: string, checkNumber: string): Key => ({ pk: billingPartition(policyId), sk: `CHECK#${checkNumber}` });
/** A refund the carrier owes on a policy: beside the policy's account, so the move that owes it writes it in its transaction. */
export const refundKey = (policyId: string, refundId: string): Key => ({ pk: billingPartition(policyId), sk: `REFUND#${refundId}` });
/** Finds a refund's policy from the refund id alone (approve_refund, void_refund, mark_refund_issued). */
export const refundLocatorKey = (refundId: string): Key => ({ pk: `REFUND#${refundId}`, sk: 'REFUND' });
/** Index attributes of a refund: listed by state across the book (gsi1), oldest first. */
export const refundIndexAttributes = (refund: { state: string; createdAt: string; refundId: string }) => ({ gsi1pk: `REFUNDS#${refund.state}`, gsi1sk: `${refund.createdAt}#${refund.refundId}` });
/** Query parameters of the refunds in one state (the export reads the approved ones). */
export function refundsInStateQuery(tableName: string, state: string) {
  return { TableName: tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `REFUNDS#${state}` } };
}
/** Query parameters of a policy's refunds. */
export function policyRefundsQuery(tableName: string, policyId: string) {
  return { TableName: tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :refund)', ExpressionAttributeValues: { ':pk': billingPartition(policyId), ':refund': 'REFUND#' }, ConsistentRead: true };
}
/** Finds a payment's policy and term from the payment id alone (storeNSF may omit the policy). */
export const paymentLocatorKey = (paymentId: string): Key => ({ pk: `PAYMENT#${paymentId}`, sk: 'PAYMENT' });
/** One nightly run's record (how many batches it fanned out, how many are done), per job, day and run. */
export const nightlyRunKey = (job: string, date: string, runId: string): Key => ({ pk: `NIGHTLY#${job}`, sk: `RUN#${date}#${runId}` });

/** Which list shard an account is in: a stable hash of its policy id. */
export function accountShard(policyId: string): number {
  return stableShard(policyId, ACCOUNT_LIST_SHARDS);
}

/** Index attributes of an account: found by term id (gsi1), listed by shard (gsi2). */
export function accountIndexAttributes(policyId: string, termId: string) {
  return {
    gsi1pk: `BILLINGTERM#${termId}`,
    gsi1sk: policyId,
    gsi2pk: `BILLINGACCOUNTS#${accountShard(policyId)}`,
    gsi2sk: `${policyId}#${termId}`,
  };
}

/** Query parameters of the rows of a policy's billing partition whose sort key begins with `prefix`, strongly consistent. */
function termRowsQuery(tableName: string, policyId: string, prefix: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :term)',
    ExpressionAttributeValues: { ':pk': billingPartition(policyId), ':term': prefix },
    ConsistentRead: true,
  };
}

/** Query parameters reading every term's account and rows of one policy, in term order (a payment reads one page of it beside the policy). */
export function accountsOfPolicyQuery(tableName: string, policyId: string) {
  return termRowsQuery(tableName, policyId, 'TERM#');
}

/** Query parameters reading one term's account and all its rows at once. */
export function accountQuery(tableName: string, policyId: string, termId: string) {
  return termRowsQuery(tableName, policyId, `TERM#${termId}#`);
}

/** The term a row of a term's account (its account record or a history row) belongs to, from its sort key. */
export const termIdOfRow = (sk: string): string => sk.slice('TERM#'.length).split('#')[0];

/** Query parameters of one shard of the account list (eventually consistent, as every index). */
export function accountListQuery(tableName: string, shard: number) {
  return {
    TableName: tableName,
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': `BILLINGACCOUNTS#${shard}` },
  };
}

/**
 * The accounts of a lockbox number (`accountRefs`, a string set of `<policyId>#<termId>`):
 * a file's numbers are looked up 100 at a time with BatchGetItem rather than a query each.
 */
export const lockboxNumberKey = (lockboxNumber: string): Key => ({ pk: `LOCKBOX#${lockboxNumber}`, sk: 'LOCKBOX' });

export { LOCKBOX_DUE_SHARDS } from './lockbox-shards.js';
export const lockboxDuePartition = (shard: number) => `LOCKBOXDUE#${shard}`;

/**
 * The lockbox-due record of an account that owes: in the partition of its policy's shard, sorted
 * by lockbox number then policy, so a policy's records (its terms) sit together.
 */
export function lockboxDueKey(account: { policyId: string; termId: string; lockboxNumber: string }): Key {
  return { pk: lockboxDuePartition(stableShard(account.policyId, LOCKBOX_DUE_SHARDS)), sk: `${account.lockboxNumber}#${account.policyId}#${account.termId}` };
}

/**
 * Query parameters of one shard of the lockbox-due records, from after `afterSk`. Eventually
 * consistent (half the read units): a posting of the last second may be missing, as it was when
 * the matchfile listed accounts through an index.
 */
export function lockboxDueQuery(tableName: string, shard: number, afterSk?: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: afterSk === undefined ? 'pk = :pk' : 'pk = :pk AND sk > :after',
    ExpressionAttributeValues: { ':pk': lockboxDuePartition(shard), ...(afterSk === undefined ? {} : { ':after': afterSk }) },
  };
}

/** A one-time migration of the billing records, done (`lockbox-dues-v1`: the lockbox-due records of accounts written before them). */
export const billingMigrationKey = (name: string): Key => ({ pk: `BILLINGMIGRATION#${name}`, sk: 'DONE' });

/** Query parameters finding the account of a term from the term id alone. */
export function accountByTermQuery(tableName: string, termId: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `BILLINGTERM#${termId}` },
  };
}

/**
 * A lockbox file applied in chunks (a file too large for one call): its run, its lines' answers
 * (written with the lines' money, so an interrupted chunk answers the same when delivered again)
 * and each chunk's done mark, in one partition per file. Answers are kept a transaction's lines to
 * an item (the lines one posting transaction posted, or a chunk's refusals), keyed by chunk and the
 * item's first line, so a chunk reads its answers with one query.
 */
export const lockboxRunPartition = (fileId: string) => `LOCKBOXRUN#${fileId}`;
export const lockboxRunKey = (fileId: string): Key => ({ pk: lockboxRunPartition(fileId), sk: 'RUN' });
const chunkAnswersPrefix = (chunk: number) => `ANSWERS#${String(chunk).padStart(5, '0')}#`;
/** The answers of lines one transaction posted, or of lines refused: two deliveries of a chunk at once never write over each other's successes. */
export const lockboxAnswersKey = (fileId: string, chunk: number, firstLine: number, kind: 'posted' | 'refused'): Key => ({
  pk: lockboxRunPartition(fileId),
  sk: `${chunkAnswersPrefix(chunk)}${String(firstLine).padStart(6, '0')}#${kind}`,
});
/** One answer per line, an item each: how runs started before the answers were grouped kept them (still read by the result). */
export const lockboxLineKey = (fileId: string, line: number): Key => ({ pk: lockboxRunPartition(fileId), sk: `LINE#${String(line).padStart(6, '0')}` });
export const lockboxChunkDoneKey = (fileId: string, chunk: number): Key => ({ pk: lockboxRunPartition(fileId), sk: `CHUNK#${chunk}` });
/** Query parameters of the answers of one chunk. */
export function lockboxChunkAnswersQuery(tableName: string, fileId: string, chunk: number) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :answers)',
    ExpressionAttributeValues: { ':pk': lockboxRunPartition(fileId), ':answers': chunkAnswersPrefix(chunk) },
    ConsistentRead: true,
  };
}
/** Query parameters of every answer of a file (grouped answers, and the per-line answers of older runs). */
export function lockboxAnswersQuery(tableName: string, fileId: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': lockboxRunPartition(fileId), ':from': 'ANSWERS#', ':to': 'LINE#~' },
    ConsistentRead: true,
  };
}
