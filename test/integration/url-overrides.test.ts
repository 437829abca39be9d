/**
 * URL overrides through the local server, wrapped in json_obj as real clients send them
 * (and flat): defaults, validation, duplicates and unknown paths, the shared secret, and
 * who may change them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../shared/auth/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { startTestService, type TestService } from '../support/service.js';

const AGENT = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const UNDERWRITER = 'f572e03a-a70b-4671-a45c-bae3e4b9cc1b';

let service: TestService;
let agentKey: string;
let underwriterKey: string;

async function keyFor(roleId: string, name: string): Promise<string> {
  const id = crypto.randomUUID();
  await createContactProfileIfAbsent({ id, name, type: 'individual', roleIds: [roleId], agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
  return (await createApiKey(id, name)).apiKey;
}

beforeAll(async () => {
  service = await startTestService();
  agentKey = await keyFor(AGENT, 'Override Agent');
  underwriterKey = await keyFor(UNDERWRITER, 'Override Underwriter');
});

afterAll(async () => {
  await service?.stop();
});

const ui = (operation: string, fields: Record<string, unknown>, apiKey?: string) =>
  service.call(`/api/v1/custom_ui/${operation}`, { json_obj: fields }, apiKey ? { apiKey } : {});

describe('URL overrides', () => {
  it('creates an override with the defaults and lists it', async () => {
    const created = await ui('createURLOverride', { url: '/policies/summary', override: 'https://portal.example.com/summary' });
    expect(created.body).toMatchObject({ success: true, message: [] });
    const listed = await ui('retrieveURLOverrides', {});
    expect(listed.body.success).toBe(true);
    expect(listed.body.data).toContainEqual({
      url: '/policies/summary',
      override: 'https://portal.example.com/summary',
      http_method: 'GET',
      enabled: true,
      shared_secret: null,
      category: null,
    });
  });

  it('accepts the flat form too, with every field', async () => {
    const created = await service.call('/api/v1/custom_ui/createURLOverride', {
      url: '/billing/pay',
      override: 'http://payments.example.com/pay',
      http_method: 'post',
      shared_secret: 'hmac-key-123',
      category: 'billing',
    });
    expect(created.body.success).toBe(true);
    const listed = await ui('retrieveURLOverrides', {});
    expect(listed.body.data.find((o: { url: string }) => o.url === '/billing/pay')).toEqual({
      url: '/billing/pay',
      override: 'http://payments.example.com/pay',
      http_method: 'POST',
      enabled: true,
      shared_secret: 'hmac-key-123',
      category: 'billing',
    });
  });

  it('refuses a duplicate path, an external path and a relative override', async () => {
    await ui('createURLOverride', { url: '/claims/new', override: 'https://claims.example.com/new' });
    const duplicate = await ui('createURLOverride', { url: '/claims/new', override: 'https://other.example.com' });
    expect(duplicate.status).toBe(200);
    expect(duplicate.body).toMatchObject({ success: false, message: ['url: a URL override for /claims/new already exists'] });
    const external = await ui('createURLOverride', { url: 'https://example.com/x', override: 'https://example.com' });
    expect(external.body.success).toBe(false);
    expect(external.body.message[0]).toMatch(/^url:/);
    const relative = await ui('createURLOverride', { url: '/x', override: '/y' });
    expect(relative.body.success).toBe(false);
    expect(relative.body.message[0]).toMatch(/^override:/);
    const method = await ui('createURLOverride', { url: '/x', override: 'https://example.com', http_method: 'DELETE' });
    expect(method.body.message[0]).toMatch(/^http_method:/);
  });

  it('updates only the fields passed, and answers an unknown path with a message', async () => {
    await ui('createURLOverride', { url: '/reports', override: 'https://reports.example.com', category: 'reports', shared_secret: 'one' });
    const updated = await ui('updateURLOverride', { url: '/reports', enabled: false, http_method: 'POST', shared_secret: 'two' });
    expect(updated.body.success).toBe(true);
    let found = (await ui('retrieveURLOverrides', {})).body.data.find((o: { url: string }) => o.url === '/reports');
    expect(found).toEqual({ url: '/reports', override: 'https://reports.example.com', http_method: 'POST', enabled: false, shared_secret: 'two', category: 'reports' });

    await ui('updateURLOverride', { url: '/reports', override: 'https://new.example.com/r', shared_secret: null, category: '' });
    found = (await ui('retrieveURLOverrides', {})).body.data.find((o: { url: string }) => o.url === '/reports');
    expect(found).toMatchObject({ override: 'https://new.example.com/r', enabled: false, shared_secret: null, category: null });

    const unknown = await ui('updateURLOverride', { url: '/nowhere', enabled: true });
    expect(unknown.body).toMatchObject({ success: false, message: ['url: there is no URL override for /nowhere'] });
  });

  it('deletes an override once, answering a second delete with a message', async () => {
    await ui('createURLOverride', { url: '/temporary', override: 'https://tmp.example.com' });
    expect((await ui('deleteURLOverride', { url: '/temporary' })).body.success).toBe(true);
    const again = await ui('deleteURLOverride', { url: '/temporary' });
    expect(again.body).toMatchObject({ success: false, message: ['url: there is no URL override for /temporary'] });
    const listed = await ui('retrieveURLOverrides', {});
    expect(listed.body.data.map((o: { url: string }) => o.url)).not.toContain('/temporary');
  });

  it('lets only an administrator change overrides, and hides the secret from everyone else', async () => {
    for (const key of [agentKey, underwriterKey]) {
      const create = await ui('createURLOverride', { url: '/agent/x', override: 'https://x.example.com' }, key);
      expect(create.status).toBe(403);
      expect(create.body.success).toBe(false);
      expect((await ui('updateURLOverride', { url: '/billing/pay', enabled: false }, key)).status).toBe(403);
      expect((await ui('deleteURLOverride', { url: '/billing/pay' }, key)).status).toBe(403);
    }
    const seenByAgent = await ui('retrieveURLOverrides', {}, agentKey);
    expect(seenByAgent.body.success).toBe(true);
    const billing = seenByAgent.body.data.find((o: { url: string }) => o.url === '/billing/pay');
    expect(billing).toMatchObject({ enabled: true, shared_secret: null });
    expect(JSON.stringify(seenByAgent.body)).not.toContain('hmac-key-123');
  });
});
