/**
 * search and the listings as clients call them: by partial name, by number fragment and
 * digits, filtered, sorted both ways in either spelling, paged; writes visible in the
 * next search; an agent sees only its agencies' policies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
let service: TestService;

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

async function agency(name: string): Promise<string> {
  const id = crypto.randomUUID();
  await createContactProfileIfAbsent({ id, name, type: 'organization', roleIds: [AGENCY_ROLE], agencyIds: [id], createdAt: new Date().toISOString(), version: 1 });
  return id;
}

async function agent(agencyId: string) {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name: `Agent ${contactId.slice(0, 8)}`, type: 'individual', roleIds: [AGENT_ROLE], agencyIds: [agencyId], createdAt: new Date().toISOString(), version: 1 });
  const apiKey = newToken('ias');
  await ensureApiKey(contactId, apiKey, 'search test agent');
  return { contactId, apiKey };
}

interface QuoteOptions {
  names: string[];
  policyType?: string;
  effectiveDate?: string;
  policyNumber?: string;
  agencyId?: string;
  apiKey?: string;
}

async function quote(options: QuoteOptions): Promise<{ policyId: string; policyNumber: string }> {
  const data = ok(
    await service.call(
      `${P}/create_quote_extended`,
      {
        quote_info: {
          effective_date: usDate(options.effectiveDate ?? todayIso()),
          line_name: 'Homeowners',
          policy_type_name: options.policyType ?? 'Homeowner - HO3',
          named_insureds: options.names.map((name) => ({ name })),
          underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
          locations: [{ address_zip: '10001' }],
          items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
          ...(options.agencyId ? { agency_id: options.agencyId } : {}),
          ...(options.policyNumber ? { policy_number: options.policyNumber } : {}),
        },
      },
      options.apiKey ? { apiKey: options.apiKey } : {},
    ),
  );
  return { policyId: data.policy_id, policyNumber: data.quote_number };
}

const search = async (body: Record<string, unknown>, apiKey?: string) => ok(await service.call(`${P}/search`, body, apiKey ? { apiKey } : {}));
const numbersOf = (page: { records: Array<{ policyNumber: string }> }) => page.records.map((record) => record.policyNumber);

describe('search by name and number', () => {
  it('finds a quote by any word prefix of a named insured, in any case, with its record as clients read it', async () => {
    const { policyId, policyNumber } = await quote({ names: ['Marguerite Oyelaran-Whitcombe', 'Teodor Oyelaran'] });
    for (const text of ['oyel', 'MARG', 'whitc', 'teo oyelaran', 'Oyelaran-Whitcombe']) {
      const page = await search({ search_string: text });
      expect(numbersOf(page), text).toEqual([policyNumber]);
    }
    const page = await search({ search_string: 'oyelaran' });
    expect(page).toMatchObject({ activePage: 1, maxPages: 1 });
    expect(page.records[0]).toEqual({
      status: 'Unsubmitted',
      namedInsured: 'Marguerite Oyelaran-Whitcombe, Teodor Oyelaran',
      expirationDate: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/),
      effectiveDate: usDate(todayIso()),
      policyId,
      flag: 'white',
      policyType: 'Homeowner - HO3',
      policyNumber,
      reviewState: 'NOT_STARTED',
    });
    expect((await search({ search_string: 'marguerite zed' })).records).toEqual([]);
  });

  it('finds a policy by its number, by a fragment without the prefix, and by its digits alone', async () => {
    const { policyNumber } = await quote({ names: ['Numbered Person'], policyNumber: '77-2031-4242' });
    for (const text of ['77-2031-4242', '77-2031', '2031-4242', '2031-42', '77203142', '7720314242', '4242']) {
      expect(numbersOf(await search({ search_string: text })), text).toContain(policyNumber);
    }
    expect(numbersOf(await search({ search_string: '2031-43' }))).not.toContain(policyNumber);
  });
});
