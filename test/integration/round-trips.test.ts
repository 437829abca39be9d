/**
 * Issue 47: a call is authenticated in one read (the credential's record carries what
 * authentication needs of its contact), a change of the contact's roles or standing holds from
 * the very next call with every credential kind, and the meter that counts a call's sequential
 * round trips (test/support/round-trips.ts) counts what the code waits for. Counts, not timings:
 * nothing here depends on the machine's speed.
 */
import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyRecord } from '../../shared/auth/records.js';
import { digestToken, newToken } from '../../shared/auth/secrets.js';
import { ensureOAuthClient } from '../../shared/auth/store.js';
import { documentClient, onClientCreated } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { describeRounds, roundTripMeter } from '../support/round-trips.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { startTestService, successData, type ApiAnswer, type CallOptions, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const ADMINISTRATOR = '7be0803d-445c-4e35-8419-52b07cd4d537';
const AGENT = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const RELEASE_INFO = '/api/v2/utils/get_release_info';
const LIST_KEYS = '/api/v2/auth/list_api_keys';

const meter = roundTripMeter();
onClientCreated((client) => meter.attach(client));

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ consumers: false });
});
afterAll(async () => service?.stop());

/** The rounds of one call; the credential's last use is stamped by a call before, so only what every call does is counted. */
async function roundsOf(path: string, body: Record<string, unknown>, options: CallOptions = {}): Promise<{ answer: ApiAnswer; rounds: string[][] }> {
  await service.call(path, body, options);
  meter.start();
  const answer = await service.call(path, body, options);
  return { answer, rounds: meter.stop() };
}

async function newContact(role: string, content: Record<string, unknown>): Promise<string> {
  const created = await service.call('/api/v1/contacts/storeNewContact', { role, content });
  expect(created.body, JSON.stringify(created.body)).toMatchObject({ success: true });
  return created.body.id as string;
}

/** A new contact with an API key, a session opened by it and an OAuth client's bearer token. */
async function withCredentials(role: 'Agent' | 'Underwriter') {
  const agencyId = role === 'Agent' ? await newContact('Agency', { name: 'Harbour Agency', type: 'organization' }) : undefined;
  const contactId = await newContact(role, { name: 'Robin Tide', type: 'individual', ...(agencyId ? { agencyId } : {}) });
  const apiKey = successData(await service.call('/api/v2/auth/create_api_key', { contact_id: contactId, description: 'round trips' })).api_key as string;
  const opened = await service.call('/api/v2/auth/session', {}, { apiKey });
  const cookie = opened.headers.getSetCookie().find((value) => value.startsWith('ias_session='));
  expect(cookie, JSON.stringify(opened.body)).toBeDefined();
  const sessionToken = decodeURIComponent(cookie!.split(';')[0].slice('ias_session='.length));
  const client = { clientId: `client-${randomUUID()}`, clientSecret: newToken('secret') };
  await ensureOAuthClient(client.clientId, contactId, client.clientSecret);
  const response = await fetch(`${service.url}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}` },
    body: 'grant_type=client_credentials',
  });
  const bearerToken = ((await response.json()) as { access_token: string }).access_token;
  const as = {
    apiKey: { apiKey } as CallOptions,
    session: { apiKey: null, headers: { cookie: `ias_session=${sessionToken}` } } as CallOptions,
    bearer: { apiKey: null, headers: { authorization: `Bearer ${bearerToken}` } } as CallOptions,
  };
  return { contactId, apiKey, as };
}
const agentWithCredentials = () => withCredentials('Agent');

describe('the round-trip meter', () => {
  it('counts requests in flight together as one round and requests one after another as rounds of their own', async () => {
    const client = documentClient();
    const read = () => client.send(new GetItemCommand({ TableName: config.tableName(), Key: { pk: { S: 'NOTHING#here' }, sk: { S: 'NOTHING' } } }));
    meter.start();
    await Promise.all([read(), read(), read()]);
    await read();
    await Promise.all([read(), read()]);
    const rounds = meter.stop();
    expect(rounds.map((round) => round.length)).toEqual([3, 1, 2]);
    expect(new Set(rounds.flat())).toEqual(new Set(['DynamoDB.GetItem']));
  });

  it("counts get_release_info with the Administrator's key as one read of the key", async () => {
    const { answer, rounds } = await roundsOf(RELEASE_INFO, {});
    expect(answer.status).toBe(200);
    expect(describeRounds(rounds)).toBe('DynamoDB.GetItem');
  });
});

describe('authentication in one read', () => {
  let agent: Awaited<ReturnType<typeof agentWithCredentials>>;
  beforeAll(async () => {
    agent = await agentWithCredentials();
  });

  it('reads only the API key, the session or the OAuth client, never the contact after it', async () => {
    const underwriter = await withCredentials('Underwriter');
    for (const options of [underwriter.as.apiKey, underwriter.as.session, underwriter.as.bearer]) {
      const { answer, rounds } = await roundsOf(RELEASE_INFO, {}, options);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(describeRounds(rounds)).toBe('DynamoDB.GetItem');
    }
  });

  it("reads an agent's agencies' standing after its credential (an agency's standing is not copied onto its agents' credentials)", async () => {
    for (const options of [agent.as.apiKey, agent.as.session, agent.as.bearer]) {
      const { answer, rounds } = await roundsOf(RELEASE_INFO, {}, options);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(describeRounds(rounds)).toBe('DynamoDB.GetItem | DynamoDB.BatchGetItem');
    }
  });

  it('holds a role given and a termination from the very next call, with the same key, session and bearer token', async () => {
    const every = async (path: string) => Promise.all([agent.as.apiKey, agent.as.session, agent.as.bearer].map(async (options) => (await service.call(path, {}, options)).status));
    expect(await every(LIST_KEYS)).toEqual([403, 403, 403]);
    successData(await service.call('/api/v1/contacts/storeRoles', { contactId: agent.contactId, roleId: ADMINISTRATOR }));
    expect(await every(LIST_KEYS)).toEqual([200, 200, 200]);
    successData(await service.call('/api/v1/contacts/storeRoles', { contactId: agent.contactId, roleId: AGENT, termination: { isTerminated: true, reasonTerminated: 'licence lapsed' } }));
    expect(await every(RELEASE_INFO)).toEqual([401, 401, 401]);
    successData(await service.call('/api/v1/contacts/storeRoles', { contactId: agent.contactId, roleId: AGENT, termination: { isTerminated: false, reasonTerminated: null } }));
    expect(await every(RELEASE_INFO)).toEqual([200, 200, 200]);
  });

  it('still authenticates a key written before keys carried their copy, reading its contact once more, and still refuses it once terminated', async () => {
    const { contactId, apiKey } = await agentWithCredentials();
    await documentClient().send(new UpdateCommand({ TableName: config.tableName(), Key: apiKeyRecord.key({ digest: digestToken(apiKey) }), UpdateExpression: 'REMOVE contactAccess' }));
    const { answer, rounds } = await roundsOf(RELEASE_INFO, {}, { apiKey });
    expect(answer.status).toBe(200);
    expect(describeRounds(rounds)).toBe('DynamoDB.GetItem | DynamoDB.GetItem | DynamoDB.BatchGetItem');
    successData(await service.call('/api/v1/contacts/storeRoles', { contactId, roleId: AGENT, termination: { isTerminated: true } }));
    expect((await service.call(RELEASE_INFO, {}, { apiKey })).status).toBe(401);
  });
});

describe('reads begun beside the caller (beginWithCaller)', () => {
  const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
  const PAYMENT = '/api/v1/payments/makeManualPolicyPayment';
  const CANCEL = '/api/v2/policies/cancel_policy';

  it('posts a payment named by a policy number in a json_dict string in three rounds, the lookup beside the authentication', async () => {
    const policy = await issueWorkedExample(service, 'Lee Begun');
    const body = { json_dict: JSON.stringify({ policyNumber: policy.policyNumber, amount: '10.00' }) };
    const { answer, rounds } = await roundsOf(PAYMENT, body);
    expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
    expect(rounds).toHaveLength(3);
    expect(rounds[0]).toEqual(expect.arrayContaining(['DynamoDB.GetItem', 'DynamoDB.GetItem']));
  });

  it('cancels in three rounds, reading the policy beside the authentication, and reads nothing for a caller without a credential', async () => {
    const warm = await issueWorkedExample(service, 'Kim Warm');
    successData(await service.call(CANCEL, { policy_id: warm.policyId, cancel_date: addDays(todayIso(), 20), cancel_reason_id: INSUREDS_REQUEST }));
    const policy = await issueWorkedExample(service, 'Kim Begun');
    await service.call(RELEASE_INFO, {});
    meter.start();
    const refused = await service.call(CANCEL, { policy_id: policy.policyId, cancel_date: addDays(todayIso(), 20), cancel_reason_id: INSUREDS_REQUEST }, { apiKey: null });
    expect(refused.status).toBe(401);
    expect(meter.stop()).toEqual([]);
    meter.start();
    const answer = await service.call(CANCEL, { policy_id: policy.policyId, cancel_date: addDays(todayIso(), 20), cancel_reason_id: INSUREDS_REQUEST });
    const rounds = meter.stop();
    expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
    expect(rounds).toHaveLength(3);
    expect(rounds[0]).toContain('DynamoDB.Query');
  });
});

