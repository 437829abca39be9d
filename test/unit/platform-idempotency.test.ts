/**
 * The house idempotency store (shared/platform/idempotency-dynamodb.ts) replaced Powertools' to
 * bundle less; records written by either must read alike, so keys and request hashes must be Powertools'.
 */
import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { describe, expect, it } from 'vitest';
import { requestHash } from '../../shared/platform/idempotency.js';
import { idempotencyPartition, idempotencyRecordSortKey } from '../../shared/platform/idempotency-dynamodb.js';

describe('idempotency records', () => {
  it('are keyed and validated exactly as Powertools 2.35 keyed them', () => {
    const scope = 'makeManualPolicyPayment';
    const layer = new DynamoDBPersistenceLayer({ tableName: 't', keyAttr: 'pk', sortKeyAttr: 'sk', staticPkValue: idempotencyPartition(scope), clientConfig: { region: 'us-east-1' } });
    layer.configure({ config: new IdempotencyConfig({ eventKeyJmesPath: 'key', payloadValidationJmesPath: 'request', throwOnNoIdempotencyKey: true }), keyPrefix: scope });
    const call = { key: 'contact-1:key-42', request: { policyNumber: '10-2026-1', amount: '851.62', Zeta: [{ b: 1, A: 2 }] } };
    const internals = layer as unknown as { getHashedIdempotencyKey(data: unknown): string; getHashedPayload(data: unknown): string };
    expect(idempotencyRecordSortKey(scope, call.key)).toBe(internals.getHashedIdempotencyKey(call));
    expect(requestHash(call.request)).toBe(internals.getHashedPayload(call));
  });
});
