/**
 * Underwriting sees losses: two worked examples (826.62 premium, 25.00 fee) issued the same day,
 * one with a water loss reported on it. The nightly renewal run renews the one without at 826.62
 * (Claims-Free Discount -86.63); the one with the claim answers "Losses in past 3 years" yes,
 * naming the claim and its loss date, loses the discount (913.25, +10.48%: held for an
 * underwriter), and its rating trace says why. The property's loss_history lists the claim.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as planRenewals } from '../../events/schedules/nightly_renewals.js';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { addDays, addMonths, todayIso } from '../../shared/platform/dates.js';
import { getNightlyRun } from '../../shared/platform/nightly-runs.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const C = '/api/v2/claims';
const LOSSES = UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS;
let service: TestService;

const today = todayIso();
/** A year ago less 30 days: the term ends within the carrier's 45 lead days, so today's run renews it. */
const effective = addDays(addMonths(today, -12), 30);
const renewalEffective = addMonths(effective, 12);
const lossDate = addDays(effective, 60);

let withClaim: IssuedWorkedExample;
let withoutClaim: IssuedWorkedExample;
let claimNumber: string;

async function nightly(date: string) {
  const run = await planRenewals({ date });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const progress = await getNightlyRun<{ policyNumber: string; decision: string; detail: string }>('renewals', date, run.runId);
    if (progress && progress.batchesDone >= progress.batches) return progress.decisions ?? [];
    if (Date.now() > deadline) throw new Error(`renewal run ${run.runId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const terms = async (policyId: string) => ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policyId }));
const details = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
const itemsOf = (revision: { items: Array<{ name: string; annual_premium: number | null }> }) => Object.fromEntries(revision.items.map((item) => [item.name, item.annual_premium]));
const item = (revision: { items: Array<Record<string, any>> }, name: string) => revision.items.find((candidate) => candidate.name === name)!;

beforeAll(async () => {
  service = await startTestService({ consumers: true });
  withClaim = await issueWorkedExample(service, 'Lou Loss', effective);
  withoutClaim = await issueWorkedExample(service, 'Nell Noclaim', effective);
  for (const issued of [withClaim, withoutClaim]) expect(issued.quote.total).toMatchObject({ annual_premium: 826.62, annual_fees: 25 });
  const reported = ok(
    await service.call(`${C}/new_claim`, {
      policy_number: withClaim.policyNumber,
      loss_date: lossDate,
      peril: 'WTR',
      description: 'A pipe burst in the kitchen',
      reported_by: { name: 'Lou Loss', relation: 'insured' },
    }),
  );
  claimNumber = reported.claim_number;
});
afterAll(async () => service?.stop());

describe('the renewal of a policy with a loss in the past three years', () => {
  let heldRevisionId: string;
  let renewalTermId: string;

  it("answers Losses in past 3 years yes naming the claim, so the Claims-Free Discount leaves: 913.25 against 826.62 without the claim, held for review", async () => {
    const decided = await nightly(today);
    expect(decided.filter((decision) => decision.policyNumber === withoutClaim.policyNumber).map((decision) => decision.decision)).toEqual(['renewed']);
    expect(decided.filter((decision) => decision.policyNumber === withClaim.policyNumber).map((decision) => decision.decision)).toEqual(['held']);

    // Without a claim: the worked example's figures, to the cent.
    const [, plain] = await terms(withoutClaim.policyId);
    expect(plain).toMatchObject({ effective_date: renewalEffective, is_renewal: true });
    expect(plain.revisions[0]).toMatchObject({ revision_state: 'committed', annual_premium: 826.62, annual_fee: 25 });
    const plainDetails = await details(plain.revisions[0].id);
    expect(itemsOf(plainDetails)).toMatchObject({ Dwelling: 866.25, 'Personal Liability': 35, 'Medical Payments': 12, 'Claims-Free Discount': -86.63, 'Policy Fee': 0 });
    expect(item(plainDetails, 'Claims-Free Discount')).toMatchObject({ rating_details: { 'Claims-Free Discount': -86.63 }, rating_basis: { 'Claims-Free Discount': 'Losses in past 3 years: no' } });
    expect(plainDetails.underwriting_questions).toEqual([{ questionId: LOSSES, yesNoAnswer: 'no', explanation: '' }]);

    // With the claim: every item the same but the discount, which is 0.00; 913.25 is 10.48% over 826.62.
    const [expiring, renewal] = await terms(withClaim.policyId);
    expect(expiring.renewal).toMatchObject({ state: 'held', policy_term_id: renewal.id });
    heldRevisionId = renewal.revisions[0].id;
    renewalTermId = renewal.id;
    expect(renewal.revisions[0]).toMatchObject({ revision_state: 'open', policy_status: 'Submitted', annual_premium: 913.25, annual_fee: 25 });
    const held = await details(heldRevisionId);
    expect(itemsOf(held)).toEqual({ ...itemsOf(plainDetails), 'Claims-Free Discount': 0 });
    expect(held.underwriting_questions).toEqual([{ questionId: LOSSES, yesNoAnswer: 'yes', explanation: `${claimNumber} (loss date ${lossDate})` }]);
    expect(held.review_state).toBe('PENDING_UNDERWRITER_REVIEW');

    // The trace says why: the answer it read and the claim that gave it.
    expect(item(held, 'Claims-Free Discount')).toMatchObject({
      annual_premium: 0,
      rating_details: { 'Claims-Free Discount': 0 },
      rating_basis: { 'Claims-Free Discount': `Losses in past 3 years: yes (${claimNumber} (loss date ${lossDate}))` },
    });
    expect((await listPolicyNotes(withClaim.policyId)).map((note) => note.text)).toContain(
      `Renewal ${renewalEffective} to ${addMonths(renewalEffective, 12)} held for underwriter review: premium 913.25 is 10.48% over 826.62; Losses in past 3 years answered yes by ${claimNumber} (loss date ${lossDate}); Conditional Renewal Notice requested`,
    );
  }, 180_000);

  it('commits at 913.25 once an underwriter approves it, billing 938.25 on Full Pay', async () => {
    ok(await service.call(`${P}/update_review_workflow`, { revision_id: heldRevisionId, workflow_event: 'UW_REVIEW_APPROVED' }));
    const committed = ok(await service.call(`${P}/process_renewals`, { policy_number: withClaim.policyNumber, renew_date: today }));
    expect(committed).toMatchObject({ decision: 'renewal_committed', renewal_revision_id: heldRevisionId, renewal_premium: 913.25 });
    const [, renewal] = await terms(withClaim.policyId);
    expect(renewal.revisions[0]).toMatchObject({ revision_state: 'committed', policy_status: 'Active', annual_premium: 913.25 });
    expect(item(await details(heldRevisionId), 'Claims-Free Discount').annual_premium).toBe(0);
    const account = (await loadAccount(withClaim.policyId, renewalTermId))!;
    expect(account.account.balanceCents).toBe(913_25 + 25_00);
    expect(account.entries.map((entry) => [entry.type, entry.amountCents])).toEqual([['Invoice', 938_25]]);
  }, 60_000);
});

describe("a property's loss_history", () => {
  it('lists the claims of the policy (number, loss date, peril, status), and none on a policy without', async () => {
    const propertyOf = async (revisionId: string) => (await details(revisionId)).primary_property_id as string;
    const risk = ok(await service.call(`${P}/retrieve_risk_details`, { risk_id: await propertyOf(withClaim.revisionId) }));
    expect(risk.loss_history).toEqual([{ claim_number: claimNumber, loss_date: lossDate, peril: 'WTR', status: 'open' }]);
    const none = ok(await service.call(`${P}/retrieve_risk_details`, { risk_id: await propertyOf(withoutClaim.revisionId) }));
    expect(none.loss_history).toEqual([]);
  });
});
