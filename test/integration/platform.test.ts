import { randomUUID } from 'node:crypto';
import { todayIso } from '../../shared/platform/dates.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiKey } from '../../shared/auth/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { defineIdempotentOperation, defineOperation } from '../../shared/define-operation.js';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { idempotencyPartition, idempotencyRecordSortKey } from '../../shared/platform/idempotency-dynamodb.js';
import { TABLE_KEYS } from '../../shared/platform/table.js';
import { httpEvent, lambdaContext } from '../support/events.js';
import { startTestService, type TestService } from '../support/service.js';

const NAMED_INSURED_ROLE = '8626b373-c54d-498a-82bf-fd2d2f32b746';
const RELEASE_INFO = '/api/v2/utils/get_release_info';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

describe('the local API, as a client calls it', () => {
  it('answers get_release_info for an api_key in a body sent without Content-Type', async () => {
    const answer = await service.call(RELEASE_INFO, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, messages: [], data: { tag: expect.any(String), timestamp: expect.any(String), today: todayIso() } });
    expect(answer.headers.get('content-type')).toContain('application/json');
  });

  it("accepts curl's default form Content-Type with a JSON body", async () => {
    const answer = await service.call(RELEASE_INFO, {}, { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.body.success).toBe(true);
  });

  it('accepts the API key in the Authorization header with an empty body', async () => {
    const answer = await service.call(RELEASE_INFO, {}, { apiKey: null, rawBody: '', headers: { authorization: service.administratorApiKey } });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });

  it('answers 401 with an envelope for a wrong key, and for no credential at all', async () => {
    for (const apiKey of ['ias_not-a-key', null]) {
      const answer = await service.call(RELEASE_INFO, {}, { apiKey });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ success: false, messages: [expect.any(String)], data: null });
    }
  });

  it('answers 400 with an envelope for a body that is not JSON, saying where it stopped being JSON and what to send (issue 44)', async () => {
    const answer = await service.call(RELEASE_INFO, {}, { rawBody: 'api_key=abc&x=1' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, data: null });
    expect(answer.body.messages[0]).toMatch(/^The request body is not valid JSON: at line 1, column 1 \(character 1\) found "a" where a value .* was expected\. It looks like a form .*send the fields as one JSON object/);
    // A trailing comma on the third line of a pasted body: the line and column of the comma's successor.
    const pasted = await service.call(RELEASE_INFO, {}, { rawBody: `{\n  "api_key": "${service.administratorApiKey}",\n  "x": 1,\n}` });
    expect(pasted.status).toBe(400);
    expect(pasted.body.messages).toEqual([`The request body is not valid JSON: at line 4, column 1 (character ${pasted.body.messages[0].match(/character (\d+)/)[1]}) found "}" where a property name in double quotes was expected. Send one JSON object, e.g. curl -d '{}'`]);
    // Never more of the body than the one character found.
    expect(JSON.stringify(pasted.body)).not.toContain(service.administratorApiKey);
  });

  it('answers 404 for an unknown operation, in the envelope of its path generation', async () => {
    const v2 = await service.call('/api/v2/utils/no_such_operation', {});
    expect(v2.status).toBe(404);
    expect(v2.body).toEqual({ success: false, messages: [expect.stringContaining('no_such_operation')], data: null });
    const v1 = await service.call('/api/v1/contacts/noSuchOperation', {});
    expect(v1.status).toBe(404);
    expect(v1.body).toEqual({ success: false, message: [expect.stringContaining('noSuchOperation')], data: null });
  });

  it('answers 413 for a body over the limit without reading it all', async () => {
    const answer = await service.call(RELEASE_INFO, {}, { rawBody: `{"pad":"${'x'.repeat(6 * 1024 * 1024)}"}` });
    expect(answer.status).toBe(413);
    expect(answer.body.success).toBe(false);
  });

  it("gives every answer a request id header, the server's own refusals included", async () => {
    const answer = await service.call(RELEASE_INFO, {});
    expect(answer.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    const unknown = await service.call('/api/v2/utils/no_such_operation', {});
    expect(unknown.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    const get = await fetch(`${service.url}${RELEASE_INFO}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // It says how to call it instead (issue 44), with the address the caller used.
    expect(((await get.json()) as { messages: string[] }).messages).toEqual([`Operations are called with POST, not GET: send a JSON body with POST, e.g. curl -d '{}' http://localhost:${service.port}${RELEASE_INFO} (curl's -d posts; or -X POST with -d and your fields)`]);
    expect(get.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
  });
});

describe('permissions', () => {
  const paymentsOperation = defineOperation({
    version: 'v1',
    name: 'makeManualPolicyPaymentProbe',
    summary: 'probe',
    permission: 'payments:write',
    input: z.object({}),
    resources: { table: 'write' },
    handle: async (_input, { principal }) => ({ contactId: principal.contactId }),
  });

  it('answers 403 with an envelope when the caller lacks the permission, and lets an Administrator through', async () => {
    const contactId = randomUUID();
    await createContactProfileIfAbsent({
      id: contactId, name: 'Pat Insured', type: 'individual', roleIds: [NAMED_INSURED_ROLE], agencyIds: [], createdAt: new Date().toISOString(), version: 1,
    });
    const { apiKey } = await createApiKey(contactId, 'insured key');
    const denied = await paymentsOperation(httpEvent(JSON.stringify({ api_key: apiKey })), lambdaContext);
    expect(denied.statusCode).toBe(403);
    expect(JSON.parse(denied.body ?? '')).toEqual({ success: false, message: [expect.any(String)], data: null });

    const allowed = await paymentsOperation(httpEvent(JSON.stringify({ api_key: service.administratorApiKey })), lambdaContext);
    expect(allowed.statusCode).toBe(200);
    expect(JSON.parse(allowed.body ?? '').data).toEqual({ contactId: service.administratorContactId });
  });

  it('answers 401 before looking at the input when the credential is wrong', async () => {
    const strict = defineOperation({
      version: 'v2', name: 'strictProbe', summary: 'probe', permission: null, input: z.object({ required_field: z.string() }), resources: {},
      handle: async () => null,
    });
    const response = await strict(httpEvent(JSON.stringify({ api_key: 'nope' })), lambdaContext);
    expect(response.statusCode).toBe(401);
  });
});

describe('an Idempotency-Key whose first request never finished', () => {
  const SCOPE = 'idempotencyProbe';
  /** Runs once per key; `hang` stands for an invocation killed mid-work: it never answers. */
  const probe = defineIdempotentOperation({
    version: 'v2',
    name: 'idempotencyProbe',
    summary: 'probe',
    permission: null,
    input: z.object({ hang: z.boolean() }),
    resources: { table: 'write' },
    // The first call and its retry differ in `hang` only: compared on nothing, they are one request.
    idempotent: { scope: SCOPE, inProgress: 'The probe sent earlier with this Idempotency-Key is still running', comparedOn: () => ({}) },
    handle: async (input) => (input.hang ? new Promise<never>(() => undefined) : Promise.resolve({ ran: true })),
  });
  const withTimeLeft = (ms: number) => ({ ...lambdaContext, getRemainingTimeInMillis: () => ms }) as unknown as Context;
  const call = (key: string, hang: boolean, context: Context) =>
    probe(httpEvent(JSON.stringify({ api_key: service.administratorApiKey, hang }), { 'idempotency-key': key }), context);

  /** Starts a first call that never finishes, and returns once its in-progress mark is stored. */
  async function killedFirstCall(key: string, functionTimeoutMs: number) {
    void call(key, true, withTimeLeft(functionTimeoutMs));
    // The record of the caller's key: each caller's keys are their own.
    const itemKey = { [TABLE_KEYS.partition]: idempotencyPartition(SCOPE), [TABLE_KEYS.sort]: idempotencyRecordSortKey(SCOPE, `${service.administratorContactId}:${key}`) };
    for (;;) {
      const stored = (await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: itemKey, ConsistentRead: true }))).Item;
      if (stored?.status === 'INPROGRESS') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('no longer blocks a retry once the function would have been stopped: the retry runs and answers', async () => {
    const key = randomUUID();
    await killedFirstCall(key, 1_000);
    const retry = await call(key, false, lambdaContext);
    expect(retry.statusCode).toBe(200);
    expect(JSON.parse(retry.body ?? '')).toEqual({ success: true, messages: [], data: { ran: true } });
  });

  it('refuses a retry while the first may still run with 409, saying what is in progress and when to retry (Retry-After)', async () => {
    const key = randomUUID();
    await killedFirstCall(key, 20_000);
    const retry = await call(key, false, withTimeLeft(3_000));
    expect(retry.statusCode).toBe(409);
    const retryAfter = Number(retry.headers?.['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(JSON.parse(retry.body ?? '')).toEqual({
      success: false,
      messages: [`The probe sent earlier with this Idempotency-Key is still running; retry in ${retryAfter} seconds for its answer`],
      data: null,
    });
  });
});
