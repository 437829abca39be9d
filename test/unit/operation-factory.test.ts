import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Reply } from '../../shared/platform/envelope.js';
import { AuthenticationError, BusinessRuleError } from '../../shared/platform/errors.js';
import type { PresentedCredentials } from '../../shared/platform/credentials.js';
import { operationFactory } from '../../shared/platform/operation.js';
import { defineOperationWithoutCaller } from '../../shared/define-operation.js';
import type { Principal } from '../../shared/platform/principal.js';
import { httpEvent, lambdaContext } from '../support/events.js';

const CLERK: Principal = {
  contactId: 'c-clerk',
  credential: 'api_key',
  roleIds: ['r-clerk'],
  heldRoleIds: ['r-clerk'],
  permissions: new Set(['notes:read']),
  agencyIds: [],
  scope: 'own',
  isAdministrator: false,
};

/** Knows one key; records every set of credentials it was asked to judge. */
const judged: PresentedCredentials[] = [];
const defineOperation = operationFactory({
  authenticate: async (credentials) => {
    judged.push(credentials);
    return credentials.apiKey === 'clerk-key' ? CLERK : undefined;
  },
});

const echo = (version: 'v1' | 'v2', wrapper?: 'json_dict' | 'json_obj') =>
  defineOperation({
    version,
    name: 'echo',
    summary: 'echo',
    permission: null,
    authentication: 'none',
    ...(wrapper ? { wrapper } : {}),
    input: z.object({ name: z.string(), nested: z.object({ count: z.number().int() }).optional() }),
    resources: {},
    handle: async (input) => input,
  });

async function invoke(handler: ReturnType<typeof echo>, body: string | undefined, headers: Record<string, string> = {}) {
  const response = await handler(httpEvent(body, headers), lambdaContext);
  return { status: response.statusCode, body: JSON.parse(response.body ?? 'null'), headers: response.headers ?? {} };
}

describe('operation factory', () => {
  it('answers a v2 envelope with messages and the handler data', async () => {
    const answer = await invoke(echo('v2'), JSON.stringify({ name: 'Ada' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, messages: [], data: { name: 'Ada' } });
  });

  it('answers a v1 envelope with message', async () => {
    const answer = await invoke(echo('v1'), JSON.stringify({ name: 'Ada' }));
    expect(answer.body).toEqual({ success: true, message: [], data: { name: 'Ada' } });
  });

  it('reads the body as JSON whatever the content type says, or when there is none', async () => {
    for (const headers of [{} as Record<string, string>, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'text/plain' }]) {
      const answer = await invoke(echo('v2'), '{"name":"Ada"}', headers);
      expect(answer.body.success).toBe(true);
    }
  });

  it('treats an empty body as an empty object, so missing fields are named', async () => {
    const answer = await invoke(echo('v2'), undefined);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: false, messages: ['name: is required'], data: null });
  });

  it('names every offending field path on a validation failure', async () => {
    const answer = await invoke(echo('v2'), JSON.stringify({ name: 7, nested: { count: 'x' } }));
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages).toHaveLength(2);
    expect(answer.body.messages[0]).toMatch(/^name: /);
    expect(answer.body.messages[1]).toMatch(/^nested\.count: /);
  });

  it('ignores keys beyond the schema, such as api_key', async () => {
    const answer = await invoke(echo('v2'), JSON.stringify({ name: 'Ada', api_key: 'secret', extra: 1 }));
    expect(answer.body.data).toEqual({ name: 'Ada' });
  });

  it('accepts the v1 json_dict wrapper as an object, as a JSON string, and the flat form', async () => {
    const handler = echo('v1', 'json_dict');
    for (const body of [{ json_dict: { name: 'Ada' } }, { json_dict: JSON.stringify({ name: 'Ada' }) }, { name: 'Ada' }]) {
      const answer = await invoke(handler, JSON.stringify(body));
      expect(answer.body).toEqual({ success: true, message: [], data: { name: 'Ada' } });
    }
  });

  it('answers 400 with an envelope when the body is not JSON at all', async () => {
    for (const body of ['{name:', 'api_key=abc&name=x', '{"name": "Ada"']) {
      const answer = await invoke(echo('v2'), body);
      expect(answer.status).toBe(400);
      expect(answer.body.success).toBe(false);
      expect(answer.body.messages[0]).toMatch(/JSON/);
    }
  });

  it('answers JSON that is not an object as a validation failure naming the body', async () => {
    for (const body of ['[1,2]', '"text"', 'null', '42']) {
      const answer = await invoke(echo('v2'), body);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: false, messages: ['body: must be a JSON object'], data: null });
    }
  });

  it('reads a body that starts with a UTF-8 byte-order mark', async () => {
    const answer = await invoke(echo('v2'), '\uFEFF{"name":"Ada"}');
    expect(answer.body).toEqual({ success: true, messages: [], data: { name: 'Ada' } });
  });

  it('answers 413 with an envelope when the body is over the limit', async () => {
    const answer = await invoke(echo('v2'), JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024 + 10) }));
    expect(answer.status).toBe(413);
    expect(answer.body.success).toBe(false);
  });

  it('maps a business rule failure to 200 with success false and its data', async () => {
    const handler = defineOperation({
      version: 'v2', name: 'refuse', summary: 'refuse', permission: null, authentication: 'none', input: z.object({}), resources: {},
      handle: async () => {
        throw new BusinessRuleError('policy_number 10-2026-1 exists already', { exists: true });
      },
    });
    const answer = await invoke(handler as never, '{}');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: false, messages: ['policy_number 10-2026-1 exists already'], data: { exists: true } });
  });

  it('answers 500 with a generic message and the request id, never the fault itself', async () => {
    const handler = defineOperation({
      version: 'v2', name: 'fault', summary: 'fault', permission: null, authentication: 'none', input: z.object({}), resources: {},
      handle: async () => {
        throw new Error('connection string postgres://secret@db');
      },
    });
    const response = await handler(httpEvent('{}'), lambdaContext);
    expect(response.statusCode).toBe(500);
    const body = JSON.parse(response.body ?? '');
    expect(body.success).toBe(false);
    expect(body.messages[0]).toContain(response.headers?.['x-request-id'] as string);
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('at ');
  });

  it('passes an operation-specific shape through untouched', async () => {
    const handler = defineOperation({
      version: 'v1', name: 'custom', summary: 'custom', permission: null, authentication: 'none', input: z.object({}), resources: {},
      handle: async () => new Reply({ success: true, id: 'c-1', address_ids: [] }),
    });
    const answer = await invoke(handler as never, '{}');
    expect(answer.body).toEqual({ success: true, id: 'c-1', address_ids: [] });
  });

  it('asks the authenticator it was given about the presented credentials, and hands the caller to the operation', async () => {
    const whoAmI = defineOperation({
      version: 'v2', name: 'who', summary: 'who', permission: 'notes:read', input: z.object({}), resources: {},
      handle: async (_input, { principal }) => ({ contactId: principal.contactId }),
    });
    judged.length = 0;
    const answer = await invoke(whoAmI as never, JSON.stringify({ api_key: 'clerk-key' }));
    expect(answer.body).toEqual({ success: true, messages: [], data: { contactId: 'c-clerk' } });
    expect(judged).toEqual([{ apiKey: 'clerk-key' }]);
  });

  it('answers 401 when the authenticator knows no caller, and 403 when the caller lacks the permission', async () => {
    const payments = defineOperation({
      version: 'v2', name: 'pay', summary: 'pay', permission: 'payments:write', input: z.object({}), resources: {}, handle: async () => null,
    });
    expect((await invoke(payments as never, JSON.stringify({ api_key: 'stranger' }))).status).toBe(401);
    expect((await invoke(payments as never, JSON.stringify({ api_key: 'clerk-key' }))).status).toBe(403);
  });

  it('gives an operation that authenticates itself the presented credentials, unjudged', async () => {
    const selfJudging = defineOperation({
      version: 'v2', name: 'session', summary: 'session', permission: null, authentication: 'none', input: z.object({}), resources: {},
      handle: async (_input, { credentials }) => credentials,
    });
    judged.length = 0;
    const answer = await invoke(selfJudging as never, JSON.stringify({ api_key: 'anything' }), { cookie: 'ias_session=sess_1' });
    expect(answer.body.data).toEqual({ apiKey: 'anything', sessionToken: 'sess_1' });
    expect(judged).toEqual([]);
  });

  it('lets an operation without credentials judge the request by its own rule on the raw body, before validation', async () => {
    const seen: Array<{ rawBody: string; signature?: string }> = [];
    const signed = defineOperation({
      version: 'v2', name: 'webhook', summary: 'webhook', permission: null, authentication: 'none',
      authenticateRequest: ({ rawBody, headers }) => {
        seen.push({ rawBody, signature: headers['x-signature'] });
        if (headers['x-signature'] !== `sig(${rawBody})`) throw new AuthenticationError('bad signature');
      },
      input: z.object({ event_type: z.enum(['signed']) }),
      resources: {},
      handle: async (input, { rawBody }) => ({ input, rawBody }),
    });
    // Spacing and key order as the vendor sent them: re-serialised JSON would not match.
    const raw = '{ "event_type":"signed",  "extra": 1 }';
    const good = await invoke(signed as never, raw, { 'X-Signature': `sig(${raw})` });
    expect(good.body.data).toEqual({ input: { event_type: 'signed' }, rawBody: raw });
    const encoded = await signed(
      { ...httpEvent(Buffer.from(raw).toString('base64'), { 'x-signature': `sig(${raw})` }), isBase64Encoded: true },
      lambdaContext,
    );
    expect(encoded.statusCode).toBe(200);

    const forged = await invoke(signed as never, raw, { 'x-signature': 'sig(something else)' });
    expect(forged.status).toBe(401);
    expect(forged.body.messages).toEqual(['bad signature']);
    // Refused before the schema ran: an invalid body with a bad signature is a 401, not a field message.
    expect((await invoke(signed as never, '{"event_type":"exploded"}')).status).toBe(401);
    expect(seen.map((entry) => entry.rawBody)).toEqual([raw, raw, raw, '{"event_type":"exploded"}']);
  });

  it('refuses to define an operation whose own rule would be bypassed by a credential', () => {
    expect(() =>
      defineOperation({
        version: 'v2', name: 'confused', summary: 'confused', permission: null, authenticateRequest: () => undefined, input: z.object({}), resources: {},
        handle: async () => null,
      }),
    ).toThrow(/authentication 'none'/);
  });

  it('defines an operation without the authenticator only when it needs no caller, failing when the module loads otherwise', () => {
    expect(() =>
      defineOperationWithoutCaller({ version: 'v2', name: 'needs_caller', summary: 'x', permission: 'notes:read', input: z.object({}), resources: {}, handle: async () => null }),
    ).toThrow(/needs_caller: defineOperationWithoutCaller is for operations with authentication 'none'/);
    const open = defineOperationWithoutCaller({ version: 'v2', name: 'open', summary: 'x', permission: null, authentication: 'none', input: z.object({}), resources: {}, handle: async () => null });
    expect(open.operation).toMatchObject({ name: 'open', authentication: 'none' });
  });

  it('exposes its metadata for the route table, the CDK app and the OpenAPI description', () => {
    const handler = echo('v1', 'json_dict');
    expect(handler.operation).toMatchObject({ version: 'v1', name: 'echo', permission: null, authentication: 'none', wrapper: 'json_dict' });
  });

  /** An operation whose request schema is given as the function that builds it, counting its builds. */
  const builtLazily = <S extends z.ZodType>(name: string, schema: () => S) => {
    const counted = { builds: 0 };
    const handler = defineOperation({
      version: 'v2',
      name,
      summary: name,
      permission: null,
      authentication: 'none',
      input: () => {
        counted.builds += 1;
        return schema();
      },
      resources: {},
      handle: async (input) => input,
    });
    return { handler, counted };
  };

  it('builds a request schema given as a function on the first request, not when the operation is defined, and only once', async () => {
    const { handler, counted } = builtLazily('lazy', () => z.object({ name: z.string(), nested: z.object({ count: z.number().int() }).optional() }));
    expect(counted.builds).toBe(0);

    const refused = await invoke(handler, JSON.stringify({ nested: { count: 'x' } }));
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages).toEqual(['name: is required', expect.stringMatching(/^nested\.count: /)]);
    const accepted = await invoke(handler, JSON.stringify({ name: 'Ada' }));
    expect(accepted.body).toEqual({ success: true, messages: [], data: { name: 'Ada' } });
    // The OpenAPI description reads the very schema the requests were judged by.
    expect(handler.operation.input).toBe(handler.operation.input);
    expect(counted.builds).toBe(1);
  });

  it('hands the description a schema given as a function without a request having been made', () => {
    const { handler, counted } = builtLazily('described', () => z.object({ name: z.string() }));
    expect(z.toJSONSchema(handler.operation.input)).toMatchObject({ type: 'object', required: ['name'] });
    expect(counted.builds).toBe(1);
  });
});
