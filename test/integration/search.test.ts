/**
 * search and the listings as clients call them: by partial name, by number fragment and
 * digits, filtered, sorted both ways in either spelling, paged; writes visible in the
 * next search; an agent sees only its agencies' policies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWriteAll } from '../../shared/platform/dynamo.js';
import { capacityMeter } from '../../shared/platform/clients.js';
import { searchIndexItemsForImport } from '../../shared/search/index-store.js';
import { documentClient } from '../../shared/platform/clients.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SearchablePolicy } from '../../shared/search/model.js';
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

// The read units of each call are metered (as `npm run bench` does): set before the first DynamoDB client is made.
process.env.MEASURE_DYNAMODB_CAPACITY = 'true';

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

  it('finds a policy by a word or number form that only begins a longer one of the same policy', async () => {
    const { policyNumber } = await quote({ names: ['Ann Annabelle Prefixton'], policyNumber: '78-2031-2' });
    for (const text of ['ann', 'ANN prefixton', 'annab', '2', '2 ann', '78-2031-2', '2031-2', '20312']) {
      expect(numbersOf(await search({ search_string: text, page_size: 10000 })), text).toContain(policyNumber);
    }
    expect(numbersOf(await search({ search_string: 'anne prefixton' }))).not.toContain(policyNumber);
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

  // Three pages of the default 25 are enough to page through (the bench reads pages among 1,000 and 50,000 policies).
  const PAGES = 3;
  it(`pages through ${PAGES * 25} matches in pages of 25, and answers them all in one page of 10000`, async () => {
    const made: string[] = [];
    const queue = Array.from({ length: PAGES * 25 }, (_, index) => index);
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
          made.push((await quote({ names: [`Pagewright Number${index}`] })).policyNumber);
        }
      }),
    );
    const seen: string[] = [];
    for (let page = 1; page <= PAGES; page += 1) {
      const answer = await search({ search_string: 'pagew', current_page: page });
      expect(answer).toMatchObject({ activePage: page, maxPages: PAGES });
      expect(answer.records).toHaveLength(25);
      seen.push(...numbersOf(answer));
    }
    expect((await search({ search_string: 'pagew', current_page: PAGES + 1 })).records).toEqual([]);
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
    const { searchIndexWritesForStatus } = await import('../../shared/search/index-store.js');
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
    const { searchIndexWritesForStatus } = await import('../../shared/search/index-store.js');
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
    // policies (vendor parameter): the ones named, by id or number, with or without a contact.
    const named = async (body: Record<string, unknown>) =>
      ok(await service.call(`${P}/get_policies_with_active_current_revision`, body)).map((policy: { policy_number: string }) => policy.policy_number);
    expect(await named({ policies: [kept.policyId, gone.policyNumber] })).toEqual([kept.policyNumber]);
    expect(await named({ policies: [gone.policyId, kept.policyNumber], include_canceled: true })).toEqual([kept.policyNumber, gone.policyNumber]);
    expect(await named({ policies: [gone.policyNumber], contact_id: home, include_canceled: true })).toEqual([gone.policyNumber]);
    expect(await named({ policies: ['00000000-0000-4000-8000-000000000000', '99-1999-1'] })).toEqual([]);
    // Another agency's agent names them and sees nothing.
    const stranger = await agent(await agency('Elsewhere Agency'));
    expect(ok(await service.call(`${P}/get_policies_with_active_current_revision`, { policies: [kept.policyId, kept.policyNumber] }, { apiKey: stranger.apiKey }))).toEqual([]);
    const neither = await service.call(`${P}/get_policies_with_active_current_revision`, {});
    expect(neither.body).toMatchObject({ success: false, messages: [expect.stringMatching(/contact_id.*policies/)] });
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

describe('search costs what it answers, not what matches (issue 17, item 10)', () => {
  const theirAgencies = Array.from({ length: 8 }, () => crypto.randomUUID());
  let agencyOfAgent: string;
  let agentKey: string;

  function seededPolicy(index: number, name: string, agencyId: string | null): SearchablePolicy {
    return {
      policyId: crypto.randomUUID(), policyNumber: `CM-2030-${index}`, status: ['Unsubmitted', 'Submitted', 'Active'][index % 3], revisionState: 'open', reviewState: 'NOT_STARTED',
      policyTypeId: 'd11cfc80-886b-4a1c-8e38-e77ae4256998', policyTypeName: 'Homeowner - HO3', flag: 'white', effectiveDate: '2030-06-01', expirationDate: '2031-06-01',
      dateAdded: new Date().toISOString(), namedInsuredNames: [name], agencyId, contactIds: [crypto.randomUUID()], activeRevisionId: crypto.randomUUID(),
    };
  }

  /** The read units one call consumed (authentication included), and its answer. */
  async function metered(body: Record<string, unknown>, apiKey?: string) {
    capacityMeter.reset();
    const page = await search(body, apiKey);
    return { readUnits: capacityMeter.readUnits, page };
  }

  beforeAll(async () => {
    agencyOfAgent = await agency('Costwise Agency');
    agentKey = (await agent(agencyOfAgent)).apiKey;
    // 1,000 insureds share "Manyfold" (10 of them with the agent's agency), 100 share "Fewfold": the index items their quotes would write.
    const policies = [
      ...Array.from({ length: 1000 }, (_, index) => seededPolicy(index, `Ada${index} Manyfold`, index < 10 ? agencyOfAgent : theirAgencies[index % theirAgencies.length])),
      ...Array.from({ length: 100 }, (_, index) => seededPolicy(5000 + index, `Bo${index} Fewfold`, theirAgencies[index % theirAgencies.length])),
    ];
    const { items, counterUpdates } = searchIndexItemsForImport(policies);
    await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })), { concurrency: 4 });
    for (const update of counterUpdates) await documentClient().send(new UpdateCommand(update.Update as never));
  }, 240_000);

  it('a page of 10 among 1,000 matches costs about what a page among 100 does, with the right totals', async () => {
    const many = await metered({ search_string: 'manyfold', page_size: 10, current_page: 3 });
    const few = await metered({ search_string: 'fewfold', page_size: 10, current_page: 3 });
    expect(many.page).toMatchObject({ activePage: 3, maxPages: 100 });
    expect(few.page).toMatchObject({ activePage: 3, maxPages: 10 });
    expect(numbersOf(many.page)).toEqual(Array.from({ length: 10 }, (_, index) => `CM-2030-${20 + index}`));
    expect(numbersOf(few.page)).toEqual(Array.from({ length: 10 }, (_, index) => `CM-2030-${5020 + index}`));
    // Reading every match's record made this 10 (1,000 / 100: 527.5 against 54.5 units). Now the page's 10 records
    // (0.5 unit each) dominate; what grows with the matches is the count, one ~180-byte token entry per match
    // (about 0.02 unit): docs/data-model.md, Search, says why no counter is kept.
    const ratio = many.readUnits / few.readUnits;
    console.log(`search read units: page of 10 among 1,000 matches ${many.readUnits}, among 100 ${few.readUnits}, ratio ${ratio.toFixed(2)}`);
    expect(ratio).toBeLessThan(4);
    expect(many.readUnits).toBeLessThan(60);
    // page_size 10000, as existing clients ask, still answers every match in order.
    const whole = await search({ search_string: 'manyfold', page_size: 10000 });
    expect(whole).toMatchObject({ activePage: 1, maxPages: 1 });
    expect(whole.records).toHaveLength(1000);
    expect(numbersOf(whole).slice(0, 3)).toEqual(['CM-2030-0', 'CM-2030-1', 'CM-2030-2']);
    const descending = await search({ search_string: 'manyfold', page_size: 5, sort_obj: { field: 'policy_number', order: 'desc' } });
    expect(numbersOf(descending)).toEqual(['CM-2030-999', 'CM-2030-998', 'CM-2030-997', 'CM-2030-996', 'CM-2030-995']);
  });

  it("an agent's word search reads its agencies' matches only", async () => {
    const administrator = await metered({ search_string: 'manyfold', page_size: 10 });
    const agentSearch = await metered({ search_string: 'manyfold', page_size: 10 }, agentKey);
    expect(agentSearch.page).toMatchObject({ activePage: 1, maxPages: 1 });
    expect(numbersOf(agentSearch.page)).toEqual(Array.from({ length: 10 }, (_, index) => `CM-2030-${index}`));
    console.log(`search read units: administrator ${administrator.readUnits}, agent of one agency (10 of 1,000 matches) ${agentSearch.readUnits}`);
    expect(agentSearch.readUnits).toBeLessThan(administrator.readUnits / 2);
  });

  it('a listing filtered by review state, status and type reads the listing entries and the page, not every record', async () => {
    const filters = { statuses: ['Active'], review_states: ['not_started'], policy_types: ['Homeowner - HO3'] };
    const listing = await metered({ ...filters, page_size: 10 });
    const whole = await search({ ...filters, page_size: 10000 });
    const seededActive = numbersOf(whole).filter((number) => number.startsWith('CM-2030-'));
    // Seeded policies are Active when their number is 2 modulo 3: 333 Manyfold (0-999), 34 Fewfold (5000-5099).
    expect(seededActive).toHaveLength(367);
    expect(listing.page).toMatchObject({ activePage: 1, maxPages: Math.ceil(whole.records.length / 10) });
    expect(numbersOf(listing.page)).toEqual(numbersOf(whole).slice(0, 10));
    expect(numbersOf(await search({ review_states: ['APPROVED_BY_UW'], page_size: 10000 })).filter((number) => number.startsWith('CM-2030-'))).toEqual([]);
    console.log(`search read units: listing filtered to ${whole.records.length} Active policies, page of 10: ${listing.readUnits}`);
    // Reading each Active record by key would cost 0.5 unit each; their listing entries cost about 0.04.
    expect(listing.readUnits).toBeLessThan(whole.records.length * 0.15);
  });

  it("an Administrator's search with no string and no filter reads a page, not every record, and counts them all", async () => {
    const listing = await metered({ page_size: 10, current_page: 2 });
    const whole = await search({ page_size: 10000 });
    const policies = whole.records.length;
    expect(policies).toBeGreaterThanOrEqual(1100);
    expect(listing.page).toMatchObject({ activePage: 2, maxPages: Math.ceil(policies / 10) });
    expect(numbersOf(listing.page)).toEqual(numbersOf(whole).slice(10, 20));
    const descending = await search({ page_size: 3, sort_obj: { field: 'policyNumber', order: 'desc' } });
    expect(numbersOf(descending)).toEqual(numbersOf(whole).slice(-3).reverse());
    console.log(`search read units: listing page of 10 among ${policies} policies ${listing.readUnits}`);
    // Reading every record cost 131 units here; a page costs its 10 records (0.5 each), 20 index entries and the count.
    expect(listing.readUnits).toBeLessThan(12);
  });
});
