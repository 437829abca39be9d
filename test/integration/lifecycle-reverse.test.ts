/**
 * reverse_revision as an underwriter uses it: the README's endorsement (Dwelling 250,000 ->
 * 300,000 on day 100, Two Pay) issued by mistake and reversed: its premium change exactly
 * negated, item by item, its installment shares taken back, the policy's premium back to
 * 826.62, an Endorsement Declaration and a note saying it reverses; what cannot be reversed
 * refused, naming why, writing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFromEntries } from '../../shared/billing/ledger.js';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { agentOf, fetchFile, pdfText } from '../support/documents.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const TWO_PAY = 'e3645365-e835-4022-973d-43e9cba798df';
let service: TestService;
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const cents = (amount: number) => Math.round(amount * 100);

async function issuedTwoPay(effective: string) {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: usDate(effective), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Sam Endorse' }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_line1: '7 Change Street', address_city: 'New York', address_state: 'NY', address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id, billing_schedule_id: TWO_PAY } }));
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id }));
  return { policyId: data.policy_id as string, policyNumber: data.quote_number as string, revisionId: policy.active_revision.id as string, termId: policy.active_policy_term.id as string };
}

/** The README's endorsement: Dwelling raised to 300,000 on `date`, issued. */
async function endorsed(policyId: string, date: string) {
  const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policyId, revision_date: date }));
  const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
  const dwelling = revision.items.find((item: { name: string }) => item.name === 'Dwelling');
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  return ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policyId, revision_id: revisionId } }));
}

const reverse = (revisionId: string, options: { headers?: Record<string, string>; apiKey?: string } = {}) => service.call(`${P}/reverse_revision`, { revision_id: revisionId }, options);

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('reversing the README endorsement', () => {
  it('issues an endorsement dated as it that negates its premium item by item, takes its installment shares back and restores 826.62', async () => {
    const effective = addDays(todayIso(), -45);
    const date = addDays(effective, 100);
    const policy = await issuedTwoPay(effective);
    const endorsement = await endorsed(policy.policyId, date);
    expect(endorsement.annual_premium).toBe(982.55);
    const balanceBefore = (await loadAccount(policy.policyId, policy.termId))!.account.balanceCents;

    // An agent may not reverse a change.
    const agent = await agentOf([crypto.randomUUID()]);
    expect((await reverse(endorsement.revision_id, { apiKey: agent.apiKey })).status).toBe(403);

    const key = { 'Idempotency-Key': `reverse-${endorsement.revision_id}` };
    const answer = await reverse(endorsement.revision_id, { headers: key });
    expect(answer.body.success).toBe(true);
    const reversal = answer.body.data;
    expect(reversal).toMatchObject({ revision_date: date, reverses_revision_id: endorsement.revision_id, annual_premium_before: 982.55, annual_premium: 826.62, written_premium: 826.62 });
    expect(cents(reversal.additional_premium)).toBe(-cents(endorsement.additional_premium));
    const byName = (items: Array<{ name: string; additional_premium: number }>) => Object.fromEntries(items.map((item) => [item.name, cents(item.additional_premium)]));
    const negated = Object.fromEntries(Object.entries(byName(endorsement.items)).map(([name, amount]) => [name, 0 - amount || 0]));
    expect(byName(reversal.items)).toEqual(negated);
    expect(reversal.changes).toEqual([{ label: 'Dwelling limit', before: '300,000.00', after: '250,000.00' }]);
    // A retry with the same key answers the first answer and reverses nothing twice.
    expect((await reverse(endorsement.revision_id, { headers: key })).body).toEqual(answer.body);

    const account = (await loadAccount(policy.policyId, policy.termId))!;
    // The endorsement's row, then the reversal's (both posted the same day).
    const rows = account.entries.filter((entry) => entry.type === 'Endorsement').sort((a, b) => b.amountCents - a.amountCents);
    expect(rows.map((row) => row.amountCents)).toEqual([cents(endorsement.additional_premium), -cents(endorsement.additional_premium)]);
    expect(rows[1].installmentShares!.map((share) => [share.dueDate, share.amountCents])).toEqual(rows[0].installmentShares!.map((share) => [share.dueDate, -share.amountCents]));
    expect(account.account.balanceCents).toBe(balanceBefore - cents(endorsement.additional_premium));
    // What each installment owes is as it was before the endorsement.
    const owedByDue = (charges: Array<{ dueDate: string; amountCents: number }>) => charges.reduce<Record<string, number>>((owed, charge) => ({ ...owed, [charge.dueDate]: (owed[charge.dueDate] ?? 0) + charge.amountCents }), {});
    const beforeEndorsement = account.entries.filter((entry) => entry.type !== 'Endorsement');
    expect(owedByDue(ledgerFromEntries(account.entries).charges)).toEqual(owedByDue(ledgerFromEntries(beforeEndorsement).charges));

    const inForce = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(inForce.active_revision).toMatchObject({ id: reversal.revision_id, annual_premium: 826.62, written_premium: 826.62 });
    const dwelling = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: reversal.revision_id })).items.find((item: { name: string }) => item.name === 'Dwelling');
    expect(dwelling).toMatchObject({ limit: 250000, annual_premium: 866.25 });

    await service.deliverablesRendered();
    const declarations = (await listPolicyAttachments(policy.policyId)).filter((file) => file.deliverableType === 'Endorsement Declaration');
    const ofReversal = declarations.find((file) => file.revisionId === reversal.revision_id);
    expect(ofReversal).toBeDefined();
    const text = pdfText((await fetchFile(service, ofReversal!.fileId)).bytes).replace(/\s+/g, ' ');
    expect(text).toContain('Reverses the endorsement effective');
    expect(text).toContain(endorsement.revision_id);
    expect(text).toContain('Dwelling limit 300,000.00 250,000.00');
    const notes = (await listPolicyNotes(policy.policyId)).map((note) => note.text);
    expect(notes).toContainEqual(expect.stringContaining(`Endorsement effective ${date} (revision ${endorsement.revision_id}) reversed by revision ${reversal.revision_id}; return premium`));

    // Reversed already: it is no longer the latest change; the reversal itself cannot be reversed.
    const again = await reverse(endorsement.revision_id);
    expect(again.body).toMatchObject({ success: false, messages: [expect.stringContaining(`is not the latest change of the term (revision ${reversal.revision_id}`)] });
    const ofReversalAnswer = await reverse(reversal.revision_id);
    expect(ofReversalAnswer.body).toMatchObject({ success: false, messages: [expect.stringContaining('a reversal cannot itself be reversed')] });
    const after = (await loadAccount(policy.policyId, policy.termId))!;
    expect(after.entries.filter((entry) => entry.type === 'Endorsement')).toHaveLength(2);
    const [term] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    expect(term.revisions.filter((revision: { revision_state?: string; status: string }) => revision.status === 'open')).toEqual([]);
  });

  it("commits one of three reversals of the same change sent at once (the reversed endorsement is marked once, in the reversal's transaction); the others are refused and leave nothing", async () => {
    const effective = addDays(todayIso(), -45);
    const policy = await issuedTwoPay(effective);
    const endorsement = await endorsed(policy.policyId, addDays(effective, 100));
    const answers = await Promise.all([reverse(endorsement.revision_id), reverse(endorsement.revision_id), reverse(endorsement.revision_id)]);
    expect(answers.filter((answer) => answer.body.success === true)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.body.success !== true)) expect(refused.status).toBeLessThan(500);
    const after = (await loadAccount(policy.policyId, policy.termId))!;
    expect(after.entries.filter((entry) => entry.type === 'Endorsement')).toHaveLength(2);
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_revision).toMatchObject({ annual_premium: 826.62, written_premium: 826.62 });
    const [term] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    expect(term.revisions.filter((revision: { status: string }) => revision.status === 'open')).toEqual([]);
    // Once reversed, the same change again is refused naming why.
    expect((await reverse(endorsement.revision_id)).body.success).toBe(false);
  });

  it('refuses the issue revision, an earlier change under a later one, and a cancelled term, naming why', async () => {
    const effective = addDays(todayIso(), -45);
    const policy = await issuedTwoPay(effective);
    expect((await reverse(policy.revisionId)).body.messages).toEqual([`revision_id: revision ${policy.revisionId} is not an issued endorsement; only an issued change can be reversed`]);
    const first = await endorsed(policy.policyId, addDays(effective, 60));
    const second = await endorsed(policy.policyId, addDays(effective, 90));
    expect((await reverse(first.revision_id)).body.messages).toEqual([expect.stringContaining(`is not the latest change of the term (revision ${second.revision_id}`)]);
    expect((await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason: "insured's request", cancel_date: addDays(effective, 120) })).body.success).toBe(true);
    expect((await reverse(second.revision_id)).body.messages).toEqual([expect.stringContaining('is cancelled; a change of a cancelled term cannot be reversed')]);
  });
});

describe('reversing a change of a term whose renewal is committed', () => {
  it('issues the reversal and restores the renewal too: each account gets the exact negative of what the change billed it, both revisions back to 826.62', async () => {
    const policy = await issueWorkedExample(service, 'Rhea Renewed', '2025-01-01');
    const endorsement = await endorsed(policy.policyId, '2025-04-11');
    expect(endorsement).toMatchObject({ annual_premium: 982.55, additional_premium: 113.21 });
    const renewed = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2025-11-17' }));
    // The renewal copies the coverage in force at the term's end: the endorsed Dwelling.
    expect(renewed).toMatchObject({ decision: 'renewed', renewal_premium: 982.55 });
    const renewalBalance = (await loadAccount(policy.policyId, renewed.renewal_term_id))!.account.balanceCents;
    expect(renewalBalance).toBe(98255 + 2500);

    const answer = await reverse(endorsement.revision_id);
    expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
    const reversal = answer.body.data;
    expect(reversal).toMatchObject({ reverses_revision_id: endorsement.revision_id, revision_date: '2025-04-11', additional_premium: -113.21, annual_premium: 826.62, written_premium: 826.62 });
    expect(reversal.renewal).toMatchObject({
      renewal_revision_id: renewed.renewal_revision_id,
      carried: [{ label: 'Dwelling limit', before: '300,000.00', after: '250,000.00' }],
      not_carried: [],
      renewal_annual_premium_before: 982.55,
      renewal_annual_premium: 826.62,
      renewal_additional_premium: -155.93,
    });

    const expiring = (await loadAccount(policy.policyId, policy.termId))!;
    expect(expiring.entries.filter((entry) => entry.type === 'Endorsement').map((entry) => entry.amountCents).sort((a, b) => b - a)).toEqual([11321, -11321]);
    const renewal = (await loadAccount(policy.policyId, renewed.renewal_term_id))!;
    expect(renewal.entries.filter((entry) => entry.type === 'Endorsement').map((entry) => entry.amountCents)).toEqual([-15593]);
    expect(renewal.account.balanceCents).toBe(renewalBalance - 15593);

    const [term, renewalTerm] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    expect(renewalTerm.revisions[0]).toMatchObject({ id: renewed.renewal_revision_id, revision_state: 'committed', annual_premium: 826.62 });
    const dwelling = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: renewed.renewal_revision_id })).items.find((item: { name: string }) => item.name === 'Dwelling');
    expect(dwelling).toMatchObject({ limit: 250000, annual_premium: 866.25 });
    expect(term.revisions.filter((revision: { status: string }) => revision.status === 'open')).toEqual([]);
    const notes = (await listPolicyNotes(policy.policyId)).map((note) => note.text);
    expect(notes).toContainEqual(expect.stringContaining(`reversed by revision ${reversal.revision_id}; return premium 113.21`));
    expect(notes).toContainEqual(expect.stringMatching(new RegExp(`^Endorsement carried into the renewal .*return premium 155\\.93; it reverses the endorsement effective 2025-04-11 \\(revision ${endorsement.revision_id}\\)`)));
    // The reversed endorsement is marked once, by the reversal: it cannot be reversed again.
    expect((await reverse(endorsement.revision_id)).body).toMatchObject({ success: false, messages: [expect.stringContaining(`is not the latest change of the term (revision ${reversal.revision_id}`)] });
    // Integrators hear policy.endorsed for each term the reversal changed, each saying what it reverses.
    const endorsedEvents: Array<{ policy_id: string; data: Record<string, unknown> }> = [];
    for (let after: string | undefined; ; ) {
      const page = ok(await service.call(`/api/v2/events/list_events`, { types: ['policy.endorsed'], ...(after ? { after } : {}) }));
      endorsedEvents.push(...page.events.filter((event: { policy_id: string }) => event.policy_id === policy.policyId));
      if (page.events.length === 0) break;
      after = page.next_cursor;
    }
    expect(endorsedEvents.map((event) => event.data)).toEqual([
      { term_id: policy.termId, revision_date: '2025-04-11', additional_premium: 113.21, annual_premium: 982.55 },
      { term_id: policy.termId, revision_date: '2025-04-11', additional_premium: -113.21, annual_premium: 826.62, reverses: endorsement.revision_id },
      { term_id: renewed.renewal_term_id, revision_date: '2026-01-01', additional_premium: -155.93, annual_premium: 826.62, reverses: endorsement.revision_id },
    ]);
  }, 120_000);
});
