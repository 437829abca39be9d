/**
 * Administrators manage API keys: create_api_key shows a key once, list_api_keys never
 * shows key material, revoke_api_key makes a key fail from the next call on.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestToken } from '../../shared/auth/secrets.js';
import { createApiKey } from '../../shared/auth/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { startTestService, type TestService } from '../support/service.js';

const AGENT = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const CREATE = '/api/v2/auth/create_api_key';
const LIST = '/api/v2/auth/list_api_keys';
const REVOKE = '/api/v2/auth/revoke_api_key';

let service: TestService;
let agentId: string;

beforeAll(async () => {
  service = await startTestService();
  agentId = randomUUID();
  await createContactProfileIfAbsent({
    id: agentId,
    name: 'Casey Brandt',
    type: 'individual',
    roleIds: [AGENT],
    agencyIds: [],
    createdAt: new Date().toISOString(),
    version: 1,
  });
});

afterAll(async () => {
  await service?.stop();
});

describe('create_api_key', () => {
  it('answers a new working key for the contact, once', async () => {
    const created = await service.call(CREATE, { contact_id: agentId, description: 'agency portal integration' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      success: true,
      messages: [expect.stringContaining('cannot be shown again')],
      data: {
        key_id: expect.any(String),
        contact_id: agentId,
        description: 'agency portal integration',
        created_at: expect.any(String),
        api_key: expect.stringMatching(/^ias_/),
      },
    });
    // The key authenticates as the agent: authenticated (not 401) but not allowed to manage keys (403).
    const asAgent = await service.call(LIST, { contact_id: agentId }, { apiKey: created.body.data.api_key });
    expect(asAgent.status).toBe(403);

    const listed = await service.call(LIST, { contact_id: agentId });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.data.api_key);
  });

  it('refuses an unknown contact, naming it', async () => {
    const contactId = randomUUID();
    const answer = await service.call(CREATE, { contact_id: contactId, description: 'nobody' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: false, messages: [expect.stringContaining(contactId)], data: null });
  });

  it('names each missing or unusable field', async () => {
    const missing = await service.call(CREATE, {});
    expect(missing.body.success).toBe(false);
    expect(missing.body.messages).toEqual(
      expect.arrayContaining([expect.stringMatching(/^contact_id: /), expect.stringMatching(/^description: /)]),
    );
    const blank = await service.call(CREATE, { contact_id: agentId, description: '   ' });
    expect(blank.body).toEqual({ success: false, messages: ['description: must not be empty'], data: null });
    const long = await service.call(CREATE, { contact_id: agentId, description: 'x'.repeat(201) });
    expect(long.body.messages).toEqual(['description: must be at most 200 characters']);
  });
});

describe('list_api_keys', () => {
  it("lists a contact's keys with ids, descriptions and last use, and no key material", async () => {
    const contactId = randomUUID();
    await createContactProfileIfAbsent({ id: contactId, name: 'Jordan Pike', type: 'individual', roleIds: [AGENT], agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
    const used = await createApiKey(contactId, 'rating engine');
    const unused = await createApiKey(contactId, 'spare');
    await service.call(LIST, {}, { apiKey: used.apiKey }); // any authenticated call marks the key used

    const listed = await service.call(LIST, { contact_id: contactId });
    expect(listed.status).toBe(200);
    expect(listed.body.success).toBe(true);
    const byId = new Map(listed.body.data.map((key: { key_id: string }) => [key.key_id, key]));
    expect(byId.size).toBe(2);
    expect(byId.get(used.keyId)).toEqual({
      key_id: used.keyId,
      contact_id: contactId,
      description: 'rating engine',
      status: 'active',
      created_at: used.createdAt,
      last_used_at: expect.any(String),
      revoked_at: null,
    });
    expect(byId.get(unused.keyId)).toMatchObject({ description: 'spare', last_used_at: null });

    const text = JSON.stringify(listed.body);
    for (const key of [used, unused]) {
      expect(text).not.toContain(key.apiKey);
      expect(text).not.toContain(digestToken(key.apiKey));
    }
  });

  it('answers an empty list for a contact without keys, and not found for an unknown contact', async () => {
    const contactId = randomUUID();
    await createContactProfileIfAbsent({ id: contactId, name: 'No Keys', type: 'organization', roleIds: [], agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
    expect((await service.call(LIST, { contact_id: contactId })).body).toEqual({ success: true, messages: [], data: [] });
    const unknown = await service.call(LIST, { contact_id: 'not-a-contact' });
    expect(unknown.body).toEqual({ success: false, messages: [expect.stringContaining('not-a-contact')], data: null });
  });
});

describe('revoke_api_key', () => {
  it('makes the key fail from the next call on, and lists it as revoked', async () => {
    const { keyId, apiKey } = await createApiKey(agentId, 'to revoke');
    expect((await service.call(LIST, {}, { apiKey })).status).toBe(403);

    const revoked = await service.call(REVOKE, { key_id: keyId });
    expect(revoked.body).toEqual({
      success: true,
      messages: [],
      data: expect.objectContaining({ key_id: keyId, status: 'revoked', revoked_at: expect.any(String) }),
    });
    const refused = await service.call(LIST, {}, { apiKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, messages: [expect.any(String)], data: null });

    const listed = await service.call(LIST, { contact_id: agentId });
    expect(listed.body.data.find((key: { key_id: string }) => key.key_id === keyId)).toMatchObject({ status: 'revoked' });
  });

  it('keeps the first revocation time when revoked twice', async () => {
    const { keyId } = await createApiKey(agentId, 'twice');
    const first = await service.call(REVOKE, { key_id: keyId });
    const second = await service.call(REVOKE, { key_id: keyId });
    expect(second.body.success).toBe(true);
    expect(second.body.data.revoked_at).toBe(first.body.data.revoked_at);
  });

  it('answers not found for an unknown key id, and names a missing one', async () => {
    const keyId = randomUUID();
    expect((await service.call(REVOKE, { key_id: keyId })).body).toEqual({ success: false, messages: [expect.stringContaining(keyId)], data: null });
    expect((await service.call(REVOKE, {})).body).toEqual({ success: false, messages: [expect.stringMatching(/^key_id: /)], data: null });
  });

  it('leaves the other keys of the contact working', async () => {
    const kept = await createApiKey(agentId, 'kept');
    const dropped = await createApiKey(agentId, 'dropped');
    await service.call(REVOKE, { key_id: dropped.keyId });
    expect((await service.call(LIST, {}, { apiKey: kept.apiKey })).status).toBe(403);
  });
});

describe('who may manage keys', () => {
  it('refuses all three operations with 403 to a caller without api_keys:manage', async () => {
    const { apiKey, keyId } = await createApiKey(agentId, 'agent integration');
    for (const [path, body] of [
      [CREATE, { contact_id: agentId, description: 'self-service' }],
      [LIST, { contact_id: agentId }],
      [REVOKE, { key_id: keyId }],
    ] as const) {
      const answer = await service.call(path, body, { apiKey });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ success: false, messages: [expect.any(String)], data: null });
    }
    expect((await service.call(LIST, {}, { apiKey })).status).toBe(403);
  });
});
