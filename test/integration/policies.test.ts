/**
 * Building a policy the way existing clients do, through the local server:
 * create_policy, retrieve_policy, create_risk, update_property_location,
 * add_line_item, update_rating_information, retrieve_revision_details.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM, POLICY_TYPE, SUB_LINE, UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const { HO3 } = POLICY_TYPE;
const { DWELLING, OTHER_STRUCTURES, WATER_BACKUP } = ITEM;
const { SECTION_I } = SUB_LINE;
const LOSSES = UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS;

let service: TestService;

const expectSuccess = successData;
const year = new Date().getUTCFullYear();

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('building a policy the way an existing client does', () => {
  let policy: any;
  let propertyId: string;
  let waterBackup: any;

  it('new_policy_information shows the next number and the line effective dates', async () => {
    const answer = await service.call(`${P}/new_policy_information`, {});
    expect(answer.status).toBe(200);
    expectSuccess(answer);
    expect(answer.body.data.next_policy_number).toMatch(new RegExp(`^10-${year}-\\d+$`));
    expect(answer.body.data.effective_dates[0]).toMatchObject({ id: '5d4d1c7b-9a8a-4a00-81c3-66d7db83ee1d', effective_date: '2020-01-01', override_lock: false });
  });

  it('create_policy answers the ids, a system number and the open revision', async () => {
    const answer = await service.call(`${P}/create_policy`, {
      inception_date: '2026-03-01',
      underwriting_questions: [{ questionId: LOSSES, yesNoAnswer: 'no', explanation: '' }],
    });
    expectSuccess(answer);
    policy = answer.body.data;
    expect(policy.policy_number).toMatch(new RegExp(`^10-${year}-\\d+$`));
    expect(policy).toMatchObject({ policy_id: expect.any(String), revision_id: expect.any(String), policy_term_id: expect.any(String) });
    expect(policy.revision_data).toMatchObject({
      id: policy.revision_id,
      policy_id: policy.policy_id,
      policy_term_id: policy.policy_term_id,
      revision_state: 'open',
      policy_term_start: '2026-03-01',
      policy_term_end: '2027-03-01',
      policy_type: 'Homeowner - HO3',
      underwriting_questions: [{ questionId: LOSSES, yesNoAnswer: 'no', explanation: '' }],
    });
    expect(policy.policy_contacts.creator.id).toBe(service.administratorContactId);
  });

  it('retrieve_policy by number answers the policy with US dates, its active revision and term', async () => {
    const answer = await service.call(`${P}/retrieve_policy`, { policy_number: policy.policy_number });
    expectSuccess(answer);
    const data = answer.body.data;
    expect(data).toMatchObject({ id: policy.policy_id, policy_number: policy.policy_number, inception_date: '03/01/2026', active: false, flag: 'white', system_tags: [] });
    expect(data.date_added).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(data.active_revision).toMatchObject({ id: policy.revision_id, revision_state: 'open' });
    expect(data.active_policy_term).toMatchObject({ id: policy.policy_term_id, effective_date: '2026-03-01', expiration_date: '2027-03-01', term_type: '1 Year', term_length: 12 });
    expect(data.active_policy_term.revisions[0]).toMatchObject({ id: policy.revision_id, end_date: '2027-03-01' });
  });

  it('create_risk names the property Property #1', async () => {
    const answer = await service.call(`${P}/create_risk`, { revision_id: policy.revision_id });
    expectSuccess(answer);
    expect(answer.body.data).toMatchObject({ id: expect.any(String), revision_id: policy.revision_id, name: 'Property #1' });
    propertyId = answer.body.data.id;
  });

  it('update_property_location fills state, city and county from the ZIP', async () => {
    const answer = await service.call(`${P}/update_property_location`, {
      location: { id: propertyId, address_line1: '1 Main Street', address_zip: '90210', year_built: '1990' },
    });
    expectSuccess(answer);
    expect(answer.body.data).toMatchObject({ id: propertyId, address_line1: '1 Main Street', address_zip: '90210', address_state: 'CA', year_built: '1990' });
    expect(answer.body.data.address_city).toBeTruthy();
    expect(answer.body.data.county).toMatchObject({ name: expect.any(String), code: expect.stringMatching(/^\d{5}$/), id: expect.any(String) });
  });

  it('update_property_location keeps omitted keys and clears empty ones', async () => {
    const answer = await service.call(`${P}/update_property_location`, { location: { id: propertyId, year_built: '' }, hard_geoservice_bypass: true });
    expectSuccess(answer);
    expect(answer.body.data).toMatchObject({ address_line1: '1 Main Street', address_zip: '90210', year_built: null });
  });

  it('add_line_item adds Water Backup to the primary property', async () => {
    const answer = await service.call(`${P}/add_line_item`, { item_id: WATER_BACKUP, revision_id: policy.revision_id });
    expectSuccess(answer);
    expect(answer.body.data.added_subline).toBeNull();
    expect(answer.body.data.added_items).toHaveLength(1);
    waterBackup = answer.body.data.added_items[0];
    expect(waterBackup).toMatchObject({
      item_id: WATER_BACKUP,
      property_id: propertyId,
      name: 'Water Backup',
      category: 'property',
      type: 'coverage',
      limit: 5000,
      persist_status: 'normal',
      manual: false,
      mandatory: false,
      date_added_micro: expect.stringMatching(/^\d+$/),
      sub_line_instance_id: expect.any(String),
    });
    expect(waterBackup).not.toHaveProperty('revision_id');
  });

  it('add_line_item refuses a second Water Backup on the same property', async () => {
    const answer = await service.call(`${P}/add_line_item`, { item_id: WATER_BACKUP, revision_id: policy.revision_id });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages[0]).toMatch(/already on the property/);
  });

  it('update_rating_information changes the limit and echoes the item', async () => {
    const answer = await service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: waterBackup.id, limit: 25000 }] });
    expectSuccess(answer);
    expect(answer.body.data.items).toEqual([expect.objectContaining({ id: waterBackup.id, limit: 25000, annual_premium: null })]);
  });

  it('update_rating_information refuses a limit the item does not offer, naming the field', async () => {
    const answer = await service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: waterBackup.id, limit: 7000 }] });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages[0]).toMatch(/^items\.0\.limit: Water Backup limit must be one of 5000, 10000, 25000/);
  });

  it('a Dwelling limit moves the Other Structures default limit with it', async () => {
    const details = await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId });
    const dwelling = details.body.data.items.find((item: any) => item.item_id === DWELLING);
    const answer = await service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: dwelling.id, limit: '250000', deductible: 1000 }] });
    expectSuccess(answer);
    const byItem = Object.fromEntries(answer.body.data.items.map((item: any) => [item.item_id, item]));
    expect(byItem[DWELLING]).toMatchObject({ limit: 250000, deductible: 1000 });
    expect(byItem[OTHER_STRUCTURES]).toMatchObject({ limit: 25000 });
  });

  it('retrieve_revision_details answers the revision fields', async () => {
    const answer = await service.call(`${P}/retrieve_revision_details`, { revision_id: policy.revision_id });
    expectSuccess(answer);
    expect(answer.body.data).toMatchObject({
      id: policy.revision_id,
      policy_id: policy.policy_id,
      policy_term_id: policy.policy_term_id,
      policy_term_start: '2026-03-01',
      policy_term_end: '2027-03-01',
      revision_state: 'open',
      policy_type: 'Homeowner - HO3',
      annual_premium: 0,
      written_premium: 0,
      agents: [],
      named_insureds: [],
      mortgagees: [],
      additional_interests: [],
    });
  });

  it('retrieve_risk_details lists the property items, its Section I sub line and question groups', async () => {
    const answer = await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId });
    expectSuccess(answer);
    const data = answer.body.data;
    expect(data.items.map((item: any) => item.name)).toEqual(['Dwelling', 'Other Structures', 'Personal Property', 'Loss of Use', 'Water Backup']);
    expect(data.sub_lines).toEqual([expect.objectContaining({ sub_line_id: SECTION_I, property_id: propertyId, category: 'property', type: 'property', mandatory: true })]);
    expect(data.question_groups.Rating.map((question: any) => question.name)).toEqual(['Construction Type', 'Protection Class']);
  });

  it('retrieve_policy_terms lists the term with its revision', async () => {
    const answer = await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policy_id });
    expectSuccess(answer);
    expect(answer.body.data).toEqual([expect.objectContaining({ id: policy.policy_term_id, policy_id: policy.policy_id, is_renewal: false, renewal_type: '1 Year' })]);
    expect(answer.body.data[0].revisions).toEqual([expect.objectContaining({ id: policy.revision_id, revision_state: 'open' })]);
  });
});

describe('create_policy parameters', () => {
  it('a Custom term needs an expiration date', async () => {
    const answer = await service.call(`${P}/create_policy`, { term_type: 'Custom' });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages).toEqual(['expiration_date: is required when term_type is Custom']);
  });

  it('a Custom term with an expiration date is kept as given', async () => {
    const answer = await service.call(`${P}/create_policy`, { term_type: 'Custom', inception_date: '2026-01-01', expiration_date: '2026-08-15' });
    expectSuccess(answer);
    const terms = await service.call(`${P}/retrieve_policy_terms`, { policy_number: answer.body.data.policy_number });
    expect(terms.body.data[0]).toMatchObject({ term_type: 'Custom', effective_date: '2026-01-01', expiration_date: '2026-08-15', term_length: 7 });
  });

  it('a manual policy number is used, and a number that exists answers data.exists', async () => {
    const number = `MAN-${Date.now()}`;
    const first = await service.call(`${P}/create_policy`, { policy_number: number, manual_policy_number: true });
    expect(first.body).toMatchObject({ success: true, data: { policy_number: number } });
    const second = await service.call(`${P}/create_policy`, { policy_number: number, manual_policy_number: true });
    expect(second.body.success).toBe(false);
    expect(second.body.data).toEqual({ exists: true });
    expect(second.body.messages[0]).toMatch(/already exists/);
  });

  it('honours the vendor parameters: policy type, effective date, property ZIP and external reference', async () => {
    const answer = await service.call(`${P}/create_policy`, {
      policy_type_id: '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7',
      inception_date: '2026-02-01',
      effective_date: '2026-02-15',
      term_type: '6 Months',
      property_zip: '90210',
      external_system_reference: 'CRM-42',
      as_agent: true,
      unknown_key: 'ignored',
    });
    expectSuccess(answer);
    expect(answer.body.data.revision_data).toMatchObject({ policy_type: 'Dwelling Fire - DP3', policy_term_start: '2026-02-15', policy_term_end: '2026-08-15' });
    expect(answer.body.data.policy_contacts.agent.id).toBe(service.administratorContactId);
    const policy = await service.call(`${P}/retrieve_policy`, { policy_id: answer.body.data.policy_id });
    expect(policy.body.data).toMatchObject({ inception_date: '02/01/2026', external_system_reference: 'CRM-42' });
    const risks = await service.call(`${P}/retrieve_risks`, { revision_id: answer.body.data.revision_id });
    expect(risks.body.data).toMatchObject({ page: 0, page_size: 10, total_size: 1 });
    expect(risks.body.data.results[0]).toMatchObject({ name: 'Property #1', address_zip: '90210', address_state: 'CA', primary: true });
  });

  it('an unknown policy type or policy id answers success false, never a 500', async () => {
    const badType = await service.call(`${P}/create_policy`, { policy_type_id: '00000000-0000-4000-8000-000000000000' });
    expect(badType.status).toBe(200);
    expect(badType.body.success).toBe(false);
    for (const [operation, body] of [
      ['retrieve_policy', { policy_id: 'f8a1f1c2-0000-4000-8000-000000000001' }],
      ['retrieve_policy', { policy_number: '10-1999-1' }],
      ['retrieve_revision_details', { revision_id: 'f8a1f1c2-0000-4000-8000-000000000002' }],
      ['create_risk', { revision_id: 'nope' }],
      ['retrieve_risk_details', { risk_id: 'nope' }],
      ['update_rating_information', { property_id: 'nope', items: [] }],
    ] as const) {
      const answer = await service.call(`${P}/${operation}`, body);
      expect(answer.status, operation).toBe(200);
      expect(answer.body.success, operation).toBe(false);
      expect(answer.body.messages[0], operation).toMatch(/was not found/);
    }
  });
});
