/**
 * The quote operations around create_quote_extended: create_quote, requote_extended,
 * retrieve_revision_analysis, update_review_workflow; and what a refused quote leaves
 * behind (no policy number used up, no contact created). Called as existing clients call
 * them: no Content-Type, api_key in the body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { todayIso } from '../../shared/platform/dates.js';
import { ITEM, UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { holdWritesUntilAllArrive } from '../support/write-barrier.js';

const P = '/api/v2/policies';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
const UNDERWRITER_ROLE = 'f572e03a-a70b-4671-a45c-bae3e4b9cc1b';
const VACANT = '7a49ec9a-64fc-41fd-bf61-55a1e593fa10';
const BUSINESS_ON_PREMISES = '67344a3c-7863-4d65-8ae5-4b8157514146';
let service: TestService;

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const noLosses = [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no', explanation: '' }];

/** create_quote's request for the worked example of the reference product. */
function simpleQuote(overrides: Record<string, unknown> = {}, dwelling: Record<string, unknown> = {}) {
  return {
    effective_date: usDate(todayIso()),
    line_name: 'Homeowners',
    policy_type_name: 'Homeowner - HO3',
    underwriting_questions: noLosses,
    named_insured: 'Robin Simple',
    named_insured_type: 'individual',
    named_insured_address: { address_line1: '1 Main St', address_city: 'New York', address_state: 'NY', address_zip: '10001', latitude: 40.75, longitude: -73.99 },
    locations: [{ address_line1: '1 Main St', address_city: 'New York', address_state: 'NY', address_zip: '10001', year_built: '1990' }],
    items: [
      { name: 'Dwelling', limit: 250000, deductible: 1000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' }, ...dwelling },
      { name: 'Personal Liability', limit: 300000 },
      { name: 'Medical Payments', limit: 5000 },
    ],
    ...overrides,
  };
}

/** create_quote_extended's quote_info as existing clients send it. */
function extendedQuote(overrides: Record<string, unknown> = {}) {
  return {
    effective_date: usDate(todayIso()),
    inception_date: usDate(todayIso()),
    line_name: 'Homeowners',
    policy_type_name: 'Homeowner - HO3',
    underwriting_questions: noLosses,
    named_insureds: [{ name: 'Pat Extended', type: 'individual', phones: [{ number: '555-0100', type: 'home' }] }],
    locations: [{ address_line1: '2 Main St', address_city: 'New York', address_state: 'NY', address_zip: '10001', year_built: '1990', primary: true }],
    items: [
      { name: 'Dwelling', limit: 250000, deductible: 1000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' }, rating_details: ['Base Rate'] },
      { name: 'Personal Liability', limit: 300000 },
      { name: 'Medical Payments', limit: 5000 },
    ],
    ...overrides,
  };
}

async function keyFor(roleId: string, agencyIds: string[]): Promise<string> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name: 'Quote Desk Contact', type: 'individual', roleIds: [roleId], agencyIds, createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, 'quote desk test');
  return key;
}

const nextNumber = async () => ok(await service.call(`${P}/new_policy_information`, {})).next_policy_number as string;
const revisionOf = async (policyNumber: string) => ok(await service.call(`${P}/retrieve_policy`, { policy_number: policyNumber })).active_revision.id as string;
const namedInsuredsCalled = async (name: string) =>
  ok(await service.call('/api/v1/contacts/lookupContactByName', { name, role: 'Named Insured', role_type: 'individual' })) as unknown[];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('create_quote', () => {
  it('quotes the worked example to the cent for one named insured, and stores it rated with its contact', async () => {
    const data = ok(await service.call(`${P}/create_quote`, { quote_info: simpleQuote() }));
    expect(data.quote_number).toMatch(/^10-\d{4}-\d+$/);
    expect(data.total).toEqual({ pro_rata_fees: 25, pro_rata_premium: 826.62, pro_rata_total: 851.62, annual_fees: 25, annual_premium: 826.62, annual_total: 851.62 });
    const byName = Object.fromEntries(data.items.map((item: any) => [item.name, item.annual_amount]));
    expect(byName).toMatchObject({ Dwelling: 866.25, 'Other Structures': 0, 'Personal Property': 0, 'Loss of Use': 0, 'Personal Liability': 35, 'Medical Payments': 12, 'Claims-Free Discount': -86.63, 'Policy Fee': 25 });
    // The simple variant answers no step trace, forms or STP.
    expect(data.items[0]).not.toHaveProperty('rating_details');
    expect(data).not.toHaveProperty('stp');

    const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id }));
    expect(policy.policy_number).toBe(data.quote_number);
    const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: policy.active_revision.id }));
    expect(revision).toMatchObject({ annual_premium: 826.62, annual_fee: 25, policy_status: 'Unsubmitted', revision_state: 'open' });
    expect(revision.named_insureds.map((insured: any) => insured.name)).toEqual(['Robin Simple']);
    expect(revision.items.find((item: any) => item.item_id === ITEM.DWELLING).rating_details).toMatchObject({ 'Base Rate': 875, Construction: 962.5 });
  });

  it('refuses an unknown item by name and a bad date, naming the field, and uses up no number', async () => {
    const before = await nextNumber();
    const unknown = await service.call(`${P}/create_quote`, { quote_info: simpleQuote({ items: [{ name: 'Flood' }] }) });
    expect(unknown.body).toMatchObject({ success: false, messages: ['quote_info.items.0.name: no item named "Flood"'] });
    const badDate = await service.call(`${P}/create_quote`, { quote_info: simpleQuote({ effective_date: '13/45/2026' }) });
    expect(badDate.body.success).toBe(false);
    expect(badDate.body.messages.join(' ')).toContain('quote_info.effective_date');
    expect(await nextNumber()).toBe(before);
  });
});

describe('what a refused quote leaves behind', () => {
  it('a quote whose rating fails uses up no policy number and creates no contact', async () => {
    const before = await nextNumber();
    const name = `Unrated ${crypto.randomUUID().slice(0, 8)}`;
    // A Dwelling without its Construction Type cannot be rated.
    const quote = simpleQuote({ named_insured: name }, { questions: { 'Protection Class': '3' } });
    const answer = await service.call(`${P}/create_quote`, { quote_info: quote });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages.join(' ')).toMatch(/Construction Type/);
    expect(await nextNumber()).toBe(before);
    expect(await namedInsuredsCalled(name)).toEqual([]);
  });

  it('when the create transaction fails, the named insureds it brought are not left behind as contacts', async () => {
    // Two quotes under the same manual number pass the number check together; only one can be written.
    const manual = `Q-${crypto.randomUUID().slice(0, 8)}`;
    const names = [`First ${crypto.randomUUID().slice(0, 8)}`, `Second ${crypto.randomUUID().slice(0, 8)}`];
    const barrier = holdWritesUntilAllArrive(2);
    let answers;
    try {
      answers = await Promise.all(
        names.map((name) =>
          service.call(`${P}/create_quote_extended`, { quote_info: extendedQuote({ policy_number: manual, named_insureds: [{ name, type: 'individual' }] }) }),
        ),
      );
    } finally {
      barrier.remove();
    }
    expect(answers.map((answer) => answer.body.success).sort()).toEqual([false, true]);
    const winner = answers.findIndex((answer) => answer.body.success);
    expect(await namedInsuredsCalled(names[winner])).toHaveLength(1);
    expect(await namedInsuredsCalled(names[1 - winner])).toEqual([]);
  });
});

describe('quoting at the same time', () => {
  it('eight quotes sent at once all succeed, each under its own number with its own named insured', async () => {
    const names = Array.from({ length: 8 }, (_, index) => `Concurrent ${index} ${crypto.randomUUID().slice(0, 6)}`);
    const answers = await Promise.all(names.map((name) => service.call(`${P}/create_quote_extended`, { quote_info: extendedQuote({ named_insureds: [{ name, type: 'individual' }] }) })));
    const numbers = answers.map((answer) => ok(answer).quote_number);
    expect(new Set(numbers).size).toBe(8);
    for (const name of names) expect(await namedInsuredsCalled(name)).toHaveLength(1);
  });
});

describe('requote_extended', () => {
  it('replaces the quote named by policy_number: the old number finds nothing, the new quote is rated', async () => {
    const old = ok(await service.call(`${P}/create_quote_extended`, { quote_info: extendedQuote() }));
    const oldRevision = await revisionOf(old.quote_number);
    const oldRisk = ok(await service.call(`${P}/retrieve_risks`, { revision_id: oldRevision })).results[0].id;
    const quoteInfo = extendedQuote({ policy_number: old.quote_number, items: [{ name: 'Dwelling', limit: 300000, deductible: 1000, questions: { 'Construction Type': 'Masonry', 'Protection Class': '3' } }] });
    const data = ok(await service.call(`${P}/requote_extended`, { quote_info: quoteInfo }));
    expect(data.quote_number).toMatch(/^10-\d{4}-\d+$/);
    expect(data.quote_number).not.toBe(old.quote_number);
    // Dwelling 300,000 Masonry PC 3: 1050.00 × 1.00 × 0.90 = 945.00; liability 35 and med pay 12 by default; discount −94.50.
    expect(data.total).toMatchObject({ annual_premium: 897.5, annual_fees: 25, annual_total: 922.5 });
    expect(data).not.toHaveProperty('stp');
    expect(data.items.every((item: any) => !('rating_details' in item))).toBe(true);
    expect(data.forms).toEqual([{ form_code: 'HO 00 03', edition_number: '05 11', description: 'Homeowners 3 - Special Form' }]);

    for (const lookup of [{ policy_number: old.quote_number }, { policy_id: old.policy_id }]) {
      const gone = await service.call(`${P}/retrieve_policy`, lookup);
      expect(gone.body.success).toBe(false);
    }
    expect((await service.call(`${P}/retrieve_revision_details`, { revision_id: oldRevision })).body.success).toBe(false);
    expect((await service.call(`${P}/retrieve_risk_details`, { risk_id: oldRisk })).body.success).toBe(false);
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_number: data.quote_number })).id).toBe(data.policy_id);

    // search no longer finds the replaced quote; it finds the replacement.
    const found = async (text: string) => ok(await service.call(`${P}/search`, { search_string: text })).records.map((record: any) => record.policyNumber);
    expect(await found(old.quote_number)).toEqual([]);
    expect(await found(data.quote_number)).toEqual([data.quote_number]);

    // The replaced quote cannot be requoted again.
    const again = await service.call(`${P}/requote_extended`, { quote_info: quoteInfo });
    expect(again.body.success).toBe(false);
  });

  it('two requotes of one quote at once: exactly one replacement exists, never both and never neither', async () => {
    const old = ok(await service.call(`${P}/create_quote_extended`, { quote_info: extendedQuote() }));
    const before = await nextNumber();
    const barrier = holdWritesUntilAllArrive(2);
    let answers;
    try {
      answers = await Promise.all([0, 1].map(() => service.call(`${P}/requote_extended`, { policy_number: old.quote_number, quote_info: extendedQuote() })));
    } finally {
      barrier.remove();
    }
    expect(answers.map((answer) => answer.body.success).sort()).toEqual([false, true]);
    const winner = answers.find((answer) => answer.body.success)!.body.data;
    expect((await service.call(`${P}/retrieve_policy`, { policy_number: old.quote_number })).body.success).toBe(false);
    // Both took a number before the race; only the winner's finds a policy.
    const [prefix, year, first] = before.split('-');
    const taken = [Number(first), Number(first) + 1].map((n) => `${prefix}-${year}-${n}`);
    const found = [];
    for (const number of taken) if ((await service.call(`${P}/retrieve_policy`, { policy_number: number })).body.success) found.push(number);
    expect(found).toEqual([winner.quote_number]);
  });

  it('refuses to requote an issued policy and changes nothing', async () => {
    const quote = ok(await service.call(`${P}/create_quote_extended`, { quote_info: extendedQuote() }));
    ok(await service.call(`${P}/bind`, { bind_info: { policy_number: quote.quote_number } }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_number: quote.quote_number } }));
    const before = await nextNumber();
    const refused = await service.call(`${P}/requote_extended`, { quote_info: extendedQuote({ policy_number: quote.quote_number }) });
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages[0]).toMatch(/only an unissued quote can be requoted/);
    expect(await nextNumber()).toBe(before);
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_number: quote.quote_number })).active).toBe(true);
  });

  it('create_quote_extended with requote true replaces the quote named in quote_info', async () => {
    const old = ok(await service.call(`${P}/create_quote_extended`, { quote_info: extendedQuote() }));
    const data = ok(await service.call(`${P}/create_quote_extended`, { quote_info: extendedQuote({ policy_number: old.quote_number }), requote: true }));
    expect(data.quote_number).not.toBe(old.quote_number);
    expect(data.stp).toMatchObject({ ran: true, success: true });
    expect((await service.call(`${P}/retrieve_policy`, { policy_number: old.quote_number })).body.success).toBe(false);
  });
});

describe('retrieve_revision_analysis', () => {
  const analysisOf = async (quote: Record<string, unknown>) => {
    const created = ok(await service.call(`${P}/create_quote`, { quote_info: quote }));
    return ok(await service.call(`${P}/retrieve_revision_analysis`, { revision_id: await revisionOf(created.quote_number) }));
  };

  it('passes a quote that breaks no rule', async () => {
    expect(await analysisOf(simpleQuote())).toEqual({ stp_success: true, stp_decision: 'accept', stp_details: [] });
  });

  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
    ['Losses in past 3 years', { underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'yes' }] }, {}, 'refer'],
    ['Dwelling vacant or unoccupied', { underwriting_questions: [...noLosses, { questionId: VACANT, yesNoAnswer: 'yes' }] }, {}, 'decline'],
    ['Business conducted on premises', { underwriting_questions: [...noLosses, { questionId: BUSINESS_ON_PREMISES, yesNoAnswer: 'yes' }] }, {}, 'refer'],
    ['Dwelling limit over 1,000,000', {}, { limit: 1200000 }, 'refer'],
    ['Year built before 1900', { locations: [{ address_line1: '3 Old Rd', address_city: 'New York', address_state: 'NY', address_zip: '10001', year_built: '1850' }] }, {}, 'refer'],
    ['Protection class 9 or 10', {}, { questions: { 'Construction Type': 'Frame', 'Protection Class': '9' } }, 'refer'],
  ];
  for (const [rule, quote, dwelling, outcome] of cases) {
    it(`names "${rule}" when it alone fails (${outcome})`, async () => {
      const analysis = await analysisOf(simpleQuote(quote, dwelling));
      expect(analysis.stp_success).toBe(false);
      expect(analysis.stp_decision).toBe(outcome);
      expect(analysis.stp_details.map((detail: any) => detail.rule_name)).toEqual([rule]);
      expect(analysis.stp_details[0].details).toContain(rule);
    });
  }

  it('answers an unknown revision as not found', async () => {
    const answer = await service.call(`${P}/retrieve_revision_analysis`, { revision_id: crypto.randomUUID() });
    expect(answer.body.success).toBe(false);
  });
});

describe('update_review_workflow', () => {
  const move = (revisionId: string, event: string, apiKey?: string) =>
    service.call(`${P}/update_review_workflow`, { revision_id: revisionId, workflow_event: event, event_context: { uw_message: 'looked at it', request_reason: 'coastal' } }, apiKey ? { apiKey } : {});

  it('walks every move of the state table and keeps the state on the revision', async () => {
    const quote = ok(await service.call(`${P}/create_quote`, { quote_info: simpleQuote() }));
    const revisionId = await revisionOf(quote.quote_number);
    expect(ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).review_state).toBe('NOT_STARTED');
    const walk: Array<[string, string, string]> = [
      ['UW_REVIEW_REQUESTED', 'NOT_STARTED', 'PENDING_UNDERWRITER_REVIEW'],
      ['UW_REVIEW_DECLINED', 'PENDING_UNDERWRITER_REVIEW', 'PENDING_AGENT_CHANGES'],
      ['UW_REVIEW_REQUESTED', 'PENDING_AGENT_CHANGES', 'PENDING_UNDERWRITER_REVIEW'],
      ['UW_REVIEW_APPROVED', 'PENDING_UNDERWRITER_REVIEW', 'APPROVED_BY_UW'],
      ['AGENT_ACK', 'APPROVED_BY_UW', 'READY_TO_APPLY'],
    ];
    for (const [event, prev, curr] of walk) {
      expect(ok(await move(revisionId, event))).toEqual({ prev_state: prev, curr_state: curr });
      expect(ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).review_state).toBe(curr);
    }
    const history = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).review_history;
    expect(history.map((entry: any) => [entry.event, entry.prev_state, entry.curr_state])).toEqual(walk);
    expect(history[0]).toMatchObject({ uw_message: 'looked at it', request_reason: 'coastal' });
  });

  it('refuses a move the state does not allow, naming the current state, and changes nothing', async () => {
    const quote = ok(await service.call(`${P}/create_quote`, { quote_info: simpleQuote() }));
    const revisionId = await revisionOf(quote.quote_number);
    const refused = await move(revisionId, 'UW_REVIEW_APPROVED');
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages[0]).toContain('NOT_STARTED');
    expect(ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).review_state).toBe('NOT_STARTED');
    const unknown = await move(revisionId, 'UW_REVIEW_FORGOTTEN');
    expect(unknown.body.success).toBe(false);
    expect(unknown.body.messages[0]).toMatch(/^workflow_event/);
  });

  it("lets an agent ask for a review of its agency's quote but not approve it; an underwriter approves", async () => {
    const agencyId = crypto.randomUUID();
    await createContactProfileIfAbsent({ id: agencyId, name: 'Review Agency', type: 'organization', roleIds: [AGENCY_ROLE], agencyIds: [agencyId], createdAt: new Date().toISOString(), version: 1 });
    const agent = await keyFor(AGENT_ROLE, [agencyId]);
    const underwriter = await keyFor(UNDERWRITER_ROLE, []);
    const quote = ok(await service.call(`${P}/create_quote`, { quote_info: simpleQuote({ agency_id: agencyId }) }, { apiKey: agent }));
    const revisionId = await revisionOf(quote.quote_number);
    ok(await move(revisionId, 'UW_REVIEW_REQUESTED', agent));
    expect((await move(revisionId, 'UW_REVIEW_APPROVED', agent)).status).toBe(403);
    expect(ok(await move(revisionId, 'UW_REVIEW_APPROVED', underwriter))).toEqual({ prev_state: 'PENDING_UNDERWRITER_REVIEW', curr_state: 'APPROVED_BY_UW' });
  });
});
