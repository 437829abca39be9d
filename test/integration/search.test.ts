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

describe('filters, sorting and paging', () => {
  let sortwell: Array<{ policyId: string; policyNumber: string }>;

  beforeAll(async () => {
    // Three quotes of one family: numbers, first names and effective dates in different orders.
    const today = todayIso();
    const plus = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    sortwell = [
      await quote({ names: ['Bea Sortwell'], policyNumber: 'SW-2040-9', effectiveDate: plus(20) }),
      await quote({ names: ['Ada Sortwell'], policyNumber: 'SW-2040-10', effectiveDate: plus(5) }),
      await quote({ names: ['Cy Sortwell'], policyNumber: 'SW-2040-8', effectiveDate: plus(12) }),
    ];
  });

  it.each([
    ['policyNumber', ['SW-2040-8', 'SW-2040-9', 'SW-2040-10']],
    ['policy_number', ['SW-2040-8', 'SW-2040-9', 'SW-2040-10']],
    ['namedInsured', ['SW-2040-10', 'SW-2040-9', 'SW-2040-8']],
    ['named_insured', ['SW-2040-10', 'SW-2040-9', 'SW-2040-8']],
    ['effectiveDate', ['SW-2040-10', 'SW-2040-8', 'SW-2040-9']],
    ['effective_date', ['SW-2040-10', 'SW-2040-8', 'SW-2040-9']],
  ])('sorts by %s ascending and descending', async (field, ascending) => {
    expect(numbersOf(await search({ search_string: 'sortwell', sort_obj: { field, order: 'asc' } }))).toEqual(ascending);
    expect(numbersOf(await search({ search_string: 'sortwell', sort_obj: { field, order: 'desc' } }))).toEqual([...ascending].reverse());
  });

  it('refuses an unknown sort field, status or review state by name, and stores nothing', async () => {
    const answer = await service.call(`${P}/search`, { sort_obj: { field: 'premium', order: 'asc' }, statuses: ['Gone'], review_states: ['MAYBE'] });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages.join(' ')).toMatch(/sort_obj\.field/);
    expect(answer.body.messages.join(' ')).toMatch(/statuses/);
    expect(answer.body.messages.join(' ')).toMatch(/review_states/);
  });

  it('filters by status, revision state, policy type and review state; bind and issue are seen by the next search', async () => {
    const [bound, issued] = sortwell;
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: bound.policyId } }));
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: issued.policyId } }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: issued.policyId } }));
    const by = async (filters: Record<string, unknown>) => numbersOf(await search({ search_string: 'sortwell', ...filters })).sort();
    expect(await by({ statuses: ['Submitted'] })).toEqual([bound.policyNumber]);
    expect(await by({ statuses: ['active'] })).toEqual([issued.policyNumber]);
    expect(await by({ statuses: ['Unsubmitted'] })).toEqual(['SW-2040-8']);
    expect(await by({ statuses: ['Unsubmitted', 'Submitted'] })).toEqual(['SW-2040-8', bound.policyNumber].sort());
    expect(await by({ revision_states: ['committed'] })).toEqual([issued.policyNumber]);
    expect(await by({ revision_states: ['open'] })).toEqual(['SW-2040-8', bound.policyNumber].sort());
    expect(await by({ policy_types: ['Homeowner - HO3'] })).toHaveLength(3);
    expect(await by({ policy_types: ['Dwelling Fire - DP3'] })).toEqual([]);
    expect(await by({ review_states: ['NOT_STARTED'] })).toHaveLength(3);
    expect(await by({ review_states: ['APPROVED_BY_UW'] })).toEqual([]);
    // Without a search string, a status filter reads that status's listing.
    expect(numbersOf(await search({ statuses: ['Active'], page_size: 10000 }))).toContain(issued.policyNumber);
    expect(numbersOf(await search({ statuses: ['Active'], page_size: 10000 }))).not.toContain(bound.policyNumber);
  });

  it('finds a DP3 policy by its type, by id or by name', async () => {
    const created = ok(await service.call(`${P}/create_policy`, { policy_number: 'DPF-2040-1', policy_type_id: '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7' }));
    expect(numbersOf(await search({ search_string: 'dpf', policy_types: ['Dwelling Fire - DP3'] }))).toEqual([created.policy_number]);
    expect(numbersOf(await search({ search_string: 'dpf', policy_types: ['981ba39c-ae4f-4a9a-9c36-c5e4d5953af7'] }))).toEqual([created.policy_number]);
    expect(numbersOf(await search({ search_string: 'dpf', policy_types: ['Homeowner - HO3'] }))).toEqual([]);
  });

  it('pages through 250 matches in pages of 25, and answers them all in one page of 10000', async () => {
    const made: string[] = [];
    const queue = Array.from({ length: 250 }, (_, index) => index);
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
          made.push((await quote({ names: [`Pagewright Number${index}`] })).policyNumber);
        }
      }),
    );
    const seen: string[] = [];
    for (let page = 1; page <= 10; page += 1) {
      const answer = await search({ search_string: 'pagew', current_page: page });
      expect(answer).toMatchObject({ activePage: page, maxPages: 10 });
      expect(answer.records).toHaveLength(25);
      seen.push(...numbersOf(answer));
    }
    expect((await search({ search_string: 'pagew', current_page: 11 })).records).toEqual([]);
    expect(new Set(seen)).toEqual(new Set(made));
    const whole = await search({ search_string: 'PAGEWRIGHT', page_size: 10000 });
    expect(whole).toMatchObject({ activePage: 1, maxPages: 1 });
    expect(numbersOf(whole)).toEqual(seen);
    // Sorted by number (numbers inside compare as numbers), the default.
    const sorted = [...made].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    expect(seen).toEqual(sorted);
  }, 240_000);
});
