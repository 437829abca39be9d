/**
 * rewrite_policy beyond the same policy's term: the worked example (826.62 a year and a 25.00
 * fee, Full Pay, effective 2025-02-01: a 365-day term) non-renewed and expired by the renewal
 * move, then brought back with a gap by a new_term rewrite (its own full term, billed on its
 * schedule, a note and policy.rewritten; no gap is reinstate_expired_policy's); and rewritten
 * remainder-of-term on day 100 to a new account: a policy of its own number for another named
 * insured, the old one cancelled Rewritten, the 600.14 transferred between the two accounts,
 * each note naming the other, and a number search finding both sides. Time moves with the
 * service clock, never with the day the test runs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { clock } from '../../shared/platform/clock.js';
import { addDays } from '../../shared/platform/dates.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const EFFECTIVE = '2025-02-01';
const EXPIRATION = '2026-02-01';
const LOSS_HISTORY = 'e5a9f172-3b8c-4d61-a0f4-8c7b5e2d9a03';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterEach(() => {
  clock.startAt(undefined);
});
afterAll(async () => {
  await service?.stop();
});

const rows = (entries: ReadonlyArray<{ type: string; amountCents: number }>, type: string) => entries.filter((entry) => entry.type === type).map((entry) => entry.amountCents);

async function rewrittenEvents(policyId: string) {
  const events: Array<{ policy_id: string; data: Record<string, unknown> }> = [];
  let after: string | undefined;
  for (;;) {
    const page = ok(await service.call('/api/v2/events/list_events', { types: ['policy.rewritten'], ...(after ? { after } : {}) }));
    events.push(...page.events.filter((event: { policy_id: string }) => event.policy_id === policyId));
    if (page.events.length === 0 || !page.next_cursor) break;
    after = page.next_cursor;
  }
  return events;
}

const searched = async (text: string) => ok(await service.call(`${P}/search`, { search_string: text })).records as Array<Record<string, any>>;

describe('new_term: an expired policy brought back with a gap', () => {
  it('expired at its end (not renewed), rewritten new_term a month later: a full term from that day, billed 851.62, a note and policy.rewritten; no gap is refused', async () => {
    clock.startAt(EFFECTIVE);
    const policy = await issueWorkedExample(service, 'Gia Gap', EFFECTIVE);
    ok(await service.call(`${P}/store_renewal_status`, { revision_id: policy.revisionId, renewal_status: 'Non-Renewal', renewal_status_reason: LOSS_HISTORY }));
    clock.startAt(EXPIRATION);
    expect(ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: EXPIRATION })).decision).toBe('expired');
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_revision.policy_status).toBe('Expired');

    const back = addDays(EXPIRATION, 28);
    clock.startAt(back);
    // Without a gap it is reinstate_expired_policy's renewal; a term still running is not rewritten full_term once expired.
    for (const [body, words] of [
      [{ rewrite_type: 'new_term', effective_date: EXPIRATION }, 'reinstate_expired_policy'],
      [{ rewrite_type: 'full_term' }, 'new_term'],
      [{ rewrite_type: 'remainder_of_term', effective_date: addDays(EFFECTIVE, 100) }, 'new_term'],
    ] as const) {
      const refused = await service.call(`${P}/rewrite_policy`, { policy_id: policy.policyId, ...body });
      expect(refused.body.success).toBe(false);
      expect(JSON.stringify(refused.body.messages)).toContain(words);
    }

    const opened = ok(await service.call(`${P}/rewrite_policy`, { policy_id: policy.policyId, rewrite_type: 'new_term', effective_date: back }));
    expect(opened).toMatchObject({ rewrite_type: 'new_term', effective_date: back, expiration_date: addDays(EXPIRATION, 28 + 365), rewrites_term_id: policy.termId, new_policy_number: null });
    ok(await service.call(`${P}/rate_revision`, { revision_id: opened.revision_id }));
    const issued = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: opened.revision_id } }));
    // Nothing left to cancel or transfer: the expired term stays as it ended.
    expect(issued).toMatchObject({ policy_number: policy.policyNumber, cancel_date: null, cancel_reason: null, return_premium: 0, effective_date: back, expiration_date: opened.expiration_date, annual_premium: 826.62, written_premium: 826.62, written_fee: 25 });

    const after = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(after.active_policy_term).toMatchObject({ id: issued.policy_term_id, effective_date: back, expiration_date: opened.expiration_date });
    expect(after.active_revision).toMatchObject({ id: opened.revision_id, policy_status: 'Active' });
    const terms = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    expect(terms.map((term: { id: string }) => term.id)).toEqual([policy.termId, issued.policy_term_id]);
    expect(terms[0].revisions.map((revision: { id: string }) => revision.id)).not.toContain(opened.revision_id);

    // Billed on its schedule (Full Pay): one invoice of the full term, 826.62 + 25.00; the expired term's account untouched.
    const account = (await loadAccount(policy.policyId, issued.policy_term_id))!;
    expect(account.entries.map((entry) => [entry.type, entry.amountCents])).toEqual([['Invoice', 85162]]);
    expect(account.account.scheduleId).toBe((await loadAccount(policy.policyId, policy.termId))!.account.scheduleId);
    expect(rows((await loadAccount(policy.policyId, policy.termId))!.entries, 'Transfer')).toEqual([]);

    const notes = await listPolicyNotes(policy.policyId);
    expect(notes.find((note) => note.termId === issued.policy_term_id)!.text).toContain(`Rewrite (new term) of policy ${policy.policyNumber}, term ${EFFECTIVE} to ${EXPIRATION}`);
    expect(notes.find((note) => note.termId === policy.termId && note.text.startsWith('Rewritten'))!.text).toContain(`term ${back} to ${opened.expiration_date}`);
    const events = await rewrittenEvents(policy.policyId);
    expect(events.map((event) => event.data)).toEqual([expect.objectContaining({ rewrite_type: 'new_term', from_term_id: policy.termId, term_id: issued.policy_term_id, effective_date: back, cancel_date: null, return_premium: 0 })]);

    const [record] = (await searched(policy.policyNumber)).filter((found) => found.policyId === policy.policyId);
    expect(record).toMatchObject({ status: 'Active', effectiveDate: `${back.slice(5, 7)}/${back.slice(8)}/${back.slice(0, 4)}`, rewrittenFrom: { policyId: policy.policyId, policyNumber: policy.policyNumber } });
  }, 180_000);
});

describe('a rewrite to a new account', () => {
  it('remainder of term on day 100 to a new number and named insured: the old policy cancelled Rewritten, 600.14 transferred between the accounts, each side naming the other, a number search finding both', async () => {
    clock.startAt(EFFECTIVE);
    const policy = await issueWorkedExample(service, 'Nell Newaccount', EFFECTIVE);
    const day100 = addDays(EFFECTIVE, 100);
    clock.startAt(day100);
    const buyer = await service.call('/api/v1/contacts/storeNewContact', { content: { name: 'Bram Buyer', type: 'individual' } });
    expect(buyer.body.success).toBe(true);

    // Another named insured is a new account; a number already taken is refused, naming the field; neither opens anything.
    for (const [body, field] of [
      [{ to_contact_id: buyer.body.id }, 'to_contact_id'],
      [{ new_policy_number: policy.policyNumber }, 'new_policy_number'],
    ] as const) {
      const refused = await service.call(`${P}/rewrite_policy`, { policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: day100, ...body });
      expect(refused.body.success).toBe(false);
      expect(JSON.stringify(refused.body.messages)).toContain(field);
    }

    const opened = ok(await service.call(`${P}/rewrite_policy`, { policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: day100, new_policy_number: true, to_contact_id: buyer.body.id }));
    const newNumber: string = opened.new_policy_number;
    expect(newNumber).toMatch(/^.+-\d{4}-\d+$/);
    expect(newNumber).not.toBe(policy.policyNumber);
    expect(opened).toMatchObject({ to_contact_id: buyer.body.id, policy_number: policy.policyNumber });
    ok(await service.call(`${P}/rate_revision`, { revision_id: opened.revision_id }));
    const preview = ok(await service.call(`${P}/preview_revision`, { revision_id: opened.revision_id }));
    expect(preview).toMatchObject({ policy_number: newNumber, cancel_reason: 'Rewritten', return_premium: 600.14, billing: { transfer: 600.14 } });
    expect(await service.call(`${P}/retrieve_policy`, { policy_id: preview.policy_id })).toMatchObject({ body: { success: false } });

    const issued = ok(await service.call(`${P}/issue`, { issue_info: { revision_id: opened.revision_id } }));
    expect(issued).toMatchObject({
      policy_number: newNumber, rewritten_from: { policy_id: policy.policyId, policy_number: policy.policyNumber, policy_term_id: policy.termId },
      cancel_date: day100, cancel_reason: 'Rewritten', flat: false, return_premium: 600.14, effective_date: day100, expiration_date: EXPIRATION, annual_premium: 826.62,
    });
    const newPolicyId: string = issued.policy_id;
    expect(newPolicyId).not.toBe(policy.policyId);
    expect(preview.policy_id).toBe(newPolicyId);

    // The new policy: its own number, term and named insured; the old one cancelled Rewritten, and never reinstated.
    const created = ok(await service.call(`${P}/retrieve_policy`, { policy_id: newPolicyId }));
    expect(created).toMatchObject({ policy_number: newNumber, active_policy_term: { id: issued.policy_term_id, effective_date: day100, expiration_date: EXPIRATION }, active_revision: { id: opened.revision_id, policy_status: 'Active' } });
    expect(JSON.stringify(created)).toContain('Bram Buyer');
    const old = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(old.active_revision.policy_status).toBe('Cancelled');
    expect(old).toMatchObject({ rewritten: true, rewritten_to: { policy_id: newPolicyId, policy_number: newNumber, policy_term_id: issued.policy_term_id } });
    expect(created.rewritten_from).toEqual({ policy_id: policy.policyId, policy_number: policy.policyNumber, policy_term_id: policy.termId });
    const reinstated = await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' });
    expect(reinstated.body.success).toBe(false);
    expect(JSON.stringify(reinstated.body.messages)).toContain('Rewritten');

    // The transfer goes between the two accounts, the same amount on each; the new account billed the rest of the term net of it.
    const from = (await loadAccount(policy.policyId, policy.termId))!;
    expect(rows(from.entries, 'Return Premium')).toEqual([-60014]);
    expect(rows(from.entries, 'Transfer')).toEqual([60014]);
    const to = (await loadAccount(newPolicyId, issued.policy_term_id))!;
    const billed = Math.round((issued.written_premium + issued.written_fee) * 100);
    expect(rows(to.entries, 'Invoice')).toEqual([billed]);
    expect(rows(to.entries, 'Transfer')).toEqual([-60014]);
    expect(to.account.balanceCents).toBe(billed - 60014);

    // Each side's note names the other.
    const oldNote = (await listPolicyNotes(policy.policyId)).find((note) => note.text.startsWith('Rewritten'))!;
    expect(oldNote.text).toContain(`policy ${newNumber}, term ${day100} to ${EXPIRATION}`);
    const newNote = (await listPolicyNotes(newPolicyId)).find((note) => note.text.startsWith('Rewrite'))!;
    expect(newNote.text).toContain(`of policy ${policy.policyNumber}, term ${EFFECTIVE} to ${EXPIRATION}`);
    expect((await rewrittenEvents(newPolicyId)).map((event) => event.data)).toEqual([expect.objectContaining({ from_policy_id: policy.policyId, from_policy_number: policy.policyNumber, return_premium: 600.14 })]);

    // Either number finds both sides, each saying what it became or came from.
    for (const number of [policy.policyNumber, newNumber]) {
      const both = (await searched(number)).filter((record) => record.policyId === policy.policyId || record.policyId === newPolicyId);
      expect(both).toHaveLength(2);
      expect(both.find((record) => record.policyId === policy.policyId)).toMatchObject({ status: 'Cancelled', policyNumber: policy.policyNumber, rewrittenTo: { policyId: newPolicyId, policyNumber: newNumber } });
      expect(both.find((record) => record.policyId === newPolicyId)).toMatchObject({ status: 'Active', policyNumber: newNumber, namedInsured: 'Bram Buyer', rewrittenFrom: { policyId: policy.policyId, policyNumber: policy.policyNumber } });
    }
  }, 180_000);
});
