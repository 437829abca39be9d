/**
 * Endorsements as a client makes them: new_revision on an issued policy, edited with the
 * structure operations, rated, previewed, issued with its Endorsement row, Endorsement
 * Declaration, note and search record in one transaction; discarded; seen on a date; issued
 * out of sequence (with and without conflicts) and two at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { addDays, daysBetween, todayIso } from '../../shared/platform/dates.js';
import { chargeStandings, ledgerFromEntries } from '../../shared/billing/ledger.js';
import { fetchFile, pdfText } from '../support/documents.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const MONTHLY = '6b7798d6-de59-4819-803e-6778a2cdc5d9';
let service: TestService;
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
/** cents × days ÷ days in term, half-up (away from zero), as the issue states the rule. */
const prorated = (cents: number, days: number, total: number) => Math.sign(cents) * Math.floor((Math.abs(cents) * days * 2 + total) / (2 * total));
const cents = (amount: number) => Math.round(amount * 100);

interface Issued {
  policyId: string;
  policyNumber: string;
  revisionId: string;
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
  return { policyId: data.policy_id, policyNumber: data.quote_number, revisionId: policy.active_revision.id };
}

const details = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
const itemNamed = (revision: { items: Array<{ name: string }> }, name: string) => revision.items.find((item) => item.name === name) as Record<string, any>;

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
