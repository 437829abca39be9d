/**
 * An idempotency store in memory (idempotency.ts's IdempotencyStore), with the DynamoDB store's
 * condition: for the unit tests of the lifecycle and of idempotent operations, which need no
 * table. Records are copied in and out (as a table would), so a caller cannot change what is kept.
 */
import type { IdempotencyRecord, IdempotencyStore } from './idempotency.js';

export interface InMemoryIdempotencyStore extends IdempotencyStore {
  /** The records kept, by `<scope> <key>`: what a test looks at. */
  readonly records: ReadonlyMap<string, IdempotencyRecord>;
}

const copy = <T>(value: T): T => (value === undefined ? value : structuredClone(value));

export function inMemoryIdempotencyStore(): InMemoryIdempotencyStore {
  const records = new Map<string, IdempotencyRecord>();
  const id = (scope: string, key: string) => `${scope} ${key}`;
  return {
    records,
    async saveInProgress(scope, key, record, nowMs) {
      const stored = records.get(id(scope, key));
      const live =
        stored !== undefined &&
        !((stored.expiresAt ?? 0) < nowMs / 1000) &&
        !(stored.status === 'INPROGRESS' && stored.inProgressUntil !== undefined && stored.inProgressUntil < nowMs);
      if (live) return false;
      records.set(id(scope, key), { status: 'INPROGRESS', ...copy(record) });
      return true;
    },
    async getRecord(scope, key) {
      return copy(records.get(id(scope, key)));
    },
    async saveSuccess(scope, key, record) {
      records.set(id(scope, key), { ...records.get(id(scope, key)), status: 'COMPLETED', expiresAt: record.expiresAt, validation: record.validation, answer: copy(record.answer) });
    },
    async deleteRecord(scope, key) {
      records.delete(id(scope, key));
    },
  };
}
