/**
 * Every credit the carrier owes becomes a refund (issue 32), not only a cancellation's: a payment
 * above what the term owes and an endorsement's return premium leave a credit that, above the
 * carrier's refund threshold (25.00), is a pending refund written with the payment or the
 * endorsement; at or below it the credit stays on the account. The payee is the named insured,
 * or the mortgagee where the product's rule says so, with the mailing address the check goes to.
 * Refunds in a state are listed across the book. The clock is pinned: no day-of-run dependence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import type { CatalogRecord } from '../../shared/catalog/reference-data.js';
import { getCatalogRecord, writeCatalogRecords } from '../../shared/catalog/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { clock } from '../../shared/platform/clock.js';
import { attachMortgagee } from '../../shared/policies/mortgagee-service.js';
import { loadRevision } from '../../shared/policies/index.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const B = '/api/v2/billing';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
const TODAY = '2026-03-10';
let service: TestService;

beforeAll(async () => {
  clock.startAt(TODAY);
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
  clock.startAt(undefined);
});

const pay = async (policyNumber: string, amount: string) => ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount } }));
const refundsOf = async (policyId: string) => ok(await service.call(`${B}/list_refunds`, { policy_id: policyId })).refunds as Array<Record<string, any>>;
const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records as Array<Record<string, any>>;

/** Dwelling lowered to `limit` from `date`, issued: the endorsement's answer. */
async function endorseDwelling(policyId: string, limit: number, date = TODAY) {
  const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policyId, revision_date: date }));
  const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
  const dwelling = (revision.items as Array<{ name: string; id: string }>).find((item) => item.name === 'Dwelling')!;
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit }] }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  return ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policyId, revision_id: revisionId } }));
}

/** The worked example with a mortgagee (First Bank, mailing address of its own) on its property. */
async function issuedWithMortgagee(name: string) {
  const bank = crypto.randomUUID();
  await createContactProfileIfAbsent({
    id: bank, name: 'First Bank', type: 'organization', roleIds: [], agencyIds: [], createdAt: clock.now().toISOString(), version: 1,
    addresses: [{ id: crypto.randomUUID(), addressLine1: '1 Bank Plaza', addressCity: 'New York', addressState: 'NY', addressZip: '10005', addressCountry: 'US', addressType: 'Mailing' }],
  } as Parameters<typeof createContactProfileIfAbsent>[0]);
  const quote = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: '03/10/2026', line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001', address_line1: '5 Elm St' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  const snapshot = (await loadRevision(quote.revision_id ?? ok(await service.call(`${P}/retrieve_policy`, { policy_id: quote.policy_id })).active_revision.id))!;
  await attachMortgagee(snapshot, snapshot.risks[0]!.id, bank, { description: 'First Bank', loanNum: 'L-77', type: 'first' });
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: quote.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: quote.policy_id } }));
  return { policyId: quote.policy_id as string, policyNumber: quote.quote_number as string, bank };
}

/** The product's return-premium rules with `refundPayee` set, for the length of `run`. */
async function withRefundPayee(rule: 'mortgageeFirst', run: () => Promise<void>) {
  const rules = (await getCatalogRecord<CatalogRecord>('CANCELLATIONRULES'))!;
  try {
    await writeCatalogRecords([{ ...rules, ...catalogKey('CANCELLATIONRULES'), refundPayee: rule }]);
    await run();
  } finally {
    await writeCatalogRecords([rules]);
  }
}

describe('refunds of every credit the carrier owes', () => {
  it('an overpayment above the threshold is a pending refund written with the payment; a further credit at or below the threshold stays on the account', async () => {
    const policy = await issueWorkedExample(service, 'Olga Overpay', TODAY);
    await pay(policy.policyNumber, '900.00');
    const [refund, ...more] = await refundsOf(policy.policyId);
    expect(more).toEqual([]);
    expect(refund).toMatchObject({
      payee: 'Olga Overpay', payee_role: 'named_insured', amount: 48.38, state: 'pending', date: TODAY,
      mailing_address: expect.objectContaining({ address_zip: '10001' }),
    });
    expect(refund!.reason).toMatch(/^Overpayment: payment of 900\.00/);
    // 10.00 more: the credit is 58.38, of which 48.38 is being refunded; the 10.00 left is below 25.00.
    await pay(policy.policyNumber, '10.00');
    expect(await refundsOf(policy.policyId)).toHaveLength(1);
    expect((await history(policy.policyId))[0]).toMatchObject({ type: 'Payment', balance: -58.38 });
  });

  it("a lockbox file's payment above what the term owes is refunded in its transaction; another policy of the file paying what it owes is not", async () => {
    const over = await issueWorkedExample(service, 'Lou Lockbox', TODAY);
    const exact = await issueWorkedExample(service, 'Eva Exact', TODAY);
    const digits = (policyNumber: string) => policyNumber.replace(/\D/g, '');
    const answers = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: [
      { policy: digits(over.policyNumber), check: 'L-1', payment: '951.62' },
      { policy: digits(exact.policyNumber), check: 'L-3', payment: '851.62' },
    ] }));
    expect(answers).toEqual([{ result: 'success', detail: '' }, { result: 'success', detail: '' }]);
    expect(await refundsOf(over.policyId)).toEqual([expect.objectContaining({ payee: 'Lou Lockbox', amount: 100, state: 'pending', reason: expect.stringMatching(/^Overpayment: lockbox payment of 951\.62/) })]);
    expect(await refundsOf(exact.policyId)).toEqual([]);
  });

  it('a payment leaving 25.00 or less of credit refunds nothing', async () => {
    const policy = await issueWorkedExample(service, 'Una Under', TODAY);
    await pay(policy.policyNumber, '876.62');
    expect(await refundsOf(policy.policyId)).toEqual([]);
    expect((await history(policy.policyId))[0]).toMatchObject({ balance: -25 });
  });

  it("an endorsement's return premium on a term paid in full is a pending refund in the endorsement's transaction; on a term still owing it only lowers the balance", async () => {
    const paid = await issueWorkedExample(service, 'Ed Endorse', TODAY);
    await pay(paid.policyNumber, '851.62');
    const endorsed = await endorseDwelling(paid.policyId, 200000);
    const returned = -Math.round(endorsed.additional_premium * 100) / 100;
    expect(returned).toBeGreaterThan(25);
    const [refund] = await refundsOf(paid.policyId);
    expect(refund).toMatchObject({ payee: 'Ed Endorse', amount: returned, state: 'pending' });
    expect(refund!.reason).toBe(`Return premium: endorsement effective ${TODAY}`);

    const owing = await issueWorkedExample(service, 'Owen Owing', TODAY);
    await endorseDwelling(owing.policyId, 200000);
    expect(await refundsOf(owing.policyId)).toEqual([]);
  });

  it('pays the mortgagee first, at its mailing address, where the product says so; the shipped product pays the named insured', async () => {
    const policy = await issuedWithMortgagee('Mo Mortgaged');
    await pay(policy.policyNumber, '900.00');
    expect((await refundsOf(policy.policyId))[0]).toMatchObject({ payee: 'Mo Mortgaged', payee_role: 'named_insured', mailing_address: expect.objectContaining({ address_line1: '5 Elm St' }) });
    await withRefundPayee('mortgageeFirst', async () => {
      ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: '2026-04-09', cancel_reason_id: INSUREDS_REQUEST }));
    });
    const refunds = await refundsOf(policy.policyId);
    expect(refunds).toHaveLength(2);
    // The cancellation's refund is the credit beyond the 48.38 already being refunded.
    expect(refunds[1]).toMatchObject({
      payee: 'First Bank', payee_contact_id: policy.bank, payee_role: 'mortgagee', state: 'pending', amount: 726.62,
      mailing_address: { address_line1: '1 Bank Plaza', address_line2: null, address_city: 'New York', address_state: 'NY', address_zip: '10005' },
    });
  });

  it('lists the refunds in a state across the book from the index; neither state nor policy_id names the field and nothing is read', async () => {
    const policy = await issueWorkedExample(service, 'Lee List', TODAY);
    await pay(policy.policyNumber, '951.62');
    const pending = ok(await service.call(`${B}/list_refunds`, { state: 'pending' })).refunds as Array<Record<string, any>>;
    expect(pending.find((refund) => refund.policy_id === policy.policyId)).toMatchObject({ amount: 100, payee: 'Lee List' });
    expect(pending.every((refund) => refund.state === 'pending')).toBe(true);
    expect(ok(await service.call(`${B}/list_refunds`, { state: 'issued' })).refunds.some((refund: { policy_id: string }) => refund.policy_id === policy.policyId)).toBe(false);
    const neither = await service.call(`${B}/list_refunds`, {});
    expect(neither.body.success).toBe(false);
    expect(JSON.stringify(neither.body.messages)).toContain('state');
    const bad = await service.call(`${B}/list_refunds`, { state: 'paid' });
    expect(JSON.stringify(bad.body.messages)).toContain('state');
  });
});
