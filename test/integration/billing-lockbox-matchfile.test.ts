/**
 * The lockbox matchfile follows every change of what an account owes, to the cent: it is read
 * from the lockbox-due records postings keep, and must answer exactly what reading every owing
 * account's rows answers (the oracle below, the way the matchfile was computed before those
 * records). Paying, a bounced check (storeNSF), a cancellation and a renewal; then the pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockboxAccount, lockboxMatchRecord, statusOf } from '../../shared/billing/lockbox.js';
import { payingAccount } from '../../shared/billing/payments.js';
import { allAccounts, loadAccount } from '../../shared/billing/store.js';
import { backfillLockboxDues } from '../../shared/billing/lockbox-due-backfill.js';
import { lockboxDueKey } from '../../shared/billing/keys.js';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LockboxMatchRecord } from '../../shared/billing/model.js';
import { todayIso } from '../../shared/platform/dates.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
let service: TestService;

/** The worked example (851.62 Full Pay), issued effective `effective` (YYYY-MM-DD, today when absent). */
async function issued(name: string, effective = todayIso()): Promise<{ policyId: string; policyNumber: string; lockbox: string }> {
  const { policyId, policyNumber } = await issueWorkedExample(service, name, effective);
  return { policyId, policyNumber, lockbox: policyNumber.replace(/\D/g, '') };
}

/** The matchfile as it was computed before the lockbox-due records: every account's rows read. */
async function oracle(): Promise<LockboxMatchRecord[]> {
  const today = todayIso();
  const byPolicy = new Map<string, Awaited<ReturnType<typeof allAccounts>>>();
  for (const account of await allAccounts()) byPolicy.set(account.policyId, [...(byPolicy.get(account.policyId) ?? []), account]);
  const records: LockboxMatchRecord[] = [];
  for (const accounts of byPolicy.values()) {
    const paying = payingAccount(accounts);
    if (paying.balanceCents <= 0) continue;
    const loaded = (await loadAccount(paying.policyId, paying.termId))!;
    const account = lockboxAccount({ policyNumber: loaded.account.policyNumber, policyStatus: statusOf(loaded.account, today) }, loaded.entries, today);
    if (account.currentDueCents > 0) records.push(lockboxMatchRecord(account));
  }
  return records.sort((a, b) => a.policy_number.localeCompare(b.policy_number));
}

const matchfile = async (): Promise<LockboxMatchRecord[]> => ok(await service.call(`${P}/retrieve_lockbox_matchfile_info`, {}));
/** The policy's line, after checking the whole matchfile against the oracle. */
async function lineOf(lockbox: string): Promise<LockboxMatchRecord | undefined> {
  const answered = await matchfile();
  expect(answered).toEqual(await oracle());
  return answered.find((line) => line.policy_number === lockbox);
}
const pay = async (policyNumber: string, amount: string) => ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount } }));
const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('the lockbox matchfile follows what each account owes', () => {
  it('through payments and a bounced check: 851.62 due, 751.62 after 100.00, 881.62 after its NSF with a 30.00 fee, gone once paid', async () => {
    const policy = await issued('Paula Pays');
    expect(await lineOf(policy.lockbox)).toEqual({ policy_number: policy.lockbox, current_due_amount: 85162, minimum_acceptable_amount: 85162, always_reject_flag: false });
    await pay(policy.policyNumber, '100.00');
    expect(await lineOf(policy.lockbox)).toMatchObject({ current_due_amount: 75162, minimum_acceptable_amount: 75162 });
    const payment = (await history(policy.policyId)).find((record: { type: string }) => record.type === 'Payment');
    ok(await service.call('/api/v1/policies/storeNSF', { json_dict: { paymentId: payment.id, policyId: policy.policyId, assessFee: '30.00', allowCancel: 'true' } }));
    expect(await lineOf(policy.lockbox)).toMatchObject({ current_due_amount: 88162, minimum_acceptable_amount: 88162 });
    await pay(policy.policyNumber, '881.62');
    expect(await lineOf(policy.lockbox)).toBeUndefined();
  }, 60_000);

  it('through lockbox payments and a cancellation: what stays earned is still owed, on a policy that still takes lockbox payments', async () => {
    const policy = await issued('Cal Cancel');
    const applied = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: [{ policy: policy.lockbox, check: '5001', payment: '851.62' }] }));
    expect(applied).toEqual([{ result: 'success', detail: '' }]);
    expect(await lineOf(policy.lockbox)).toBeUndefined();
    // The check comes back: owed again, with the 25.00 default NSF fee.
    const payment = (await history(policy.policyId)).find((record: { type: string }) => record.type === 'Payment');
    ok(await service.call('/api/v1/policies/storeNSF', { json_dict: { paymentId: payment.id, policyId: policy.policyId, allowCancel: 'true' } }));
    expect(await lineOf(policy.lockbox)).toMatchObject({ current_due_amount: 87662, always_reject_flag: false });
    const cancelled = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: INSUREDS_REQUEST, cancel_date: todayIso() });
    expect(cancelled.body.success, JSON.stringify(cancelled.body)).toBe(true);
    const balance = (await history(policy.policyId))[0].balance;
    expect(balance).toBeGreaterThan(0);
    expect(await lineOf(policy.lockbox)).toEqual({ policy_number: policy.lockbox, current_due_amount: Math.round(balance * 100), minimum_acceptable_amount: Math.round(balance * 100), always_reject_flag: false });
  }, 60_000);

  it('through a renewal: the expired term is owed first, then the renewal term, then nothing', async () => {
    const policy = await issued('Remy Renew', '2025-01-01');
    ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2025-11-17' }));
    // The term that ended still owes its 851.62: payments go there first (it no longer refuses them: expired, owing).
    expect(await lineOf(policy.lockbox)).toEqual({ policy_number: policy.lockbox, current_due_amount: 85162, minimum_acceptable_amount: 85162, always_reject_flag: false });
    await pay(policy.policyNumber, '851.62');
    expect(await lineOf(policy.lockbox)).toEqual({ policy_number: policy.lockbox, current_due_amount: 85162, minimum_acceptable_amount: 85162, always_reject_flag: false });
    await pay(policy.policyNumber, '851.62');
    expect(await lineOf(policy.lockbox)).toBeUndefined();
  }, 60_000);

  it('through a renewed policy cancelled before its renewal begins: the renewal, the latest term, shows the fee it still owes', async () => {
    const policy = await issued('Cora Cancel', '2025-01-01');
    ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2025-11-17' }));
    const answer = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: INSUREDS_REQUEST, cancel_date: '2025-12-01' });
    expect(answer.body.success, JSON.stringify(answer.body)).toBe(true);
    // Both terms cancelled and owing: the matchfile shows the latest, the renewal's earned 25.00 fee.
    expect(await lineOf(policy.lockbox)).toEqual({ policy_number: policy.lockbox, current_due_amount: 2500, minimum_acceptable_amount: 2500, always_reject_flag: false });
  }, 60_000);
});

describe('the matchfile in pages', () => {
  it('walks every line once with page_size and next_page_token, and refuses a token no answer gave, naming page_token', async () => {
    for (const name of ['Page One', 'Page Two', 'Page Three']) await issued(name);
    const whole = await matchfile();
    expect(whole.length).toBeGreaterThanOrEqual(3);
    const walked: LockboxMatchRecord[] = [];
    let token: string | null | undefined;
    for (let pages = 0; pages < 100; pages += 1) {
      const answer = await service.call(`${P}/retrieve_lockbox_matchfile_info`, { page_size: 2, ...(token ? { page_token: token } : {}) });
      expect(answer.body).toMatchObject({ success: true, messages: [] });
      walked.push(...answer.body.data);
      token = answer.body.next_page_token;
      if (token === null) break;
    }
    expect(token).toBeNull();
    expect([...walked].sort((a, b) => a.policy_number.localeCompare(b.policy_number))).toEqual(whole);
    const refused = await service.call(`${P}/retrieve_lockbox_matchfile_info`, { page_token: 'bm90IGEgdG9rZW4' });
    expect(refused.body).toMatchObject({ success: false, data: null });
    expect(refused.body.messages.join(' ')).toMatch(/page_token/);
  }, 60_000);
});

describe('accounts written before the lockbox-due records', () => {
  it('are in the matchfile once backfilled, with the renewed term marked, to the cent', async () => {
    const renewed = await issued('Olga Old', '2025-01-01');
    ok(await service.call(`${P}/process_renewals`, { policy_number: renewed.policyNumber, renew_date: '2025-11-17' }));
    const fresh = await issued('Otto Old');
    // As written before the change: no lockbox-due record, no laterTermId.
    for (const account of (await allAccounts()).filter((candidate) => [renewed.policyId, fresh.policyId].includes(candidate.policyId))) {
      await documentClient().send(new DeleteCommand({ TableName: config.tableName(), Key: lockboxDueKey(account) }));
      await documentClient().send(new UpdateCommand({ TableName: config.tableName(), Key: { pk: `BILLING#${account.policyId}`, sk: `TERM#${account.termId}#ACCOUNT` }, UpdateExpression: 'REMOVE laterTermId' }));
    }
    expect((await matchfile()).map((line) => line.policy_number)).not.toContain(fresh.lockbox);
    const outcome = await backfillLockboxDues({ force: true });
    expect(outcome.written).toBeGreaterThanOrEqual(3);
    expect(await lineOf(fresh.lockbox)).toEqual({ policy_number: fresh.lockbox, current_due_amount: 85162, minimum_acceptable_amount: 85162, always_reject_flag: false });
    expect(await lineOf(renewed.lockbox)).toMatchObject({ current_due_amount: 85162 });
    const [first] = (await allAccounts()).filter((account) => account.policyId === renewed.policyId).sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
    expect(first.laterTermId).toBeDefined();
  }, 60_000);
});
