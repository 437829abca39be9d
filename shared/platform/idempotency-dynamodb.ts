/**
 * The idempotency lifecycle's store in the service's one table (idempotency.ts's
 * IdempotencyStore), and `onceForKey`, the lifecycle over it for consumers.
 *
 * The records are Powertools idempotency's (2.35.0, DynamoDB persistence) exactly: the same
 * key hash, attributes and conditions, so records written before and after this module
 * replaced it read alike. It is written here rather than imported because Powertools'
 * persistence layer always bundles its JMESPath engine and the low-level DynamoDB client's
 * marshalling (+135 KiB on every function taking an Idempotency-Key), where this needs only the
 * document client every function already has.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './clients.js';
import { config } from './config.js';
import { isConditionalCheckFailure } from './dynamo.js';
import { once, powertoolsHash, type IdempotencyRecord, type IdempotencyStore, type KeyedCall } from './idempotency.js';
import { TABLE_KEYS, TTL_ATTRIBUTE } from './table.js';

/** The partition of one scope's idempotency records (the sort key is Powertools' hash of the key). */
export const idempotencyPartition = (scope: string) => `IDEMPOTENCY#${scope}`;

/** The sort key of (scope, key)'s record: Powertools' `<keyPrefix>#<md5 of the key>`. */
export const idempotencyRecordSortKey = (scope: string, key: string) => `${scope}#${powertoolsHash(key)}`;

/** A record as Powertools stores it. */
interface StoredRecord {
  status?: 'INPROGRESS' | 'COMPLETED' | 'EXPIRED';
  [TTL_ATTRIBUTE]?: number;
  in_progress_expiration?: number;
  data?: unknown;
  validation?: string;
}

const itemKey = (scope: string, key: string) => ({ [TABLE_KEYS.partition]: idempotencyPartition(scope), [TABLE_KEYS.sort]: idempotencyRecordSortKey(scope, key) });

export const dynamoDbIdempotencyStore: IdempotencyStore = {
  async saveInProgress(scope, key, record, nowMs) {
    try {
      await documentClient().send(
        new PutCommand({
          TableName: config.tableName(),
          Item: { ...itemKey(scope, key), [TTL_ATTRIBUTE]: record.expiresAt, status: 'INPROGRESS', in_progress_expiration: record.inProgressUntil, validation: record.validation },
          ConditionExpression: 'attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
          ExpressionAttributeNames: { '#id': TABLE_KEYS.partition, '#expiry': TTL_ATTRIBUTE, '#in_progress_expiry': 'in_progress_expiration', '#status': 'status' },
          ExpressionAttributeValues: { ':now': nowMs / 1000, ':now_in_millis': nowMs, ':inprogress': 'INPROGRESS' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  },

  async getRecord(scope, key): Promise<IdempotencyRecord | undefined> {
    const stored = (await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: itemKey(scope, key), ConsistentRead: true }))).Item as StoredRecord | undefined;
    if (!stored) return undefined;
    return { status: stored.status, expiresAt: stored[TTL_ATTRIBUTE], inProgressUntil: stored.in_progress_expiration, validation: stored.validation, answer: stored.data };
  },

  async saveSuccess(scope, key, record) {
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName(),
        Key: itemKey(scope, key),
        UpdateExpression: 'SET #expiry = :expiry, #status = :status, #data = :data, #validation = :validation',
        ExpressionAttributeNames: { '#expiry': TTL_ATTRIBUTE, '#status': 'status', '#data': 'data', '#validation': 'validation' },
        ExpressionAttributeValues: { ':expiry': record.expiresAt, ':status': 'COMPLETED', ':data': record.answer, ':validation': record.validation },
      }),
    );
  },

  async deleteRecord(scope, key) {
    await documentClient().send(new DeleteCommand({ TableName: config.tableName(), Key: itemKey(scope, key) }));
  },
};

/**
 * `run` once for (scope, key) in the table: a repeat answers the first result (a consumer's
 * repeated delivery). `request` is what was asked (compared on a repeat); the answer must be
 * plain JSON. Operations declare `idempotent` instead (shared/platform/operation.ts).
 */
export function onceForKey<T>(scope: string, key: string, request: unknown, run: () => Promise<T>, work: Pick<KeyedCall, 'deadline' | 'inProgress'> = {}): Promise<T> {
  return once(dynamoDbIdempotencyStore, { scope, key, request, ...work }, run);
}
