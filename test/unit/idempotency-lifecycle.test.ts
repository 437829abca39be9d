/**
 * The idempotency lifecycle (shared/platform/idempotency.ts) over the in-memory store, and an
 * idempotent operation's pipeline step (shared/platform/idempotent-operations.ts) with it: what
 * the DynamoDB store does in the integration tests, without a table.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DataWithMessages } from '../../shared/platform/envelope.js';
import {
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  InvalidIdempotencyKeyError,
  once,
  startKeyedCall,
  type KeyedCall,
} from '../../shared/platform/idempotency.js';
import { inMemoryIdempotencyStore } from '../../shared/platform/idempotency-memory.js';
import { idempotencyOver } from '../../shared/platform/idempotent-operations.js';
import { operationFactory } from '../../shared/platform/operation.js';
import type { Principal } from '../../shared/platform/principal.js';
import { httpEvent, lambdaContext } from '../support/events.js';

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

const CLERK: Principal = {
  contactId: 'c-clerk',
  credential: 'api_key',
  roleIds: [],
  heldRoleIds: [],
  permissions: new Set(['payments:write']),
  agencyIds: [],
  scope: 'own',
  isAdministrator: false,
};

describe('an idempotent operation', () => {
  const store = inMemoryIdempotencyStore();
  const defineIdempotentOperation = operationFactory({ authenticate: async (credentials) => (credentials.apiKey === 'clerk-key' ? CLERK : undefined) }, { idempotency: idempotencyOver(store) });
  const posted: Array<{ amount: string }> = [];
  const pay = defineIdempotentOperation({
    version: 'v2',
    name: 'pay',
    summary: 'pay',
    permission: 'payments:write',
    input: z.object({ amount: z.string(), dry_run: z.boolean().optional() }),
    resources: {},
    idempotent: { scope: 'pay', inProgress: 'The payment sent earlier with this Idempotency-Key is still being posted', when: (input) => !input.dry_run },
    handle: async (input) => {
      if (input.amount === 'refused') throw new Error('the ledger is closed');
      posted.push({ amount: input.amount });
      return { paymentNumber: posted.length };
    },
  });
  const invoke = async (body: Record<string, unknown>, key?: string) => {
    const response = await pay(httpEvent(JSON.stringify({ api_key: 'clerk-key', ...body }), key ? { 'Idempotency-Key': key } : {}), lambdaContext);
    return { status: response.statusCode, body: JSON.parse(response.body ?? 'null') };
  };

  it('answers a retry with the first answer, in the same envelope, and runs the handler once', async () => {
    posted.length = 0;
    const first = await invoke({ amount: '10.00' }, 'op-1');
    expect(first).toEqual({ status: 200, body: { success: true, messages: [], data: { paymentNumber: 1 } } });
    expect(await invoke({ amount: '10.00' }, 'op-1')).toEqual(first);
    expect(posted).toEqual([{ amount: '10.00' }]);
    // Keyed by the caller: the record's key is the caller's contact id and the header.
    expect([...store.records.keys()]).toContain('pay c-clerk:op-1');
  });

  it('answers the same key with a different body as a business failure, and posts nothing', async () => {
    posted.length = 0;
    await invoke({ amount: '10.00' }, 'op-2');
    const reused = await invoke({ amount: '11.00' }, 'op-2');
    expect(reused.status).toBe(200);
    expect(reused.body).toEqual({ success: false, messages: ['Idempotency-Key was already used for a different request; use a new key for a new request'], data: null });
    expect(posted).toEqual([{ amount: '10.00' }]);
  });

  it('keeps no record of a failed call, nor of a call without a key, nor of one its declaration leaves out', async () => {
    const before = store.records.size;
    expect((await invoke({ amount: 'refused' }, 'op-3')).status).toBe(500);
    expect((await invoke({ amount: '12.00' })).status).toBe(200);
    expect((await invoke({ amount: '13.00', dry_run: true }, 'op-4')).status).toBe(200);
    expect(store.records.size).toBe(before);
    // A rejected call consumes nothing: its key still serves the request it was meant for.
    expect((await invoke({ amount: 14 }, 'op-5')).body.success).toBe(false);
    expect(store.records.size).toBe(before);
  });

  it('answers 409 with Retry-After while the first call with the key may still run', async () => {
    await startKeyedCall(store, { scope: 'pay', key: 'c-clerk:op-6', request: { amount: '15.00' }, deadline: Date.now() + 10_000 });
    const response = await pay(httpEvent(JSON.stringify({ api_key: 'clerk-key', amount: '15.00' }), { 'idempotency-key': 'op-6' }), { ...lambdaContext, getRemainingTimeInMillis: () => 2_000 });
    expect(response.statusCode).toBe(409);
    expect(Number(response.headers?.['retry-after'])).toBeGreaterThanOrEqual(9);
  });

  it('keeps the claim of a call whose outcome is not known (the invocation timed out, or its answer was not saved) until it lapses', async () => {
    const held = inMemoryIdempotencyStore();
    let failSave = false;
    const flaky = { ...held, saveSuccess: async (...args: Parameters<typeof held.saveSuccess>) => (failSave ? Promise.reject(new Error('the table is away')) : held.saveSuccess(...args)) };
    const define = operationFactory({ authenticate: async () => CLERK }, { idempotency: idempotencyOver(flaky) });
    const slow = define({
      version: 'v2', name: 'slow', summary: 'slow', permission: null, input: z.object({ wait: z.number() }), resources: {},
      idempotent: { scope: 'slow', inProgress: 'still running' },
      handle: async (input) => new Promise<{ waited: number }>((resolve) => setTimeout(() => resolve({ waited: input.wait }), input.wait)),
    });
    const timedOut = await slow(httpEvent(JSON.stringify({ wait: 1_000 }), { 'idempotency-key': 't-1' }), { ...lambdaContext, getRemainingTimeInMillis: () => 200 });
    expect(timedOut.statusCode).toBe(503);
    expect(held.records.get('slow c-clerk:t-1')).toMatchObject({ status: 'INPROGRESS' });

    failSave = true;
    const unsaved = await slow(httpEvent(JSON.stringify({ wait: 1 }), { 'idempotency-key': 't-2' }), lambdaContext);
    expect(unsaved.statusCode).toBe(500);
    expect(held.records.get('slow c-clerk:t-2')).toMatchObject({ status: 'INPROGRESS' });
  });

  it('keeps an answer with messages (a quote with its warnings) and answers a retry with the same data and messages', async () => {
    const kept = inMemoryIdempotencyStore();
    // The table's document client refuses a class instance: the store holds plain JSON only, as the table would.
    const plain = { ...kept, saveSuccess: async (...args: Parameters<typeof kept.saveSuccess>) => {
      if (args[2].answer !== null && typeof args[2].answer === 'object' && Object.getPrototypeOf(args[2].answer) !== Object.prototype) throw new Error('Unsupported type passed');
      return kept.saveSuccess(...args);
    } };
    const define = operationFactory({ authenticate: async () => CLERK }, { idempotency: idempotencyOver(plain) });
    let quotes = 0;
    const quote = define({
      version: 'v2', name: 'quote', summary: 'quote', permission: null, input: z.object({}), resources: {},
      idempotent: { scope: 'quote', inProgress: 'still quoting' },
      handle: async () => new DataWithMessages({ quoteNumber: (quotes += 1) }, ['A moratorium covers ZIP 33101']),
    });
    const call = async () => JSON.parse((await quote(httpEvent('{}', { 'idempotency-key': 'q-1' }), lambdaContext)).body ?? 'null');
    const first = await call();
    expect(first).toEqual({ success: true, messages: ['A moratorium covers ZIP 33101'], data: { quoteNumber: 1 } });
    expect(await call()).toEqual(first);
    expect(quotes).toBe(1);
  });

  it('is defined only by a factory given an idempotency store, and needs a caller', () => {
    const plain = operationFactory({ authenticate: async () => CLERK });
    const declared = { version: 'v2', name: 'x', summary: 'x', permission: null, input: z.object({}), resources: {}, handle: async () => null } as const;
    expect(() => plain({ ...declared, idempotent: { scope: 'x', inProgress: 'x' } })).toThrow(/: idempotent: use defineIdempotentOperation/);
    expect(() => defineIdempotentOperation(declared)).toThrow(/not idempotent: use defineOperation/);
    expect(() => defineIdempotentOperation({ ...declared, authentication: 'none', idempotent: { scope: 'x', inProgress: 'x' } })).toThrow(/needs a caller/);
  });
});
