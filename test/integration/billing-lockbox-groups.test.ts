/**
 * Lockbox postings of several policies share one transaction (shared/billing/service.ts
 * applyLockboxTransactions). When the shared one fails, nothing of it was written and each policy
 * is posted alone: one policy changed meanwhile or one check posted meanwhile never fails its
 * neighbours, and each line is answered as a file of that line alone would answer it.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lockboxDueKey } from '../../shared/billing/keys.js';
import { lockboxDueOf } from '../../shared/billing/lockbox.js';
import { applyLockboxTransactions } from '../../shared/billing/lockbox-application.js';
import { loadAccount } from '../../shared/billing/store.js';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { todayIso } from '../../shared/platform/dates.js';
import { issuedForLockbox } from '../support/lockbox-files.js';
import { afterRead } from '../support/lockbox-after-read.js';
import { BILLING_SCHEDULE } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

vi.mock('../../shared/billing/store.js', async (importOriginal) => (await import('../support/lockbox-after-read.js')).storeWithAfterRead(await importOriginal()));

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

/** The reference product's Monthly schedule: ten installments, the first billed at issue. */
const MONTHLY = BILLING_SCHEDULE.MONTHLY;
const account = async (policy: { policyId: string; termId: string }) => (await loadAccount(policy.policyId, policy.termId))!;
const payments = async (policy: { policyId: string; termId: string }) => (await account(policy)).entries.filter((entry) => entry.type === 'Payment');
/** The account's lockbox-due record as stored, and as its rows give it. */
const dueRecords = async (policy: { policyId: string; termId: string }) => {
  const loaded = await account(policy);
  const stored = (await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: lockboxDueKey(loaded.account), ConsistentRead: true }))).Item;
  const { pk: _pk, sk: _sk, entity: _entity, accountVersion, ...due } = stored ?? {};
  return { stored: stored ? due : null, fromRows: lockboxDueOf(loaded.account, loaded.entries), accountVersion, version: loaded.account.version };
};

describe('lockbox postings sharing a transaction', () => {
  it('posts the others and retries the one whose account changed after the file read it, as a file of that line alone would', async () => {
    const [first, changed, third] = await Promise.all(['Gus Group', 'Hal Group', 'Ida Group'].map((name) => issuedForLockbox(service, name)));
    const before = (await account(changed)).account.balanceCents;
    // A manual payment lands on the second policy between the file's reads and its postings.
    afterRead.once = async () => {
      ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: changed.policyNumber, amount: '100.00' } }));
    };
    const results = await applyLockboxTransactions([
      { policy: first.number, check: 'g1', payment: '851.62' },
      { policy: changed.number, check: 'h1', payment: '851.62' },
      { policy: third.number, check: 'i1', payment: '851.62' },
    ]);
    expect(afterRead.once).toBeUndefined();
    expect(results).toEqual([{ result: 'success', detail: '' }, { result: 'success', detail: '' }, { result: 'success', detail: '' }]);
    // Both payments on the changed account, each once (overpaid by the manual one): its lockbox-due record is gone, as its rows say.
    expect((await account(changed)).account.balanceCents).toBe(before - 10000 - 85162);
    expect((await payments(changed)).map((entry) => entry.checkNumber ?? 'manual').sort()).toEqual(['h1', 'manual']);
    expect(await dueRecords(changed)).toMatchObject({ stored: null, fromRows: null });
    for (const policy of [first, third]) {
      expect((await account(policy)).account.balanceCents).toBe(0);
      expect((await payments(policy)).map((entry) => entry.checkNumber)).toHaveLength(1);
      expect((await dueRecords(policy)).stored).toBeNull();
    }
    // The same file again: every check is already posted, nothing moves.
    const again = await applyLockboxTransactions([
      { policy: first.number, check: 'g1', payment: '851.62' },
      { policy: changed.number, check: 'h1', payment: '851.62' },
      { policy: third.number, check: 'i1', payment: '851.62' },
    ]);
    expect(again.map((line) => line.result)).toEqual(['error', 'error', 'error']);
    expect(again[1].detail).toBe(`Check h1 was already posted to policy ${changed.policyNumber}`);
    expect((await account(changed)).account.balanceCents).toBe(before - 10000 - 85162);
  }, 120_000);

  it('answers a check posted meanwhile on its own line and posts the rest of the shared transaction', async () => {
    const [taken, second, third] = await Promise.all(['Jo Group', 'Kai Group', 'Lu Group'].map((name) => issuedForLockbox(service, name)));
    const before = (await account(taken)).account.balanceCents;
    // Another request posts check k7 to the first policy between the file's reads and its postings.
    afterRead.once = async () => {
      await documentClient().send(
        new PutCommand({ TableName: config.tableName(), Item: { pk: `BILLING#${taken.policyId}`, sk: 'CHECK#k7', entity: 'PostedCheck', checkNumber: 'k7', termId: taken.termId } }),
      );
    };
    const results = await applyLockboxTransactions([
      { policy: taken.number, check: 'k7', payment: '851.62' },
      { policy: second.number, check: 'k7', payment: '851.62' },
      { policy: third.number, check: 'm1', payment: '851.62' },
    ]);
    expect(results).toEqual([
      { result: 'error', detail: `Check k7 was already posted to policy ${taken.policyNumber}` },
      { result: 'success', detail: '' },
      { result: 'success', detail: '' },
    ]);
    expect((await account(taken)).account.balanceCents).toBe(before);
    expect(await payments(taken)).toEqual([]);
    for (const policy of [second, third]) expect((await account(policy)).account.balanceCents).toBe(0);
  }, 120_000);

  it('keeps the lockbox-due record of an account still owing as its rows give it, under the version it was written with', async () => {
    // Billed Monthly: the file pays the first installment and the account still owes the rest.
    const monthly = await issueWorkedExample(service, 'Mo Group', todayIso(), { billingScheduleId: MONTHLY });
    const owing = { policyId: monthly.policyId, termId: monthly.termId };
    const other = await issuedForLockbox(service, 'Ned Group');
    const before = (await account(owing)).account.balanceCents;
    const results = await applyLockboxTransactions([
      { policy: monthly.policyNumber.replace(/\D/g, ''), check: 'n1', payment: '107.66' },
      { policy: other.number, check: 'n2', payment: '851.62' },
    ]);
    expect(results.map((line) => line.result)).toEqual(['success', 'success']);
    expect((await account(owing)).account.balanceCents).toBe(before - 10766);
    const due = await dueRecords(owing);
    expect(due.stored).not.toBeNull();
    expect(due.stored).toEqual(due.fromRows);
    expect(due.accountVersion).toBe(due.version);
    // The same check in a later file, judged from that record and the check's own record: already posted.
    const next = await applyLockboxTransactions([{ policy: monthly.policyNumber.replace(/\D/g, ''), check: 'n1', payment: '107.66' }]);
    expect(next).toEqual([{ result: 'error', detail: `Check n1 was already posted to policy ${monthly.policyNumber}` }]);
  }, 120_000);
});
