/**
 * Quotes as existing clients change and send them (issue 17): a change that cannot move the
 * premium keeps it, one that can is rated again, and bind and issue agree; an agency found by
 * the number storeRoles gave it; a named insured's phones, e-mails and addresses sent with a
 * quote read back exactly as storeNewContact's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const VACANT = '7a49ec9a-64fc-41fd-bf61-55a1e593fa10';
const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
let service: TestService;

const workedExample = (extra: Record<string, unknown> = {}) => ({
  quote_info: {
    effective_date: new Date().toISOString().slice(0, 10),
    line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Quinn Quote' }],
    underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
    locations: [{ address_zip: '10001' }],
    items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
    ...extra,
  },
});

async function quoted(extra: Record<string, unknown> = {}) {
  const data = ok(await service.call(`${P}/create_quote_extended`, workedExample(extra)));
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id }));
  return { policyId: data.policy_id as string, revisionId: policy.active_revision.id as string, policy };
}

const revision = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
async function answer(revisionId: string, questionId: string, yesNoAnswer: string) {
  const answered = await service.call(`${P}/update_underwriting_questions`, { revision_id: revisionId, underwriting_questions: [{ questionId, yesNoAnswer }] });
  expect(answered.body.success, JSON.stringify(answered.body)).toBe(true);
}

async function newContact(role: string, content: Record<string, unknown>): Promise<string> {
  const stored = await service.call('/api/v1/contacts/storeNewContact', { role, content });
  expect(stored.body.success, JSON.stringify(stored.body)).toBe(true);
  return stored.body.id as string;
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('a quote changed after rating', () => {
  it('keeps its premium through an answer no rating step reads, and binds and issues', async () => {
    const { policyId, revisionId } = await quoted();
    await answer(revisionId, VACANT, 'yes');
    await answer(revisionId, VACANT, 'no');
    expect((await revision(revisionId)).annual_premium).toBe(826.62);
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: policyId } }));
    const issued = await service.call(`${P}/issue`, { issue_info: { policy_id: policyId } });
    expect(issued.body.success, JSON.stringify(issued.body)).toBe(true);
    expect((await revision(revisionId))).toMatchObject({ revision_state: 'committed', annual_premium: 826.62 });
  });

  it('is rated again on an answer the rating reads (losses: no claims-free discount), its trace stored', async () => {
    const { revisionId } = await quoted();
    await answer(revisionId, UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, 'yes');
    const rated = await revision(revisionId);
    // 826.62 without the 10% claims-free discount of 86.63.
    expect(rated.annual_premium).toBe(913.25);
    const discount = rated.items.find((item: { name: string }) => item.name === 'Claims-Free Discount');
    expect(discount.annual_premium ?? 0).toBe(0);
  });

  it('is rated at bind when a coverage change left it unrated, and issue agrees', async () => {
    const { policyId, revisionId } = await quoted();
    const dwelling = (await revision(revisionId)).items.find((item: { name: string }) => item.name === 'Dwelling');
    ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
    expect((await revision(revisionId)).annual_premium).toBe(0);
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: policyId } }));
    expect((await revision(revisionId)).annual_premium).toBe(982.55);
    const issued = await service.call(`${P}/issue`, { issue_info: { policy_id: policyId } });
    expect(issued.body.success, JSON.stringify(issued.body)).toBe(true);
    const details = await revision(revisionId);
    expect(details).toMatchObject({ revision_state: 'committed', annual_premium: 982.55 });
    expect(Object.keys(details.items.find((item: { name: string }) => item.name === 'Dwelling').rating_details ?? {}).length).toBeGreaterThan(0);
  });
});

describe('quote_info.agency_number', () => {
  it('finds the agency whose number storeRoles stored, and wins over agency_id', async () => {
    const agencyId = await newContact('Agency', { name: 'Numbered Agency', type: 'organization' });
    const other = await newContact('Agency', { name: 'Other Agency', type: 'organization' });
    const stored = await service.call('/api/v1/contacts/storeRoles', { contactId: agencyId, roleId: AGENCY_ROLE, agencyNumber: { agencyNumber: 'AG-4242' } });
    expect(stored.body.success, JSON.stringify(stored.body)).toBe(true);
    const { policy } = await quoted({ agency_number: 'AG-4242', agency_id: other });
    const contacts = JSON.stringify(policy.policy_contacts);
    expect(contacts).toContain(agencyId);
    expect(contacts).not.toContain(other);
    // Another agency cannot take the number.
    const taken = await service.call('/api/v1/contacts/storeRoles', { contactId: other, roleId: AGENCY_ROLE, agencyNumber: { agencyNumber: 'ag-4242' } });
    expect(taken.body.success).toBe(false);
    expect(JSON.stringify(taken.body)).toContain('agencyNumber: ag-4242 is already the number of another agency');
    const unknown = await service.call(`${P}/create_quote_extended`, workedExample({ agency_number: 'AG-0000' }));
    expect(unknown.body.messages[0]).toBe('quote_info.agency_number: agency AG-0000 was not found');
  });
});

describe("a quote's named insured", () => {
  it('reads back through lookupContactByName exactly as the same person stored by storeNewContact', async () => {
    const contact = { name: 'Harper Phones', type: 'individual' };
    await newContact('Named Insured', {
      ...contact,
      phones: [{ number: '555-010-2233', type: 'Mobile' }],
      emails: [{ email: 'harper@example.com', type: 'Home' }],
      addresses: [{ addressLine1: '9 Elm St', addressCity: 'New York', addressState: 'NY', addressZip: '10001', addressType: 'Mailing' }],
    });
    await quoted({
      named_insureds: [{ name: 'Harper Phones', phones: [{ number: '555-010-2233', type: 'Mobile' }], emails: [{ email: 'harper@example.com', type: 'Home' }], addresses: [{ address_line1: '9 Elm St', address_city: 'New York', address_state: 'NY', address_zip: '10001', type: 'Mailing' }] }],
    });
    const found = (await service.call('/api/v1/contacts/lookupContactByName', { name: 'harper', role: 'Named Insured', role_type: 'individual' })).body.data as Array<{ extra: Record<string, Array<Record<string, unknown>>> }>;
    expect(found).toHaveLength(2);
    const withoutIds = (list: Array<Record<string, unknown>>) => list.map(({ id: _id, ...rest }) => rest);
    const [byContact, byQuote] = found;
    for (const list of ['phoneNumbers', 'emailAddresses', 'addresses']) {
      expect(withoutIds(byQuote.extra[list]), list).toEqual(withoutIds(byContact.extra[list]));
      expect(byQuote.extra[list]).toHaveLength(1);
    }
  });
});
