/**
 * rewrite_policy as an underwriter uses it: the README's worked example (Dwelling 250,000,
 * 826.62 a year and a 25.00 fee, Full Pay) rewritten remainder-of-term on day 100 to Dwelling
 * 300,000 (982.55 a year): opened, edited, rated, previewed and issued; the old term cancelled
 * Rewritten on day 100 with its return premium transferred (never refunded) to the new term's
 * account, which bills the rest of the term net of it; each side's note naming the other;
 * policy.rewritten. Full term: the old term cancelled flat, everything it wrote transferred.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { addDays, addMonths, daysBetween, todayIso } from '../../shared/platform/dates.js';
import { agentOf } from '../support/documents.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const rewrite = (body: Record<string, unknown>, options: { headers?: Record<string, string>; apiKey?: string } = {}) => service.call(`${P}/rewrite_policy`, body, options);

/** An effective date some weeks back whose one-year term has 365 days (the figures below are for 365), whatever today is. */
function effectiveOfA365DayTerm(): string {
  for (let back = 45; ; back += 1) {
    const effective = addDays(todayIso(), -back);
    if (daysBetween(effective, addMonths(effective, 12)) === 365) return effective;
  }
}

async function dwellingTo(revisionId: string, limit: number) {
  const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
  const dwelling = revision.items.find((item: { name: string }) => item.name === 'Dwelling');
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit }] }));
  return ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
}

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

describe('rewriting the worked example', () => {
  it('remainder of term on day 100 to Dwelling 300,000: old term cancelled Rewritten, 600.14 transferred, the new term billed 738.36 net of it', async () => {
    const effective = effectiveOfA365DayTerm();
    const expiration = addMonths(effective, 12);
    const day100 = addDays(effective, 100);
    const policy = await issueWorkedExample(service, 'Rae Rewrite', effective);

    // Only underwriters and Administrators rewrite; bad input names its field and stores nothing.
    const agent = await agentOf([crypto.randomUUID()]);
    expect((await rewrite({ policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: day100 }, { apiKey: agent.apiKey })).status).toBe(403);
    for (const [body, field] of [
      [{ policy_id: policy.policyId, rewrite_type: 'sideways' }, 'rewrite_type'],
      [{ policy_id: policy.policyId, rewrite_type: 'remainder_of_term' }, 'effective_date'],
      [{ policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: addDays(effective, 400) }, 'effective_date'],
    ] as const) {
      const refused = await rewrite(body);
      expect(refused.body.success).toBe(false);
      expect(JSON.stringify(refused.body)).toContain(field);
    }

    const key = { 'Idempotency-Key': `rewrite-${policy.policyId}` };
    const opened = ok(await rewrite({ policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: day100 }, { headers: key }));
    expect(opened).toMatchObject({ rewrite_type: 'remainder_of_term', effective_date: day100, expiration_date: expiration, rewrites_term_id: policy.termId, base_revision_id: policy.revisionId });
    expect(ok(await rewrite({ policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: day100 }, { headers: key })).revision_id).toBe(opened.revision_id);
    // One open revision at a time: no endorsement, no second rewrite.
    expect((await rewrite({ policy_id: policy.policyId, rewrite_type: 'full_term' })).body.success).toBe(false);

    expect((await dwellingTo(opened.revision_id, 300000)).annual_premium).toBe(982.55);

    // 826.62 x 265/365 returned; 982.55 written for 265 of 365 days, item by item (1039.50 -> 754.71, 35 -> 25.41, 12 -> 8.71, -103.95 -> -75.47).
    const expected = {
      rewrite_type: 'remainder_of_term', cancel_date: day100, cancel_reason: 'Rewritten', flat: false, return_premium: 600.14,
      effective_date: day100, expiration_date: expiration, annual_premium: 982.55, annual_fee: 25, written_premium: 713.36, written_fee: 25,
      billing: { transfer: 600.14 },
    };
    const preview = ok(await service.call(`${P}/preview_revision`, { revision_id: opened.revision_id }));
    expect(preview).toMatchObject(expected);
    expect((await loadAccount(policy.policyId, policy.termId))!.entries.map((entry) => entry.type)).toEqual(['Invoice']);

    const issueKey = { 'Idempotency-Key': `issue-rewrite-${policy.policyId}` };
    const issued = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: opened.revision_id } }, { headers: issueKey }));
    expect(issued).toMatchObject({ ...expected, rewritten_term_id: policy.termId, revision_id: opened.revision_id });
    // A retry with the same key answers the first answer and rewrites nothing twice.
    expect(ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: opened.revision_id } }, { headers: issueKey })).policy_term_id).toBe(issued.policy_term_id);

    const after = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(after.active_policy_term).toMatchObject({ id: issued.policy_term_id, effective_date: day100, expiration_date: expiration });
    expect(after.active_revision.id).toBe(opened.revision_id);

    // The old term: cancelled Rewritten on day 100, its return premium moved out by a Transfer (its 851.62 invoice stands).
    const old = (await loadAccount(policy.policyId, policy.termId))!;
    expect(rows(old.entries, 'Return Premium')).toEqual([-60014]);
    expect(rows(old.entries, 'Transfer')).toEqual([60014]);
    expect(old.account.policyStatus).toBe('Cancelled');
    expect(old.account.balanceCents).toBe(85162);
    // The new term: its invoice for the rest of the term (713.36 + 25.00), net of the same 600.14 transferred in.
    const renewed = (await loadAccount(policy.policyId, issued.policy_term_id))!;
    expect(rows(renewed.entries, 'Invoice')).toEqual([73836]);
    expect(rows(renewed.entries, 'Transfer')).toEqual([-60014]);
    expect(renewed.account.balanceCents).toBe(73836 - 60014);
    expect(renewed.entries.some((entry) => entry.type === 'Return Premium' || entry.type === 'Payment')).toBe(false);

    const notes = await listPolicyNotes(policy.policyId);
    const oldNote = notes.find((note) => note.termId === policy.termId)!;
    const newNote = notes.find((note) => note.termId === issued.policy_term_id)!;
    expect(oldNote.text).toContain(`term ${day100} to ${expiration}`);
    expect(oldNote.text).toContain('reason Rewritten; return premium 600.14 transferred');
    expect(newNote.text).toContain(`term ${effective} to ${expiration}`);

    const events = await rewrittenEvents(policy.policyId);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ rewrite_type: 'remainder_of_term', from_term_id: policy.termId, term_id: issued.policy_term_id, cancel_date: day100, return_premium: 600.14, written_premium: 713.36 });

    // A rewritten policy cannot be reinstated.
    const reinstated = await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' });
    expect(reinstated.body.success).toBe(false);
    expect(JSON.stringify(reinstated.body.messages)).toContain('Rewritten');
  });

  it('full term: the old term cancelled flat, all 826.62 transferred, the new term from the same effective date billed net', async () => {
    const effective = effectiveOfA365DayTerm();
    const policy = await issueWorkedExample(service, 'Flo Fullterm', effective);
    const opened = ok(await rewrite({ policy_id: policy.policyId, rewrite_type: 'full_term' }));
    expect(opened).toMatchObject({ effective_date: effective, expiration_date: addMonths(effective, 12) });
    ok(await service.call(`${P}/rate_revision`, { revision_id: opened.revision_id }));
    const issued = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: opened.revision_id } }));
    expect(issued).toMatchObject({ cancel_date: effective, flat: true, return_premium: 826.62, effective_date: effective, written_premium: 826.62, billing: { transfer: 826.62 } });
    const old = (await loadAccount(policy.policyId, policy.termId))!;
    expect(rows(old.entries, 'Transfer')).toEqual([82662]);
    const renewed = (await loadAccount(policy.policyId, issued.policy_term_id))!;
    expect(rows(renewed.entries, 'Invoice')).toEqual([85162]);
    expect(rows(renewed.entries, 'Transfer')).toEqual([-82662]);
    expect(renewed.account.balanceCents).toBe(2500);
  });
});
