/**
 * Issue 47: an operation may begin its first reads, keyed by the request's own fields, beside the
 * caller's authentication. What they read reaches the handler only once the caller is let through,
 * each read once, and never after the call's first write: the answer is the one a read made then
 * would give, a round trip sooner.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertTimeToCommit, readBegun, readBegunWithCaller, withinInvocation } from '../../shared/platform/invocation.js';
import { operationFactory } from '../../shared/platform/operation.js';
import type { Principal } from '../../shared/platform/principal.js';
import { httpEvent, lambdaContext } from '../support/events.js';

const CLERK: Principal = {
  contactId: 'c-clerk',
  credential: 'api_key',
  roleIds: ['r-clerk'],
  heldRoleIds: ['r-clerk'],
  permissions: new Set(['policies:read']),
  agencyIds: [],
  scope: 'own',
  isAdministrator: false,
};

const defineOperation = operationFactory({ authenticate: async (credentials) => (credentials.apiKey === 'clerk-key' ? CLERK : undefined) });

describe('a read begun beside the caller', () => {
  const fresh = () => Promise.resolve('read now');
  const begunMap = () => new Map<string, Promise<unknown>>([['POLICY#p-1', Promise.resolve('read early')]]);

  it('is answered to the first read of its key in the invocation, and a second read of the key is made afresh', async () => {
    const answers = await withinInvocation(Date.now() + 10_000, async () => [await readBegunWithCaller('POLICY#p-1', fresh), await readBegunWithCaller('POLICY#p-1', fresh)], begunMap());
    expect(answers).toEqual(['read early', 'read now']);
  });

  it('is not answered after the invocation starts its first write', async () => {
    const answer = await withinInvocation(Date.now() + 10_000, async () => {
      assertTimeToCommit();
      return readBegunWithCaller('POLICY#p-1', fresh);
    }, begunMap());
    expect(answer).toBe('read now');
  });

  it('answers nothing for another key, nor outside an invocation', async () => {
    expect(await withinInvocation(Date.now() + 10_000, () => readBegunWithCaller('POLICY#p-2', fresh), begunMap())).toBe('read now');
    expect(await readBegunWithCaller('POLICY#p-1', fresh)).toBe('read now');
  });

  it('begins nothing for a field that is no string, and a read that fails is not an unhandled rejection', async () => {
    const reads: string[] = [];
    const read = async (id: string) => {
      reads.push(id);
      throw new Error('refused by the store');
    };
    expect(readBegun('POLICY#', 42, read)).toEqual([]);
    expect(readBegun('POLICY#', { id: 'p-1' }, read)).toEqual([]);
    const [[key, ahead]] = readBegun('POLICY#', 'p-1', read);
    expect(key).toBe('POLICY#p-1');
    expect(reads).toEqual(['p-1']);
    await expect(ahead).rejects.toThrow('refused by the store');
  });
});

describe('an operation that begins reads beside its caller', () => {
  /** Records the fields it was asked to begin for; the handler says what it was answered. */
  function operation(begin: (fields: Record<string, unknown>) => Array<readonly [string, Promise<unknown>]>, version: 'v1' | 'v2' = 'v2') {
    const begunFor: Array<Record<string, unknown>> = [];
    const handler = defineOperation({
      version,
      name: 'read_policy',
      summary: 'read_policy',
      permission: 'policies:read',
      ...(version === 'v1' ? { wrapper: 'json_dict' as const } : {}),
      beginWithCaller: (fields) => {
        begunFor.push(fields);
        return begin(fields);
      },
      input: z.object({ policy_id: z.string() }),
      resources: {},
      handle: async (input) => ({ read: await readBegunWithCaller(`POLICY#${input.policy_id}`, async () => 'read after the caller') }),
    });
    const invoke = async (body: unknown) => {
      const response = await handler(httpEvent(JSON.stringify(body)), lambdaContext);
      return { status: response.statusCode, body: JSON.parse(response.body ?? 'null') };
    };
    return { invoke, begunFor };
  }
  const early = (fields: Record<string, unknown>) => readBegun('POLICY#', fields.policy_id, async () => 'read beside the caller');

  it("hands the handler the read begun with the caller's authentication", async () => {
    const { invoke } = operation(early);
    const answer = await invoke({ api_key: 'clerk-key', policy_id: 'p-1' });
    expect(answer.body).toEqual({ success: true, messages: [], data: { read: 'read beside the caller' } });
  });

  it('begins nothing for a request that presents no credential, and answers a failed authentication 401 with nothing read handed on', async () => {
    const { invoke, begunFor } = operation(early);
    expect((await invoke({ policy_id: 'p-1' })).status).toBe(401);
    expect(begunFor).toEqual([]);
    expect((await invoke({ api_key: 'stranger', policy_id: 'p-1' })).status).toBe(401);
  });

  it('begins with the fields inside a v1 json_dict wrapper, given as an object or as a JSON string', async () => {
    const { invoke, begunFor } = operation(early, 'v1');
    for (const json_dict of [{ policy_id: 'p-1' }, JSON.stringify({ policy_id: 'p-1' })]) {
      const answer = await invoke({ api_key: 'clerk-key', json_dict });
      expect(answer.body).toMatchObject({ success: true, data: { read: 'read beside the caller' } });
    }
    expect(begunFor.map((fields) => fields.policy_id)).toEqual(['p-1', 'p-1']);
  });

  it('answers a body its beginning did not foresee by validation, naming the field, never a fault', async () => {
    const { invoke } = operation(() => {
      throw new TypeError('not foreseen');
    });
    const answer = await invoke({ api_key: 'clerk-key', policy_id: 7 });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages[0]).toMatch(/^policy_id: /);
  });
});
