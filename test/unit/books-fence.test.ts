/**
 * The fence between a close and the postings under way (books/store.ts): a counter landing in an
 * ended month checks the fence of the closed months it settled on, and a close writes that fence.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FENCE_SHARDS } from '../../shared/books/keys.js';
import { closeWrites, landingGuard } from '../../shared/books/store.js';

beforeAll(() => {
  process.env.TABLE_NAME = 'T';
});

describe('the guard of a landing', () => {
  it('checks the fence of the state it settled on, in its policy\'s shard, when the month has ended', () => {
    const guard = landingGuard('2026-09', '2026-10', 'policy-1', '2026-11-29');
    expect(guard).toEqual({ ConditionCheck: { TableName: 'T', Key: { pk: 'BOOKS#FENCE#2026-09', sk: expect.stringMatching(/^SHARD#\d\d$/) }, ConditionExpression: 'attribute_not_exists(pk)' } });
    expect(landingGuard('2026-09', '2026-10', 'policy-1', '2026-12-15')).toEqual(guard);
    expect(landingGuard(null, '2026-10', 'policy-1', '2026-11-29')?.ConditionCheck?.Key?.pk).toBe('BOOKS#FENCE#NONE');
  });

  it('is left out while no close can reach the month (it ends after tomorrow), and kept on its last day (clocks a little apart)', () => {
    expect(landingGuard(null, '2026-11', 'policy-1', '2026-11-28')).toBeUndefined();
    expect(landingGuard(null, '2026-12', 'policy-1', '2026-11-30')).toBeUndefined();
    expect(landingGuard(null, '2026-11', 'policy-1', '2026-11-30')).toBeDefined();
  });
});

describe('a close', () => {
  it('writes the fence of the state it ends, every shard, in its own transaction', () => {
    const writes = closeWrites('2026-10', '2026-09', [], 'contact-1', '2026-11-02T09:00:00.000Z');
    expect(writes[0].Put?.Item).toMatchObject({ pk: 'BOOKS#CLOSE', sk: 'CLOSE', closedThrough: '2026-10' });
    const fences = writes.filter((write) => String(write.Put?.Item?.pk).startsWith('BOOKS#FENCE#'));
    expect(fences).toHaveLength(FENCE_SHARDS);
    expect(fences[0]).toEqual({ Put: { TableName: 'T', Item: { pk: 'BOOKS#FENCE#2026-09', sk: 'SHARD#00', entity: 'BooksCloseFence', closedThrough: '2026-10', closedAt: '2026-11-02T09:00:00.000Z' } } });
    expect(new Set(fences.map((write) => write.Put?.Item?.sk)).size).toBe(FENCE_SHARDS);
    expect(closeWrites('2026-10', null, [], 'contact-1', '2026-11-02T09:00:00.000Z').filter((write) => write.Put?.Item?.pk === 'BOOKS#FENCE#NONE')).toHaveLength(FENCE_SHARDS);
  });
});
