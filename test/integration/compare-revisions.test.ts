/**
 * compare_revisions from outside: the README's endorsement (Dwelling 250,000 → 300,000 from day
 * 100 of a 365-day term) compared with the revision it changed lists the limit change and what
 * it costs, per item and in total, a year and for the rest of the term, as the endorsement
 * billed it; an open revision compares too; `format: text` answers lines; revisions of two
 * policies do not compare; an agent compares his agency's policy's revisions, one outside it is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/platform/dates.js';
import { agentOf, workedExampleQuote } from '../support/documents.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const EFFECTIVE = '2026-01-01';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

/** An endorsement of the Dwelling to `limit` on `date`, rated; issued unless told. */
async function dwellingEndorsement(policyId: string, date: string, limit: number, issue = true): Promise<string> {
  const revisionId = ok(await service.call(`${P}/new_revision`, { policy_id: policyId, revision_date: date })).revision_id;
  const dwelling = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).items.find((item: { name: string }) => item.name === 'Dwelling');
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit }] }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  if (issue) expect(ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policyId, revision_id: revisionId } }))).toMatchObject({ annual_premium: 982.55 });
  return revisionId;
}

const compare = (body: Record<string, unknown>, apiKey?: string) => service.call(`${P}/compare_revisions`, body, apiKey ? { apiKey } : {});

describe('compare_revisions', () => {
  it("lists the README endorsement's Dwelling limit 250,000 → 300,000 and its premium change (+113.21 for the 265 days left), who committed it and when", async () => {
    const policy = await issueWorkedExample(service, 'Cora Compare', EFFECTIVE);
    const endorsed = await dwellingEndorsement(policy.policyId, addDays(EFFECTIVE, 100), 300000);
    const answer = ok(await compare({ from_revision_id: policy.revisionId, to_revision_id: endorsed }));

    expect(answer).toMatchObject({
      policy_id: policy.policyId,
      policy_number: policy.policyNumber,
      from: { revision_id: policy.revisionId, revision_state: 'committed', annual_premium: 826.62, committed_by: expect.any(String) },
      to: { revision_id: endorsed, revision_date: '2026-04-11', revision_state: 'committed', annual_premium: 982.55, committed_by: expect.any(String) },
      policy_type: null,
      term_dates: [],
      answers: [],
      contacts: [],
      items: { added: [], removed: [] },
    });
    expect(answer.to.committed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // issue and the endorsement were both committed by the caller.
    expect(answer.from.committed_by).toBe(answer.to.committed_by);
    expect(answer.from.committed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const dwelling = answer.items.changed.find((item: { name: string }) => item.name === 'Dwelling');
    expect(dwelling.changes).toEqual([
      { field: 'limit', from: '250000.00', to: '300000.00' },
      { field: 'annual premium', from: '866.25', to: '1039.50' },
    ]);
    // As the README's endorsement computes it: (new annual − old annual) × 265 ÷ 365, per item, half-up.
    expect(answer.premium.items).toEqual(
      expect.arrayContaining([
        { name: 'Dwelling', property: 'Property #1', annual_premium_from: 866.25, annual_premium_to: 1039.5, annual_change: 173.25, term_change: 125.78 },
        expect.objectContaining({ name: 'Claims-Free Discount', annual_premium_from: -86.63, annual_premium_to: -103.95, annual_change: -17.32, term_change: -12.57 }),
      ]),
    );
    expect(answer.premium).toMatchObject({ annual_premium_from: 826.62, annual_premium_to: 982.55, annual_change: 155.93, term_change: 113.21, term_change_from: '2026-04-11' });

    const text = ok(await compare({ from_revision_id: policy.revisionId, to_revision_id: endorsed, format: 'text' }));
    const by = answer.to.committed_by_name;
    expect(by).toEqual(expect.any(String));
    expect(text.lines[0]).toBe(
      `Policy ${policy.policyNumber}: revision ${policy.revisionId} of 2026-01-01 (committed ${answer.from.committed_at} by ${by}) → revision ${endorsed} of 2026-04-11 (committed ${answer.to.committed_at} by ${by})`,
    );
    expect(text.lines).toContain('Dwelling (Property #1) limit: 250,000.00 → 300,000.00');
    expect(text.lines).toContain('Premium of Dwelling (Property #1): 866.25 → 1,039.50 a year (+173.25), +125.78 for the rest of the term');
    expect(text.lines.at(-1)).toBe('Total premium: 826.62 → 982.55 a year (+155.93), +113.21 for the rest of the term from 2026-04-11');

    // Backwards: the same change, negated.
    const back = ok(await compare({ from_revision_id: endorsed, to_revision_id: policy.revisionId }));
    expect(back.premium).toMatchObject({ annual_change: -155.93, term_change: -113.21 });
  }, 120_000);

  it("says who committed a renewal's revision and a rewrite's, and when, as it does an endorsement's", async () => {
    const policy = await issueWorkedExample(service, 'Rhea Recorded', EFFECTIVE);
    const renewed = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2026-11-17' }));
    expect(renewed).toMatchObject({ decision: 'renewed', renewal_premium: 826.62 });
    const renewal = ok(await compare({ from_revision_id: policy.revisionId, to_revision_id: renewed.renewal_revision_id }));
    expect(renewal.to).toMatchObject({ revision_id: renewed.renewal_revision_id, revision_state: 'committed', committed_on: '2026-11-17', committed_by: renewal.from.committed_by });
    expect(renewal.to.committed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(renewal.to.committed_by_name).toEqual(expect.any(String));
    expect(renewal.term_dates).toEqual([{ field: 'term start', from: '2026-01-01', to: '2027-01-01' }, { field: 'term end', from: '2027-01-01', to: '2028-01-01' }]);

    const other = await issueWorkedExample(service, 'Rory Rewritten', EFFECTIVE);
    const opened = ok(await service.call(`${P}/rewrite_policy`, { policy_id: other.policyId, rewrite_type: 'full_term' }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: opened.revision_id }));
    const open = ok(await compare({ from_revision_id: other.revisionId, to_revision_id: opened.revision_id }));
    // An open rewrite is nobody's commit yet, though it copies a committed revision.
    expect(open.to).toMatchObject({ revision_state: 'open', committed_at: null, committed_by: null });
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: other.policyId, revision_id: opened.revision_id } }));
    const rewritten = ok(await compare({ from_revision_id: other.revisionId, to_revision_id: opened.revision_id, format: 'text' }));
    expect(rewritten.lines[0]).toMatch(new RegExp(`→ revision ${opened.revision_id} of 2026-01-01 \\(committed \\d{4}-\\d\\d-\\d\\dT.* by \\S`));
  }, 120_000);

  it('compares an open revision: from mid-term (183 days left) the same limit costs +78.18 for the rest of the term', async () => {
    const policy = await issueWorkedExample(service, 'Otto Open', EFFECTIVE);
    const open = await dwellingEndorsement(policy.policyId, addDays(EFFECTIVE, 182), 300000, false);
    const answer = ok(await compare({ from_revision_id: policy.revisionId, to_revision_id: open }));
    expect(answer.to).toMatchObject({ revision_state: 'open', committed_at: null, committed_by: null });
    expect(answer.premium).toMatchObject({ annual_change: 155.93, term_change: 78.18, term_change_from: '2026-07-02' });
  }, 120_000);

  it("refuses revisions of two policies, naming the field, and an agent outside the policy's agency", async () => {
    const first = await issueWorkedExample(service, 'Pia Pair', EFFECTIVE);
    const second = await issueWorkedExample(service, 'Quin Pair', EFFECTIVE);
    const mixed = await compare({ from_revision_id: first.revisionId, to_revision_id: second.revisionId });
    expect(mixed.body).toMatchObject({ success: false, messages: [expect.stringMatching(/^to_revision_id: .*only revisions of one policy compare/)] });
    const missing = await compare({ from_revision_id: first.revisionId });
    expect(missing.body).toMatchObject({ success: false, messages: [expect.stringMatching(/to_revision_id/)] });
    const outsider = await agentOf([crypto.randomUUID()]);
    const refused = await compare({ from_revision_id: first.revisionId, to_revision_id: first.revisionId }, outsider.apiKey);
    expect(refused.body.success).toBe(false);
    expect(JSON.stringify(refused.body)).not.toContain('Pia Pair');
  }, 120_000);

  it("lets an agent compare revisions of his own agency's policy", async () => {
    const agent = await agentOf([crypto.randomUUID()]);
    const quote = await workedExampleQuote(service, { apiKey: agent.apiKey, insured: 'Ada Agencyown' });
    const mine = ok(await compare({ from_revision_id: quote.revisionId, to_revision_id: quote.revisionId }, agent.apiKey));
    expect(mine).toMatchObject({ from: { revision_id: quote.revisionId }, to: { revision_id: quote.revisionId } });
    const outsider = await agentOf([crypto.randomUUID()]);
    expect((await compare({ from_revision_id: quote.revisionId, to_revision_id: quote.revisionId }, outsider.apiKey)).body.success).toBe(false);
  }, 120_000);
});
