/**
 * The idempotency lifecycle (shared/platform/idempotency.ts) over the in-memory store: what the
 * DynamoDB store does in the integration tests, without a table.
 */
import { describe, expect, it } from 'vitest';
import {
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  InvalidIdempotencyKeyError,
  once,
  startKeyedCall,
  type KeyedCall,
} from '../../shared/platform/idempotency.js';
import { inMemoryIdempotencyStore } from '../../shared/platform/idempotency-memory.js';

const call = (key: string, request: unknown = { amount: '10.00' }, more: Partial<KeyedCall> = {}): KeyedCall => ({ scope: 'payments', key, request, ...more });

/** A call of `run` that counts its runs. */
function counted<T>(answer: () => Promise<T>) {
  const runs = { count: 0 };
  return {
    runs,
    run: async () => {
      runs.count += 1;
      return answer();
    },
  };
}

describe('the idempotency lifecycle', () => {
  it('runs a first call once and stores its answer; a retry answers the first answer without running', async () => {
    const store = inMemoryIdempotencyStore();
    const payment = counted(async () => ({ paymentId: 'p-1' }));
    expect(await once(store, call('k-1'), payment.run)).toEqual({ paymentId: 'p-1' });
    expect([...store.records.values()]).toEqual([expect.objectContaining({ status: 'COMPLETED', answer: { paymentId: 'p-1' } })]);

    const retry = counted(async () => ({ paymentId: 'p-2' }));
    expect(await once(store, call('k-1'), retry.run)).toEqual({ paymentId: 'p-1' });
    expect(payment.runs.count).toBe(1);
    expect(retry.runs.count).toBe(0);
    // Another key is another call.
    expect(await once(store, call('k-2'), retry.run)).toEqual({ paymentId: 'p-2' });
  });

  it('refuses a repeat while the first call runs, saying what is in progress and when to retry', async () => {
    const store = inMemoryIdempotencyStore();
    const firstUntil = Date.now() + 20_000;
    const started = await startKeyedCall(store, call('k-1', undefined, { deadline: firstUntil }));
    expect(started.repeat).toBe(false);
    // The repeat's own invocation leaves it no time to wait for the first answer.
    const repeat = startKeyedCall(store, call('k-1', undefined, { deadline: Date.now() + 2_000, inProgress: 'The payment sent earlier with this Idempotency-Key is still being posted' }));
    await expect(repeat).rejects.toBeInstanceOf(IdempotencyKeyInProgressError);
    const refused = (await repeat.catch((error: IdempotencyKeyInProgressError) => error)) as IdempotencyKeyInProgressError;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(19);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(20);
    expect(refused.message).toBe(`The payment sent earlier with this Idempotency-Key is still being posted; retry in ${refused.retryAfterSeconds} seconds for its answer`);
  });

  it('lets a repeat wait for a first call that answers soon, and answers it', async () => {
    const store = inMemoryIdempotencyStore();
    const started = await startKeyedCall(store, call('k-1'));
    if (started.repeat) throw new Error('the first call found a record');
    const repeat = startKeyedCall(store, call('k-1'));
    await new Promise((resolve) => setTimeout(resolve, 250));
    await started.claim.complete({ paymentId: 'p-1' });
    expect(await repeat).toEqual({ repeat: true, answer: { paymentId: 'p-1' } });
  });

  it('takes over the mark of a first call whose invocation was stopped', async () => {
    const store = inMemoryIdempotencyStore();
    await startKeyedCall(store, call('k-1', undefined, { deadline: Date.now() + 20 }));
    await new Promise((resolve) => setTimeout(resolve, 40));
    const retry = counted(async () => ({ paymentId: 'p-1' }));
    expect(await once(store, call('k-1'), retry.run)).toEqual({ paymentId: 'p-1' });
    expect(retry.runs.count).toBe(1);
  });

  it('leaves no record of a call that failed, so that its retry runs', async () => {
    const store = inMemoryIdempotencyStore();
    const failing = counted(async (): Promise<unknown> => {
      throw new Error('the store refused the payment');
    });
    await expect(once(store, call('k-1'), failing.run)).rejects.toThrow('the store refused the payment');
    expect(store.records.size).toBe(0);
    const retry = counted(async () => ({ paymentId: 'p-1' }));
    expect(await once(store, call('k-1'), retry.run)).toEqual({ paymentId: 'p-1' });
    expect(retry.runs.count).toBe(1);
  });

  it('refuses the same key with a different request, and runs nothing for it', async () => {
    const store = inMemoryIdempotencyStore();
    await once(store, call('k-1', { amount: '10.00' }), async () => ({ paymentId: 'p-1' }));
    const other = counted(async () => ({ paymentId: 'p-2' }));
    await expect(once(store, call('k-1', { amount: '99.00' }), other.run)).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(other.runs.count).toBe(0);
    // The same request with its keys in another order is the same request.
    await once(store, call('k-2', { a: 1, B: { c: 2, d: [3, 4] } }), async () => 'first');
    expect(await once(store, call('k-2', { B: { d: [3, 4], c: 2 }, a: 1 }), async () => 'second')).toBe('first');
  });

  it('refuses a key that is empty, too long or not printable, before anything is stored', async () => {
    const store = inMemoryIdempotencyStore();
    for (const key of ['', 'x'.repeat(256), 'line\nbreak', ' leading-space']) {
      await expect(startKeyedCall(store, call(key))).rejects.toBeInstanceOf(InvalidIdempotencyKeyError);
    }
    expect(store.records.size).toBe(0);
  });
});
