/**
 * Money coming back and coming in by the bank: storeNSF, the lockbox matchfile and file
 * (under both names existing clients call), and who may pay a policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { holdEveryRoundOfWrites } from '../support/write-barrier.js';

const P = '/api/v2/policies';
let service: TestService;

async function issued(name = 'Nina Nsf'): Promise<{ policyId: string; policyNumber: string }> {
  const { policyId, policyNumber } = await issueWorkedExample(service, name);
  return { policyId, policyNumber };
}

const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records;
const pay = (policyNumber: string, amount: string) => service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount } });
const digits = (policyNumber: string) => policyNumber.replace(/\D/g, '');

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('storeNSF', () => {
  it('reverses the payment (owed again) and debits the NSF fee on the history; a second NSF of it is refused', async () => {
    const { policyId, policyNumber } = await issued();
    ok(await pay(policyNumber, '851.62'));
    const payment = (await history(policyId)).find((record: { type: string }) => record.type === 'Payment');
    expect(payment.balance).toBe(0);
    const answer = await service.call('/api/v1/policies/storeNSF', { json_dict: { paymentId: payment.id, policyId, assessFee: '30.00', allowCancel: 'true' } });
    expect(answer.body).toEqual({ success: true, message: [], data: {} });
    const records = await history(policyId);
    expect(records.slice(0, 2)).toMatchObject([
      { type: 'NSF Fee', amount: 30, balance: 881.62, data: { details: { showWaive: true } } },
      { type: 'NSF Reversal', amount: 851.62, balance: 851.62 },
    ]);
    expect(records.find((record: { id: string }) => record.id === payment.id).data.details.showDelete).toBe(false);
    expect(records.find((record: { type: string }) => record.type === 'Invoice').data.details.paidInFull).toBe(false);
    const again = await service.call('/api/v1/policies/storeNSF', { json_dict: { paymentId: payment.id, policyId, allowCancel: 'true' } });
    expect(again.body).toMatchObject({ success: false, message: [`Payment ${payment.id} was already returned for non-sufficient funds`] });
    expect(await history(policyId)).toHaveLength(4);
  });

  it('answers a retried NSF with the same Idempotency-Key as the first time, reversing once', async () => {
    const { policyId, policyNumber } = await issued();
    ok(await pay(policyNumber, '851.62'));
    const payment = (await history(policyId)).find((record: { type: string }) => record.type === 'Payment');
    const headers = { 'Idempotency-Key': `nsf-${crypto.randomUUID()}` };
    const body = { json_dict: { paymentId: payment.id, policyId, allowCancel: 'true' } };
    const first = await service.call('/api/v1/policies/storeNSF', body, { headers });
    const again = await service.call('/api/v1/policies/storeNSF', body, { headers });
    expect(first.body).toEqual({ success: true, message: [], data: {} });
    expect(again.body).toEqual(first.body);
    const records = await history(policyId);
    expect(records.filter((record: { type: string }) => record.type === 'NSF Reversal')).toHaveLength(1);
    expect(records[0]).toMatchObject({ type: 'NSF Fee', amount: 25, balance: 876.62 });
  });

  it('waives the fee (kept on the history at 0) and postpones the cancellation to the new due date', async () => {
    const { policyId, policyNumber } = await issued();
    ok(await pay(policyNumber, '100.00'));
    const payment = (await history(policyId)).find((record: { type: string }) => record.type === 'Payment');
    ok(await service.call('/api/v1/policies/storeNSF', { paymentId: payment.id, assessFee: '0', allowCancel: 'false', dueMonth: '12', dueDay: '31', dueYear: '2099' }));
    const records = await history(policyId);
    expect(records[0]).toMatchObject({ type: 'NSF Fee', amount: 0, summary: 'NSF fee waived', balance: 851.62 });
    expect(records[1]).toMatchObject({ type: 'NSF Reversal', amount: 100, data: { details: { dueDate: '2099-12-31' } } });
    const refused = await service.call('/api/v1/policies/storeNSF', { paymentId: crypto.randomUUID(), allowCancel: 'true' });
    expect(refused.body.success).toBe(false);
  });
});

describe('lockbox', () => {
  it('lists each policy with an amount due by its digits-only number, in pennies, and applies a file once, answering every line in order', async () => {
    const a = await issued('Lou Lockbox');
    const b = await issued('Lea Lockbox');
    const match = ok(await service.call(`${P}/retrieve_lockbox_matchfile_info`, {}));
    for (const policy of [a, b]) {
      expect(match).toContainEqual({ policy_number: digits(policy.policyNumber), current_due_amount: 85162, minimum_acceptable_amount: 85162, always_reject_flag: false });
    }
    expect(ok(await service.call(`${P}/retrieve_pnc_lockbox_matchfile_info`, {}))).toEqual(match);

    const file = [
      { policy: digits(a.policyNumber), check: '1001', payment: '851.62' },
      { policy: '99999999999', check: '1002', payment: '10.00' },
      { policy: digits(b.policyNumber), check: '2001', payment: '10.00' },
      { policy: digits(b.policyNumber), check: '2002', payment: 'ten' },
      { policy: digits(a.policyNumber), check: '1001', payment: '851.62' },
      { policy: a.policyNumber, check: '1003', payment: '5.00' },
      { policy: digits(b.policyNumber), check: '2003', payment: 851.62 },
    ];
    const first = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: file }));
    expect(first.map((line: { result: string }) => line.result)).toEqual(['success', 'error', 'error', 'error', 'error', 'error', 'success']);
    expect(first[1].detail).toMatch(/No policy matches lockbox number 99999999999/);
    expect(first[2].detail).toMatch(/below the minimum acceptable/);
    expect(first[3].detail).toMatch(/is not an amount/);
    expect(first[4].detail).toMatch(/Check 1001 was already posted/);
    // Matched with its dashes stripped; every line is judged on the account as the file found it.
    expect(first[5].detail).toMatch(/Payment 5.00 is below the minimum acceptable 851.62/);
    const balanceAfter = async (policyId: string) => (await history(policyId))[0].balance;
    expect(await balanceAfter(a.policyId)).toBe(0);
    expect(await balanceAfter(b.policyId)).toBe(0);

    // A new file naming checks already posted is refused line by line.
    const resent = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: [file[0], file[6]] }));
    expect(resent).toEqual([
      { result: 'error', detail: `Check 1001 was already posted to policy ${a.policyNumber}` },
      { result: 'error', detail: `Check 2003 was already posted to policy ${b.policyNumber}` },
    ]);
    expect((await history(a.policyId)).filter((record: { type: string }) => record.type === 'Payment')).toHaveLength(1);
    expect((await history(b.policyId)).filter((record: { type: string }) => record.type === 'Payment')).toHaveLength(1);
    const after = ok(await service.call(`${P}/retrieve_lockbox_matchfile_info`, {}));
    expect(after.map((line: { policy_number: string }) => line.policy_number)).not.toContain(digits(a.policyNumber));
  });
});

describe('a lockbox file applied again', () => {
  const names = ['apply_lockbox_payment_transactions', 'apply_pnc_lockbox_payment_transactions'];
  const payments = async (policyId: string) => (await history(policyId)).filter((record: { type: string }) => record.type === 'Payment');

  it('without an Idempotency-Key answers each line its first answer, under both names, and posts nothing twice', async () => {
    const a = await issued('Ada Again');
    const b = await issued('Bo Again');
    const file = [
      { policy: digits(a.policyNumber), check: '3001', payment: '851.62' },
      { policy: '99999999998', check: '3002', payment: '1.00' },
      { policy: digits(b.policyNumber), check: '4001', payment: '851.62' },
    ];
    const first = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: file }));
    expect(first.map((line: { result: string }) => line.result)).toEqual(['success', 'error', 'success']);
    // The same file sent again is the same file: each line keeps its first answer.
    for (const name of names) expect(ok(await service.call(`${P}/${name}`, { transactions: file }))).toEqual(first);
    // A different file naming a check already posted is told so on that line.
    expect(ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: file.slice(0, 1) }))).toEqual([
      { result: 'error', detail: `Check 3001 was already posted to policy ${a.policyNumber}` },
    ]);
    expect(await payments(a.policyId)).toHaveLength(1);
    expect(await payments(b.policyId)).toHaveLength(1);
  });

  it('keeps a line refused the first time refused when the file is sent again, though the account owes less by then', async () => {
    const a = await issued('Rhea Resent');
    const file = [
      { policy: digits(a.policyNumber), check: '7001', payment: '851.62' },
      // Judged on the account as the file found it: below the minimum 851.62 the first line pays.
      { policy: digits(a.policyNumber), check: '7002', payment: '5.00' },
    ];
    const first = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: file }));
    expect(first).toEqual([{ result: 'success', detail: '' }, { result: 'error', detail: `Payment 5.00 is below the minimum acceptable 851.62 for policy ${a.policyNumber}` }]);
    // Sent again once the account owes nothing: the 5.00 is not posted as an overpayment.
    for (const name of names) expect(ok(await service.call(`${P}/${name}`, { transactions: file }))).toEqual(first);
    expect(await payments(a.policyId)).toHaveLength(1);
    expect((await history(a.policyId))[0].balance).toBe(0);
  });

  it('with the same Idempotency-Key replays the first answer under either name, as payments do, and posts once', async () => {
    const a = await issued('Ida Key');
    const file = [
      { policy: digits(a.policyNumber), check: '5001', payment: '851.62' },
      { policy: '99999999997', check: '5002', payment: '1.00' },
    ];
    const headers = { 'Idempotency-Key': `lockbox-${crypto.randomUUID()}` };
    const first = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: file }, { headers }));
    expect(first.map((line: { result: string }) => line.result)).toEqual(['success', 'error']);
    for (const name of names) expect(ok(await service.call(`${P}/${name}`, { transactions: file }, { headers }))).toEqual(first);
    const other = await service.call(`${P}/apply_pnc_lockbox_payment_transactions`, { transactions: file.slice(1) }, { headers });
    expect(other.body).toMatchObject({ success: false, messages: [expect.stringMatching(/Idempotency-Key was already used for a different request/)] });
    expect(await payments(a.policyId)).toHaveLength(1);
  });
});

describe('one Idempotency-Key sent by several requests at once', () => {
  const payments = async (policyId: string) => (await history(policyId)).filter((record: { type: string }) => record.type === 'Payment');

  /** Each answer is the first one replayed, or 409 saying when to retry: never a refusal in a 200. */
  function expectReplayedOrRetryLater(answers: Array<{ status: number; body: any; headers: Headers }>) {
    const answered = answers.filter((answer) => answer.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    for (const answer of answered) expect(answer.body).toEqual(answered[0].body);
    expect(answered[0].body.success).toBe(true);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.body.success).toBe(false);
    }
  }

  it('posts one payment: the others replay its answer or are told to retry later (409, Retry-After)', async () => {
    const { policyId, policyNumber } = await issued('Connie Current');
    const headers = { 'Idempotency-Key': `pay-${crypto.randomUUID()}` };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount: '100.00' } }, { headers })),
    );
    expectReplayedOrRetryLater(answers);
    expect(await payments(policyId)).toHaveLength(1);
  });

  it('applies one lockbox file once: the others replay its answer or are told to retry later (409, Retry-After)', async () => {
    const { policyId, policyNumber } = await issued('Lenny Lockstep');
    const headers = { 'Idempotency-Key': `lockbox-${crypto.randomUUID()}` };
    const file = [{ policy: digits(policyNumber), check: '6001', payment: '851.62' }];
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, index) => service.call(`${P}/${index % 2 ? 'apply_pnc_' : 'apply_'}lockbox_payment_transactions`, { transactions: file }, { headers })),
    );
    expectReplayedOrRetryLater(answers);
    expect(answers.find((answer) => answer.status === 200)!.body.data).toEqual([{ result: 'success', detail: '' }]);
    expect(await payments(policyId)).toHaveLength(1);
  });
});

describe('many payments to one account at once', () => {
  const payments = async (policyId: string) => (await history(policyId)).filter((record: { type: string }) => record.type === 'Payment');

  it('posts 40 manual payments of 10.00 sent at once, each with its own Idempotency-Key: every one posts and the balance is exact', async () => {
    const { policyId, policyNumber } = await issued('Sid Simultaneous');
    // Every round, all the payments still to post write together, each having read the same account.
    const barrier = holdEveryRoundOfWrites(40);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount: '10.00' } }, { headers: { 'Idempotency-Key': `many-${index}-${crypto.randomUUID()}` } }),
      ),
    ).finally(() => barrier.remove());
    for (const answer of answers) ok(answer);
    const rows = await payments(policyId);
    expect(rows).toHaveLength(40);
    expect((await history(policyId))[0].balance).toBe(451.62);
    // The matchfile sees what the rows owe.
    const match = ok(await service.call(`${P}/retrieve_lockbox_matchfile_info`, {}));
    expect(match).toContainEqual(expect.objectContaining({ policy_number: digits(policyNumber), current_due_amount: 45162 }));
  });

  it('posts a lockbox file and manual payments meeting on one account, all of them', async () => {
    const { policyId, policyNumber } = await issued('Lars Meeting');
    // Each line pays at least the minimum the file found: all three post, and the account ends overpaid.
    const file = Array.from({ length: 3 }, (_, index) => ({ policy: digits(policyNumber), check: `m${index}`, payment: '900.00' }));
    const [lockbox, ...manual] = await Promise.all([
      service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: file }),
      ...Array.from({ length: 30 }, () => pay(policyNumber, '10.00')),
    ]);
    expect(ok(lockbox)).toEqual(file.map(() => ({ result: 'success', detail: '' })));
    for (const answer of manual) ok(answer);
    expect(await payments(policyId)).toHaveLength(33);
    expect((await history(policyId))[0].balance).toBe(-2148.38);
    const match = ok(await service.call(`${P}/retrieve_lockbox_matchfile_info`, {}));
    expect(match.map((line: { policy_number: string }) => line.policy_number)).not.toContain(digits(policyNumber));
  });
});

describe('retrieve_potential_policies_payors', () => {
  it('names the named insured of each policy and skips unknown numbers', async () => {
    const a = await issued('Pat Payor');
    const payors = ok(await service.call(`${P}/retrieve_potential_policies_payors`, { policy_numbers: [a.policyNumber, '10-1900-1'] }));
    expect(payors).toEqual([{ policy_id: a.policyId, policy_number: a.policyNumber, contact_id: expect.any(String), contact_name: 'Pat Payor', contact_role: 'named_insured' }]);
  });
});

describe('a payment to a policy with a long billing history', () => {
  it('reads the accounts beside the policy while they fit one page, and a term beyond that page on its own: the payment lands on the paying account either way', async () => {
    const { loadAccountsOfPolicy, ACCOUNTS_BESIDE_POLICY_ROWS } = await import('../../shared/billing/store.js');
    const { batchWriteAll } = await import('../../shared/platform/dynamo.js');
    const young = await issued('Yves Young');
    const read = await loadAccountsOfPolicy(young.policyId);
    expect(read.complete).toBe(true);
    expect([...read.accounts.values()].map((loaded) => loaded.account.policyNumber)).toEqual([young.policyNumber]);
    // A page that ends inside a term keeps none of that term.
    expect(await loadAccountsOfPolicy(young.policyId, 1)).toEqual({ accounts: new Map(), complete: false });

    // Rows of an earlier term sorting before the one in force fill more than the page read beside the policy.
    const old = await issued('Olga Old');
    const earlierTerm = '00000000-0000-4000-8000-000000000000';
    await batchWriteAll(Array.from({ length: ACCOUNTS_BESIDE_POLICY_ROWS + 5 }, (_, n) => ({
      PutRequest: { Item: { pk: `BILLING#${old.policyId}`, sk: `TERM#${earlierTerm}#ENTRY#${String(n).padStart(4, '0')}`, entity: 'AccountEntry', id: `earlier-${n}`, type: 'Invoice', date: '2025-01-01', amountCents: 100 } },
    })));
    expect((await loadAccountsOfPolicy(old.policyId)).complete).toBe(false);
    ok(await pay(old.policyNumber, '100.00'));
    const payments = (await history(old.policyId)).filter((record: { type: string }) => record.type === 'Payment');
    expect(payments.map((record: { amount: number }) => record.amount)).toEqual([-100]);
  });
});
