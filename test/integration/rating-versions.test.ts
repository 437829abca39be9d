/**
 * Rates by date, from outside: with a second rate version published (Dwelling base rate 3.50 →
 * 3.80, for new business from 2026-12-01 and renewals from 2027-02-01), a new quote takes the
 * version in force on its effective date, an endorsement keeps its term's version, a renewal
 * takes the version in force for renewals on its effective date; the revision names it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as planRenewals } from '../../events/schedules/nightly_renewals.js';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { getNightlyRun } from '../../shared/platform/nightly-runs.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { addRateVersion, dwellingStepsAtBaseRate } from '../support/rate-versions.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const SHIPPED = '0c7d3e55-2b6a-4f1e-9a8d-5e4c3b2a1f00';
let service: TestService;

async function quote(effective: string, name: string, dwellingLimit = 250000) {
  const [year, month, day] = effective.split('-');
  return ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: `${month}/${day}/${year}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: dwellingLimit, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
}

const details = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
const dwellingOf = (revision: { items: Array<{ name: string; annual_premium: number; id: string }> }) => revision.items.find((item) => item.name === 'Dwelling')!;

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents', 'nightly-renewals'] });
});
afterAll(async () => {
  await service?.stop();
});

describe('rate versions', () => {
  it('a new quote, an endorsement and a renewal each take the right version, to the cent', async () => {
    // Issued under the shipped rates: 826.62.
    const before = await quote('2026-03-01', 'Vera Version');
    expect(before.total.annual_premium).toBe(826.62);
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: before.policy_id } }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: before.policy_id } }));
    const issued = ok(await service.call(`${P}/retrieve_policy`, { policy_id: before.policy_id }));
    expect((await details(issued.active_revision.id)).rate_version).toEqual({ id: SHIPPED, name: 'Homeowners rates as shipped' });

    const raised = await addRateVersion({ name: 'Homeowners rates 2027', newBusinessEffectiveDate: '2026-12-01', renewalEffectiveDate: '2027-02-01', items: await dwellingStepsAtBaseRate('3.80') });

    // New business: by its effective date. Dwelling 250,000 x 3.80 / 1000 x 1.10 (Frame) x 0.90 (class 3) = 940.50; less the 10% claims-free discount 94.05; plus 47.00 of the other coverages.
    const newRates = await quote('2026-12-15', 'Nia New');
    expect(newRates.total.annual_premium).toBe(893.45);
    const quoted = ok(await service.call(`${P}/retrieve_policy`, { policy_id: newRates.policy_id }));
    const quotedRevision = await details(quoted.active_revision.id);
    expect(dwellingOf(quotedRevision).annual_premium).toBe(940.5);
    expect(quotedRevision.rate_version).toEqual({ id: raised.id, name: 'Homeowners rates 2027' });
    expect((await quote('2026-11-30', 'Olive Old')).total.annual_premium).toBe(826.62);

    // An endorsement dated after the new version keeps its term's: Dwelling 300,000 at 3.50 is 1,039.50 (982.55 in all), not 1,128.60.
    const revisionId = ok(await service.call(`${P}/new_revision`, { policy_id: before.policy_id, revision_date: '2026-12-20' })).revision_id;
    ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwellingOf(await details(revisionId)).id, limit: 300000 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
    const endorsed = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: before.policy_id, revision_id: revisionId } }));
    expect(endorsed.annual_premium).toBe(982.55);
    expect((await details(revisionId)).rate_version.id).toBe(SHIPPED);

    // The nightly run renews it from 2027-03-01 at the renewal rates in force then: Dwelling 300,000 at 3.80 = 1,128.60, less 112.86, plus 47.00.
    const run = await planRenewals({ date: '2027-01-20' });
    for (let tries = 0; !((await getNightlyRun('renewals', '2027-01-20', run.runId))?.batchesDone === run.batches); tries += 1) {
      if (tries > 600) throw new Error('the renewal run did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [, renewalTerm] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: before.policy_id }));
    expect(renewalTerm).toMatchObject({ effective_date: '2027-03-01', expiration_date: '2028-03-01' });
    const renewal = await details(renewalTerm.revisions[0].id);
    expect(renewal).toMatchObject({ annual_premium: 1062.74, annual_fee: 25, revision_state: 'committed' });
    expect(dwellingOf(renewal).annual_premium).toBe(1128.6);
    expect(renewal.rate_version).toEqual({ id: raised.id, name: 'Homeowners rates 2027' });
    // Its invoice (Full Pay, as the expiring term) and its documents.
    expect((await loadAccount(before.policy_id, renewalTerm.id))!.entries.map((entry) => [entry.type, entry.amountCents])).toEqual([['Invoice', 108774]]);
    await service.deliverablesRendered();
    expect((await listPolicyAttachments(before.policy_id)).map((file) => file.deliverableType).filter((type) => !!type?.startsWith('Renewal')).sort()).toEqual(['Renewal Billing Statement', 'Renewal Declaration']);
  }, 120_000);
});
