/**
 * create_quote_extended as existing clients send it: no Content-Type, api_key in the body,
 * {quote_info, run_uw_rules, requote, run_stateless} and the extra quote_info keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { ITEM, UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
let service: TestService;

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

function workedExampleQuote(overrides: Record<string, unknown> = {}) {
  return {
    effective_date: usDate(todayIso()),
    inception_date: usDate(todayIso()),
    line_name: 'Homeowners',
    policy_type_name: 'Homeowner - HO3',
    underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no', explanation: '' }],
    named_insureds: [{ name: 'Pat Example', type: 'individual', phones: [{ number: '555-0100', type: 'home' }], addresses: [] }],
    additional_interests: [{ name: 'First Lender', type: 'organization' }],
    locations: [{ address_line1: '1 Main St', address_city: 'New York', address_state: 'NY', address_zip: '10001', year_built: '1990', primary: true }],
    items: [
      {
        name: 'Dwelling', limit: 250000, deductible: 1000, sub_line: 'Section I - Property',
        questions: { 'Construction Type': 'Frame', 'Protection Class': '3' },
        rating_details: ['Base Rate', 'Construction', 'Protection Class', 'Deductible', 'Minimum Premium'],
        identifier: 'Construction Type',
      },
      { name: 'Personal Liability', limit: 300000 },
      { name: 'Medical Payments', limit: 5000 },
    ],
    website: 'https://example.test',
    ...overrides,
  };
}

async function agentKey(agencyId: string): Promise<string> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name: 'Quoting Agent', type: 'individual', roleIds: [AGENT_ROLE], agencyIds: [agencyId], createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, 'test agent');
  return key;
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('create_quote_extended', () => {
  it('reproduces the worked example to the cent, with the Dwelling running totals, identifier, forms and STP', async () => {
    const body = { quote_info: workedExampleQuote(), run_uw_rules: true, requote: false, run_stateless: false };
    const data = ok(await service.call(`${P}/create_quote_extended`, body));
    expect(data.quote_number).toMatch(/^10-\d{4}-\d+$/);
    expect(data.total).toEqual({ pro_rata_fees: 25, pro_rata_premium: 826.62, pro_rata_total: 851.62, annual_fees: 25, annual_premium: 826.62, annual_total: 851.62 });
    const dwelling = data.items.find((item: any) => item.name === 'Dwelling');
    expect(dwelling).toMatchObject({ annual_amount: 866.25, pro_rata_amount: 866.25, identifier: 'Frame' });
    expect(dwelling.rating_details).toEqual([{ 'Base Rate': 875 }, { Construction: 962.5 }, { 'Protection Class': 866.25 }, { Deductible: 866.25 }, { 'Minimum Premium': 866.25 }]);
    expect(data.items.find((item: any) => item.name === 'Claims-Free Discount').annual_amount).toBe(-86.63);
    expect(data.forms).toEqual([{ form_code: 'HO 00 03', edition_number: '05 11', description: 'Homeowners 3 - Special Form' }]);
    expect(data.stp).toEqual({ ran: true, success: true, details: [] });

    const revisionId = ok(await service.call(`${P}/retrieve_policy`, { policy_number: data.quote_number })).active_revision.id;
    const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    expect(revision).toMatchObject({ annual_premium: 826.62, annual_fee: 25, revision_state: 'open', policy_status: 'Unsubmitted' });
    expect(revision.named_insureds.map((insured: any) => insured.name)).toEqual(['Pat Example']);
    expect(revision.stp).toMatchObject({ ran: true, success: true });
    expect(revision.items.find((item: any) => item.item_id === ITEM.DWELLING).rating_details['Protection Class']).toBe(866.25);
  });

  it('run_uw_rules false skips STP; run_stateless rates and stores nothing, not even a number', async () => {
    const before = ok(await service.call(`${P}/new_policy_information`, {})).next_policy_number;
    const data = ok(await service.call(`${P}/create_quote_extended`, { quote_info: workedExampleQuote(), run_uw_rules: false, run_stateless: true }));
    expect(data).toMatchObject({ quote_number: null, policy_id: null, stp: { ran: false } });
    expect(data.total.annual_total).toBe(851.62);
    expect(ok(await service.call(`${P}/new_policy_information`, {})).next_policy_number).toBe(before);
  });

  it('names every failed STP rule', async () => {
    const quote = workedExampleQuote({ underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'yes' }] });
    const data = ok(await service.call(`${P}/create_quote_extended`, { quote_info: quote, run_stateless: true }));
    expect(data.stp.success).toBe(false);
    expect(data.stp.details.map((detail: any) => detail.rule_name)).toEqual(['Losses in past 3 years']);
  });

  it('refuses unknown names, naming the field, and stores nothing', async () => {
    const before = ok(await service.call(`${P}/new_policy_information`, {})).next_policy_number;
    const answer = await service.call(`${P}/create_quote_extended`, { quote_info: workedExampleQuote({ items: [{ name: 'Flood' }] }) });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages).toContain('quote_info.items.0.name: no item named "Flood"');
    expect(ok(await service.call(`${P}/new_policy_information`, {})).next_policy_number).toBe(before);
  });

  it('refuses a past-dated application for an Agent key and accepts it for an Administrator key', async () => {
    const agencyId = crypto.randomUUID();
    await createContactProfileIfAbsent({ id: agencyId, name: 'Quoting Agency', type: 'organization', roleIds: [AGENCY_ROLE], agencyIds: [agencyId], createdAt: new Date().toISOString(), version: 1 });
    const key = await agentKey(agencyId);
    const pastDated = workedExampleQuote({ effective_date: usDate(addDays(todayIso(), -10)) });
    const refused = await service.call(`${P}/create_quote_extended`, { quote_info: pastDated }, { apiKey: key });
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages[0]).toMatch(/^quote_info\.effective_date: may not be before today/);
    ok(await service.call(`${P}/create_quote_extended`, { quote_info: workedExampleQuote() }, { apiKey: key }));
    ok(await service.call(`${P}/create_quote_extended`, { quote_info: pastDated }));
  });
});
