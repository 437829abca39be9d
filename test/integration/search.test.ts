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

describe('reach and writes seen by the next search', () => {
  it("an agent sees its agencies' policies in search and every listing, never another agency's", async () => {
    const [mine, theirs] = [await agency('Harborline Agency'), await agency('Ridgeway Agency')];
    const [me, other] = [await agent(mine), await agent(theirs)];
    const own = await quote({ names: ['Quennell Agencyreach'], agencyId: mine, apiKey: me.apiKey });
    const foreign = await quote({ names: ['Quennell Agencyreach'], agencyId: theirs, apiKey: other.apiKey });
    expect(numbersOf(await search({ search_string: 'quennell' }))).toHaveLength(2);
    expect(numbersOf(await search({ search_string: 'quennell' }, me.apiKey))).toEqual([own.policyNumber]);
    expect(numbersOf(await search({ search_string: foreign.policyNumber }, me.apiKey))).toEqual([]);
    const listed = numbersOf(await search({ page_size: 10000 }, me.apiKey));
    expect(listed).toContain(own.policyNumber);
    expect(listed).not.toContain(foreign.policyNumber);
    for (const status of ['Unsubmitted', 'Active']) expect(numbersOf(await search({ statuses: [status], page_size: 10000 }, me.apiKey))).not.toContain(foreign.policyNumber);
    // The other agency's own listings, asked for by this agent, show nothing of it.
    const theirsPage = ok(await service.call(`${P}/get_policies`, { contact_id: theirs }, { apiKey: me.apiKey }));
    expect(theirsPage.policies).toEqual([]);
    for (const path of ['/api/v2/utils/get_policies_by_contact_id_db_query', `${P}/get_policies_by_contact_id_db_query`, '/api/v2/utils/get_policies_with_active_current_revision']) {
      expect(ok(await service.call(path, { contact_id: theirs }, { apiKey: me.apiKey })), path).toEqual([]);
    }
    const minePage = ok(await service.call(`${P}/get_policies`, { contact_id: mine }, { apiKey: me.apiKey }));
    expect(minePage.policies.map((policy: { policy_number: string }) => policy.policy_number)).toEqual([own.policyNumber]);
  });

  it('a Named Insured finds only its own policies', async () => {
    const first = await quote({ names: ['Isolde Ownreach'] });
    const second = await quote({ names: ['Isolde Ownreach'] });
    const insuredId = ok(await service.call(`${P}/retrieve_policy`, { policy_id: first.policyId })).policy_contacts.named_insureds[0].id;
    const apiKey = newToken('ias');
    await ensureApiKey(insuredId, apiKey, 'named insured');
    expect(numbersOf(await search({ search_string: 'isolde' }, apiKey))).toEqual([first.policyNumber]);
    expect(numbersOf(await search({}, apiKey))).toEqual([first.policyNumber]);
    expect(numbersOf(await search({ search_string: second.policyNumber }, apiKey))).toEqual([]);
  });

  it('a new named insured, a bind and a cancellation are seen by the next search', async () => {
    expect((await search({ search_string: 'zebulon' })).records).toEqual([]);
    const created = await quote({ names: ['Zebulon Freshwrite'] });
    expect(numbersOf(await search({ search_string: 'zebulon fresh' }))).toEqual([created.policyNumber]);
    ok(await service.call(`${P}/bind`, { bind_info: { policy_number: created.policyNumber } }));
    expect((await search({ search_string: 'zebulon' })).records[0].status).toBe('Submitted');
    // cancel_policy puts this write into its own transaction (docs/data-model.md, Search).
    const { searchIndexWritesForStatus } = await import('../../shared/search/index-writes.js');
    const { documentClient } = await import('../../shared/platform/clients.js');
    const { TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');
    await documentClient().send(new TransactWriteCommand({ TransactItems: searchIndexWritesForStatus(created.policyId, 'Cancelled') as never }));
    expect((await search({ search_string: 'zebulon' })).records[0].status).toBe('Cancelled');
    expect(numbersOf(await search({ statuses: ['Cancelled'] }))).toEqual([created.policyNumber]);
    expect(numbersOf(await search({ statuses: ['Submitted'], page_size: 10000 }))).not.toContain(created.policyNumber);
    // The review workflow moves the index record in its revision change.
    const revisionId = ok(await service.call(`${P}/retrieve_policy`, { policy_id: created.policyId })).active_revision.id;
    ok(await service.call(`${P}/update_review_workflow`, { revision_id: revisionId, workflow_event: 'UW_REVIEW_REQUESTED' }));
    expect(numbersOf(await search({ search_string: 'zebulon', review_states: ['pending_underwriter_review'] }))).toEqual([created.policyNumber]);
    expect((await search({ search_string: 'zebulon', review_states: ['NOT_STARTED'] })).records).toEqual([]);
  });

  it('include_canceled: get_policies leaves cancelled policies out when false; the in-force list adds them when true (issue 17 item 6)', async () => {
    const home = await agency('Canceldale Agency');
    const clerk = await agent(home);
    const kept = await quote({ names: ['Kept Insured'], agencyId: home, apiKey: clerk.apiKey });
    const gone = await quote({ names: ['Gone Insured'], agencyId: home, apiKey: clerk.apiKey });
    const { searchIndexWritesForStatus } = await import('../../shared/search/index-writes.js');
    const { documentClient } = await import('../../shared/platform/clients.js');
    const { TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');
    const setStatus = (policyId: string, status: string) =>
      documentClient().send(new TransactWriteCommand({ TransactItems: searchIndexWritesForStatus(policyId, status, { revisionState: 'committed' }) as never }));
    await setStatus(kept.policyId, 'Active');
    await setStatus(gone.policyId, 'Cancelled');
    const listed = async (body: Record<string, unknown>) => ok(await service.call(`${P}/get_policies`, { contact_id: home, ...body })).policies.map((policy: { policy_number: string }) => policy.policy_number);
    expect(await listed({})).toEqual([kept.policyNumber, gone.policyNumber]);
    expect(await listed({ include_canceled: true })).toEqual([kept.policyNumber, gone.policyNumber]);
    expect(await listed({ include_canceled: false })).toEqual([kept.policyNumber]);
    const inForce = async (body: Record<string, unknown>) =>
      ok(await service.call(`${P}/get_policies_with_active_current_revision`, { contact_id: home, ...body })).map((policy: { policy_number: string }) => policy.policy_number);
    expect(await inForce({})).toEqual([kept.policyNumber]);
    expect(await inForce({ include_canceled: true })).toEqual([kept.policyNumber, gone.policyNumber]);
  });

  it('get_policies pages a contact\'s policies by date added, echoing the request', async () => {
    const home = await agency('Pagewell Agency');
    const clerk = await agent(home);
    const made = [];
    for (let index = 0; index < 3; index += 1) made.push((await quote({ names: [`Listed ${index}`], agencyId: home, apiKey: clerk.apiKey })).policyNumber);
    const page = ok(await service.call(`${P}/get_policies`, { contact_id: home, page_number: 2, page_size: 2, sorting_order: 'asc' }));
    expect(page).toMatchObject({ contact_id: home, page_number: 2, page_size: 2, total_pages: 2, sorting_order: 'asc', include_policy_photo: true, from_date: null, to_date: null });
    expect(page.policies).toHaveLength(1);
    expect(page.policies[0]).toMatchObject({ policy_number: made[2], status: 'Unsubmitted', named_insured: 'Listed 2', policy_photo: null });
    const all = ok(await service.call(`${P}/get_policies`, { contact_id: home, sorting_order: 'desc', include_policy_photo: false }));
    expect(all.policies.map((policy: { policy_number: string }) => policy.policy_number)).toEqual([...made].reverse());
    expect(all.policies[0]).not.toHaveProperty('policy_photo');
    const today = todayIso();
    expect(ok(await service.call(`${P}/get_policies`, { contact_id: home, from_date: today })).policies).toEqual([]);
    expect(ok(await service.call(`${P}/get_policies`, { contact_id: home, to_date: '2999-01-01', from_date: '2000-01-01' })).policies).toHaveLength(3);
    expect((await service.call(`${P}/get_policies`, { contact_id: home, page_size: 0 })).body).toMatchObject({ success: false, messages: [expect.stringMatching(/page_size/)] });
    expect(ok(await service.call('/api/v2/utils/get_policies_with_active_current_revision', { contact_id: home }))).toEqual([]);
  });
});
