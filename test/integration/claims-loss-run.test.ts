/**
 * Part two's reports and letters of a claim's money through the HTTP API: the loss run of the
 * worked claim of ../shared/spec/claims.md valued before its recovery (incurred 12,100.00) and
 * after it (8,100.00), its totals, premium and ratio, an agent's reach, CSV and PDF; the 1099
 * export at each year's threshold, voided checks left out, taxpayer ids masked to those who may
 * not see them; and the Claim Payment letter to the payee in the print queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { clock } from '../../shared/platform/clock.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { newAgency } from '../support/agencies.js';
import { fetchFile, pdfText } from '../support/documents.js';
import { startTestService, successData as ok, type ApiAnswer, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const X = '/api/v2/claim_exposures';
const ADJUSTER_ROLE = '5b0e6f3a-2d4c-4b8e-9a17-c3d5e7f90a21';
const MANAGER_ROLE = '8e2d4f6a-1b3c-4d5e-8f70-a1b2c3d4e5f6';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const VENDOR_ROLE = 'a0b415a3-fb1b-4f12-aa37-974480d19964';

type Key = { key: string; contactId: string };
let service: TestService;
let policy: IssuedWorkedExample;
let agencyA: string;
let agencyB: string;
let adjuster: Key;
let manager: Key;
let ownAgent: Key;
let otherAgent: Key;
let ace: string;
const today = todayIso();
const effective = addDays(today, -70);
/** The worked claim is worked on this day; its recovery comes today. */
const worked = addDays(today, -5);

async function keyFor(roleId: string, name: string, agencyIds: string[] = []): Promise<Key> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds: [roleId], agencyIds, createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, name);
  return { key, contactId };
}

/** A vendor as a carrier records one: storeNewContact (its tax id sealed), then marked 1099 reportable on its Vendor role when told. */
async function vendor(name: string, options: { taxId?: string; reportable?: boolean } = {}): Promise<string> {
  const answer = await service.call('/api/v1/contacts/storeNewContact', { role: 'Vendor', content: { name, type: 'organization', ...(options.taxId ? { feinTaxId: options.taxId } : {}) } });
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
  const id = answer.body.id as string;
  if (options.reportable !== false) expect((await service.call('/api/v1/contacts/storeRoles', { contactId: id, roleId: VENDOR_ROLE, is1099Reportable: true })).body).toMatchObject({ success: true });
  return id;
}

const as = (who: { key: string }) => ({ apiKey: who.key, headers: { 'Idempotency-Key': crypto.randomUUID() } });
const refused = (answer: ApiAnswer) => {
  expect(answer.status).toBe(200);
  expect(answer.body.success).toBe(false);
  return (answer.body.messages ?? []).join(' ') as string;
};
const lossRun = async (body: Record<string, unknown>, who?: Key) => ok(await service.call(`${C}/loss_run`, { from: effective, to: addDays(effective, 364), ...body }, who ? { apiKey: who.key } : {}));
const issue = async (paymentIds: string[], date: string) =>
  ok(await service.call(`${C}/export_claim_payments`, { payments: paymentIds.map((id) => ({ id, check_number: 'auto_assign' })), assign_check_date: date }, as(manager)));

beforeAll(async () => {
  service = await startTestService();
  [agencyA, agencyB] = [await newAgency({ name: 'Own' }), await newAgency({ name: 'Other' })];
  policy = await issueWorkedExample(service, 'Pat Example', effective, { agencyId: agencyA });
  adjuster = await keyFor(ADJUSTER_ROLE, 'Alex Adjuster');
  manager = await keyFor(MANAGER_ROLE, 'Morgan Manager');
  ownAgent = await keyFor(AGENT_ROLE, 'Olive Own', [agencyA]);
  otherAgent = await keyFor(AGENT_ROLE, 'Oscar Other', [agencyB]);
  ace = await vendor('Ace Adjusting LLC', { taxId: '12-3456789' });
});
afterAll(async () => {
  clock.startAt(undefined);
  await service?.stop();
});

describe('the loss run of the worked claim', () => {
  let claim: { id: string; claim_number: string; insured_contact_id: string };
  let dwellingCheck: string;

  beforeAll(async () => {
    // Worked five days ago, to the cent as the spec's steps 1 to 7 have it.
    clock.startAt(worked);
    const reported = ok(
      await service.call(
        `${C}/new_claim`,
        { policy_number: policy.policyNumber, loss_date: addDays(effective, 60), reported_date: addDays(effective, 62), peril: 'WTR', description: 'A pipe burst in the kitchen', reported_by: { name: 'Pat Example', relation: 'insured' } },
        { apiKey: adjuster.key },
      ),
    );
    claim = ok(await service.call(`${C}/get_claim`, { claim_id: reported.id }));
    const dwelling = ok(await service.call(`${X}/create_exposure`, { claim_id: claim.id, coverage: 'Dwelling' }, as(adjuster))).id;
    const lossOfUse = ok(await service.call(`${X}/create_exposure`, { claim_id: claim.id, coverage: 'Loss of Use' }, as(adjuster))).id;
    ok(await service.call(`${X}/add_reserve`, { exposure_id: dwelling, cost_type: 'loss', amount: 12000, reason: 'Contractor estimate' }, as(adjuster)));
    ok(await service.call(`${X}/add_reserve`, { exposure_id: dwelling, cost_type: 'expense', amount: 800, reason: 'Independent adjuster' }, as(adjuster)));
    ok(await service.call(`${X}/add_reserve`, { exposure_id: lossOfUse, cost_type: 'loss', change: 500, reason: 'Hotel stay' }, as(adjuster)));
    const paid = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'loss', amount: 11250, payees: [claim.insured_contact_id], method: 'check' }, as(adjuster)));
    expect(paid).toMatchObject({ status: 'pending_approval', amount: 10250 });
    dwellingCheck = paid.id;
    ok(await service.call(`${C}/approve_payment`, { payment_id: dwellingCheck }, as(manager)));
    const use = ok(await service.call(`${X}/make_payment`, { exposure_id: lossOfUse, cost_type: 'loss', amount: 1200, payees: [claim.insured_contact_id], method: 'ach' }, as(adjuster)));
    const expense = ok(await service.call(`${X}/make_payment`, { exposure_id: dwelling, cost_type: 'expense', amount: 650, payees: [ace], method: 'check', invoice_number: 'ACE-1001' }, as(adjuster)));
    await issue([dwellingCheck, use.id, expense.id], worked);
    ok(await service.call(`${X}/update_exposure`, { exposure_id: dwelling, status: 'closed', close_reason: 'with_pay' }, as(adjuster)));
    ok(await service.call(`${X}/update_exposure`, { exposure_id: lossOfUse, status: 'closed', close_reason: 'with_pay' }, as(adjuster)));
    ok(await service.call(`${C}/update_claim`, { claim_id: claim.id, claim: { status: 'closed', reason: 'Paid in full' } }, { apiKey: adjuster.key }));
    // Step 8 today: the plumber's insurer pays 5,000.00, 1,000.00 of it back to Pat Example.
    clock.startAt(undefined);
    const recovered = ok(await service.call(`${X}/add_recovery`, { exposure_id: dwelling, category: 'subrogation', amount: 5000, description: "The plumber's insurer", date: today }, as(adjuster)));
    expect(recovered).toMatchObject({ deductible_reimbursed: 1000, carrier_share: 4000 });
  });

  it('valued before the recovery: paid 12,100.00 (loss 11,450.00, expense 650.00), outstanding 0.00, incurred 12,100.00, the claim closed', async () => {
    const run = await lossRun({ policy_number: policy.policyNumber, as_of: worked });
    expect(run.claims).toEqual([
      expect.objectContaining({
        claim_number: claim.claim_number, loss_date: addDays(effective, 60), peril: 'WTR', peril_name: 'Water Damage', status: 'closed',
        paid_loss: 11450, paid_expense: 650, paid: 12100, outstanding: 0, recovered: 0, incurred_loss: 11450, incurred: 12100,
      }),
    ]);
    expect(run.totals).toEqual({ claims: 1, paid_loss: 11450, paid_expense: 650, paid: 12100, outstanding: 0, recovered: 0, incurred_loss: 11450, incurred: 12100 });
  });

  it('valued after it: 4,000.00 recovered (the deductible reimbursed is not), net incurred 8,100.00, as the accounting overview says', async () => {
    const run = await lossRun({ policy_number: policy.policyNumber, as_of: today });
    expect(run.claims).toEqual([expect.objectContaining({ claim_number: claim.claim_number, status: 'closed', paid: 12100, outstanding: 0, recovered: 4000, incurred_loss: 7450, incurred: 8100 })]);
    expect(run.totals).toMatchObject({ claims: 1, paid: 12100, recovered: 4000, incurred_loss: 7450, incurred: 8100 });
    const overview = ok(await service.call(`${X}/get_accounting_overview`, { claim_id: claim.id }));
    expect(overview.totals).toMatchObject({ paid: run.totals.paid, outstanding: run.totals.outstanding, recovered: run.totals.recovered, incurred: run.totals.incurred });
  });

  it("sets the losses against the policy's premium: 826.62 written, earned pro rata through the valuation date, and the loss ratio of incurred loss over it", async () => {
    const run = await lossRun({ policy_number: policy.policyNumber, as_of: today });
    expect(run.premium.written).toBe(826.62);
    // Day 71 of 365 of the term is earned by today.
    const earned = Math.floor((82662 * 71) / 365 + 0.5) / 100;
    expect(run.premium.earned).toBeCloseTo(earned, 2);
    expect(run.premium.basis).toMatch(/pro rata/);
    expect(run.loss_ratio).toBeCloseTo(7450 / run.premium.earned, 4);
    expect(run.loss_and_expense_ratio).toBeCloseTo(8100 / run.premium.earned, 4);
  });

  it('does not list a claim the carrier had not heard of by the valuation date, nor losses outside the period', async () => {
    expect((await lossRun({ policy_number: policy.policyNumber, as_of: addDays(worked, -1) })).claims).toEqual([]);
    expect((await lossRun({ policy_number: policy.policyNumber, as_of: today, from: addDays(effective, 61), to: addDays(effective, 364) })).totals).toMatchObject({ claims: 0, incurred: 0 });
  });

  it("answers an agent his agency's run, and another agency's agent neither the policy's nor the agency's", async () => {
    const own = await lossRun({ agency_id: agencyA, as_of: today }, ownAgent);
    expect(own.claims.map((line: any) => [line.claim_number, line.incurred])).toEqual([[claim.claim_number, 8100]]);
    expect((await lossRun({ policy_number: policy.policyNumber, as_of: today }, ownAgent)).totals.incurred).toBe(8100);
    const body = { from: effective, to: addDays(effective, 364), as_of: today };
    expect(refused(await service.call(`${C}/loss_run`, { ...body, agency_id: agencyA }, { apiKey: otherAgent.key }))).toMatch(/not found/i);
    expect(refused(await service.call(`${C}/loss_run`, { ...body, policy_number: policy.policyNumber }, { apiKey: otherAgent.key }))).toMatch(/not found/i);
    expect((await lossRun({ agency_id: agencyB, as_of: today }, otherAgent)).claims).toEqual([]);
  });

  it("runs an agent's own agency when he names neither policy nor agency, and asks for the agency_id of one who has several", async () => {
    const defaulted = await lossRun({ as_of: today }, ownAgent);
    expect(defaulted.agency_id).toBe(agencyA);
    expect(defaulted.claims.map((line: any) => [line.claim_number, line.incurred])).toEqual([[claim.claim_number, 8100]]);
    const both = await keyFor(AGENT_ROLE, 'Bea Both', [agencyA, agencyB]);
    const body = { from: effective, to: addDays(effective, 364), as_of: today };
    expect(refused(await service.call(`${C}/loss_run`, body, { apiKey: both.key }))).toMatch(/agency_id: give the agency_id, one of your 2 agencies/);
    // The carrier's own staff reach every agency: one is never chosen for them.
    expect(refused(await service.call(`${C}/loss_run`, body, as(manager)))).toMatch(/policy_number: give the policy_number or the agency_id/);
  });

  it('answers CSV text, a line per claim and the totals, and a PDF with the same figures', async () => {
    const csv = (await lossRun({ policy_number: policy.policyNumber, as_of: today, format: 'csv' })).csv as string;
    expect(csv.trim().split('\n')).toEqual([
      'claim_number,policy_number,loss_date,peril,status,paid_loss,paid_expense,paid,outstanding,recovered,incurred_loss,incurred',
      `${claim.claim_number},${policy.policyNumber},${addDays(effective, 60)},WTR,closed,11450.00,650.00,12100.00,0.00,4000.00,7450.00,8100.00`,
      'TOTAL,,,,,11450.00,650.00,12100.00,0.00,4000.00,7450.00,8100.00',
    ]);
    const pdf = await lossRun({ policy_number: policy.policyNumber, as_of: worked, format: 'pdf' });
    expect(pdf.content_type).toBe('application/pdf');
    const bytes = Buffer.from(pdf.pdf_base64, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(bytes).replace(/\s+/g, ' ');
    expect(text).toContain('Loss Run');
    expect(text).toContain(claim.claim_number);
    expect(text).toContain('12,100.00');
  });

  it('refuses a valuation date to come and a run of neither a policy nor an agency', async () => {
    expect(refused(await service.call(`${C}/loss_run`, { policy_number: policy.policyNumber, as_of: addDays(today, 1), from: effective, to: today }))).toMatch(/as_of/);
    expect(refused(await service.call(`${C}/loss_run`, { as_of: today, from: effective, to: today }))).toMatch(/policy_number/);
  });

  it('writes the payee a Claim Payment letter for each payment issued, listed with the claim letters in the print queue', async () => {
    await service.deliverablesRendered();
    const read = ok(await service.call(`${C}/get_claim`, { claim_id: claim.id }));
    const letters = read.documents.filter((document: any) => document.deliverable_type === 'Claim Payment' && document.delivery !== 'email');
    // The Dwelling check, the Loss of Use transfer, Ace's check; the deductible reimbursement, approved but not yet issued, has none yet.
    expect(letters).toHaveLength(3);
    const printDate = letters[0].print_date;
    const queued = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: printDate, to_date: printDate, include_claims: true, include_address_fields: true } });
    const files = new Map<string, any>(queued.body.files.map((file: any) => [file.file_id, file]));
    const names = letters.map((letter: any) => files.get(letter.file_id)?.recipient_name).sort();
    expect(names).toEqual(['Ace Adjusting LLC', 'Pat Example', 'Pat Example'].sort());
    const payments = ok(await service.call(`${C}/get_claim_payments`, { claim_id: claim.id }));
    const check = payments.find((payment: any) => payment.id === dwellingCheck);
    const texts = await Promise.all(letters.map(async (letter: any) => pdfText((await fetchFile(service, letter.file_id)).bytes).replace(/\s+/g, ' ')));
    expect(texts.some((text) => text.includes('10,250.00') && text.includes(`check number ${check.check_number}`))).toBe(true);
  });
});

describe('vendor_payments_1099', () => {
  let claimId: string;
  let expenseExposure: string;
  const pay = async (payee: string, amount: number, date: string, invoice: string) => {
    const made = ok(await service.call(`${X}/make_payment`, { exposure_id: expenseExposure, cost_type: 'expense', amount, payees: [payee], method: 'check', invoice_number: invoice }, as(manager)));
    await issue([made.id], date);
    return made.id as string;
  };

  beforeAll(async () => {
    const reported = ok(
      await service.call(`${C}/new_claim`, { policy_number: policy.policyNumber, loss_date: addDays(effective, 30), peril: 'WND', description: 'A tree on the roof', reported_by: { name: 'Pat Example', relation: 'insured' }, confirm_new: true }),
    );
    claimId = reported.id;
    expenseExposure = ok(await service.call(`${X}/create_exposure`, { claim_id: claimId, coverage: 'Dwelling' }, as(manager))).id;
  });

  it('lists a vendor paid 2,000.01 in 2026 and not one paid 1,999.99; 600.01 in 2025 is listed (the threshold then); a voided check is not counted', async () => {
    const under = await vendor('Under Roofing LLC', { taxId: '98-7654321' });
    const over = await vendor('Over Roofing LLC', { taxId: '11-2223334' });
    const before = await vendor('Before Plumbing LLC', { taxId: '55-6667778' });
    const untaxed = await vendor('No Tin Contractors LLC');
    const notReportable = await vendor('Incorporated Glass Co', { taxId: '44-5556667', reportable: false });
    await pay(under, 1999.99, '2026-03-01', 'U-1');
    const voided = await pay(under, 500, '2026-04-01', 'U-2');
    ok(await service.call(`${X}/void_transaction`, { transaction_id: voided, reason: 'Check lost in the mail' }, as(manager)));
    await pay(over, 1000, '2026-03-02', 'O-1');
    await pay(over, 1000.01, '2026-05-02', 'O-2');
    await pay(before, 600.01, '2025-11-03', 'B-1');
    await pay(untaxed, 2500, '2026-06-01', 'N-1');
    await pay(notReportable, 3000, '2026-06-02', 'G-1');

    const year2026 = ok(await service.call(`${C}/vendor_payments_1099`, { year: 2026 }));
    expect(year2026.threshold).toBe(2000);
    const listed = year2026.vendors.filter((row: any) => [under, over, untaxed, notReportable, ace].includes(row.contact_id));
    expect(listed).toEqual([expect.objectContaining({ contact_id: over, name: 'Over Roofing LLC', tax_id: '11-2223334', payments: 2, total: 2000.01 })]);
    expect(year2026.missing_tax_id).toEqual(expect.arrayContaining([{ contact_id: untaxed, name: 'No Tin Contractors LLC', total: 2500 }]));
    const year2025 = ok(await service.call(`${C}/vendor_payments_1099`, { year: '2025', format: 'csv' }));
    expect(year2025.threshold).toBe(600);
    expect(year2025.vendors).toEqual([expect.objectContaining({ contact_id: before, tax_id: '55-6667778', total: 600.01 })]);
    expect(year2025.csv.trim().split('\n')).toEqual(['contact_id,name,tax_id,address_line1,address_line2,city,state,zip,payments,total', `${before},Before Plumbing LLC,55-6667778,,,,,,1,600.01`]);
  });

  it('shows a Claims Manager the tax id masked to its last four, in the rows and the CSV', async () => {
    const masked = ok(await service.call(`${C}/vendor_payments_1099`, { year: 2025, format: 'csv' }, { apiKey: manager.key }));
    expect(masked.vendors.map((row: any) => row.tax_id)).toEqual(['**-***7778']);
    expect(masked.csv).toContain('**-***7778');
    expect(masked.csv).not.toContain('55-6667778');
    // An adjuster has no claims:manage: the export is not his.
    expect((await service.call(`${C}/vendor_payments_1099`, { year: 2025 }, { apiKey: adjuster.key })).status).toBe(403);
  });
});
