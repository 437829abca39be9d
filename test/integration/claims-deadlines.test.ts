/**
 * The states' claims clocks through the HTTP API, on the dates of ../shared/spec/claims.md: a Florida
 * claim (ZIP 33101, Miami) noticed Monday 2026-12-07 and a New York one (ZIP 10001) noticed Monday
 * 2026-12-21, their due dates on get_claim, a proof of loss starting its clock, an acknowledgement
 * meeting one, claims/deadlines (due within so many days, overdue, one state, an agent's reach), and
 * the nightly run flagging a breach once however often it runs. The clock is set to the days the
 * story happens on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { clock } from '../../shared/platform/clock.js';
import { newAgency } from '../support/agencies.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const ADJUSTER_ROLE = '5b0e6f3a-2d4c-4b8e-9a17-c3d5e7f90a21';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const MIAMI = '33101';

let service: TestService;
let florida: IssuedWorkedExample;
let newYork: IssuedWorkedExample;
let adjuster: string;
let agent: string;
let otherAgent: string;
let floridaClaim: { id: string; claim_number: string };
let newYorkClaim: { id: string; claim_number: string };

async function keyFor(roleId: string, name: string, agencyIds: string[] = []): Promise<string> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds: [roleId], agencyIds, createdAt: clock.now().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, name);
  return key;
}

const report = (policyNumber: string, lossDate: string, reportedDate: string) =>
  service.call(`${C}/new_claim`, { policy_number: policyNumber, loss_date: lossDate, reported_date: reportedDate, peril: 'WND', description: 'Wind took part of the roof', reported_by: { name: 'Pat Example', relation: 'insured' } }, { apiKey: adjuster });
const dueDatesOf = async (claimId: string) => ok(await service.call(`${C}/get_claim`, { claim_id: claimId }, { apiKey: adjuster })).due_dates;
const deadlines = (body: Record<string, unknown>, apiKey = adjuster) => service.call(`${C}/deadlines`, body, { apiKey });
const recordDate = (claimId: string, type: string, date: string) => service.call(`${C}/create_claim_date`, { claim_id: claimId, claim_date_type: type, claim_date: date }, { apiKey: adjuster });
const nightly = async () => ok(await service.call('/local/schedules/nightly_claim_deadlines', {}, { headers: { authorization: service.administratorApiKey } }));
const breachEvents = async () => ok(await service.call('/api/v2/events/list_events', { types: ['claim.deadline_breached'] })).events;
/** A deadline as claims/deadlines lists it, in a line: claim, clock, due date, standing. */
const line = (deadline: any) => `${deadline.claim_number} ${deadline.clock} ${deadline.due_date} ${deadline.standing === 'due' ? `${deadline.days_left} left` : `${deadline.days_overdue} overdue`}${deadline.breached_at ? ' breached' : ''}`;

beforeAll(async () => {
  clock.startAt('2026-12-22');
  service = await startTestService();
  const agency = await newAgency({ name: 'Deadline Agency' });
  florida = await issueWorkedExample(service, 'Flo Deadline', '2026-11-01', { zip: MIAMI, agencyId: agency });
  newYork = await issueWorkedExample(service, 'Nye Deadline', '2026-11-01', { agencyId: agency });
  adjuster = await keyFor(ADJUSTER_ROLE, 'Alex Adjuster');
  agent = await keyFor(AGENT_ROLE, 'Agnes Agent', [agency]);
  otherAgent = await keyFor(AGENT_ROLE, 'Otto Other', [await newAgency({ name: 'Other Agency' })]);
});
afterAll(async () => {
  await service?.stop();
  clock.startAt(undefined);
});

describe('due dates by state', () => {
  it('gives a Florida claim noticed Monday 2026-12-07 its acknowledgement by 2026-12-14 and its payment or denial by 2027-02-05', async () => {
    floridaClaim = ok(await report(florida.policyNumber, '2026-12-05', '2026-12-07'));
    const claim = ok(await service.call(`${C}/get_claim`, { claim_id: floridaClaim.id }, { apiKey: adjuster }));
    expect(claim.state).toBe('FL');
    expect(claim.due_dates).toEqual([
      { clock: 'acknowledge', what: 'Acknowledge the claim', from: 'notice', from_date: '2026-12-07', due_date: '2026-12-14', calendar: 'calendar', status: 'open', met_at: null, met_by: null, breached_at: null },
      { clock: 'pay_or_deny', what: 'Pay or deny the claim', from: 'notice', from_date: '2026-12-07', due_date: '2027-02-05', calendar: 'calendar', status: 'open', met_at: null, met_by: null, breached_at: null },
    ]);
  });

  it('gives a New York claim noticed Monday 2026-12-21 its acknowledgement by 2027-01-13: 15 business days, past 2026-12-25 and 2027-01-01', async () => {
    newYorkClaim = ok(await report(newYork.policyNumber, '2026-12-19', '2026-12-21'));
    const due = await dueDatesOf(newYorkClaim.id);
    expect(due).toEqual([expect.objectContaining({ clock: 'acknowledge', what: 'Acknowledge the claim and begin the investigation', from_date: '2026-12-21', due_date: '2027-01-13', calendar: 'business', status: 'open' })]);
  });

  it('starts accept or reject on the proof of loss (received 2026-12-22: by 2027-01-14) and the Florida investigation (received 2026-12-21: by 2026-12-28)', async () => {
    const recorded = ok(await recordDate(newYorkClaim.id, 'proof_of_loss_received', '2026-12-22'));
    expect(recorded.due_dates).toEqual([
      { clock: 'acknowledge', due_date: '2027-01-13', status: 'open', met_by: null },
      { clock: 'accept_or_reject', due_date: '2027-01-14', status: 'open', met_by: null },
    ]);
    expect((await dueDatesOf(newYorkClaim.id)).find((due: any) => due.clock === 'accept_or_reject')).toMatchObject({ from: 'proof_of_loss_received', from_date: '2026-12-22', due_date: '2027-01-14', calendar: 'business' });
    ok(await recordDate(floridaClaim.id, 'proof_of_loss_received', '2026-12-21'));
    expect((await dueDatesOf(floridaClaim.id)).map((due: any) => [due.clock, due.due_date])).toEqual([['acknowledge', '2026-12-14'], ['begin_investigation', '2026-12-28'], ['pay_or_deny', '2027-02-05']]);
  });
});

describe('claims/deadlines', () => {
  it('lists what comes due within 7 days and what is overdue, soonest first, on 2026-12-22', async () => {
    const listed = ok(await deadlines({}));
    expect(listed).toMatchObject({ as_of: '2026-12-22', through: '2026-12-29', states: ['FL', 'NY'] });
    expect(listed.deadlines.map(line)).toEqual([`${floridaClaim.claim_number} acknowledge 2026-12-14 8 overdue`, `${floridaClaim.claim_number} begin_investigation 2026-12-28 6 left`]);
    expect(listed.deadlines[0]).toEqual({
      claim_id: floridaClaim.id, claim_number: floridaClaim.claim_number, state: 'FL', clock: 'acknowledge', what: 'Acknowledge the claim', due_date: '2026-12-14', standing: 'overdue', days_left: null, days_overdue: 8, breached_at: null,
    });
  });

  it("lists one state's, within as many days as asked", async () => {
    const listed = ok(await deadlines({ state: 'ny', due_within_days: 30 }));
    expect(listed.states).toEqual(['NY']);
    expect(listed.deadlines.map(line)).toEqual([`${newYorkClaim.claim_number} acknowledge 2027-01-13 22 left`, `${newYorkClaim.claim_number} accept_or_reject 2027-01-14 23 left`]);
    expect(ok(await deadlines({ state: 'NY', due_within_days: 0 })).deadlines).toEqual([]);
  });

  it("shows an agent his agency's claims' deadlines, and another agency's agent none", async () => {
    expect(ok(await deadlines({ due_within_days: 60 }, agent)).deadlines.map(line)).toEqual([
      `${floridaClaim.claim_number} acknowledge 2026-12-14 8 overdue`,
      `${floridaClaim.claim_number} begin_investigation 2026-12-28 6 left`,
      `${newYorkClaim.claim_number} acknowledge 2027-01-13 22 left`,
      `${newYorkClaim.claim_number} accept_or_reject 2027-01-14 23 left`,
      `${floridaClaim.claim_number} pay_or_deny 2027-02-05 45 left`,
    ]);
    expect(ok(await deadlines({ due_within_days: 365 }, otherAgent)).deadlines).toEqual([]);
  });

  it('refuses a state without clocks and a window past 365 days, naming the field', async () => {
    const state = await deadlines({ state: 'TX' });
    expect(state.body.success).toBe(false);
    expect(state.body.messages.join(' ')).toMatch(/^state: TX has no claim clocks in the product's rules \(they run in FL, NY\)/);
    const window = await deadlines({ due_within_days: 366 });
    expect(window.body.success).toBe(false);
    expect(window.body.messages.join(' ')).toMatch(/due_within_days/);
  });
});

describe('a deadline met', () => {
  it('the acknowledgement meets the acknowledge clock, and the move says so; the deadline leaves the list', async () => {
    ok(await recordDate(newYorkClaim.id, 'acknowledged', '2026-12-22'));
    const acknowledge = (await dueDatesOf(newYorkClaim.id)).find((due: any) => due.clock === 'acknowledge');
    expect(acknowledge).toMatchObject({ due_date: '2027-01-13', status: 'met', met_by: 'acknowledged', met_at: expect.stringMatching(/^2026-12-22T/), breached_at: null });
    const changes = ok(await service.call(`${C}/get_claim_changes`, { claim_id: newYorkClaim.id }, { apiKey: adjuster }));
    expect(changes.at(-1)).toMatchObject({
      kind: 'date_recorded',
      changes: [
        { field: 'claim_dates.acknowledged', from: null, to: '2026-12-22' },
        { field: 'due_dates.acknowledge', from: expect.objectContaining({ status: 'open' }), to: expect.objectContaining({ due_date: '2027-01-13', status: 'met', met_by: 'acknowledged' }) },
      ],
    });
    expect(ok(await deadlines({ state: 'NY', due_within_days: 30 })).deadlines.map(line)).toEqual([`${newYorkClaim.claim_number} accept_or_reject 2027-01-14 23 left`]);
  });
});

describe('the nightly run', () => {
  it('flags the Florida acknowledgement due 2026-12-14 breached on 2026-12-22, with its event', async () => {
    const run = await nightly();
    expect(run).toMatchObject({ date: '2026-12-22', states: ['FL', 'NY'], breached: [{ claim_id: floridaClaim.id, claim_number: floridaClaim.claim_number, deadlines: [{ clock: 'acknowledge', what: 'Acknowledge the claim', due_date: '2026-12-14' }] }] });
    const due = await dueDatesOf(floridaClaim.id);
    expect(due.find((one: any) => one.clock === 'acknowledge')).toMatchObject({ due_date: '2026-12-14', status: 'breached', breached_at: '2026-12-22T12:00:00.000Z', met_at: null });
    expect(due.find((one: any) => one.clock === 'begin_investigation')).toMatchObject({ due_date: '2026-12-28', status: 'open', breached_at: null });
    const events = await breachEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'claim.deadline_breached', policy_number: florida.policyNumber, transaction_id: floridaClaim.id, occurred_at: '2026-12-22T12:00:00.000Z',
      data: { claim_id: floridaClaim.id, claim_number: floridaClaim.claim_number, clock: 'acknowledge', due_date: '2026-12-14', deadlines: [{ clock: 'acknowledge', what: 'Acknowledge the claim', due_date: '2026-12-14' }] },
    });
    const changes = ok(await service.call(`${C}/get_claim_changes`, { claim_id: floridaClaim.id }, { apiKey: adjuster }));
    expect(changes.filter((change: any) => change.kind === 'deadline_breached')).toEqual([
      expect.objectContaining({ by: 'nightly-claim-deadlines', at: '2026-12-22T12:00:00.000Z', changes: [{ field: 'due_dates.acknowledge', from: expect.objectContaining({ status: 'open' }), to: expect.objectContaining({ status: 'breached', breached_at: '2026-12-22T12:00:00.000Z' }) }] }),
    ]);
  });

  it('run again the same day flags nothing twice; the breach stays listed as overdue until met', async () => {
    const again = await nightly();
    expect(again).toMatchObject({ date: '2026-12-22', breached: [] });
    expect(await breachEvents()).toHaveLength(1);
    const changes = ok(await service.call(`${C}/get_claim_changes`, { claim_id: floridaClaim.id }, { apiKey: adjuster }));
    expect(changes.filter((change: any) => change.kind === 'deadline_breached')).toHaveLength(1);
    expect(ok(await deadlines({ state: 'FL' })).deadlines.map(line)).toEqual([`${floridaClaim.claim_number} acknowledge 2026-12-14 8 overdue breached`, `${floridaClaim.claim_number} begin_investigation 2026-12-28 6 left`]);
  });

  it('a week later flags the investigation due 2026-12-28; met late, each keeps its breach and leaves the list', async () => {
    clock.startAt('2026-12-30');
    const run = await nightly();
    expect(run.breached).toEqual([{ claim_id: floridaClaim.id, claim_number: floridaClaim.claim_number, deadlines: [{ clock: 'begin_investigation', what: 'Begin the investigation', due_date: '2026-12-28' }] }]);
    expect((await breachEvents()).map((event: any) => [event.data.clock, event.data.due_date])).toEqual([['acknowledge', '2026-12-14'], ['begin_investigation', '2026-12-28']]);
    ok(await recordDate(floridaClaim.id, 'acknowledged', '2026-12-29'));
    ok(await recordDate(floridaClaim.id, 'investigation_started', '2026-12-30'));
    expect((await dueDatesOf(floridaClaim.id)).map((due: any) => [due.clock, due.status, due.met_by, due.breached_at])).toEqual([
      ['acknowledge', 'met', 'acknowledged', '2026-12-22T12:00:00.000Z'],
      ['begin_investigation', 'met', 'investigation_started', '2026-12-30T12:00:00.000Z'],
      ['pay_or_deny', 'open', null, null],
    ]);
    expect(ok(await deadlines({ state: 'FL', due_within_days: 60 })).deadlines.map(line)).toEqual([`${floridaClaim.claim_number} pay_or_deny 2027-02-05 37 left`]);
  });

  it('lists no deadline of a closed claim, and flags none of it', async () => {
    ok(await service.call(`${C}/update_claim`, { claim_id: newYorkClaim.id, claim: { status: 'closed', reason: 'Withdrawn by the insured' } }, { apiKey: adjuster }));
    expect(ok(await deadlines({ state: 'NY', due_within_days: 365 })).deadlines).toEqual([]);
    clock.startAt('2027-01-20');
    expect((await nightly()).breached).toEqual([]);
    expect((await dueDatesOf(newYorkClaim.id)).find((due: any) => due.clock === 'accept_or_reject')).toMatchObject({ status: 'open', breached_at: null });
  });
});
