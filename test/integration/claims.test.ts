/**
 * Claims through the HTTP API: the worked claim of ../shared/spec/claims.md reported on the New York
 * worked example (Dwelling 250,000, deductible 1,000), checked against the revision in force on its
 * loss date, worked (exposures, people, dates) and closed; coverage before and after an endorsement,
 * a loss before inception and after a cancellation flagged; the duplicate report; search; an agent
 * refused another agency's claim; retrieve_policy's britecore_claims.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const X = '/api/v2/claim_exposures';
const P = '/api/v2/policies';
const ADJUSTER_ROLE = '5b0e6f3a-2d4c-4b8e-9a17-c3d5e7f90a21';
const MANAGER_ROLE = '8e2d4f6a-1b3c-4d5e-8f70-a1b2c3d4e5f6';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';

let service: TestService;
let policy: IssuedWorkedExample;
let adjuster: { key: string; contactId: string };
let manager: { key: string; contactId: string };
const effective = addDays(todayIso(), -70);

async function keyFor(roleId: string, name: string, agencyIds: string[] = []): Promise<{ key: string; contactId: string }> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds: [roleId], agencyIds, createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, name);
  return { key, contactId };
}

const report = (body: Record<string, unknown>, apiKey?: string) =>
  service.call(`${C}/new_claim`, { peril: 'WTR', description: 'A pipe burst in the kitchen', reported_by: { name: 'Pat Example', relation: 'insured', phone: '555-0100' }, ...body }, apiKey ? { apiKey } : {});

beforeAll(async () => {
  service = await startTestService();
  policy = await issueWorkedExample(service, 'Pat Example', effective);
  adjuster = await keyFor(ADJUSTER_ROLE, 'Alex Adjuster');
  manager = await keyFor(MANAGER_ROLE, 'Morgan Manager');
});
afterAll(async () => service?.stop());

describe('the worked claim', () => {
  let claimId: string;
  let claimNumber: string;

  it('reports the loss of day 60 on day 62, numbered CL-<YYYY>-<n>, covered by the revision in force then', async () => {
    const answer = ok(await report({ policy_number: policy.policyNumber, loss_date: addDays(effective, 60), reported_date: addDays(effective, 62) }, adjuster.key));
    claimId = answer.id;
    claimNumber = answer.claim_number;
    expect(claimNumber).toMatch(new RegExp(`^CL-${addDays(effective, 62).slice(0, 4)}-\\d+$`));
    const claim = ok(await service.call(`${C}/get_claim`, { claim_id: claimId }, { apiKey: adjuster.key }));
    expect(claim).toMatchObject({ claim_number: claimNumber, policy_number: policy.policyNumber, loss_date: addDays(effective, 60), reported_date: addDays(effective, 62), peril: 'WTR', status: 'open', coverage: 'in_force', state: 'NY' });
    expect(claim.coverage_at_loss).toMatchObject({ revision_id: policy.revisionId, policy_term_id: policy.termId, deductible: 1000 });
    expect(claim.coverage_at_loss.coverages.map((coverage: any) => [coverage.name, coverage.limit])).toEqual(
      expect.arrayContaining([['Dwelling', 250000], ['Other Structures', 25000], ['Personal Property', 125000], ['Loss of Use', 50000]]),
    );
    expect(claim.due_dates.find((due: any) => due.clock === 'acknowledge')).toMatchObject({ calendar: 'business', from_date: addDays(effective, 62), status: 'open' });
    expect(claim.contacts).toEqual([expect.objectContaining({ role: 'insured', name: 'Pat Example' })]);
  });

  it('opens the Dwelling and Loss of Use exposures and refuses a coverage the revision does not carry', async () => {
    const dwelling = ok(await service.call(`${X}/create_exposure`, { claim_id: claimId, coverage: 'Dwelling' }, { apiKey: adjuster.key }));
    expect(dwelling).toMatchObject({ coverage: 'Dwelling', limit: 250000, section: 'I', deductible_applies: true, status: 'open' });
    ok(await service.call(`${X}/create_exposure`, { claim_id: claimId, coverage: 'Loss of Use' }, { apiKey: adjuster.key }));
    const refused = await service.call(`${X}/create_exposure`, { claim_id: claimId, coverage: 'Earthquake' }, { apiKey: adjuster.key });
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages.join(' ')).toMatch(/coverage: Earthquake is not a coverage/);
    const exposures = ok(await service.call(`${X}/list_exposures`, { claim_id: claimId }, { apiKey: adjuster.key }));
    expect(exposures.map((exposure: any) => exposure.coverage)).toEqual(['Dwelling', 'Loss of Use']);
  });

  it('refuses to close while exposures are open, naming them; closes once they are closed; reopens with a reason', async () => {
    const refused = await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { status: 'closed', reason: 'Paid' } }, { apiKey: adjuster.key });
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages.join(' ')).toMatch(/exposures are open: .*Dwelling/);
    expect(refused.body.messages.join(' ')).toMatch(/Loss of Use/);
    const exposures = ok(await service.call(`${X}/list_exposures`, { claim_id: claimId }, { apiKey: adjuster.key }));
    for (const exposure of exposures) ok(await service.call(`${X}/update_exposure`, { exposure_id: exposure.id, status: 'closed', close_reason: 'with_pay' }, { apiKey: adjuster.key }));
    const closed = ok(await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { status: 'closed', reason: 'Paid in full' } }, { apiKey: adjuster.key }));
    expect(closed.status).toBe('closed');
    const reopened = ok(await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { status: 'reopened', reason: 'Supplement from the contractor' } }, { apiKey: manager.key }));
    expect(reopened.status).toBe('reopened');
    const changes = ok(await service.call(`${C}/get_claim_changes`, { claim_id: claimId }, { apiKey: adjuster.key }));
    expect(changes.map((change: any) => change.kind)).toEqual(['reported', 'exposure_created', 'exposure_created', 'exposure_closed', 'exposure_closed', 'closed', 'reopened']);
    expect(changes.at(-1)).toMatchObject({ by: manager.contactId, reason: 'Supplement from the contractor', changes: expect.arrayContaining([{ field: 'status', from: 'closed', to: 'reopened' }]) });
  });

  it('answers a second report of the same loss with the claim it repeats, unless confirmed as new', async () => {
    const again = await report({ policy_number: policy.policyNumber, loss_date: addDays(effective, 61) }, adjuster.key);
    expect(again.body.success).toBe(false);
    expect(again.body.data.possible_duplicate_of).toEqual([expect.objectContaining({ id: claimId, claim_number: claimNumber })]);
    const confirmed = ok(await report({ policy_number: policy.policyNumber, loss_date: addDays(effective, 61), confirm_new: true }, adjuster.key));
    expect(confirmed.claim_number).not.toBe(claimNumber);
  });

  it("lists the policy's claims as britecore_claims and finds them by search", async () => {
    const read = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(read.britecore_claims).toEqual(expect.arrayContaining([expect.objectContaining({ claim_number: claimNumber, loss_date: addDays(effective, 60), status: 'reopened', peril: 'WTR' })]));
    const found = ok(await service.call(`${C}/search`, { policy_number: policy.policyNumber }, { apiKey: adjuster.key }));
    expect(found.claims.map((claim: any) => claim.claim_number)).toContain(claimNumber);
    const byName = ok(await service.call(`${C}/search`, { insured_name: 'pat example', peril: 'WTR' }, { apiKey: adjuster.key }));
    expect(byName.claims.map((claim: any) => claim.claim_number)).toContain(claimNumber);
    const byNumber = ok(await service.call(`${C}/search`, { claim_number: claimNumber }, { apiKey: adjuster.key }));
    expect(byNumber.claims).toHaveLength(1);
  });

  it('pages a loss date range whatever the cursor, and names the field of a reversed range', async () => {
    const lossDate = addDays(effective, 60);
    const first = ok(await service.call(`${C}/search`, { policy_number: policy.policyNumber, page_size: 1 }, { apiKey: adjuster.key }));
    expect(first.next_cursor).toMatch(/^\d{4}-\d{2}-\d{2}#/);
    // A cursor newer than the range (the range narrowed between pages) reads the range from its top.
    const newer = ok(await service.call(`${C}/search`, { policy_number: policy.policyNumber, loss_date_to: lossDate, cursor: `9000-01-01#${crypto.randomUUID()}` }, { apiKey: adjuster.key }));
    expect(newer.claims.map((claim: any) => claim.claim_number)).toContain(claimNumber);
    // A cursor older than the range has nothing after it.
    const older = ok(await service.call(`${C}/search`, { policy_number: policy.policyNumber, loss_date_from: lossDate, cursor: `2000-01-01#${crypto.randomUUID()}` }, { apiKey: adjuster.key }));
    expect(older).toEqual({ claims: [], next_cursor: null });
    const reversed = await service.call(`${C}/search`, { loss_date_from: lossDate, loss_date_to: addDays(lossDate, -1) }, { apiKey: adjuster.key });
    expect(reversed.status).toBe(200);
    expect(reversed.body).toMatchObject({ success: false, messages: ['loss_date_to: must be on or after loss_date_from'] });
  });

  it("refuses an agent another agency's claim as not found", async () => {
    const agent = await keyFor(AGENT_ROLE, 'Other Agent', [crypto.randomUUID()]);
    const refused = await service.call(`${C}/get_claim`, { claim_id: claimId }, { apiKey: agent.key });
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages.join(' ')).toMatch(/was not found/);
    const search = ok(await service.call(`${C}/search`, {}, { apiKey: agent.key }));
    expect(search.claims).toEqual([]);
  });
});

const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';

async function endorseDwelling(policyId: string, revisionDate: string) {
  const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policyId, revision_date: revisionDate }));
  const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
  const dwelling = details.items.find((item: { name: string }) => item.name === 'Dwelling');
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policyId, revision_id: revisionId } }));
  return revisionId as string;
}

const dwellingLimit = (claim: any) => claim.coverage_at_loss.coverages.find((coverage: any) => coverage.name === 'Dwelling').limit;

describe('coverage on the loss date', () => {
  it('takes an endorsement effective before the loss and not one effective after it', async () => {
    const endorsed = await issueWorkedExample(service, 'Sam Endorsed', effective);
    const endorsement = await endorseDwelling(endorsed.policyId, addDays(effective, 30));
    const before = ok(await report({ policy_number: endorsed.policyNumber, loss_date: addDays(effective, 20), peril: 'FIR' }, adjuster.key));
    const after = ok(await report({ policy_number: endorsed.policyNumber, loss_date: addDays(effective, 40), peril: 'THF' }, adjuster.key));
    const earlier = ok(await service.call(`${C}/get_claim`, { claim_id: before.id }, { apiKey: adjuster.key }));
    const later = ok(await service.call(`${C}/get_claim`, { claim_id: after.id }, { apiKey: adjuster.key }));
    expect([earlier.coverage_at_loss.revision_id, dwellingLimit(earlier)]).toEqual([endorsed.revisionId, 250000]);
    expect([later.coverage_at_loss.revision_id, dwellingLimit(later)]).toEqual([endorsement, 300000]);
  });

  it('flags a loss after a cancellation as none_in_force, naming the cancellation', async () => {
    const cancelled = await issueWorkedExample(service, 'Cory Cancelled', effective);
    ok(await service.call(`${P}/cancel_policy`, { policy_id: cancelled.policyId, cancel_date: addDays(effective, 30), cancel_reason_id: INSUREDS_REQUEST }));
    const within = ok(await report({ policy_number: cancelled.policyNumber, loss_date: addDays(effective, 29), peril: 'FIR' }, adjuster.key));
    const past = ok(await report({ policy_number: cancelled.policyNumber, loss_date: addDays(effective, 31), peril: 'THF' }, adjuster.key));
    expect(ok(await service.call(`${C}/get_claim`, { claim_id: within.id }, { apiKey: adjuster.key })).coverage).toBe('in_force');
    expect(ok(await service.call(`${C}/get_claim`, { claim_id: past.id }, { apiKey: adjuster.key }))).toMatchObject({
      coverage: 'none_in_force',
      coverage_reason: `the policy was cancelled effective ${addDays(effective, 30)}, before the loss date ${addDays(effective, 31)}`,
      coverage_at_loss: { coverages: [] },
    });
  });

  it('flags a loss before inception as none_in_force with the reason, and still records the claim', async () => {
    const answer = ok(await report({ policy_number: policy.policyNumber, loss_date: addDays(effective, -5), peril: 'FIR' }, adjuster.key));
    const claim = ok(await service.call(`${C}/get_claim`, { claim_id: answer.id }, { apiKey: adjuster.key }));
    expect(claim).toMatchObject({ coverage: 'none_in_force', coverage_reason: expect.stringMatching(/before the policy's inception/) });
    const refused = await service.call(`${X}/create_exposure`, { claim_id: answer.id, coverage: 'Dwelling' }, { apiKey: adjuster.key });
    expect(refused.body.success).toBe(false);
  });

  it('refuses an unknown peril naming the field, and takes no number: the next report has the next one', async () => {
    const first = ok(await report({ policy_number: policy.policyNumber, loss_date: addDays(effective, 3), peril: 'VMM' }, adjuster.key));
    const refused = await report({ policy_number: policy.policyNumber, loss_date: addDays(effective, 10), peril: 'QUAKE' }, adjuster.key);
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages.join(' ')).toMatch(/^peril: QUAKE is not a peril/);
    const next = ok(await report({ policy_number: policy.policyNumber, loss_date: addDays(effective, 12), peril: 'LGT' }, adjuster.key));
    const n = (number: string) => Number(number.split('-').at(-1));
    expect(n(next.claim_number)).toBe(n(first.claim_number) + 1);
  });

  it('answers a report retried with its Idempotency-Key with the first claim, and records one', async () => {
    const body = { policy_number: policy.policyNumber, loss_date: addDays(effective, 45), peril: 'OTH', description: 'A tree fell', reported_by: { name: 'Pat Example', relation: 'insured' } };
    const key = crypto.randomUUID();
    const first = ok(await service.call(`${C}/new_claim`, body, { apiKey: adjuster.key, headers: { 'Idempotency-Key': key } }));
    const again = ok(await service.call(`${C}/new_claim`, body, { apiKey: adjuster.key, headers: { 'Idempotency-Key': key } }));
    expect(again).toEqual(first);
    const listed = ok(await service.call(`${C}/search`, { policy_number: policy.policyNumber, peril: 'OTH' }, { apiKey: adjuster.key }));
    expect(listed.claims.map((claim: any) => claim.id)).toEqual([first.id]);
  });

  it("records claim.reported for integrators, ordered with the policy's events", async () => {
    const events = ok(await service.call('/api/v2/events/list_events', { types: ['claim.*'] }));
    const reported = (events.events ?? events).filter((event: any) => event.type === 'claim.reported' && event.policy_id === policy.policyId);
    expect(reported.length).toBeGreaterThan(0);
    expect(reported[0]).toMatchObject({ policy_number: policy.policyNumber, data: expect.objectContaining({ claim_number: expect.stringMatching(/^CL-/), peril: expect.any(String) }) });
  });
});
