/**
 * Binding moratoriums through the HTTP API: declared over Miami-Dade (county 12086), they warn
 * on a quote there, refuse its bind and a Dwelling increase at issue (a preview says so), let a
 * Broward policy bind, a payment through, and a quote submitted before bind when effective far
 * enough after; an underwriter releases one policy, an agent cannot; refusals are counted per
 * agency; lifted, they refuse no more; subscribers receive moratorium.declared and .lifted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { startSubscriber, type Subscriber } from '../support/subscriber.js';

const P = '/api/v2/policies';
const U = '/api/v2/underwriting';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const UNDERWRITER_ROLE = 'f572e03a-a70b-4671-a45c-bae3e4b9cc1b';
const MIAMI = '33101';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
const UNDERWRITING_REASONS = '5e9d5f20-b957-4ddc-b09b-39602a3454d6';
const LOSS_HISTORY = 'e5a9f172-3b8c-4d61-a0f4-8c7b5e2d9a03';
const BROWARD = '33301';

let service: TestService;
let subscriber: Subscriber;
let agencySubscriber: Subscriber;
let underwriter: string;
let agent: string;
const agencyId = crypto.randomUUID();

async function keyFor(roleId: string, name: string, agencyIds: string[] = []): Promise<string> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds: [roleId], agencyIds, createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, name);
  return key;
}

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const as = (apiKey?: string) => (apiKey ? { apiKey } : {});

function quote(name: string, zip: string, options: { effective?: string; apiKey?: string } = {}) {
  return service.call(
    `${P}/create_quote_extended`,
    {
      quote_info: {
        effective_date: usDate(options.effective ?? todayIso()), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_line1: '1 Bay Rd', address_zip: zip }],
        items: [{ name: 'Dwelling', limit: 250000, deductible: 1000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    },
    as(options.apiKey),
  );
}
const bind = (policyId: string, apiKey?: string) => service.call(`${P}/bind`, { bind_info: { policy_id: policyId } }, as(apiKey));
const issue = (policyId: string) => service.call(`${P}/issue`, { issue_info: { policy_id: policyId } });
async function issued(name: string, zip: string) {
  const quoted = ok(await quote(name, zip));
  ok(await bind(quoted.policy_id));
  ok(await issue(quoted.policy_id));
  return { policyId: quoted.policy_id as string, policyNumber: quoted.quote_number as string };
}
/** An endorsement of today raising the Dwelling limit to `limit`, rated: its revision id. */
async function dwellingTo(policyId: string, limit: number): Promise<string> {
  const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policyId, revision_date: todayIso() }));
  const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
  const dwelling = (revision.items as Array<{ id: string; name: string }>).find((item) => item.name === 'Dwelling')!;
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit }] }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  return revisionId;
}
const declare = (body: Record<string, unknown>, apiKey?: string) => service.call(`${U}/declare_moratorium`, body, as(apiKey ?? underwriter));

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents', 'events'] });
  subscriber = await startSubscriber();
  agencySubscriber = await startSubscriber();
  underwriter = await keyFor(UNDERWRITER_ROLE, 'Uma Underwriter');
  agent = await keyFor(AGENT_ROLE, 'Andy Agent', [agencyId]);
});
afterAll(async () => {
  await subscriber?.close();
  await agencySubscriber?.close();
  await service?.stop();
});

describe('a moratorium over Miami-Dade', () => {
  it('refuses what it blocks there, lets the rest through, releases one policy, and stops once lifted', async () => {
    ok(await service.call('/api/v2/events/create', { url: subscriber.url, event_types: ['moratorium.*'], description: 'storm desk' }));
    // An agency's own subscription hears of them too: a moratorium concerns every agency's business.
    ok(await service.call('/api/v2/events/create', { url: agencySubscriber.url, event_types: ['moratorium.*'], description: 'agency storm desk' }, as(agent)));
    // Before the storm: a policy in force in Miami-Dade, and a quote there effective in 15 days.
    const inForce = await issued('Mia Before', MIAMI);
    const earlyQuote = ok(await quote('Ezra Early', MIAMI, { effective: addDays(todayIso(), 15) }));
    const soonQuote = ok(await quote('Sol Soon', MIAMI, { effective: addDays(todayIso(), 5) }));
    const boundBefore = ok(await quote('Bo Bound', MIAMI));
    ok(await bind(boundBefore.policy_id));

    // Agents cannot declare; a declaration names each wrong field.
    expect((await declare({ name: 'Storm', kind: 'underwriting', counties: ['12086'], blocks: ['new_business'] }, agent)).status).toBe(403);
    const wrong = await declare({ name: 'Storm', kind: 'underwriting', states: ['XX'], counties: ['1208'], blocks: [], starts_at: '2026-09-05', ends_at: '2026-09-01' });
    expect(wrong.body.success).toBe(false);
    expect(wrong.body.messages).toEqual(expect.arrayContaining([expect.stringMatching(/^states\.0:/), expect.stringMatching(/^counties\.0:/), expect.stringMatching(/^blocks:/), expect.stringMatching(/^ends_at:/)]));
    expect(ok(await service.call(`${U}/list_moratoriums`, {})).moratoriums).toEqual([]);

    const declared = ok(await declare({ name: 'Hurricane Test', kind: 'underwriting', counties: ['12086'], blocks: ['new_business', 'coverage_increase'] }));
    expect(declared).toMatchObject({ moratorium_id: expect.any(String), name: 'Hurricane Test', counties: ['12086'], products: [], lifted_at: null });
    const moratoriumId = declared.moratorium_id as string;

    // A quote in the area still rates, and warns; its bind (by an agent) is refused naming the moratorium.
    const warned = await quote('Walt Warned', MIAMI, { apiKey: agent });
    expect(warned.body.success).toBe(true);
    expect(warned.body.data.total.annual_premium).toBeGreaterThan(0);
    expect(warned.body.messages.join(' ')).toMatch(/Hurricane Test/);
    const refused = await bind(warned.body.data.policy_id, agent);
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages[0]).toMatch(/Hurricane Test/);
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: warned.body.data.policy_id })).active_revision.policy_status).toBe('Unsubmitted');

    // Bound before the storm: it stands, and issues.
    ok(await issue(boundBefore.policy_id));

    // Outside the area: no warning, bound and issued.
    const broward = await quote('Bea Broward', BROWARD);
    expect(broward.body.messages).toEqual([]);
    ok(await bind(broward.body.data.policy_id));
    ok(await issue(broward.body.data.policy_id));

    // Submitted before, effective 15 days on: binds and issues. Effective in 5 days: refused.
    ok(await bind(earlyQuote.policy_id));
    ok(await issue(earlyQuote.policy_id));
    expect((await bind(soonQuote.policy_id)).body.messages[0]).toMatch(/Hurricane Test/);

    // A payment on the policy in force goes through; a Dwelling increase is refused at issue, its preview says it would be.
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: inForce.policyNumber, amount: '100.00' } }));
    const increase = await dwellingTo(inForce.policyId, 300000);
    const preview = ok(await service.call(`${P}/preview_revision`, { revision_id: increase }));
    expect(preview.moratoriums).toEqual({ would_be_refused: true, refused_by: [{ moratorium_id: moratoriumId, name: 'Hurricane Test' }], changes: expect.arrayContaining(['raises the limit of Dwelling (Property #1)']) });
    const endorsed = await service.call(`${P}/issue`, { issue_info: { policy_id: inForce.policyId, revision_id: increase } });
    expect(endorsed.body.success).toBe(false);
    expect(endorsed.body.messages[0]).toMatch(/increase of coverage.*Hurricane Test/);

    // Refusals are counted and listed, by agency.
    const listed = ok(await service.call(`${U}/list_moratoriums`, { active_on: todayIso() })).moratoriums;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ moratorium_id: moratoriumId, refused_count: 3 });
    expect(listed[0].refused_by_agency).toEqual(expect.arrayContaining([{ agency_id: agencyId, count: 1 }, { agency_id: null, count: 2 }]));
    expect(listed[0].refusals.map((refusal: { operation: string }) => refusal.operation).sort()).toEqual(['bind', 'bind', 'endorsement']);
    const seenByAgent = ok(await service.call(`${U}/retrieve_moratorium`, { moratorium_id: moratoriumId }, as(agent)));
    expect(seenByAgent.refusals).toEqual([expect.objectContaining({ operation: 'bind', agency_id: agencyId, policy_id: warned.body.data.policy_id })]);

    // An agent cannot release; an underwriter releases one policy, with a reason, and it binds.
    const release = { moratorium_id: moratoriumId, policy_id: warned.body.data.policy_id, reason: 'Inspected after the storm: no damage' };
    expect((await service.call(`${U}/release_moratorium_hold`, release, as(agent))).status).toBe(403);
    expect(ok(await service.call(`${U}/release_moratorium_hold`, release, as(underwriter)))).toMatchObject({ reason: release.reason, released_by: expect.any(String), released_at: expect.any(String), already_released: false });
    ok(await bind(warned.body.data.policy_id, agent));
    expect((await bind(soonQuote.policy_id)).body.success).toBe(false);

    // Lifted: refused no more (and a second lift is refused).
    const lifted = ok(await service.call(`${U}/lift_moratorium`, { moratorium_id: moratoriumId }, as(underwriter)));
    expect(lifted.lifted_at).toEqual(expect.any(String));
    ok(await bind(soonQuote.policy_id));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: inForce.policyId, revision_id: increase } }));
    expect((await quote('Nell After', MIAMI)).body.messages).toEqual([]);
    expect((await service.call(`${U}/lift_moratorium`, { moratorium_id: moratoriumId }, as(underwriter))).body.success).toBe(false);

    const events = await subscriber.waitFor(2);
    expect(events.map((received) => received.event.type)).toEqual(['moratorium.declared', 'moratorium.lifted']);
    expect((await agencySubscriber.waitFor(2)).map((received) => received.event.type)).toEqual(['moratorium.declared', 'moratorium.lifted']);
    expect(events[0].event).toMatchObject({ policy_id: moratoriumId, data: { moratorium_id: moratoriumId, name: 'Hurricane Test', counties: ['12086'] } });
  });

  it('overlapping moratoriums all apply; lifting one leaves the other', async () => {
    const first = ok(await declare({ name: 'Storm One', kind: 'regulatory', counties: ['12011'], blocks: ['new_business'] }));
    const second = ok(await declare({ name: 'Storm Two', kind: 'underwriting', states: ['FL'], blocks: ['new_business'] }));
    const quoted = ok(await quote('Olly Overlap', BROWARD));
    expect((await bind(quoted.policy_id)).body.messages[0]).toMatch(/"Storm One", "Storm Two"|"Storm Two", "Storm One"/);
    ok(await service.call(`${U}/lift_moratorium`, { moratorium_id: first.moratorium_id }));
    const still = await bind(quoted.policy_id);
    expect(still.body.messages[0]).toMatch(/Storm Two/);
    expect(still.body.messages[0]).not.toMatch(/Storm One/);
    ok(await service.call(`${U}/lift_moratorium`, { moratorium_id: second.moratorium_id }));
    ok(await bind(quoted.policy_id));
  });

  it('narrows by each dimension given: FL with county 12086 is Miami-Dade, not Broward; a county outside the states named is refused (issue 44)', async () => {
    const outside = await declare({ name: 'Storm Nowhere', kind: 'underwriting', states: ['FL'], counties: ['13051'], blocks: ['new_business'] });
    expect(outside.body).toMatchObject({ success: false, messages: ['counties.0: 13051 is in none of the states named (FL)'] });
    expect(ok(await service.call(`${U}/list_moratoriums`, {})).moratoriums.map((m: { name: string }) => m.name)).not.toContain('Storm Nowhere');

    const storm = ok(await declare({ name: 'Storm Narrow', kind: 'underwriting', states: ['FL'], counties: ['12086'], blocks: ['new_business'] }));
    const inBroward = ok(await quote('Bea Broward', BROWARD));
    const inMiami = ok(await quote('Max Miami', MIAMI));
    ok(await bind(inBroward.policy_id));
    const refused = await bind(inMiami.policy_id);
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages[0]).toMatch(/refused under the moratorium "Storm Narrow"/);
    ok(await service.call(`${U}/lift_moratorium`, { moratorium_id: storm.moratorium_id }));

    // Several values within one dimension: any of them; ZIPs narrow further still.
    const zips = ok(await declare({ name: 'Storm Zips', kind: 'underwriting', states: ['FL'], counties: ['12086', '12011'], zips: [MIAMI], blocks: ['new_business'] }));
    const brow = ok(await quote('Bo Broward', BROWARD));
    const mia = ok(await quote('Mo Miami', MIAMI));
    ok(await bind(brow.policy_id));
    expect((await bind(mia.policy_id)).body.messages[0]).toMatch(/"Storm Zips"/);
    ok(await service.call(`${U}/lift_moratorium`, { moratorium_id: zips.moratorium_id }));
  });

  it('bars a Non-Renewal, the carrier\'s cancellation and a reinstatement where blocked; a renewal and the insured\'s own request go on', async () => {
    const policy = await issued('Cass Cancel', '33480');
    const renewing = ok(await quote('Rene Renewing', '33480', { effective: addDays(todayIso(), -330) }));
    ok(await bind(renewing.policy_id));
    ok(await issue(renewing.policy_id));
    const barred = ok(await declare({ name: 'Statutory Bar', kind: 'regulatory', zips: ['33480'], blocks: ['new_business', 'cancellation', 'reinstatement', 'non_renewal'] }));
    // A renewal on the same terms goes on; a Non-Renewal is barred.
    expect(ok(await service.call(`${P}/process_renewals`, { policy_number: renewing.quote_number, renew_date: todayIso() }))).toMatchObject({ decision: 'renewed' });
    const revisionId = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_revision.id;
    const nonRenewal = await service.call(`${P}/store_renewal_status`, { revision_id: revisionId, renewal_status: 'Non-Renewal', renewal_status_reason: LOSS_HISTORY });
    expect(nonRenewal.body.success).toBe(false);
    expect(nonRenewal.body.messages[0]).toMatch(/non-renewal is refused under the moratorium "Statutory Bar"/);
    const byCarrier = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: UNDERWRITING_REASONS, cancel_date: todayIso() });
    expect(byCarrier.body.success).toBe(false);
    expect(byCarrier.body.message).toMatch(/cancellation is refused under the moratorium "Statutory Bar"/);
    ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: INSUREDS_REQUEST, cancel_date: todayIso() }));
    const reinstated = await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' });
    expect(reinstated.body.messages[0]).toMatch(/reinstatement is refused under the moratorium "Statutory Bar"/);
    ok(await service.call(`${U}/lift_moratorium`, { moratorium_id: barred.moratorium_id }));
    ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
    expect(ok(await service.call(`${U}/retrieve_moratorium`, { moratorium_id: barred.moratorium_id })).refusals.map((refusal: { refused: string }) => refusal.refused)).toEqual(['non_renewal', 'cancellation', 'reinstatement']);
  });
});
