/**
 * Endorsements as a client makes them: new_revision on an issued policy, edited with the
 * structure operations, rated, previewed, issued with its Endorsement row, Endorsement
 * Declaration, note and search record in one transaction; discarded; seen on a date; issued
 * out of sequence (with and without conflicts) and two at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { getTermEarning } from '../../shared/books/store.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { addDays, daysBetween, todayIso } from '../../shared/platform/dates.js';
import { chargeStandings, ledgerFromEntries } from '../../shared/billing/ledger.js';
import { agentOf, fetchFile, pdfText } from '../support/documents.js';
import { UNDERWRITING_QUESTION, BILLING_SCHEDULE } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

/** The reference product's Monthly schedule: ten installments, the first billed at issue. */
const MONTHLY = BILLING_SCHEDULE.MONTHLY;
const P = '/api/v2/policies';
let service: TestService;
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
/** cents × days ÷ days in term, half-up (away from zero), as the issue states the rule. */
const prorated = (cents: number, days: number, total: number) => Math.sign(cents) * Math.floor((Math.abs(cents) * days * 2 + total) / (2 * total));
const cents = (amount: number) => Math.round(amount * 100);

interface Issued {
  policyId: string;
  policyNumber: string;
  revisionId: string;
  termId: string;
}

/** The worked example (826.62 + 25.00), issued effective `effective` on the schedule given (Full Pay when none). */
async function issued(effective: string, options: { schedule?: string; items?: unknown[] } = {}): Promise<Issued> {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: usDate(effective), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Eddie Endorse' }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_line1: '7 Change Street', address_city: 'New York', address_state: 'NY', address_zip: '10001' }],
        items: options.items ?? [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id, ...(options.schedule ? { billing_schedule_id: options.schedule } : {}) } }));
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id }));
  return { policyId: data.policy_id, policyNumber: data.quote_number, revisionId: policy.active_revision.id, termId: policy.active_policy_term.id };
}

const details = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
const itemNamed = (revision: Record<string, any>, name: string) => (revision.items as Array<{ name: string }>).find((item) => item.name === name) as Record<string, any>;

/** Opens an endorsement on `date`, sets the items' limits, rates it: the revision id. */
async function endorsement(policyId: string, date: string, limits: Record<string, number | null>): Promise<string> {
  const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policyId, revision_date: date }));
  const revision = await details(revisionId);
  const items = Object.entries(limits).map(([name, limit]) => ({ id: itemNamed(revision, name).id, limit }));
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  return revisionId;
}

const issueEndorsement = (policyId: string, revisionId: string, headers: Record<string, string> = {}) =>
  service.call(`${P}/issue`, { issue_info: { policy_id: policyId, revision_id: revisionId } }, { headers });
const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('a limit raised mid-term (Monthly)', () => {
  it('rates the Dwelling at 1,039.50 and the discount at -103.95, bills each item pro rata to the cent, re-spreads the unbilled installments and prints the Endorsement Declaration', async () => {
    const effective = addDays(todayIso(), -45);
    const policy = await issued(effective, { schedule: MONTHLY });
    const expiration = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term.expiration_date;
    const date = addDays(effective, 100);
    const revisionId = await endorsement(policy.policyId, date, { Dwelling: 300000 });

    const rated = await details(revisionId);
    expect(itemNamed(rated, 'Dwelling')).toMatchObject({ limit: 300000, annual_premium: 1039.5 });
    expect(itemNamed(rated, 'Claims-Free Discount')).toMatchObject({ annual_premium: -103.95 });
    // Editing and rating the endorsement changed nothing in force.
    const inForce = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(inForce.active_revision).toMatchObject({ id: policy.revisionId, annual_premium: 826.62 });
    expect(itemNamed(await details(policy.revisionId), 'Dwelling')).toMatchObject({ limit: 250000, annual_premium: 866.25 });

    const total = daysBetween(effective, expiration);
    const remaining = daysBetween(date, expiration);
    const dwelling = prorated(1039_50 - 866_25, remaining, total);
    const discount = prorated(-103_95 - -86_63, remaining, total);
    const additional = dwelling + discount;

    const balanceBefore = (await loadAccount(policy.policyId, inForce.active_policy_term.id))!.account.balanceCents;
    const preview = ok(await service.call(`${P}/preview_revision`, { revision_id: revisionId }));
    expect(preview.items.find((item: { name: string }) => item.name === 'Dwelling')).toMatchObject({ old_annual_premium: 866.25, new_annual_premium: 1039.5, additional_premium: dwelling / 100 });
    expect(preview.items.find((item: { name: string }) => item.name === 'Claims-Free Discount')).toMatchObject({ old_annual_premium: -86.63, new_annual_premium: -103.95, additional_premium: discount / 100 });
    expect(preview).toMatchObject({ additional_premium: additional / 100, annual_premium_before: 826.62, annual_premium: 982.55, written_premium_before: 826.62, written_premium: (826_62 + additional) / 100 });
    expect(preview.changes).toEqual([{ label: 'Dwelling limit', before: '250,000.00', after: '300,000.00' }]);
    expect(preview.documents).toEqual([expect.objectContaining({ deliverable_type: 'Endorsement Declaration' })]);
    const respread = preview.billing.installments_respread as Array<{ share: number; amount_before: number; amount_after: number; bill_date: string }>;
    expect(respread.length).toBeGreaterThan(0);
    expect(respread.every((installment) => installment.bill_date > todayIso())).toBe(true);
    expect(respread.reduce((sum, installment) => sum + cents(installment.share), 0)).toBe(additional);
    expect(preview.billing.balance_after * 100).toBeCloseTo(balanceBefore + additional, 6);
    // A preview writes nothing.
    expect((await details(revisionId)).revision_state).toBe('open');

    const key = { 'Idempotency-Key': `endorse-${revisionId}` };
    const answer = await issueEndorsement(policy.policyId, revisionId, key);
    expect(answer.body.success).toBe(true);
    expect(answer.body.data).toMatchObject({ policy_number: policy.policyNumber, revision_id: revisionId, additional_premium: additional / 100, annual_premium: 982.55 });
    // A retry with the same key answers the first answer and posts nothing.
    expect((await issueEndorsement(policy.policyId, revisionId, key)).body).toEqual(answer.body);

    const loaded = (await loadAccount(policy.policyId, inForce.active_policy_term.id))!;
    const rows = loaded.entries.filter((entry) => entry.type === 'Endorsement');
    expect(rows).toHaveLength(1);
    expect(rows[0].amountCents).toBe(additional);
    expect(loaded.account.balanceCents).toBe(balanceBefore + additional);
    expect(rows[0].installmentShares!.map((share) => share.amountCents)).toEqual(respread.map((installment) => cents(installment.share)));
    // The ledger owes each share by its installment's due date.
    const { charges } = chargeStandings(ledgerFromEntries(loaded.entries).charges, []);
    expect(charges.filter((charge) => charge.kind === 'Endorsement').map((charge) => charge.dueDate)).toEqual(rows[0].installmentShares!.map((share) => share.dueDate));
    const shown = await history(policy.policyId);
    expect(shown[0]).toMatchObject({ type: 'Endorsement', amount: additional / 100 });
    expect(cents(shown[0].balance) - cents(shown[1].balance)).toBe(additional);

    const committed = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(committed.active_revision).toMatchObject({ id: revisionId, revision_state: 'committed', annual_premium: 982.55, written_premium: (826_62 + additional) / 100 });
    const [term] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    expect(term.revisions.map((revision: Record<string, unknown>) => [revision.id, revision.status, revision.in_force_from, revision.in_force_to, revision.premium_change])).toEqual([
      [policy.revisionId, 'superseded', effective, date, null],
      [revisionId, 'committed', date, expiration, additional / 100],
    ]);
    expect(ok(await service.call(`${P}/retrieve_revision_status`, { revision_id: policy.revisionId }))).toMatchObject({ revision_state: 'committed', status: 'superseded', in_force_to: date });

    await service.deliverablesRendered();
    const files = await listPolicyAttachments(policy.policyId);
    const declaration = files.find((file) => file.deliverableType === 'Endorsement Declaration');
    expect(declaration).toMatchObject({ revisionId, printState: 'tbd' });
    const text = pdfText((await fetchFile(service, declaration!.fileId)).bytes).replace(/\s+/g, ' ');
    expect(text).toContain('Endorsement Declaration');
    expect(text).toContain('Dwelling limit 250,000.00 300,000.00');
    expect(text).toContain(`$${(additional / 100).toFixed(2)}`);
    expect(text).toContain('1,039.50');
    const notes = await listPolicyNotes(policy.policyId);
    expect(notes.map((note) => note.text)).toContainEqual(expect.stringMatching(new RegExp(`^Endorsement effective ${date} issued; Dwelling limit 250,000.00 -> 300,000.00; additional premium ${(additional / 100).toFixed(2)}`)));
    const found = ok(await service.call(`${P}/search`, { search_string: policy.policyNumber }));
    expect(found.records).toEqual([expect.objectContaining({ policyNumber: policy.policyNumber, status: 'Active' })]);
  });
});

describe('other mid-term changes', () => {
  it('returns premium for a coverage taken off (Water Backup), crediting the account by the Endorsement row', async () => {
    const policy = await issued('2026-01-01', {
      items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }, { name: 'Water Backup', limit: 10000 }],
    });
    expect(itemNamed(await details(policy.revisionId), 'Water Backup')).toMatchObject({ annual_premium: 65 });
    const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-10-01' }));
    const waterBackup = itemNamed(await details(revisionId), 'Water Backup').id;
    expect((await service.call(`${P}/remove_line_item`, { revision_id: revisionId, line_item_id: itemNamed(await details(revisionId), 'Dwelling').id })).body.messages).toEqual(['line_item_id: Dwelling is mandatory and cannot be removed']);
    ok(await service.call(`${P}/remove_line_item`, { revision_id: revisionId, line_item_id: waterBackup }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
    expect(itemNamed(await details(revisionId), 'Water Backup')).toBeUndefined();
    expect(itemNamed(await details(policy.revisionId), 'Water Backup')).toMatchObject({ annual_premium: 65 });
    const balanceBefore = (await history(policy.policyId))[0].balance;
    const answer = ok(await issueEndorsement(policy.policyId, revisionId));
    const returned = prorated(-65_00, 92, 365);
    expect(answer.items.find((item: { name: string }) => item.name === 'Water Backup')).toMatchObject({ old_annual_premium: 65, new_annual_premium: 0, additional_premium: returned / 100 });
    // The Claims-Free Discount follows the property coverages down: -93.13 becomes -86.63.
    expect(answer.items.find((item: { name: string }) => item.name === 'Claims-Free Discount')).toMatchObject({ old_annual_premium: -93.13, new_annual_premium: -86.63, additional_premium: prorated(6_50, 92, 365) / 100 });
    const total = returned + prorated(6_50, 92, 365);
    expect(answer.additional_premium).toBe(total / 100);
    const [row] = await history(policy.policyId);
    expect(row).toMatchObject({ type: 'Endorsement', amount: total / 100, summary: `Endorsement effective 2026-10-01: return premium ${(-total / 100).toFixed(2)}` });
    expect(cents(row.balance)).toBe(cents(balanceBefore) + total);
  });

  it('takes a future-dated change in force on its date: the snapshot before shows the old revision, after it the new one', async () => {
    const effective = addDays(todayIso(), -10);
    const policy = await issued(effective);
    const date = addDays(todayIso(), 30);
    const revisionId = await endorsement(policy.policyId, date, { Dwelling: 300000 });
    ok(await issueEndorsement(policy.policyId, revisionId));
    const before = ok(await service.call(`${P}/retrieve_policy_snapshot`, { policy_number: policy.policyNumber, snapshot_date: todayIso() }));
    expect(before).toMatchObject({ revision_id: policy.revisionId, annual_premium: 826.62 });
    expect(before.items.find((item: { name: string }) => item.name === 'Dwelling')).toMatchObject({ limit: 250000 });
    const after = ok(await service.call(`${P}/retrieve_policy_snapshot`, { policy_number: policy.policyNumber, snapshot_date: date }));
    expect(after).toMatchObject({ revision_id: revisionId, revision_date: date, annual_premium: 982.55 });
    const expiration = addDays(effective, daysBetween(effective, `${Number(effective.slice(0, 4)) + 1}${effective.slice(4)}`));
    const total = daysBetween(effective, expiration);
    // Earned before the change takes effect: each item's annual for the 40 days gone.
    const earned = [866_25, 35_00, 12_00, -86_63].reduce((sum, annual) => sum + prorated(annual, 40, total), 0);
    expect(after.earned_premium).toBe(earned / 100);
    expect(after.term_written_premium).toBe(ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_revision.written_premium);
    expect(after.items.find((item: { name: string }) => item.name === 'Dwelling')).toMatchObject({ limit: 300000, annual_premium: 1039.5 });
    expect(ok(await service.call(`${P}/retrieve_revision_status`, { revision_id: revisionId }))).toMatchObject({ status: 'committed', in_force_from: date });
    const outside = await service.call(`${P}/retrieve_policy_snapshot`, { policy_number: policy.policyNumber, snapshot_date: addDays(effective, -1) });
    expect(outside.body).toMatchObject({ success: false, messages: [expect.stringContaining(`snapshot_date: ${addDays(effective, -1)} is outside the policy's term`)] });
  });

  it('discards an open endorsement (archive, then delete) leaving the policy, its account and its term as they were', async () => {
    const policy = await issued('2026-01-01');
    const archived = await endorsement(policy.policyId, '2026-06-01', { Dwelling: 300000 });
    expect(ok(await service.call('/api/v2/utils/update_revision', { revision_id: archived, action: 'archive' }))).toEqual({ revision_id: archived, revision_state: 'archived' });
    expect(ok(await service.call(`${P}/retrieve_revision_status`, { revision_id: archived }))).toMatchObject({ revision_state: 'archived', status: 'archived' });
    expect((await issueEndorsement(policy.policyId, archived)).body).toMatchObject({ success: false, messages: [`Revision ${archived} is archived; only an open endorsement can be issued`] });
    const deleted = await endorsement(policy.policyId, '2026-07-01', { Dwelling: 400000 });
    ok(await service.call('/api/v2/utils/update_revision', { revision_id: deleted, action: 'delete' }));
    expect((await service.call(`${P}/retrieve_revision_status`, { revision_id: deleted })).body.success).toBe(false);
    const [term] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    expect(term.revisions.map((revision: { id: string; status: string }) => [revision.id, revision.status])).toEqual([[policy.revisionId, 'committed'], [archived, 'archived']]);
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_revision).toMatchObject({ id: policy.revisionId, annual_premium: 826.62 });
    expect((await history(policy.policyId)).map((row: { type: string }) => row.type)).toEqual(['Invoice']);
  });

  it('is edited with the structure operations by its own property ids, never changing the revision in force', async () => {
    const policy = await issued('2026-01-01');
    const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-06-01' }));
    const risks = async (revision: string) => ok(await service.call(`${P}/retrieve_risks`, { revision_id: revision, retrieve_remaining: true })).results;
    const [inForceRisk] = await risks(policy.revisionId);
    const [risk] = await risks(revisionId);
    expect(risk.id).not.toBe(inForceRisk.id);
    ok(await service.call(`${P}/update_property_location`, { location: { id: risk.id, address_line1: '9 New Road', address_zip: '10001' } }));
    ok(await service.call(`${P}/create_risk`, { revision_id: revisionId }));
    expect((await risks(revisionId)).map((one: { address_line1: string }) => one.address_line1)).toEqual(['9 New Road', null]);
    expect(await risks(policy.revisionId)).toEqual([expect.objectContaining({ id: inForceRisk.id, address_line1: '7 Change Street' })]);
    // A committed revision refuses every change.
    const refused = await service.call(`${P}/update_property_location`, { location: { id: inForceRisk.id, address_line1: '1 Other Way' } });
    expect(refused.body.messages).toEqual([`Revision ${policy.revisionId} is committed; only an open revision can be changed`]);
  });

  it('refuses what cannot be endorsed, naming why, and writes nothing', async () => {
    const policy = await issued('2026-01-01');
    const outside = await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2027-02-01' });
    expect(outside.body).toMatchObject({ success: false, messages: ["revision_date: 2027-02-01 is outside the policy's term 2026-01-01 to 2027-01-01"] });
    const open = await endorsement(policy.policyId, '2026-06-01', { Dwelling: 300000 });
    // An agent of another agency reaches neither the policy nor its endorsement: as if they did not exist.
    const stranger = await agentOf([crypto.randomUUID()]);
    const asStranger = { apiKey: stranger.apiKey };
    expect((await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-06-01' }, asStranger)).body.messages).toEqual([`Policy ${policy.policyId} was not found`]);
    expect((await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: open } }, asStranger)).body).toMatchObject({ success: false });
    expect((await service.call(`${P}/preview_revision`, { revision_id: open }, asStranger)).body.messages).toEqual([`Revision ${open} was not found`]);
    expect((await service.call('/api/v2/utils/update_revision', { revision_id: open, action: 'delete' }, asStranger)).body.success).toBe(false);
    expect((await details(open)).revision_state).toBe('open');
    const busy = await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-07-01', check_for_policy_changes: true });
    expect(busy.body).toMatchObject({ success: false, messages: [`Policy ${policy.policyNumber} has an open revision ${open} dated 2026-06-01; issue or discard it first`] });
    const quote = ok(await service.call(`${P}/create_quote_extended`, {
      quote_info: { effective_date: '01/01/2026', line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Una Issued' }], locations: [{ address_zip: '10001' }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }] },
    }));
    expect((await service.call(`${P}/new_revision`, { policy_id: quote.policy_id, revision_date: '2026-06-01' })).body.messages).toEqual([`Policy ${quote.quote_number} has not been issued; only an issued policy can be endorsed`]);
    const reasons = ok(await service.call('/api/v2/policies/retrieve_policy', { policy_id: policy.policyId }));
    expect(reasons.active_revision.revision_state).toBe('committed');
    const cancelReason = 'b6206c09-8deb-48e8-8323-7232d9464797';
    const cancelled = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: '2026-08-01', cancel_reason_id: cancelReason });
    expect(cancelled.body.success).toBe(true);
    {
      expect((await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-06-01' })).body.messages).toEqual([`Policy ${policy.policyNumber} is cancelled; reinstate it before endorsing it`]);
      expect((await issueEndorsement(policy.policyId, open)).body.messages).toEqual([`Policy ${policy.policyNumber} is cancelled; reinstate it before endorsing it`]);
    }
    expect((await history(policy.policyId)).some((row: { type: string }) => row.type === 'Endorsement')).toBe(false);
  });
});

describe('out of sequence', () => {
  const dwellingAndDeductible = (revision: Record<string, any>) => [itemNamed(revision, 'Dwelling').limit, itemNamed(revision, 'Dwelling').deductible, itemNamed(revision, 'Dwelling').annual_premium];

  it('slips an earlier change under a later committed one: the later one carries it, every period is re-priced, the answer lists what was re-applied', async () => {
    const policy = await issued('2026-01-01');
    const { revision_id: later } = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-09-01' }));
    ok(await service.call(`${P}/update_rating_information`, { revision_id: later, items: [{ id: itemNamed(await details(later), 'Dwelling').id, deductible: 2500 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: later }));
    const first = ok(await issueEndorsement(policy.policyId, later));
    expect(first.additional_premium).toBe((prorated(76230 - 86625, 122, 365) + prorated(-7623 - -8663, 122, 365)) / 100);

    const earlier = await endorsement(policy.policyId, '2026-05-01', { Dwelling: 300000 });
    const answer = ok(await issueEndorsement(policy.policyId, earlier));
    expect(answer.reapplied_revisions).toEqual([later]);
    expect(dwellingAndDeductible(await details(later))).toEqual([300000, 2500, 914.76]);
    expect(itemNamed(await details(later), 'Claims-Free Discount').annual_premium).toBe(-91.48);
    // Before: 866.25 all year, 762.30 from 09-01. After: 1039.50 from 05-01 (245 days), 914.76 from 09-01 (122 days).
    const dwelling = prorated(103950 - 86625, 245, 365) + prorated(91476 - 103950, 122, 365) - prorated(76230 - 86625, 122, 365);
    const discount = prorated(-10395 - -8663, 245, 365) + prorated(-9148 - -10395, 122, 365) - prorated(-7623 - -8663, 122, 365);
    expect(answer.additional_premium).toBe((dwelling + discount) / 100);
    const rows = (await history(policy.policyId)).filter((row: { type: string }) => row.type === 'Endorsement');
    expect(rows.map((row: { amount: number }) => row.amount)).toEqual([(dwelling + discount) / 100, first.additional_premium]);
    // The books earn each change from its own date: the earlier change from 05-01, the later one re-priced from 09-01 (not the whole difference from 05-01).
    const ownChange = prorated(103950 - 86625, 245, 365) + prorated(-10395 - -8663, 245, 365);
    const repriced = prorated(91476 - 103950, 122, 365) + prorated(-9148 - -10395, 122, 365) - cents(first.additional_premium);
    expect(ownChange + repriced).toBe(dwelling + discount);
    const earning = await getTermEarning(policy.termId);
    expect(earning?.layers.filter((layer) => layer.kind === 'endorsement')).toEqual([
      { cents: cents(first.additional_premium), from: '2026-09-01', to: '2027-01-01', kind: 'endorsement' },
      { cents: ownChange, from: '2026-05-01', to: '2027-01-01', kind: 'endorsement' },
      { cents: repriced, from: '2026-09-01', to: '2027-01-01', kind: 'endorsement' },
    ]);
    const policyNow = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(policyNow.active_revision.id).toBe(later);
    expect(cents(policyNow.active_revision.written_premium)).toBe(826_62 + cents(first.additional_premium) + dwelling + discount);
    const [term] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    const shown = Object.fromEntries(term.revisions.map((revision: Record<string, any>) => [revision.id, [revision.status, revision.in_force_from, revision.in_force_to]]));
    expect(shown).toEqual({
      [policy.revisionId]: ['superseded', '2026-01-01', '2026-05-01'],
      [earlier]: ['superseded', '2026-05-01', '2026-09-01'],
      [later]: ['committed', '2026-09-01', '2027-01-01'],
    });
  });

  it('answers a field both set as a conflict and commits nothing; resolved, it keeps the later value where asked', async () => {
    const policy = await issued('2026-01-01');
    const later = await endorsement(policy.policyId, '2026-09-01', { Dwelling: 275000 });
    ok(await issueEndorsement(policy.policyId, later));
    const earlier = await endorsement(policy.policyId, '2026-05-01', { Dwelling: 300000 });
    const preview = ok(await service.call(`${P}/preview_revision`, { revision_id: earlier }));
    const dwellingId = itemNamed(await details(earlier), 'Dwelling').id;
    const conflict = { field: `${dwellingId}.limit`, label: 'Dwelling limit', revision_id: later, later_value: 275000, new_value: 300000 };
    expect(preview.conflicts).toEqual([conflict]);
    const refused = await issueEndorsement(policy.policyId, earlier);
    expect(refused.body).toMatchObject({ success: false, data: { revision_id: earlier, conflicts: [conflict] } });
    expect(refused.body.messages[0]).toMatch(/^Dwelling limit: revision .* set 275,000.00, this endorsement 300,000.00; resolve with resolve_oos_conflicts/);
    expect((await details(earlier)).revision_state).toBe('open');
    expect((await history(policy.policyId)).filter((row: { type: string }) => row.type === 'Endorsement')).toHaveLength(1);

    const resolved = ok(await service.call(`${P}/resolve_oos_conflicts`, { revision_id: earlier, resolutions: [{ field: conflict.field, resolution: 'keep_later' }] }));
    expect(resolved.reapplied_revisions).toEqual([later]);
    expect(itemNamed(await details(later), 'Dwelling').limit).toBe(275000);
    expect(itemNamed(await details(earlier), 'Dwelling').limit).toBe(300000);
    // Each item's chain, before (866.25, then 952.88 from 09-01) and after (1039.50 from 05-01, 952.88 from 09-01).
    const dwelling = prorated(103950 - 86625, 245, 365) + prorated(95288 - 103950, 122, 365) - prorated(95288 - 86625, 122, 365);
    const discount = prorated(-10395 - -8663, 245, 365) + prorated(-9529 - -10395, 122, 365) - prorated(-9529 - -8663, 122, 365);
    expect(resolved.additional_premium).toBe((dwelling + discount) / 100);
  });

  it('two endorsements issued at once: one goes first, the other lands on top of it, nothing is lost', async () => {
    const policy = await issued('2026-01-01');
    const raise = await endorsement(policy.policyId, '2026-04-01', { Dwelling: 300000 });
    const { revision_id: deductible } = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-08-01' }));
    ok(await service.call(`${P}/update_rating_information`, { revision_id: deductible, items: [{ id: itemNamed(await details(deductible), 'Dwelling').id, deductible: 2500 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: deductible }));
    const answers = await Promise.all([issueEndorsement(policy.policyId, raise), issueEndorsement(policy.policyId, deductible)]);
    expect(answers.map((answer) => answer.body.success)).toEqual([true, true]);
    expect(dwellingAndDeductible(await details(deductible))).toEqual([300000, 2500, 914.76]);
    expect(dwellingAndDeductible(await details(raise))).toEqual([300000, 1000, 1039.5]);
    const rows = (await history(policy.policyId)).filter((row: { type: string }) => row.type === 'Endorsement');
    expect(rows).toHaveLength(2);
    const policyNow = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    const written = 826_62 + rows.reduce((sum: number, row: { amount: number }) => sum + cents(row.amount), 0);
    expect(cents(policyNow.active_revision.written_premium)).toBe(written);
    expect(policyNow.active_revision.id).toBe(deductible);
  });
});
