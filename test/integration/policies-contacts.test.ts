import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, successData, type TestService } from '../support/service.js';

const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';

let service: TestService;
let agencyId: string;
let agentId: string;
let agentKey: string;

beforeAll(async () => {
  service = await startTestService();
  const agency = await service.call('/api/v1/contacts/storeNewContact', { role: 'Agency', content: { name: 'Harbor Mutual Agency', type: 'organization' } });
  agencyId = agency.body.id;
  const agent = await service.call('/api/v1/contacts/storeNewContact', { role: 'Agent', content: { name: 'Dana Broker', type: 'individual', agencyId } });
  agentId = agent.body.id;
  const key = await service.call('/api/v2/auth/create_api_key', { contact_id: agentId, description: 'agent portal' });
  agentKey = successData(key).api_key;
});

afterAll(async () => {
  await service?.stop();
});

describe('policies and the contacts on them', () => {
  it("lists a policy an agent quoted in the agent's and the agency's aspect data", async () => {
    expect(agencyId).toBeDefined();
    expect(agentKey).toEqual(expect.any(String));
    const created = await service.call('/api/v2/policies/create_policy', { as_agent: true }, { apiKey: agentKey });
    expect(created.body.success).toBe(true);
    const policyId = created.body.data.policy_id;

    const agentAspects = await service.call('/api/v1/contacts/retrieveAspectData', { id: agentId, roleId: AGENT_ROLE, hasPermissions: true });
    expect(agentAspects.body.success).toBe(true);
    expect(agentAspects.body.data.policies.map((link: { policyId: string }) => link.policyId)).toContain(policyId);

    const agencyAspects = await service.call('/api/v1/contacts/retrieveAspectData', { id: agencyId, roleId: AGENCY_ROLE, hasPermissions: true });
    expect(agencyAspects.body.data.policies.map((link: { policyId: string }) => link.policyId)).toContain(policyId);
  });

  it('keeps the policy out of reach of an agent of another agency', async () => {
    const created = await service.call('/api/v2/policies/create_policy', { as_agent: true }, { apiKey: agentKey });
    const otherAgency = await service.call('/api/v1/contacts/storeNewContact', { role: 'Agency', content: { name: 'Summit Insurance Group', type: 'organization' } });
    const otherAgent = await service.call('/api/v1/contacts/storeNewContact', { role: 'Agent', content: { name: 'Lee Outsider', type: 'individual', agencyId: otherAgency.body.id } });
    const otherKey = await service.call('/api/v2/auth/create_api_key', { contact_id: otherAgent.body.id, description: 'other portal' });
    const policyId = successData(created).policy_id;
    const answer = await service.call('/api/v2/policies/retrieve_policy', { policy_id: policyId }, { apiKey: successData(otherKey).api_key });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: false, messages: [`Policy ${policyId} was not found`] });
  });
});
