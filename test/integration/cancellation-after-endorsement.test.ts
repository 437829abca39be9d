/**
 * A cancellation after an endorsement returns, for each revision in force after the cancel
 * date, its items' unearned premium for those days (issue 32): the README's endorsement (Dwelling
 * raised to 300,000 with 183 of 365 days left, annual 982.55) cancelled with 92 days left returns
 * 262.01 − 26.20 + 8.82 + 3.02 = 247.65; a reinstatement reverses exactly what was returned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../../shared/platform/dates.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
// A fixed past term of 365 days, so that the figures do not depend on the day the test runs.
const EFFECTIVE = '2025-03-01';
let service: TestService;

const details = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records as Array<Record<string, any>>;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('cancellation after an endorsement', () => {
  it('returns 247.65 with 92 days left (each revision in force after the cancel date, item by item), and a reinstatement gives it back to the cent', async () => {
    const policy = await issueWorkedExample(service, 'Pat Example', EFFECTIVE);
    const expiration = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term.expiration_date;
    expect(daysBetween(EFFECTIVE, expiration)).toBe(365);

    const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: addDays(expiration, -183) }));
    const dwelling = (await details(revisionId)).items.find((item: { name: string }) => item.name === 'Dwelling');
    ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
    expect(ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: revisionId } }))).toMatchObject({ annual_premium: 982.55 });

    const cancelDate = addDays(expiration, -92);
    const answer = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: cancelDate, cancel_reason_id: INSUREDS_REQUEST });
    expect(answer.body).toMatchObject({ success: true, message: `Policy ${policy.policyNumber} cancelled effective ${cancelDate} (Insured's Request); return premium 247.65` });
    const rows = await history(policy.policyId);
    expect(rows[0]).toMatchObject({ type: 'Return Premium', summary: 'Return premium 247.65' });
    const balanceCancelled = rows[0].balance;

    ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
    const after = await history(policy.policyId);
    expect(after[0]).toMatchObject({ type: 'Reinstatement', amount: -rows[0].amount });
    expect(Math.round(after[0].balance * 100)).toBe(Math.round((balanceCancelled - rows[0].amount) * 100));
    expect(Math.round(after[0].balance * 100)).toBe(Math.round(rows[2].balance * 100));
  });
});
