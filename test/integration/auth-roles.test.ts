/**
 * retrieve_my_roles, retrieve_my_permissions and select_my_role (spec 4.4): a role
 * selected for an OAuth client's grant governs what that client's tokens may do.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMINISTRATOR_ROLE_ID } from '../../shared/contacts/roles.js';
import { newToken } from '../../shared/auth/secrets.js';
import { ensureOAuthClient } from '../../shared/auth/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { startTestService, type TestService } from '../support/service.js';

const AGENT = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const UNDERWRITER = 'f572e03a-a70b-4671-a45c-bae3e4b9cc1b';
const NAMED_INSURED = '8626b373-c54d-498a-82bf-fd2d2f32b746';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

interface Client {
  clientId: string;
  clientSecret: string;
  contactId: string;
}

/** A contact holding `roleIds`, with an OAuth client (client credentials) acting for it. */
async function contactWithClient(name: string, roleIds: string[], contactId: string = randomUUID()): Promise<Client> {
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds, agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
  const client = { clientId: `client-${randomUUID()}`, clientSecret: newToken('secret'), contactId };
  await ensureOAuthClient(client.clientId, contactId, client.clientSecret);
  return client;
}

async function tokenFor(client: Client): Promise<string> {
  const response = await fetch(`${service.url}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

const asBearer = (token: string) => ({ apiKey: null, headers: { authorization: `Bearer ${token}` } });
const roles = (token: string) => service.call('/api/v2/auth/retrieve_my_roles', {}, asBearer(token));
const permissions = (token: string) => service.call('/api/v2/auth/retrieve_my_permissions', {}, asBearer(token));
const select = (token: string, roleId: unknown) => service.call('/api/v2/auth/select_my_role', { role_id: roleId }, asBearer(token));

describe('a contact holding the Agent and Underwriter roles', () => {
  let client: Client;

  beforeAll(async () => {
    client = await contactWithClient('Dana Hollis', [AGENT, UNDERWRITER]);
  });

  it('sees both roles, none selected, and the permissions of both until it selects one', async () => {
    const token = await tokenFor(client);
    const held = await roles(token);
    expect(held.status).toBe(200);
    expect(held.body).toEqual({
      success: true,
      messages: [],
      data: [
        { id: AGENT, name: 'Agent', selected: false },
        { id: UNDERWRITER, name: 'Underwriter', selected: false },
      ],
    });

    const granted = await permissions(token);
    expect(granted.body.success).toBe(true);
    expect(granted.body.data).toMatchObject({ contact_id: client.contactId, selected_role_id: null });
    expect(granted.body.data.roles.map((role: { id: string }) => role.id).sort()).toEqual([AGENT, UNDERWRITER].sort());
    expect(granted.body.data.permissions).toEqual(expect.arrayContaining(['reviews:*', 'contacts:read', 'policies:bind']));
    expect(granted.body.data.permissions).toEqual([...granted.body.data.permissions].sort());
  });

  it('selects Agent and loses the Underwriter-only permissions on the next call with a new token of the same client', async () => {
    const selected = await select(await tokenFor(client), AGENT);
    expect(selected.status).toBe(200);
    expect(selected.body).toEqual({
      success: true,
      messages: [expect.stringContaining('Agent')],
      data: { role_id: AGENT, name: 'Agent', permissions: expect.arrayContaining(['policies:bind']) },
    });

    const next = await tokenFor(client);
    const granted = await permissions(next);
    expect(granted.body.data.selected_role_id).toBe(AGENT);
    expect(granted.body.data.roles).toEqual([{ id: AGENT, name: 'Agent' }]);
    expect(granted.body.data.permissions).toContain('policies:bind');
    expect(granted.body.data.permissions).not.toContain('reviews:*');
    expect(granted.body.data.permissions).not.toContain('policies:*');

    expect((await roles(next)).body.data).toEqual([
      { id: AGENT, name: 'Agent', selected: true },
      { id: UNDERWRITER, name: 'Underwriter', selected: false },
    ]);
  });

  it('can go back to Underwriter, since it still holds that role', async () => {
    const token = await tokenFor(client);
    expect((await select(token, UNDERWRITER)).body.success).toBe(true);
    const granted = await permissions(token);
    expect(granted.body.data.selected_role_id).toBe(UNDERWRITER);
    expect(granted.body.data.permissions).toContain('reviews:*');
  });

  it('cannot select a role it does not hold, or one that does not exist, and keeps its selection', async () => {
    const token = await tokenFor(client);
    for (const roleId of [ADMINISTRATOR_ROLE_ID, NAMED_INSURED, randomUUID()]) {
      const refused = await select(token, roleId);
      expect(refused.status).toBe(200);
      expect(refused.body).toEqual({ success: false, messages: [expect.stringContaining(`role_id: ${roleId}`)], data: null });
    }
    expect((await permissions(token)).body.data.selected_role_id).toBe(UNDERWRITER);
  });

  it('is told which field is wrong when role_id is missing or empty', async () => {
    const token = await tokenFor(client);
    for (const roleId of [undefined, '', 42]) {
      const refused = await select(token, roleId);
      expect(refused.status).toBe(200);
      expect(refused.body.success).toBe(false);
      expect(refused.body.messages).toEqual([expect.stringMatching(/^role_id: /)]);
    }
  });
});

describe('the selection belongs to one OAuth grant', () => {
  it('leaves another client of the same contact acting with every role', async () => {
    const first = await contactWithClient('Morgan Reyes', [AGENT, UNDERWRITER]);
    const second = { ...first, clientId: `client-${randomUUID()}` };
    await ensureOAuthClient(second.clientId, second.contactId, second.clientSecret);

    expect((await select(await tokenFor(first), AGENT)).body.success).toBe(true);
    const other = await permissions(await tokenFor(second));
    expect(other.body.data.selected_role_id).toBeNull();
    expect(other.body.data.permissions).toContain('reviews:*');
  });

  it("governs real operations: an Administrator's client that selects Agent may no longer manage API keys", async () => {
    const client = await contactWithClient('Riley Chen', [ADMINISTRATOR_ROLE_ID, AGENT]);
    const listKeys = async () => service.call('/api/v2/auth/list_api_keys', { contact_id: client.contactId }, asBearer(await tokenFor(client)));
    expect((await listKeys()).status).toBe(200);

    expect((await select(await tokenFor(client), AGENT)).body.success).toBe(true);
    const refused = await listKeys();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, messages: [expect.any(String)], data: null });

    expect((await select(await tokenFor(client), ADMINISTRATOR_ROLE_ID)).body.success).toBe(true);
    expect((await listKeys()).status).toBe(200);
  });
});

describe('credentials without an OAuth grant', () => {
  it('are refused with 401 by all three operations, which name the bearer token they need', async () => {
    for (const operation of ['retrieve_my_roles', 'retrieve_my_permissions', 'select_my_role']) {
      const answer = await service.call(`/api/v2/auth/${operation}`, { role_id: ADMINISTRATOR_ROLE_ID });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ success: false, messages: [expect.stringContaining('Bearer')], data: null });
    }
  });
});
