/**
 * The reference product's state filings, from outside (spec: reference-product.md, States): the
 * worked example quoted, issued, invoiced and printed in New York (the countrywide filing:
 * 826.62 / 851.62) and in Florida (its own filing: base rate 4.20, a Territory step by county,
 * two surcharges apart from premium: 1543.88 / 1586.32), and a Texas quote refused naming the
 * line and the state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { todayIso } from '../../shared/platform/dates.js';
import { fetchFile, pdfText } from '../support/documents.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

function quoteInfo(zip: string, name: string) {
  const [year, month, day] = todayIso().split('-');
  return {
    effective_date: `${month}/${day}/${year}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
    underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
    locations: [{ address_line1: '1 Worked Example Way', address_zip: zip }],
    items: [{ name: 'Dwelling', limit: 250000, rating_details: ['Base Rate', 'Construction', 'Protection Class', 'Territory', 'Deductible', 'Minimum Premium'], questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
  };
}

/** Quoted, bound and issued Full Pay; the quote's answer, the Full Pay installment's lines and the Declaration's text. */
async function quoteAndIssue(zip: string, name: string) {
  const quote = ok(await service.call(`${P}/create_quote_extended`, { quote_info: quoteInfo(zip, name) }));
  const options = ok(await service.call(`${P}/retrieve_billing_schedule_options`, { policy_number: quote.quote_number, policy_term_id: null }));
  const fullPay = options.find((option: { label: string }) => option.label === 'Full Pay');
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: quote.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: quote.policy_id } }));
  await service.deliverablesRendered();
  const [declaration] = await listPolicyAttachments(quote.policy_id);
  const text = pdfText((await fetchFile(service, declaration.fileId)).bytes);
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: quote.policy_id }));
  const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: policy.active_revision.id }));
  return { quote, invoice: fullPay.installments[0], declaration: text, revision };
}

const itemNamed = (quote: { items: Array<Record<string, any>> }, name: string) => quote.items.find((item) => item.name === name)!;
const lineOf = (text: string, label: string) => text.split('\n').find((line) => line.includes(label));

describe('the worked example by state', () => {
  it('New York quotes, bills and prints as today: 826.62 premium, 25.00 fee, 851.62 in all', async () => {
    const { quote, invoice, declaration, revision } = await quoteAndIssue('10001', 'Nora York');
    expect(quote.total).toEqual({ pro_rata_fees: 25, pro_rata_premium: 826.62, pro_rata_total: 851.62, annual_fees: 25, annual_premium: 826.62, annual_total: 851.62 });
    expect(itemNamed(quote, 'Dwelling').rating_details).toEqual([{ 'Base Rate': 875 }, { Construction: 962.5 }, { 'Protection Class': 866.25 }, { Deductible: 866.25 }, { 'Minimum Premium': 866.25 }]);
    expect(itemNamed(quote, 'Dwelling').territory).toBeUndefined();
    expect(invoice.amountDue).toBe(851.62);
    expect(invoice.details).toEqual(expect.arrayContaining([{ type: 'Premium', amount: 826.62 }]));
    expect(revision.rate_version.name).toBe('Homeowners rates as shipped');
    expect(declaration).toContain('826.62');
    expect(declaration).not.toContain('Surcharge');
  });

  it('Florida rates by its own filing, its territory named, and bills and prints each surcharge apart from premium', async () => {
    const { quote, invoice, declaration, revision } = await quoteAndIssue('33101', 'Flora Miami');
    expect(quote.total).toEqual({
      pro_rata_fees: 42.44, pro_rata_premium: 1543.88, pro_rata_total: 1586.32,
      annual_fees: 42.44, annual_premium: 1543.88, annual_total: 1586.32,
      pro_rata_surcharges: 17.44, annual_surcharges: 17.44,
    });
    const dwelling = itemNamed(quote, 'Dwelling');
    expect(dwelling.rating_details).toEqual([
      { 'Base Rate': 1050 }, { Construction: 1155 }, { 'Protection Class': 1039.5 }, { Territory: 1663.2 }, { Deductible: 1663.2 }, { 'Minimum Premium': 1663.2 },
    ]);
    expect(dwelling.territory).toBe('Miami-Dade');
    expect(itemNamed(quote, 'Personal Liability').annual_amount).toBe(35);
    expect(itemNamed(quote, 'Medical Payments').annual_amount).toBe(12);
    expect(itemNamed(quote, 'Claims-Free Discount').annual_amount).toBe(-166.32);
    expect(itemNamed(quote, 'Policy Fee').annual_amount).toBe(25);
    expect(itemNamed(quote, 'Emergency Management Surcharge').annual_amount).toBe(2);
    expect(itemNamed(quote, 'Guaranty Fund Surcharge').annual_amount).toBe(15.44);
    expect(revision.rate_version.name).toBe('Florida Homeowners rates 2020');
    expect(revision.annual_premium).toBe(1543.88);

    // The invoice: premium alone, the policy fee, and each surcharge on its own line.
    expect(invoice.amountDue).toBe(1586.32);
    expect(invoice.details).toEqual(expect.arrayContaining([
      { type: 'Premium', amount: 1543.88 },
      expect.objectContaining({ amount: 2, name: 'Emergency Management Surcharge' }),
      expect.objectContaining({ amount: 15.44, name: 'Guaranty Fund Surcharge' }),
    ]));

    // The Declaration: the premium, and each surcharge its own line.
    expect(declaration).toContain('1,543.88');
    expect(lineOf(declaration, 'Emergency Management Surcharge')).toMatch(/2\.00\s*$/);
    expect(lineOf(declaration, 'Guaranty Fund Surcharge')).toMatch(/15\.44\s*$/);
  });

  it('Texas, where the line is not written, is refused naming the line and the state, and nothing is quoted', async () => {
    const answer = await service.call(`${P}/create_quote_extended`, { quote_info: quoteInfo('75201', 'Tex Dallas') });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: false });
    expect(JSON.stringify(answer.body)).toContain('quote_info.locations.0.address_zip: the Homeowners line is not written in Texas (TX)');
  });

  it('create_policy for a Florida property gets the surcharges of its state as a quote does; a New York one none', async () => {
    const itemNames = async (zip: string) => {
      const created = ok(await service.call(`${P}/create_policy`, { property_zip: zip }));
      const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: created.revision_id }));
      return (details.items as Array<{ name: string }>).map((item) => item.name);
    };
    expect(await itemNames('33101')).toEqual(expect.arrayContaining(['Emergency Management Surcharge', 'Guaranty Fund Surcharge']));
    expect((await itemNames('10001')).filter((name) => name.includes('Surcharge'))).toEqual([]);
  });
});
