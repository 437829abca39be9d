/**
 * A contact's standing decides its access (issue 7, items 1 and 2): termination and an
 * inactive agency shut every credential out from the next call on, restoring them lets it
 * back in, and nobody changes its own standing or that of a contact above it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../shared/auth/secrets.js';
import { ensureOAuthClient } from '../../shared/auth/store.js';
import { getContact } from '../../shared/contacts/store.js';
import { startTestService, successData, type ApiAnswer, type CallOptions, type TestService } from '../support/service.js';

const ROLE = {
  administrator: '7be0803d-445c-4e35-8419-52b07cd4d537',
  agency: 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692',
  agent: '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc',
  namedInsured: '8626b373-c54d-498a-82bf-fd2d2f32b746',
};
const RELEASE_INFO = '/api/v2/utils/get_release_info';
const SESSION = '/api/v2/auth/session';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

async function newContact(name: string, role: string, extra: Record<string, unknown> = {}, apiKey?: string): Promise<string> {
  const answer = await service.call('/api/v1/contacts/storeNewContact', { role, content: { name, type: 'individual', ...extra } }, apiKey ? { apiKey } : {});
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
  return answer.body.id;
}

async function apiKeyOf(contactId: string): Promise<string> {
  return successData(await service.call('/api/v2/auth/create_api_key', { contact_id: contactId, description: 'standing test' })).api_key;
}

const storeRoles = (body: Record<string, unknown>, apiKey?: string) => service.call('/api/v1/contacts/storeRoles', body, apiKey ? { apiKey } : {});

function sessionTokenOf(answer: ApiAnswer): string {
  const cookie = answer.headers.getSetCookie().find((value) => value.startsWith('ias_session='));
  expect(cookie, JSON.stringify(answer.body)).toBeDefined();
  return decodeURIComponent(cookie!.split(';')[0].slice('ias_session='.length));
}

async function bearerTokenOf(contactId: string): Promise<string> {
  const client = { clientId: `client-${randomUUID()}`, clientSecret: newToken('secret') };
  await ensureOAuthClient(client.clientId, contactId, client.clientSecret);
  const response = await fetch(`${service.url}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}` },
    body: 'grant_type=client_credentials',
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Every kind of credential of one contact, each obtained while it was in good standing. */
interface Credentials {
  apiKey: string;
  sessionToken: string;
  bearerToken: string;
}

async function credentialsOf(contactId: string): Promise<Credentials> {
  const apiKey = await apiKeyOf(contactId);
  const sessionToken = sessionTokenOf(await service.call(SESSION, {}, { apiKey }));
  return { apiKey, sessionToken, bearerToken: await bearerTokenOf(contactId) };
}

const asSession = (token: string): CallOptions => ({ apiKey: null, headers: { cookie: `ias_session=${token}` } });
const asBearer = (token: string): CallOptions => ({ apiKey: null, headers: { authorization: `Bearer ${token}` } });

/** What each credential kind answers now: an ordinary operation's status, and the session operation's verdicts. */
async function access(credentials: Credentials) {
  const [apiKey, header, session, bearer, newSession, sameSession] = await Promise.all([
    service.call(RELEASE_INFO, {}, { apiKey: credentials.apiKey }),
    service.call(RELEASE_INFO, {}, { apiKey: null, headers: { authorization: credentials.apiKey } }),
    service.call(RELEASE_INFO, {}, asSession(credentials.sessionToken)),
    service.call(RELEASE_INFO, {}, asBearer(credentials.bearerToken)),
    service.call(SESSION, {}, { apiKey: credentials.apiKey }),
    service.call(SESSION, {}, asSession(credentials.sessionToken)),
  ]);
  return {
    apiKey: apiKey.status,
    apiKeyInHeader: header.status,
    sessionCookie: session.status,
    bearerToken: bearer.status,
    newSession: newSession.body.permissionDenied === true ? 'permissionDenied' : newSession.body.success,
    sameSession: sameSession.body.permissionDenied === true ? 'permissionDenied' : sameSession.body.success,
  };
}

const LET_IN = { apiKey: 200, apiKeyInHeader: 200, sessionCookie: 200, bearerToken: 200, newSession: true, sameSession: true };
const SHUT_OUT = { apiKey: 401, apiKeyInHeader: 401, sessionCookie: 401, bearerToken: 401, newSession: 'permissionDenied', sameSession: 'permissionDenied' };

describe('standing decides access', () => {
  let agencyId: string;
  let agentId: string;
  let agent: Credentials;
  let agency: Credentials;

  beforeAll(async () => {
    agencyId = await newContact('Lakeside Agency', 'Agency');
    agentId = await newContact('Morgan Vale', 'Agent', { agencyId });
    [agent, agency] = await Promise.all([credentialsOf(agentId), credentialsOf(agencyId)]);
  });

  it('shuts a terminated agent out with every credential from the next call, and lets it back in once restored', async () => {
    expect(await access(agent)).toEqual(LET_IN);
    const terminate = await storeRoles({ contactId: agentId, roleId: ROLE.agent, termination: { isTerminated: true, reasonTerminated: 'licence lapsed' } });
    expect(terminate.body).toMatchObject({ success: true, message: [] });
    expect(await access(agent)).toEqual(SHUT_OUT);

    // A terminated agent cannot even ask to be restored.
    const selfRestore = await storeRoles({ contactId: agentId, roleId: ROLE.agent, termination: { isTerminated: false } }, agent.apiKey);
    expect(selfRestore.status).toBe(401);

    successData(await storeRoles({ contactId: agentId, roleId: ROLE.agent, termination: { isTerminated: false, reasonTerminated: null } }));
    expect(await access(agent)).toEqual(LET_IN);
  });

  it("shuts out the agents of an inactive agency and the agency itself, and lets them back in once it is active", async () => {
    successData(await storeRoles({ contactId: agencyId, roleId: ROLE.agency, agencyInactive: true }));
    expect(await access(agent)).toEqual(SHUT_OUT);
    expect(await access(agency)).toEqual(SHUT_OUT);

    successData(await storeRoles({ contactId: agencyId, roleId: ROLE.agency, agencyInactive: 'false' }));
    expect(await access(agent)).toEqual(LET_IN);
    expect(await access(agency)).toEqual(LET_IN);
  });

  it('leaves a named insured of an inactive agency its own reach', async () => {
    const insuredId = await newContact('Robin Ashe', 'Named Insured', { agencyId });
    const insured = await apiKeyOf(insuredId);
    successData(await storeRoles({ contactId: agencyId, roleId: ROLE.agency, agencyInactive: true }));
    try {
      expect((await service.call(RELEASE_INFO, {}, { apiKey: insured })).status).toBe(200);
    } finally {
      successData(await storeRoles({ contactId: agencyId, roleId: ROLE.agency, agencyInactive: false }));
    }
  });
});

describe('nobody changes its own standing, nor that of a contact above it', () => {
  let agencyId: string;
  let agentId: string;
  let agentKey: string;
  let underwriterKey: string;
  let insuredId: string;

  beforeAll(async () => {
    agencyId = await newContact('Ridgeway Agency', 'Agency');
    agentId = await newContact('Casey Brandt', 'Agent', { agencyId });
    agentKey = await apiKeyOf(agentId);
    underwriterKey = await apiKeyOf(await newContact('Uma Wright', 'Underwriter'));
    insuredId = await newContact('Jordan Pike', 'Named Insured', { agencyId });
  });

  it('refuses an agent that would change its own termination, agencies or login, but lets it change its password', async () => {
    const terminate = await storeRoles({ contactId: agentId, roleId: ROLE.agent, termination: { isTerminated: false, reasonTerminated: 'fine' } }, agentKey);
    expect(terminate.body).toMatchObject({ success: false, message: ['termination: you may not change your own'] });
    const move = await storeRoles({ contactId: agentId, roleId: ROLE.agent, agencies: { toDelete: [agencyId] } }, agentKey);
    // Leaving its default agency would also drop the default: both are its own standing.
    expect(move.body).toMatchObject({ success: false, message: ['agencies: you may not change your own', 'defaultAgency: you may not change your own'] });

    successData(await storeRoles({ contactId: agentId, roleId: ROLE.agent, loginInformation: { roleLoginUsername: `casey-${randomUUID()}`, roleLoginPassword: 'first secret', roleLoginRetypePassword: 'first secret' } }));
    const rename = await storeRoles({ contactId: agentId, roleId: ROLE.agent, loginInformation: { roleLoginUsername: `casey-${randomUUID()}` } }, agentKey);
    expect(rename.body).toMatchObject({ success: false, message: ['loginInformation: of your own login you may change only the password'] });
    const password = await storeRoles({ contactId: agentId, roleId: ROLE.agent, loginInformation: { roleLoginPassword: 'second secret', roleLoginRetypePassword: 'second secret' } }, agentKey);
    expect(password.body).toMatchObject({ success: true, message: [] });
  });

  it('refuses an agent that would reactivate its agency, or give itself any role', async () => {
    const reactivate = await storeRoles({ contactId: agencyId, roleId: ROLE.agency, agencyInactive: false }, agentKey);
    expect(reactivate.body).toMatchObject({ success: false, message: ['contactId: you may not change a contact holding the Agency role'] });
    const insuredRole = await storeRoles({ contactId: agentId, roleId: ROLE.namedInsured }, agentKey);
    expect(insuredRole.body).toMatchObject({ success: false, message: ['roleId: you may not give yourself the Named Insured role'] });
    expect((await getContact(agentId))?.roleIds).toEqual([ROLE.agent]);
  });

  it('lets an agent give customer roles to a contact of its agency, and no other role, nor change that contact\'s standing', async () => {
    successData(await storeRoles({ contactId: insuredId, roleId: '069ad0ce-bb95-41c0-baf9-b9d58afc92cb' }, agentKey));
    const agentRole = await storeRoles({ contactId: insuredId, roleId: ROLE.agent }, agentKey);
    expect(agentRole.body).toMatchObject({ success: false, message: ['roleId: you may not give the Agent role'] });
    const created = await service.call('/api/v1/contacts/storeNewContact', { role: 'Agency', content: { name: 'Shadow Agency', type: 'organization' } }, { apiKey: agentKey });
    expect(created.body).toMatchObject({ success: false, message: ['role: you may not give the Agency role'] });
    const login = await storeRoles(
      { contactId: insuredId, roleId: ROLE.namedInsured, loginInformation: { roleLoginUsername: `jordan-${randomUUID()}`, roleLoginPassword: 'a password', roleLoginRetypePassword: 'a password' } },
      agentKey,
    );
    expect(login.body.success).toBe(false);
    expect(login.body.message).toContain('loginInformation: only an Administrator, or an Underwriter for agents and agencies, may change it');
  });

  it("closes the path by which an agent reset an Administrator's login, at both ends", async () => {
    const administratorId = await newContact('Avery Admin', 'Administrator');
    // One end: an Underwriter may not attach an Administrator to an agency.
    const attach = await storeRoles({ contactId: administratorId, roleId: ROLE.administrator, agencies: { toAdd: [agencyId] } }, underwriterKey);
    expect(attach.body).toMatchObject({ success: false, message: ['contactId: you may not change a contact holding the Administrator role'] });
    expect((await getContact(administratorId))?.agencyIds).toEqual([]);

    // The other: attached all the same (by an Administrator), it is still beyond the agency's agent.
    successData(await storeRoles({ contactId: administratorId, roleId: ROLE.administrator, agencies: { toAdd: [agencyId] } }));
    const reset = await storeRoles(
      { contactId: administratorId, roleId: ROLE.administrator, loginInformation: { roleLoginUsername: `taken-${randomUUID()}`, roleLoginPassword: 'agent chose', roleLoginRetypePassword: 'agent chose' } },
      agentKey,
    );
    expect(reset.body).toMatchObject({ success: false, message: ['contactId: you may not change a contact holding the Administrator role'] });
    expect((await getContact(administratorId))?.login).toBeUndefined();
    const read = await service.call('/api/v1/contacts/retrieveAspectData', { id: administratorId, roleId: ROLE.administrator, hasPermissions: true }, { apiKey: agentKey });
    expect(read.body).toMatchObject({ success: false, message: ['id: you may not read the aspect data of a contact holding the Administrator role'] });
    // A lookup still shows it by name, as it shows every contact of the agency.
    const found = await service.call('/api/v1/contacts/lookupContactByName', { name: 'Avery', role: 'Administrator', role_type: 'individual' }, { apiKey: agentKey });
    expect(found.body.data.map((contact: { id: string }) => contact.id)).toEqual([administratorId]);
  });

  it('lets an Underwriter change the standing of agents, but not of other contacts', async () => {
    const terminate = await storeRoles({ contactId: agentId, roleId: ROLE.agent, termination: { isTerminated: true } }, underwriterKey);
    expect(terminate.body).toMatchObject({ success: true, message: [] });
    successData(await storeRoles({ contactId: agentId, roleId: ROLE.agent, termination: { isTerminated: false } }, underwriterKey));
    const insured = await storeRoles({ contactId: insuredId, roleId: ROLE.namedInsured, termination: { isTerminated: true } }, underwriterKey);
    expect(insured.body).toMatchObject({ success: false, message: ['termination: only an Administrator, or an Underwriter for agents and agencies, may change it'] });
  });
});
