/**
 * Who a new policy belongs to and names: an agent's policy belongs to its agency (its
 * default agency when it has several), never to the agent alone; the revision names its
 * agents, named insureds and primary property.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { startTestService, successData, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
const year = new Date().getUTCFullYear();

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

/** An agent contact with an API key; `id` may be fixed so that the agent can be one of its own agencies. */
async function agent(profile: { agencyIds: string[]; defaultAgency?: string; roleIds?: string[]; id?: string }) {
  const contactId = profile.id ?? crypto.randomUUID();
  await createContactProfileIfAbsent({
    id: contactId,
    name: `Agent ${contactId.slice(0, 8)}`,
    type: 'individual',
    roleIds: profile.roleIds ?? [AGENT_ROLE],
    agencyIds: profile.agencyIds,
    ...(profile.defaultAgency ? { defaultAgency: profile.defaultAgency } : {}),
    createdAt: new Date().toISOString(),
    version: 1,
  });
  const apiKey = newToken('ias');
  await ensureApiKey(contactId, apiKey, 'test agent');
  return { contactId, apiKey };
}

describe('agency of record', () => {
  it("an agent's policy, created without as_agent, belongs to its agency, names it as agent, and its agency's agents see it", async () => {
    const agency = crypto.randomUUID();
    const creator = await agent({ agencyIds: [agency] });
    const colleague = await agent({ agencyIds: [agency] });
    const created = successData(await service.call(`${P}/create_policy`, {}, { apiKey: creator.apiKey }));
    expect(created.policy_contacts.agency.id).toBe(agency);
    expect(created.policy_contacts.agent.id).toBe(creator.contactId);
    expect(created.revision_data.agents).toEqual([expect.objectContaining({ id: creator.contactId })]);
    const seen = successData(await service.call(`${P}/retrieve_policy`, { policy_id: created.policy_id }, { apiKey: colleague.apiKey }));
    expect(seen.policy_contacts.agency.id).toBe(agency);
    expect(seen.active_revision.agents).toEqual([expect.objectContaining({ id: creator.contactId })]);
  });

  it('an agent of several agencies creates for its default agency', async () => {
    const [first, preferred] = [crypto.randomUUID(), crypto.randomUUID()];
    const creator = await agent({ agencyIds: [first, preferred], defaultAgency: preferred });
    const created = successData(await service.call(`${P}/create_policy`, { as_agent: true }, { apiKey: creator.apiKey }));
    expect(created.policy_contacts.agency.id).toBe(preferred);
  });

  it('an agent that holds the Agency role itself still creates for its agency, which sees the policy', async () => {
    const agency = crypto.randomUUID();
    const selfId = crypto.randomUUID();
    const creator = await agent({ id: selfId, agencyIds: [selfId, agency], roleIds: [AGENT_ROLE, AGENCY_ROLE] });
    const colleague = await agent({ agencyIds: [agency] });
    const created = successData(await service.call(`${P}/create_policy`, { as_agent: true }, { apiKey: creator.apiKey }));
    expect(created.policy_contacts.agency.id).toBe(agency);
    const seen = await service.call(`${P}/retrieve_policy`, { policy_id: created.policy_id }, { apiKey: colleague.apiKey });
    expect(successData(seen).id).toBe(created.policy_id);
  });

  it('an agent of no agency is refused, and takes no number', async () => {
    const loner = await agent({ agencyIds: [] });
    const before = successData(await service.call(`${P}/new_policy_information`, {})).next_policy_number;
    const answer = await service.call(`${P}/create_policy`, {}, { apiKey: loner.apiKey });
    expect(answer.body).toMatchObject({ success: false, messages: ['An agent creates policies for its agency, and this agent belongs to no agency'] });
    expect(successData(await service.call(`${P}/new_policy_information`, {})).next_policy_number).toBe(before);
  });

  it('a policy created by someone who is not an agent names no agent unless as_agent', async () => {
    const created = successData(await service.call(`${P}/create_policy`, {}));
    expect(created.policy_contacts.agent).toBeNull();
    expect(created.revision_data.agents).toEqual([]);
    expect(created.revision_data.named_insureds).toEqual([]);
    expect(created.policy_number).toMatch(new RegExp(`^10-${year}-\\d+$`));
  });
});

describe('the primary property', () => {
  it('is null until a property exists, then the first property until another is made primary', async () => {
    const created = successData(await service.call(`${P}/create_policy`, {}));
    expect(created.revision_data.primary_property_id).toBeNull();
    const before = successData(await service.call(`${P}/retrieve_policy`, { policy_number: created.policy_number }));
    expect(before.active_revision.primary_property_id).toBeNull();

    const first = successData(await service.call(`${P}/create_risk`, { revision_id: created.revision_id })).id;
    const second = successData(await service.call(`${P}/create_risk`, { revision_id: created.revision_id })).id;
    const revision = successData(await service.call(`${P}/retrieve_revision_details`, { revision_id: created.revision_id }));
    expect(revision.primary_property_id).toBe(first);

    await service.call(`${P}/update_primary_property`, { property_id: second });
    const after = successData(await service.call(`${P}/retrieve_policy`, { policy_id: created.policy_id }));
    expect(after.active_revision.primary_property_id).toBe(second);
  });

  it('a policy created with property_zip starts with that property as primary', async () => {
    const created = successData(await service.call(`${P}/create_policy`, { property_zip: '90210' }));
    const risks = successData(await service.call(`${P}/retrieve_risks`, { revision_id: created.revision_id }));
    expect(created.revision_data.primary_property_id).toBe(risks.results[0].id);
  });
});
