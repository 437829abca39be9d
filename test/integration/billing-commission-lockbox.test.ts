/**
 * Commission on collected premium earned by lockbox payments (issue 32): where the carrier pays
 * commission as premium is collected, a payment posted from a bank lockbox file, applied within
 * the call or in chunks from the queue, earns exactly what a manual payment of the same amount
 * earns (15% new business of the premium part of what is paid, never of the fee), in the posting's
 * transaction; the journal's day balances; and the same file sent again, or the same check in
 * another file, earns nothing more. The clock is pinned: no day-of-run dependence.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import type { CatalogRecord } from '../../shared/catalog/reference-data.js';
import { getCatalogRecord, writeCatalogRecords } from '../../shared/catalog/store.js';
import { clock } from '../../shared/platform/clock.js';
import { newAgency } from '../support/agencies.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { afterRead } from '../support/lockbox-after-read.js';
import { BILLING_SCHEDULE } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

vi.mock('../../shared/billing/store.js', async (importOriginal) => (await import('../support/lockbox-after-read.js')).storeWithAfterRead(await importOriginal()));

/** The reference product's Monthly schedule: ten installments, the first billed at issue. */
const MONTHLY = BILLING_SCHEDULE.MONTHLY;
const P = '/api/v2/policies';
const B = '/api/v2/billing';
const TODAY = '2026-03-10';
let service: TestService;
let carrier: CatalogRecord;

beforeAll(async () => {
  clock.startAt(TODAY);
  service = await startTestService({ consumers: ['documents', 'lockbox-chunks'] });
  // The carrier pays commission on collected premium.
  carrier = (await getCatalogRecord<CatalogRecord>('CARRIER'))!;
  await writeCatalogRecords([{ ...carrier, ...catalogKey('CARRIER'), commissionBasis: 'collected' }]);
});
afterAll(async () => {
  if (carrier) await writeCatalogRecords([carrier]);
  await service?.stop();
  clock.startAt(undefined);
});

/** The worked example (826.62 premium, 25.00 fee, Full Pay: 851.62 owed) written by the agency, effective today. */
async function issuedForAgency(agencyId: string, name: string, billingScheduleId?: string) {
  const issued = await issueWorkedExample(service, name, TODAY, { agencyId, billingScheduleId });
  return { policyNumber: issued.policyNumber, lockboxNumber: issued.policyNumber.replace(/\D/g, '') };
}

const statement = async (agencyId: string) => ok(await service.call(`${B}/retrieve_commission_statement`, { agency_id: agencyId, month: TODAY.slice(0, 7) }));
const lines = (answer: { transactions: Array<{ transaction: string; premium: number; commission: number }> }) => answer.transactions.map((row) => [row.transaction, row.premium, row.commission]);
const apply = (transactions: unknown[]) => service.call(`${P}/apply_lockbox_payment_transactions`, { transactions });

/** A chunked file's answers, once every chunk is done. */
async function doneResult(fileId: string) {
  let result = ok(await service.call(`${P}/retrieve_lockbox_file_result`, { file_id: fileId }));
  for (let tries = 0; result.status !== 'done' && tries < 600; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    result = ok(await service.call(`${P}/retrieve_lockbox_file_result`, { file_id: fileId }));
  }
  expect(result.status).toBe('done');
  return result;
}

/** What the worked example paid in full (851.62) earns: 15% of its premium part (826.62), never of the 25.00 fee. */
const EARNED_IN_FULL = [['Collection', 826.62, 123.99]];

describe('commission on collected premium, paid through the lockbox', () => {
  it('earns on a lockbox payment, within the call and in chunks, exactly what a manual payment earns, once; the journal balances', async () => {
    // The reference: the same payment made by hand.
    const byHand = await newAgency();
    const manual = await issuedForAgency(byHand, 'Manny Manual');
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: manual.policyNumber, amount: '851.62' } }));
    const reference = await statement(byHand);
    expect(lines(reference)).toEqual(EARNED_IN_FULL);
    expect(reference.totals).toMatchObject({ premium: 826.62, commission: 123.99 });

    // A file applied within the call: its check earns what the manual payment earned, in the same row.
    const small = await newAgency();
    const synchronous = await issuedForAgency(small, 'Sally Sync');
    const file = [{ policy: '999999999', check: 's0', payment: '851.62' }, { policy: synchronous.lockboxNumber, check: 's1', payment: '851.62' }];
    const answered = ok(await apply(file));
    expect(answered).toEqual([{ result: 'error', detail: 'No policy matches lockbox number 999999999' }, { result: 'success', detail: '' }]);
    const paid = await statement(small);
    expect(lines(paid)).toEqual(lines(reference));
    expect(paid.totals).toEqual(reference.totals);
    // Sent again, it answers the same and earns nothing; the same check in another file is refused and earns nothing.
    expect(ok(await apply(file))).toEqual(answered);
    const another = ok(await apply([{ policy: synchronous.lockboxNumber, check: 's1', payment: '851.62' }]));
    expect(another).toEqual([{ result: 'error', detail: `Check s1 was already posted to policy ${synchronous.policyNumber}` }]);
    expect(lines(await statement(small))).toEqual(EARNED_IN_FULL);

    // A file of 1,001 lines, applied in chunks from the queue: the policy's check among 1,000 lines no policy matches.
    const large = await newAgency();
    const chunked = await issuedForAgency(large, 'Chuck Chunked');
    const big: Array<Record<string, string>> = Array.from({ length: 1000 }, (_, index) => ({ policy: String(900_000_000 + index), check: `u${index}`, payment: '10.00' }));
    big.splice(600, 0, { policy: chunked.lockboxNumber, check: 'b1', payment: '851.62' });
    const accepted = ok(await apply(big));
    expect(accepted).toMatchObject({ status: 'applying', lines: 1001 });
    expect(accepted.chunks).toBeGreaterThan(1);
    const result = await doneResult(accepted.file_id);
    expect(result.results[600]).toEqual({ result: 'success', detail: '' });
    expect(lines(await statement(large))).toEqual(lines(reference));
    // Sent again, it is the same file: its answers stand, nothing is posted or earned again.
    const again = ok(await apply(big));
    expect(again.file_id).toBe(accepted.file_id);
    expect((await doneResult(again.file_id)).results).toEqual(result.results);
    expect(lines(await statement(large))).toEqual(EARNED_IN_FULL);

    // The books journal each commission earned (Commission expense against Commission payable); the day balances.
    const journal = ok(await service.call('/api/v2/reports/journal', { from_date: TODAY, to_date: TODAY }));
    for (const day of journal.days) expect(day).toMatchObject({ balanced: true });
    const balance = (name: string) => Number(journal.trial_balance.accounts.find((account: { account: string }) => account.account === name)?.balance);
    expect(Math.abs(balance('Commission expense'))).toBe(371.97);
    expect(balance('Commission expense') + balance('Commission payable')).toBe(0);
  }, 240_000);

  it('earns on each of a policy\'s payments in one file what the same payments made by hand earn, row by row, in file order', async () => {
    const byHand = await newAgency();
    const manual = await issuedForAgency(byHand, 'Mona Monthly', MONTHLY);
    for (const amount of ['107.66', '200.00']) ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: manual.policyNumber, amount } }));
    const reference = await statement(byHand);
    // The premium part of what is paid (in proportion: 826.62 of the 851.62 the term charges) earns 15%: 15.68, then 29.11 (44.79 on 298.63 in all).
    expect(lines(reference)).toEqual([['Collection', 104.5, 15.68], ['Collection', 194.13, 29.11]]);
    expect(reference.totals).toMatchObject({ premium: 298.63, commission: 44.79 });

    const byFile = await newAgency();
    const filed = await issuedForAgency(byFile, 'Fay Monthly', MONTHLY);
    const answered = ok(await apply([{ policy: filed.lockboxNumber, check: 'm1', payment: '107.66' }, { policy: filed.lockboxNumber, check: 'm2', payment: '200.00' }]));
    expect(answered).toEqual([{ result: 'success', detail: '' }, { result: 'success', detail: '' }]);
    const paid = await statement(byFile);
    expect(lines(paid)).toEqual(lines(reference));
    expect(paid.totals).toEqual(reference.totals);
  });

  it('earns exactly when a payment by hand lands on the policy after the file read it: the lockbox payment is worked again from what the manual one left', async () => {
    const agency = await newAgency();
    const policy = await issuedForAgency(agency, 'Cora Concurrent', MONTHLY);
    afterRead.once = async () => {
      ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: '107.66' } }));
    };
    const answered = ok(await apply([{ policy: policy.lockboxNumber, check: 'r1', payment: '200.00' }]));
    expect(afterRead.once).toBeUndefined();
    expect(answered).toEqual([{ result: 'success', detail: '' }]);
    // The same figures as the two payments made one after the other: the file's payment (posted at the instant the file
    // was applied, so listed first) worked from what the manual one had left, 29.11 on 194.13; the manual one's 15.68 on 104.50.
    const paid = await statement(agency);
    expect(lines(paid)).toEqual([['Collection', 194.13, 29.11], ['Collection', 104.5, 15.68]]);
    expect(paid.totals).toMatchObject({ premium: 298.63, commission: 44.79 });
  });
});
