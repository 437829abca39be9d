/**
 * Rating a stored revision: the worked example built step by step through the policy
 * operations, rated by rate_revision, shown with its step trace by the reads; rate_risk,
 * the resets and retrieve_rates_for_quote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM, POLICY_TYPE, UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const CONSTRUCTION = '640841e5-3bf8-445e-ae51-607bd2aa9589';
const PROTECTION_CLASS = '771ae8ec-8b3e-4125-8f7a-6b5e504782f2';
const DWELLING_TRACE = { 'Base Rate': 875, Construction: 962.5, 'Protection Class': 866.25, Deductible: 866.25, 'Minimum Premium': 866.25 };

let service: TestService;
let revisionId: string;
let riskId: string;

const byItem = (items: any[], itemId: string) => items.find((item) => item.item_id === itemId);

/** The worked example, one operation at a time, as a portal builds a quote. */
async function buildWorkedExample(): Promise<{ revisionId: string; riskId: string }> {
  const policy = ok(await service.call(`${P}/create_policy`, { policy_type_id: POLICY_TYPE.HO3, inception_date: '2026-03-01' }));
  const risk = ok(await service.call(`${P}/create_risk`, { revision_id: policy.revision_id }));
  ok(await service.call(`${P}/update_property_location`, { location: { id: risk.id, address_line1: '1 Main St', address_zip: '10001', year_built: '1990' } }));
  const details = ok(await service.call(`${P}/retrieve_risk_details`, { risk_id: risk.id }));
  const dwelling = byItem(details.items, ITEM.DWELLING);
  ok(
    await service.call(`${P}/update_rating_information`, {
      property_id: risk.id,
      items: [{ id: dwelling.id, limit: '250000', deductible: 1000, builder_obj: { questions: { [CONSTRUCTION]: ['Frame'], [PROTECTION_CLASS]: ['3'] } } }],
    }),
  );
  ok(
    await service.call(`${P}/update_underwriting_questions`, {
      revision_id: policy.revision_id,
      underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no', explanation: '' }],
    }),
  );
  return { revisionId: policy.revision_id, riskId: risk.id };
}

beforeAll(async () => {
  service = await startTestService();
  ({ revisionId, riskId } = await buildWorkedExample());
});
afterAll(async () => {
  await service?.stop();
});

describe('rate_revision on the worked example built step by step', () => {
  it('answers 826.62 premium and 25.00 fees, with every item and the Dwelling running totals', async () => {
    const rated = ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
    expect(rated).toMatchObject({ annual_premium: 826.62, annual_fee: 25, written_premium: 826.62, written_fee: 25 });
    const premiums = Object.fromEntries(rated.items.map((item: any) => [item.name, item.annual_premium]));
    expect(premiums).toEqual({
      Dwelling: 866.25, 'Other Structures': 0, 'Personal Property': 0, 'Loss of Use': 0,
      'Personal Liability': 35, 'Medical Payments': 12, 'Claims-Free Discount': -86.63, 'Policy Fee': 0,
    });
    expect(byItem(rated.items, ITEM.DWELLING).rating_details).toEqual(DWELLING_TRACE);
    expect(byItem(rated.items, ITEM.POLICY_FEE)).toMatchObject({ annual_fee: 25, annual_premium: 0 });
    const propertySubLine = rated.sub_lines.find((subLine: any) => subLine.property_id === riskId);
    expect(propertySubLine).toMatchObject({ annual_premium: 866.25 });
  });

  it('keeps the figures and the trace: retrieve_revision_details and retrieve_risk_details show them', async () => {
    const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    expect(revision).toMatchObject({ annual_premium: 826.62, annual_fee: 25, written_premium: 826.62, written_fee: 25, builder_pending: false });
    expect(byItem(revision.items, ITEM.DWELLING).rating_details).toEqual(DWELLING_TRACE);
    expect(byItem(revision.items, ITEM.CLAIMS_FREE_DISCOUNT)).toMatchObject({ annual_premium: -86.63, rating_details: { 'Claims-Free Discount': -86.63 } });
    const risk = ok(await service.call(`${P}/retrieve_risk_details`, { risk_id: riskId }));
    expect(byItem(risk.items, ITEM.DWELLING)).toMatchObject({ annual_premium: 866.25, written_premium: 866.25, rating_details: DWELLING_TRACE });
  });

  it('rate_risk answers the property alone: 866.25 over its four items', async () => {
    const rated = ok(await service.call(`${P}/rate_risk`, { risk_id: riskId }));
    expect(rated).toMatchObject({ annual_premium: 866.25, annual_fee: 0 });
    expect(rated.items).toHaveLength(4);
    expect(rated.sub_lines).toHaveLength(1);
  });

  it('retrieve_rates_for_quote rates each spec without changing what is stored', async () => {
    const specs = [{}, { items: [{ id: ITEM.DWELLING, limit: 300000 }] }, { questions: { [CONSTRUCTION]: 'Masonry' } }];
    const rates = ok(await service.call(`${P}/retrieve_rates_for_quote`, { revision_id: revisionId, rating_specs: specs }));
    // 300,000: 1050.00 × 1.10 × 0.90 = 1039.50, + 47.00 liability, − 103.95 discount; Masonry: 875.00 × 0.90 = 787.50, + 47.00, − 78.75.
    expect(rates.map((rate: any) => rate.annual_premium)).toEqual([826.62, 982.55, 755.75]);
    const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    expect(revision.annual_premium).toBe(826.62);
  });

  it('reset_risk_premium clears the property and the totals; reset_revision_premium clears the rest', async () => {
    expect((await service.call(`${P}/reset_risk_premium`, { risk_id: riskId })).body).toMatchObject({ success: true, data: [] });
    const risk = ok(await service.call(`${P}/retrieve_risk_details`, { risk_id: riskId }));
    expect(byItem(risk.items, ITEM.DWELLING)).toMatchObject({ annual_premium: null, rating_details: {} });
    let revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    expect(revision.annual_premium).toBe(0);
    expect(byItem(revision.items, ITEM.PERSONAL_LIABILITY).annual_premium).toBe(35);
    ok(await service.call(`${P}/reset_revision_premium`, { revision_id: revisionId }));
    revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    expect(revision.items.every((item: any) => item.annual_premium === null && item.annual_fee === null)).toBe(true);
  });

  it('refuses to rate a revision with an unanswered rating question, naming it, and stores nothing', async () => {
    const policy = ok(await service.call(`${P}/create_policy`, { policy_type_id: POLICY_TYPE.HO3 }));
    await service.call(`${P}/create_risk`, { revision_id: policy.revision_id });
    const answer = await service.call(`${P}/rate_revision`, { revision_id: policy.revision_id });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages.join(' ')).toMatch(/Property #1/);
    const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: policy.revision_id }));
    expect(revision.items.every((item: any) => item.annual_premium === null)).toBe(true);
  });
});
