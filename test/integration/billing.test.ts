/**
 * Billing as a client sees it: invoices at issue, the account history with its running
 * balance, schedule options, manual payments (with Idempotency-Key and under concurrency).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const PAY = '/api/v1/payments/makeManualPolicyPayment';
let service: TestService;
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

export interface IssuedPolicy {
  policyId: string;
  policyNumber: string;
}

/** Quotes, binds and issues the reference worked example (826.62 + 25.00), effective today unless told. */
async function issued(options: { effective?: string; items?: unknown[]; losses?: 'yes' | 'no' } = {}): Promise<IssuedPolicy> {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: usDate(options.effective ?? todayIso()), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Bea Billing' }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: options.losses ?? 'no' }],
        locations: [{ address_zip: '10001' }],
        items: options.items ?? [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id } }));
  return { policyId: data.policy_id, policyNumber: data.quote_number };
}

const history = async (policyId: string, extra: Record<string, unknown> = {}) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId, ...extra }));
const pay = (policyNumber: string, amount: unknown, headers: Record<string, string> = {}) =>
  service.call(PAY, { json_dict: { policyNumber, amount, paymentType: 'check', depositDate: todayIso() } }, { headers });

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('invoices at issue and the account history', () => {
  it('issues the Full Pay invoice of 851.62 (826.62 premium, 25.00 fee), shown on the next read with its balance', async () => {
    const { policyId } = await issued();
    const page = await history(policyId);
    expect(page).toMatchObject({ activePage: 1, maxPages: 1 });
    expect(page.records).toHaveLength(1);
    expect(page.records[0]).toMatchObject({
      type: 'Invoice', amount: 851.62, balance: 851.62, date: todayIso(), icon: 'invoice',
      data: { amount: 851.62, schedule: { Premium: 826.62, 'Installment Fee': 0, 'Custom Fees': 25 }, details: { dueDate: todayIso(), billDate: todayIso(), paidInFull: false } },
    });
  });

  it('shows the invoice from issue on even when the term starts next month', async () => {
    const start = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const { policyId } = await issued({ effective: start });
    const page = await history(policyId);
    expect(page.records).toHaveLength(1);
    expect(page.records[0]).toMatchObject({ type: 'Invoice', amount: 851.62, date: start, data: { details: { dueDate: start } } });
  });

  it('offers every schedule for the policy, each adding up exactly to premium, fee and installment fees', async () => {
    const { policyNumber } = await issued();
    const options = ok(await service.call(`${P}/retrieve_billing_schedule_options`, { policy_number: policyNumber, policy_term_id: null, ignore_billing_schedule_roles: true }));
    expect(options.map((option: { label: string }) => option.label)).toEqual(['Full Pay', 'Two Pay', 'Quarterly', 'Monthly']);
    const cents = (amount: number) => Math.round(amount * 100);
    const installmentFees = { 'Full Pay': 0, 'Two Pay': 500, Quarterly: 1200, Monthly: 2700 } as Record<string, number>;
    for (const option of options) {
      const total = option.installments.reduce((sum: number, installment: { amountDue: number }) => sum + cents(installment.amountDue), 0);
      expect(total, option.label).toBe(85162 + installmentFees[option.label]);
      for (const installment of option.installments) {
        expect(installment.details.reduce((sum: number, detail: { amount: number }) => sum + cents(detail.amount), 0)).toBe(cents(installment.amountDue));
      }
    }
    const monthly = options.find((option: { label: string }) => option.label === 'Monthly');
    expect(monthly.installments[0]).toMatchObject({ amountDue: 107.66, billDate: todayIso(), dueDate: todayIso() });
    expect(monthly.installments[9].details).toEqual([{ amount: 82.68, type: 'Premium' }, { amount: 3, type: 'Installment Fee' }]);
  });

  it('answers an unknown policy as not found and refuses a malformed date filter by name', async () => {
    const { policyId } = await issued();
    const unknown = await service.call(`${P}/retrieve_account_history`, { policy_id: 'no-such-policy' });
    expect(unknown.body.success).toBe(false);
    const filtered = await service.call(`${P}/retrieve_account_history`, { policy_id: policyId, filter_dict: { fromDay: 'x' } });
    expect(filtered.body).toMatchObject({ success: false, messages: ['filter_dict.fromDay must be a whole number'] });
    const year = Number(todayIso().slice(0, 4));
    expect((await history(policyId, { filter_dict: { fromYear: year + 1 } })).records).toEqual([]);
    expect((await history(policyId, { filter_dict: { fromYear: year, toYear: year } })).records).toHaveLength(1);
  });
});

describe('makeManualPolicyPayment', () => {
  it('posts a payment: a Payment row, the balance down, the invoice paid in full once covered', async () => {
    const { policyId, policyNumber } = await issued();
    expect((await pay(policyNumber, '51.62')).body).toEqual({ success: true, message: [], data: {} });
    let page = await history(policyId);
    expect(page.records[0]).toMatchObject({ type: 'Payment', amount: -51.62, balance: 800, data: { details: { showDelete: true } } });
    ok(await pay(policyNumber, 800));
    page = await history(policyId);
    expect(page.records[0]).toMatchObject({ type: 'Payment', amount: -800, balance: 0 });
    expect(page.records.find((record: { type: string }) => record.type === 'Invoice').data.details.paidInFull).toBe(true);
  });

  it('answers the documented texts for a missing policy number or amount, and refuses bad amounts, posting nothing', async () => {
    const { policyId, policyNumber } = await issued();
    expect((await service.call(PAY, { json_dict: { amount: '10.00' } })).body).toMatchObject({ success: false, message: ['A policy number must be submitted'] });
    expect((await service.call(PAY, { json_dict: { policyNumber } })).body).toMatchObject({ success: false, message: ['An amount must be submitted'] });
    for (const amount of ['-5.00', '0', '0.00', '12.345', 'ten', '1e3']) {
      const answer = await pay(policyNumber, amount);
      expect(answer.body.success, amount).toBe(false);
      expect(answer.body.message[0], amount).toMatch(/^amount: /);
    }
    expect((await pay('10-1999-424242', '10.00')).body.success).toBe(false);
    expect((await history(policyId)).records).toHaveLength(1);
  });

  it('posts a retried payment with the same Idempotency-Key once, answering the first answer again', async () => {
    const { policyId, policyNumber } = await issued();
    const key = `pay-${crypto.randomUUID()}`;
    const first = await pay(policyNumber, '100.00', { 'Idempotency-Key': key });
    const again = await pay(policyNumber, '100.00', { 'Idempotency-Key': key });
    expect(first.body).toEqual({ success: true, message: [], data: {} });
    expect(again.body).toEqual(first.body);
    const page = await history(policyId);
    expect(page.records.filter((record: { type: string }) => record.type === 'Payment')).toHaveLength(1);
    expect(page.records[0].balance).toBe(751.62);
    const reused = await pay(policyNumber, '200.00', { 'Idempotency-Key': key });
    expect(reused.body).toMatchObject({ success: false, message: [expect.stringMatching(/Idempotency-Key was already used/)] });
    // A refused call consumes no key: the same key then posts.
    const refusedKey = `pay-${crypto.randomUUID()}`;
    expect((await pay(policyNumber, '-1', { 'Idempotency-Key': refusedKey })).body.success).toBe(false);
    ok(await pay(policyNumber, '1.00', { 'Idempotency-Key': refusedKey }));
    expect((await history(policyId)).records[0].balance).toBe(750.62);
  });

  it('records 20 concurrent payments to one policy, every one, with the right final balance', async () => {
    const { policyId, policyNumber } = await issued();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => pay(policyNumber, `${10 + index}.01`)));
    for (const answer of answers) expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
    const page = await history(policyId);
    const payments = page.records.filter((record: { type: string }) => record.type === 'Payment');
    expect(payments).toHaveLength(20);
    // 20 payments of 10.01 .. 29.01: 390.20 in all.
    expect(page.records[0].balance).toBe(461.42);
  });
});
