/**
 * A claim's money through the HTTP API: the worked claim of ../shared/spec/claims.md to the cent at
 * every step (default reserves, reserves set, the Dwelling payment above the adjuster's authority
 * approved by a manager and issued, Loss of Use and expense payments, the close releasing the rest,
 * the subrogation reimbursing the deductible first), asserting the transactions' amounts and the
 * accounting overview's totals; then the limit, the deductible once across two exposures, approval
 * by someone else, the duplicate guard, void, the check export twice with its positive-pay rows,
 * cleared, an ACH trace, an idempotent retry, a rejected call storing nothing, 20 concurrent payments,
 * and a claim stored before the ledger records (its deductible ledger on the claim) read and moved into them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { claimPaymentsIssuedIn } from '../../shared/claims/index.js';
import { claimDeductibleRecord, claimLimitUseRecord, claimRecord } from '../../shared/claims/records.js';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { queryAll } from '../../shared/platform/dynamo.js';
import { loadRevision } from '../../shared/policies/index.js';
import { attachMortgagee } from '../../shared/policies/mortgagee-service.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type ApiAnswer, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const X = '/api/v2/claim_exposures';
const ADJUSTER_ROLE = '5b0e6f3a-2d4c-4b8e-9a17-c3d5e7f90a21';
const MANAGER_ROLE = '8e2d4f6a-1b3c-4d5e-8f70-a1b2c3d4e5f6';
const VENDOR_ROLE = 'a0b415a3-fb1b-4f12-aa37-974480d19964';

let service: TestService;
let policy: IssuedWorkedExample;
let adjuster: { key: string; contactId: string };
let secondAdjuster: { key: string; contactId: string };
let manager: { key: string; contactId: string };
let ace: string;
const today = todayIso();
const effective = addDays(today, -70);

async function keyFor(roleId: string, name: string): Promise<{ key: string; contactId: string }> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds: [roleId], agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, name);
  return { key, contactId };
}

const as = (who: { key: string }) => ({ apiKey: who.key, headers: { 'Idempotency-Key': crypto.randomUUID() } });
const refusal = (answer: ApiAnswer) => {
  expect(answer.status).toBe(200);
  expect(answer.body.success).toBe(false);
  return answer.body.messages.join(' ') as string;
};

async function newClaim(lossDay: number, peril = 'WTR') {
  const claim = ok(
    await service.call(
      `${C}/new_claim`,
      { policy_number: policy.policyNumber, loss_date: addDays(effective, lossDay), reported_date: addDays(effective, lossDay + 2), peril, description: 'A pipe burst in the kitchen', reported_by: { name: 'Pat Example', relation: 'insured' }, confirm_new: true },
      { apiKey: adjuster.key },
    ),
  );
  const read = ok(await service.call(`${C}/get_claim`, { claim_id: claim.id }));
  expect(read.insured_contact_id).toEqual(expect.any(String));
  return read as { id: string; claim_number: string; insured_contact_id: string };
}
const openExposure = async (claimId: string, coverage: string) => ok(await service.call(`${X}/create_exposure`, { claim_id: claimId, coverage }, as(adjuster))).id as string;
const overview = async (claimId: string) => ok(await service.call(`${X}/get_accounting_overview`, { claim_id: claimId }));
const exposureOf = (view: any, coverage: string) => view.exposures.find((exposure: any) => exposure.coverage === coverage);
const transactions = async (claimId: string) => ok(await service.call(`${C}/get_all_claim_transactions`, { claim_id: claimId }));
const payments = async (claimId: string) => ok(await service.call(`${C}/get_claim_payments`, { claim_id: claimId }));

beforeAll(async () => {
  service = await startTestService();
  policy = await issueWorkedExample(service, 'Pat Example', effective);
  adjuster = await keyFor(ADJUSTER_ROLE, 'Alex Adjuster');
  secondAdjuster = await keyFor(ADJUSTER_ROLE, 'Avery Adjuster');
  manager = await keyFor(MANAGER_ROLE, 'Morgan Manager');
  ace = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: ace, name: 'Ace Adjusting LLC', type: 'organization', roleIds: [VENDOR_ROLE], agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
});
afterAll(async () => service?.stop());

describe('the worked claim, to the cent', () => {
  let claim: { id: string; claim_number: string; insured_contact_id: string };
  let dwelling: string;
  let lossOfUse: string;
  let dwellingPayment: string;

  it('opens the Dwelling and Loss of Use exposures with their default loss reserves, 5,000.00 and 1,000.00', async () => {
    claim = await newClaim(60);
    dwelling = await openExposure(claim.id, 'Dwelling');
    lossOfUse = await openExposure(claim.id, 'Loss of Use');
    const rows = await transactions(claim.id);
    expect(rows.map((row: any) => [row.coverage, row.type, row.cost_type, row.amount, row.source])).toEqual([
      ['Dwelling', 'reserve', 'loss', 5000, 'default'],
      ['Loss of Use', 'reserve', 'loss', 1000, 'default'],
    ]);
    expect((await overview(claim.id)).totals.outstanding).toBe(6000);
  });

  it('sets the reserves to 12,000.00 (+7,000.00), 800.00 expense and 1,500.00 (+500.00): outstanding 14,300.00', async () => {
    const set = ok(await service.call(`${X}/add_reserve`, { exposure_id: dwelling, cost_type: 'loss', amount: '12,000.00', reason: 'Contractor estimate' }, as(adjuster)));
    expect(set.transaction).toMatchObject({ type: 'reserve', cost_type: 'loss', amount: 7000, outstanding_after: 12000, who: adjuster.contactId });
    ok(await service.call(`${X}/add_reserve`, { exposure_id: dwelling, cost_type: 'expense', amount: 800, reason: 'Independent adjuster' }, as(adjuster)));
    const change = ok(await service.call(`${X}/add_reserve`, { exposure_id: lossOfUse, cost_type: 'loss', change: 500, reason: 'Hotel stay' }, as(adjuster)));
    expect(change.transaction).toMatchObject({ amount: 500, outstanding_after: 1500 });
    const view = await overview(claim.id);
    expect(view.totals.outstanding).toBe(14300);
    expect(exposureOf(view, 'Dwelling')).toMatchObject({ loss: { outstanding: 12000, paid: 0 }, expense: { outstanding: 800 } });
    expect(exposureOf(view, 'Loss of Use').loss.outstanding).toBe(1500);
  });

  it("takes the 1,000.00 deductible from the adjuster's 11,250.00 Dwelling payment: 10,250.00 waits approval, above his 10,000.00", async () => {
    const paid = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'loss', amount: 11250, payees: [claim.insured_contact_id], method: 'check' }, as(adjuster)));
    dwellingPayment = paid.id;
    expect(paid).toMatchObject({ status: 'pending_approval', amount: 10250, deductible_applied: 1000, deductible_remaining: 0, limit_remaining: 239750 });
    expect(paid.lines).toEqual([expect.objectContaining({ gross_amount: 11250, deductible: 1000, amount: 10250 })]);
    expect(paid.brokenLimits).toEqual([expect.stringMatching(/10,000\.00/)]);
    expect(paid.payees).toEqual([expect.objectContaining({ contact_id: claim.insured_contact_id, name: 'Pat Example' })]);
    // Waiting, it is not paid and the reserve is as it was.
    const view = await overview(claim.id);
    expect(exposureOf(view, 'Dwelling').loss).toMatchObject({ outstanding: 12000, paid: 0 });
    expect(view).toMatchObject({ deductible: 1000, deductible_applied: 1000, deductible_remaining: 0 });
  });

  it('is refused approval by its maker and by another adjuster, approved by a manager: Dwelling loss outstanding 1,750.00', async () => {
    expect(refusal(await service.call(`${C}/approve_payment`, { payment_id: dwellingPayment }, as(adjuster)))).toMatch(/other than its maker/);
    expect(refusal(await service.call(`${C}/approve_payment`, { payment_id: dwellingPayment }, as(secondAdjuster)))).toMatch(/10,000\.00/);
    const approved = ok(await service.call(`${C}/approve_payment`, { payment_id: dwellingPayment }, as(manager)));
    expect(approved).toMatchObject({ status: 'approved', approved_by: manager.contactId, amount: 10250 });
    const view = await overview(claim.id);
    expect(exposureOf(view, 'Dwelling').loss).toMatchObject({ outstanding: 1750, paid: 10250 });
    expect(view.deductible_remaining).toBe(0);
    const rows = (await transactions(claim.id)).filter((row: any) => row.payment_id === dwellingPayment);
    expect(rows.map((row: any) => [row.type, row.amount, row.status])).toEqual([
      ['payment', 10250, 'approved'],
      ['reserve', -10250, 'approved'],
    ]);
  });

  it('issues the check with the next check number', async () => {
    const exported = ok(await service.call(`${C}/export_claim_payments`, { payments: [{ id: dwellingPayment, check_number: 'auto_assign' }], assign_check_date: today }, as(manager)));
    expect(exported.exported).toEqual([expect.objectContaining({ payment_id: dwellingPayment, amount: 10250, check_number: expect.stringMatching(/^\d+$/) })]);
    expect((await payments(claim.id)).find((payment: any) => payment.id === dwellingPayment)).toMatchObject({ status: 'issued', issued_date: today });
    // Listed in the year's issued payments, for 1099 reporting: a query of the year, with payees and amount.
    const listed = (await claimPaymentsIssuedIn(today.slice(0, 4))).find((payment) => payment.paymentId === dwellingPayment);
    expect(listed).toMatchObject({ issuedDate: today, amountCents: 1025000, claimNumber: claim.claim_number, payees: [expect.objectContaining({ name: 'Pat Example' })], checkNumber: exported.exported[0].check_number });
  });

  it('pays Loss of Use 1,200.00 (no deductible): outstanding 300.00; the 650.00 expense to Ace Adjusting LLC: expense outstanding 150.00', async () => {
    const use = ok(await service.call(`${X}/make_payment`, { exposure_id: lossOfUse, cost_type: 'loss', amount: 1200, payees: [claim.insured_contact_id], method: 'ach' }, as(adjuster)));
    expect(use).toMatchObject({ status: 'approved', amount: 1200, deductible_applied: 0, deductible_remaining: 0 });
    const expense = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'expense', amount: 650, payees: [ace], method: 'check', invoice_number: 'ACE-1001' }, as(adjuster)));
    expect(expense).toMatchObject({ status: 'approved', amount: 650, deductible_applied: 0, payees: [expect.objectContaining({ name: 'Ace Adjusting LLC' })] });
    const view = await overview(claim.id);
    expect(exposureOf(view, 'Loss of Use').loss).toMatchObject({ outstanding: 300, paid: 1200 });
    expect(exposureOf(view, 'Dwelling').expense).toMatchObject({ outstanding: 150, paid: 650 });
    expect(view.totals.outstanding).toBe(2200);
  });

  it('closes with pay releasing 2,200.00 (1,750.00 + 150.00 + 300.00): paid loss 11,450.00, paid expense 650.00, incurred 12,100.00', async () => {
    ok(await service.call(`${X}/update_exposure`, { exposure_id: dwelling, status: 'closed', close_reason: 'with_pay' }, as(adjuster)));
    ok(await service.call(`${X}/update_exposure`, { exposure_id: lossOfUse, status: 'closed', close_reason: 'with_pay' }, as(adjuster)));
    ok(await service.call(`${C}/update_claim`, { claim_id: claim.id, claim: { status: 'closed', reason: 'Paid in full' } }, { apiKey: adjuster.key }));
    const released = (await transactions(claim.id)).filter((row: any) => row.source === 'close');
    expect(released.map((row: any) => [row.coverage, row.cost_type, row.amount])).toEqual([
      ['Dwelling', 'loss', -1750],
      ['Dwelling', 'expense', -150],
      ['Loss of Use', 'loss', -300],
    ]);
    const view = await overview(claim.id);
    expect(view.totals).toMatchObject({ outstanding: 0, incurred: 12100, loss: { paid: 11450, outstanding: 0, incurred: 11450 }, expense: { paid: 650, incurred: 650 } });
  });

  it('reimburses the 1,000.00 deductible to Pat Example out of a 5,000.00 subrogation, 4,000.00 to the carrier: net paid loss 7,450.00, net incurred 8,100.00', async () => {
    const recovered = ok(await service.call(`${X}/add_recovery`, { exposure_id: dwelling, category: 'subrogation', amount: 5000, description: "The plumber's insurer", date: today }, as(adjuster)));
    expect(recovered).toMatchObject({ deductible_reimbursed: 1000, carrier_share: 4000, transaction: { type: 'recovery', amount: 5000 } });
    expect(recovered.reimbursement).toMatchObject({ kind: 'deductible_reimbursement', amount: 1000, status: 'approved', payees: [expect.objectContaining({ contact_id: claim.insured_contact_id, name: 'Pat Example' })] });
    const view = await overview(claim.id);
    expect(view.totals).toMatchObject({ recovered: 4000, net_paid_loss: 7450, incurred: 8100, loss: { paid: 11450, recovered: 4000, incurred: 7450 } });
    expect(view.deductible_reimbursed).toBe(1000);
    const events = ok(await service.call('/api/v2/events/list_events', { types: ['claim.*'] }));
    const types = (events.events ?? events).filter((event: any) => event.data?.claim_id === claim.id).map((event: any) => event.type);
    expect(types).toEqual(expect.arrayContaining(['claim.reserve_changed', 'claim.payment_pending_approval', 'claim.payment_issued', 'claim.recovery_received']));
  });
});

describe('the worked claim in the books', () => {
  it("lands every money call of the worked claim in this month's loss report, through the same operations: 11,450.00 paid loss, 650.00 expense, no reserve left, 4,000.00 recovered, 8,100.00 incurred; each day's journal balanced", async () => {
    const month = today.slice(0, 7);
    const report = ok(await service.call('/api/v2/reports/losses', { from_month: month, to_month: month, group_by: [] }));
    const lines = (report.lines as Array<Record<string, unknown>>).filter((line) => line.kind === 'current');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      paid_loss: 11450, paid_expense: 650, case_reserves_start: 0, case_reserves_end: 0, recoveries: 4000, deductible_reimbursed: 1000,
      incurred_loss: 7450, incurred_expense: 650, incurred_total: 8100,
    });
    // No nightly has earned the policy's premium in this test: nothing earned, no ratio (books-losses.test.ts has the ratios).
    expect(lines[0]).toMatchObject({ earned_premium: 0, loss_ratio: null });
    const journal = ok(await service.call('/api/v2/reports/journal', { from_date: `${month}-01`, to_date: today }));
    for (const day of journal.days) expect(day).toMatchObject({ balanced: true, debits: day.credits });
  });
});

describe('the rules of a payment', () => {
  it('refuses a payment past the coverage limit naming the coverage, its limit and the remaining limit, and stores nothing', async () => {
    const claim = await newClaim(10, 'FIR');
    const other = await openExposure(claim.id, 'Other Structures');
    const before = { rows: await transactions(claim.id), view: await overview(claim.id) };
    const message = refusal(await service.call(`${X}/make_payment`, { exposure_id: other, cost_type: 'loss', amount: 26500, payees: [claim.insured_contact_id], method: 'check' }, as(manager)));
    expect(message).toMatch(/Other Structures limit of 25,000\.00 per occurrence: 25,000\.00 remains/);
    expect(await transactions(claim.id)).toEqual(before.rows);
    expect(await overview(claim.id)).toEqual(before.view);
    expect(await payments(claim.id)).toEqual([]);
    // Within it: 25,000.00 after the deductible is the whole limit, and nothing more goes.
    const full = ok(await service.call(`${X}/make_payment`, { exposure_id: other, cost_type: 'loss', amount: 26000, payees: [claim.insured_contact_id], method: 'check' }, { apiKey: undefined }));
    expect(full).toMatchObject({ amount: 25000, limit_remaining: 0 });
    expect(refusal(await service.call(`${X}/make_payment`, { exposure_id: other, cost_type: 'loss', amount: 1, payees: [claim.insured_contact_id], method: 'check' }))).toMatch(/0\.00 remains/);
  });

  it('refuses any payment on a claim with no coverage in force (its loss date moved before inception), storing nothing', async () => {
    const claim = await newClaim(26, 'OTH');
    const dwelling = await openExposure(claim.id, 'Dwelling');
    ok(await service.call(`${C}/update_claim`, { claim_id: claim.id, claim: { loss_date: addDays(effective, -5) } }, { apiKey: adjuster.key }));
    const before = { rows: await transactions(claim.id), view: await overview(claim.id) };
    expect(refusal(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'loss', amount: 2000, payees: [claim.insured_contact_id], method: 'check' }, as(adjuster)))).toMatch(/no coverage in force/);
    expect(await transactions(claim.id)).toEqual(before.rows);
    expect(await overview(claim.id)).toEqual(before.view);
    expect(await payments(claim.id)).toEqual([]);
  });

  it('takes the deductible once across Dwelling and Other Structures', async () => {
    const claim = await newClaim(12, 'WND');
    const dwelling = await openExposure(claim.id, 'Dwelling');
    const other = await openExposure(claim.id, 'Other Structures');
    const both = ok(
      await service.call(
        `${X}/make_multi_exposures_payment`,
        { lines: [{ exposure_id: dwelling, cost_type: 'loss', amount: 600 }, { exposure_id: other, cost_type: 'loss', amount: 1000 }], payees: [claim.insured_contact_id], method: 'check' },
        as(adjuster),
      ),
    );
    expect(both).toMatchObject({ amount: 600, deductible_applied: 1000, deductible_remaining: 0 });
    expect(both.lines.map((line: any) => [line.gross_amount, line.deductible, line.amount])).toEqual([[600, 600, 0], [1000, 400, 600]]);
    const again = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'loss', amount: 2000, payees: [claim.insured_contact_id], method: 'check' }, as(adjuster)));
    expect(again).toMatchObject({ amount: 2000, deductible_applied: 0, deductible_remaining: 0 });
    const view = await overview(claim.id);
    expect(view).toMatchObject({ deductible_applied: 1000, deductible_remaining: 0 });
    expect(exposureOf(view, 'Dwelling').loss.paid + exposureOf(view, 'Other Structures').loss.paid).toBe(2600);
  });

  it('refuses a duplicate payment naming it, unless confirmed; voids a payment bringing its reserve and deductible back', async () => {
    const claim = await newClaim(14, 'THF');
    const property = await openExposure(claim.id, 'Personal Property');
    const body = { exposure_id: property, cost_type: 'loss', amount: 1800, payees: [claim.insured_contact_id], method: 'check', invoice_number: 'INV-7' };
    const first = ok(await service.call(`${X}/make_payment`, body, as(adjuster)));
    expect(first).toMatchObject({ amount: 800, deductible_applied: 1000 });
    expect(exposureOf(await overview(claim.id), 'Personal Property').loss).toMatchObject({ outstanding: 1700, paid: 800 });
    const duplicate = await service.call(`${X}/make_payment`, body, as(adjuster));
    expect(refusal(duplicate)).toContain(first.id);
    expect(duplicate.body.data).toMatchObject({ duplicate_of: first.id });
    expect(await payments(claim.id)).toHaveLength(1);
    const confirmed = ok(await service.call(`${X}/make_payment`, { ...body, confirm_duplicate: true }, as(adjuster)));
    expect(confirmed).toMatchObject({ amount: 1800, deductible_applied: 0 });
    const voided = ok(await service.call(`${X}/void_transaction`, { transaction_id: first.lines[0].transaction_id, reason: 'Sent to the wrong address' }, as(adjuster)));
    expect(voided).toMatchObject({ id: first.id, status: 'void', void_reason: 'Sent to the wrong address' });
    const view = await overview(claim.id);
    // 2,500.00 default; 800.00 then 1,700.00 taken off; the void gives back 800.00.
    expect(exposureOf(view, 'Personal Property').loss).toMatchObject({ paid: 1800, outstanding: 800 });
    expect(view).toMatchObject({ deductible_applied: 0, deductible_remaining: 1000 });
    const back = (await transactions(claim.id)).filter((row: any) => row.source === 'void');
    expect(back.map((row: any) => [row.type, row.amount])).toEqual([['reserve', 800]]);
    expect(refusal(await service.call(`${X}/void_transaction`, { transaction_id: first.id, reason: 'Again' }, as(adjuster)))).toMatch(/already void/);
  });

  it('exports checks once with their positive-pay rows; a second export exports nothing; marks one cleared, which is then not voided; an ACH payment gets a trace', async () => {
    const claim = await newClaim(16, 'VMM');
    const dwelling = await openExposure(claim.id, 'Dwelling');
    const one = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'loss', amount: 3000, payees: [claim.insured_contact_id], method: 'check', invoice_number: 'A' }, as(adjuster)));
    const two = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'expense', amount: 420.5, payees: [ace], method: 'check', invoice_number: 'ACE-2' }, as(adjuster)));
    const ach = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'expense', amount: 99.99, payees: [ace], method: 'ach', invoice_number: 'ACE-3' }, as(adjuster)));
    const request = { payments: [{ id: one.id, check_number: 'auto_assign' }, { id: two.id, check_number: '900123' }, { id: ach.id, check_number: 'auto_assign' }], assign_check_date: today };
    const first = ok(await service.call(`${C}/export_claim_payments`, request, as(manager)));
    expect(first.exported.map((row: any) => [row.payment_id, row.amount])).toEqual([[one.id, 2000], [two.id, 420.5], [ach.id, 99.99]]);
    const auto = first.exported[0].check_number;
    expect(first.exported[2]).toMatchObject({ check_number: null, trace_number: expect.stringMatching(/^\d{15}$/) });
    expect(first.positive_pay_csv.trim().split('\r\n')).toEqual(['check_number,issue_date,amount,payee', `${auto},${today},2000.00,Pat Example`, `900123,${today},420.50,Ace Adjusting LLC`]);
    // A number given by hand is refused to a second payment.
    const three = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'expense', amount: 10, payees: [ace], method: 'check', invoice_number: 'ACE-4' }, as(adjuster)));
    expect(refusal(await service.call(`${C}/export_claim_payments`, { payments: [{ id: three.id, check_number: '900123' }], assign_check_date: today }, as(manager)))).toMatch(/check number 900123 is already/);
    const second = ok(await service.call(`${C}/export_claim_payments`, request, as(manager)));
    expect(second.exported).toEqual([]);
    expect(second.skipped.map((row: any) => row.payment_id)).toEqual([one.id, two.id, ach.id]);
    expect(second.positive_pay_csv.trim()).toBe('check_number,issue_date,amount,payee');
    const cleared = ok(await service.call(`${C}/mark_payment_cleared`, { payment_id: two.id, cleared_date: today }, as(manager)));
    expect(cleared).toMatchObject({ cleared_date: today, status: 'issued' });
    expect(refusal(await service.call(`${X}/void_transaction`, { transaction_id: two.id, reason: 'Lost' }, as(adjuster)))).toMatch(/cleared/);
    expect(refusal(await service.call(`${X}/void_transaction`, { transaction_id: ach.id, reason: 'Lost' }, as(adjuster)))).toMatch(/ACH/);
    // An issued check not cleared is voided: paid and reserve come back, and it leaves the year's issued payments.
    ok(await service.call(`${X}/void_transaction`, { transaction_id: one.id, reason: 'Stale check' }, as(adjuster)));
    expect(exposureOf(await overview(claim.id), 'Dwelling').loss).toMatchObject({ paid: 0, outstanding: 5000 });
    const year = (await claimPaymentsIssuedIn(today.slice(0, 4))).map((payment) => payment.paymentId);
    expect(year).toEqual(expect.arrayContaining([two.id, ach.id]));
    expect(year).not.toContain(one.id);
  });

  it('releases on closing the claim what a void brought back to a closed exposure; reopening restores nothing', async () => {
    const claim = await newClaim(24, 'FIR');
    const dwelling = await openExposure(claim.id, 'Dwelling');
    const paid = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'loss', amount: 3000, payees: [claim.insured_contact_id], method: 'check' }, as(adjuster)));
    expect(paid).toMatchObject({ amount: 2000, deductible_applied: 1000 });
    ok(await service.call(`${X}/update_exposure`, { exposure_id: dwelling, status: 'closed', close_reason: 'with_pay' }, as(adjuster)));
    ok(await service.call(`${X}/void_transaction`, { transaction_id: paid.id, reason: 'Paid the wrong insured' }, as(adjuster)));
    expect(exposureOf(await overview(claim.id), 'Dwelling').loss).toMatchObject({ paid: 0, outstanding: 2000 });
    ok(await service.call(`${C}/update_claim`, { claim_id: claim.id, claim: { status: 'closed', reason: 'Withdrawn' } }, { apiKey: adjuster.key }));
    const rows = await transactions(claim.id);
    expect(rows.filter((row: any) => row.source === 'close').map((row: any) => row.amount)).toEqual([-3000, -2000]);
    ok(await service.call(`${C}/update_claim`, { claim_id: claim.id, claim: { status: 'reopened', reason: 'Supplement' } }, { apiKey: manager.key }));
    ok(await service.call(`${X}/update_exposure`, { exposure_id: dwelling, status: 'reopened', reason: 'Supplement' }, as(adjuster)));
    expect(exposureOf(await overview(claim.id), 'Dwelling').loss).toMatchObject({ outstanding: 0, paid: 0 });
  });

  it('adds the mortgagee at the loss as joint payee of a Dwelling loss payment, and not of an expense payment', async () => {
    const bank = crypto.randomUUID();
    await createContactProfileIfAbsent({ id: bank, name: 'First Bank', type: 'organization', roleIds: [], agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
    const [year, month, day] = effective.split('-');
    const quote = ok(
      await service.call('/api/v2/policies/create_quote_extended', {
        quote_info: {
          effective_date: `${month}/${day}/${year}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Moe Mortgaged' }],
          underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
          locations: [{ address_zip: '10001' }],
          items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
        },
      }),
    );
    const revisionId = quote.revision_id ?? ok(await service.call('/api/v2/policies/retrieve_policy', { policy_id: quote.policy_id })).active_revision.id;
    const snapshot = (await loadRevision(revisionId))!;
    await attachMortgagee(snapshot, snapshot.risks[0]!.id, bank, { description: 'First Bank', loanNum: 'L-77', type: 'first' });
    ok(await service.call('/api/v2/policies/bind', { bind_info: { policy_id: quote.policy_id } }));
    ok(await service.call('/api/v2/policies/issue', { issue_info: { policy_id: quote.policy_id } }));
    const reported = ok(await service.call(`${C}/new_claim`, { policy_number: quote.quote_number, loss_date: addDays(effective, 30), peril: 'FIR', description: 'Kitchen fire', reported_by: { name: 'Moe Mortgaged', relation: 'insured' } }, { apiKey: adjuster.key }));
    const claim = ok(await service.call(`${C}/get_claim`, { claim_id: reported.id }));
    const dwelling = await openExposure(claim.id, 'Dwelling');
    const loss = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'loss', amount: 4000, payees: [claim.insured_contact_id], method: 'check' }, as(adjuster)));
    expect(loss.payees).toEqual([expect.objectContaining({ contact_id: claim.insured_contact_id, as: 'payee' }), { contact_id: bank, name: 'First Bank', as: 'mortgagee' }]);
    const expense = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'expense', amount: 300, payees: [ace], method: 'check' }, as(adjuster)));
    expect(expense.payees.map((payee: any) => payee.contact_id)).toEqual([ace]);
  });

  it('answers a payment retried with its Idempotency-Key with the first answer and posts it once', async () => {
    const claim = await newClaim(18, 'LGT');
    const dwelling = await openExposure(claim.id, 'Dwelling');
    const options = as(adjuster);
    const body = { exposure_id: dwelling, cost_type: 'loss', amount: 1500, payees: [claim.insured_contact_id], method: 'check' };
    const first = ok(await service.call(`${X}/make_payment`, body, options));
    const again = ok(await service.call(`${X}/make_payment`, body, options));
    expect(again).toEqual(first);
    expect(await payments(claim.id)).toHaveLength(1);
    expect(exposureOf(await overview(claim.id), 'Dwelling').loss).toMatchObject({ paid: 500, outstanding: 4500 });
  });

  it('refuses a reserve above the adjuster authority naming it, storing nothing', async () => {
    const claim = await newClaim(20, 'OTH');
    const dwelling = await openExposure(claim.id, 'Dwelling');
    const before = await transactions(claim.id);
    expect(refusal(await service.call(`${X}/add_reserve`, { exposure_id: dwelling, cost_type: 'loss', amount: 30000 }, as(adjuster)))).toMatch(/reserve authority of 25,000\.00/);
    expect(await transactions(claim.id)).toEqual(before);
    ok(await service.call(`${X}/add_reserve`, { exposure_id: dwelling, cost_type: 'loss', amount: 30000 }, as(manager)));
  });

  it('reads a claim stored before the ledger records (its deductible ledger on the claim, no limit use, no fingerprints) and moves it into them on its first money move', async () => {
    const claim = await newClaim(28, 'WND');
    const other = await openExposure(claim.id, 'Other Structures');
    const body = { exposure_id: other, cost_type: 'loss', amount: 6000, payees: [claim.insured_contact_id], method: 'check', invoice_number: 'OLD-1' };
    const first = ok(await service.call(`${X}/make_payment`, body, as(adjuster)));
    expect(first).toMatchObject({ amount: 5000, deductible_applied: 1000, limit_remaining: 20000 });
    // As a claim was stored before: the ledger on the claim, and none of the records that now keep it.
    const partition = await queryAll(claimRecord.partition({ claimId: claim.id }));
    const kept = partition.filter((item) => ['ClaimDeductible', 'ClaimLimitUse', 'ClaimPaymentFingerprint'].includes(item.entity));
    expect(kept.map((item) => item.entity).sort()).toEqual(['ClaimDeductible', 'ClaimLimitUse', 'ClaimPaymentFingerprint']);
    for (const item of kept) await documentClient().send(new DeleteCommand({ TableName: config.tableName(), Key: { pk: item.pk, sk: item.sk } }));
    await documentClient().send(
      new UpdateCommand({ TableName: config.tableName(), Key: claimRecord.key({ claimId: claim.id }), UpdateExpression: 'SET deductibleLedger = :ledger', ExpressionAttributeValues: { ':ledger': { appliedCents: 100000, reimbursedCents: 0 } } }),
    );
    const stored = await overview(claim.id);
    expect(stored).toMatchObject({ deductible_applied: 1000, deductible_remaining: 0 });
    expect(exposureOf(stored, 'Other Structures')).toMatchObject({ limit_remaining: 20000, loss: { paid: 5000 } });
    // Refused from its history, storing nothing: a repeat of its payment, and a payment past what its payments left of the limit.
    expect(refusal(await service.call(`${X}/make_payment`, body, as(adjuster)))).toContain(first.id);
    expect(refusal(await service.call(`${X}/make_payment`, { ...body, amount: 21000, invoice_number: 'OLD-2' }, as(adjuster)))).toMatch(/20,000\.00 remains/);
    const partitionBefore = await queryAll(claimRecord.partition({ claimId: claim.id }));
    expect(partitionBefore.find((item) => item.entity === 'Claim')?.deductibleLedger).toEqual({ appliedCents: 100000, reimbursedCents: 0 });
    // Its first money move takes no deductible (its ledger had it all) and moves the ledgers into their records.
    const second = ok(await service.call(`${X}/make_payment`, { ...body, amount: 20000, invoice_number: 'OLD-3' }, as(adjuster)));
    // Above the adjuster's authority, it waits approval: counted against the limit all the same.
    expect(second).toMatchObject({ amount: 20000, status: 'pending_approval', deductible_applied: 0, deductible_remaining: 0, limit_remaining: 0 });
    const moved = await queryAll(claimRecord.partition({ claimId: claim.id }));
    expect(moved.find((item) => item.entity === 'Claim')?.deductibleLedger).toBeUndefined();
    expect(moved.find((item) => item.entity === 'ClaimDeductible')).toMatchObject({ ...claimDeductibleRecord.key({ claimId: claim.id }), appliedCents: 100000, reimbursedCents: 0 });
    expect(moved.find((item) => item.entity === 'ClaimLimitUse')).toMatchObject({ ...claimLimitUseRecord.key({ claimId: claim.id, exposureId: other }), usedCents: 2500000 });
    expect(moved.filter((item) => item.entity === 'ClaimPaymentFingerprint')).toHaveLength(2);
    // From the records on: the first payment's void gives back its deductible and its limit, and frees its identity.
    ok(await service.call(`${X}/void_transaction`, { transaction_id: first.id, reason: 'Sent twice' }, as(adjuster)));
    const voided = await overview(claim.id);
    expect(voided).toMatchObject({ deductible_applied: 0, deductible_remaining: 1000 });
    expect(exposureOf(voided, 'Other Structures')).toMatchObject({ limit_remaining: 5000, loss: { paid: 0 } });
    expect(ok(await service.call(`${X}/make_payment`, body, as(adjuster)))).toMatchObject({ amount: 5000, deductible_applied: 1000, limit_remaining: 0 });
  });

  it('never passes the limit nor takes the deductible twice under 20 concurrent payments on one exposure', async () => {
    const claim = await newClaim(22, 'WTR');
    const other = await openExposure(claim.id, 'Other Structures');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        service.call(`${X}/make_payment`, { exposure_id: other, cost_type: 'loss', amount: 5000, payees: [claim.insured_contact_id], method: 'check', invoice_number: `C-${index}` }, as(adjuster)),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const made = answers.filter((answer) => answer.body.success).map((answer) => answer.body.data);
    const view = await overview(claim.id);
    const exposure = exposureOf(view, 'Other Structures');
    const total = made.reduce((sum: number, payment: any) => sum + Math.round(payment.amount * 100), 0) / 100;
    expect(made.length).toBeGreaterThan(0);
    // Each payment is 5,000.00 gross: the first 4,000.00 after the deductible, then 5,000.00 each, at most five within 25,000.00.
    expect(made.length).toBeLessThanOrEqual(5);
    expect(total).toBe(4000 + 5000 * (made.length - 1));
    for (const answer of answers.filter((candidate) => !candidate.body.success)) expect(answer.body.messages.join(' ')).toMatch(/limit of 25,000\.00|changed by another request/);
    expect(exposure.loss.paid).toBe(total);
    expect(exposure.loss.paid).toBeLessThanOrEqual(25000);
    expect(made.filter((payment: any) => payment.deductible_applied > 0)).toHaveLength(1);
    expect(view).toMatchObject({ deductible_applied: 1000, deductible_remaining: 0 });
    expect(await payments(claim.id)).toHaveLength(made.length);
    const rows = (await transactions(claim.id)).filter((row: any) => row.type === 'payment');
    expect(rows).toHaveLength(made.length);
  }, 120_000);
});
