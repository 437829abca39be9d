import { nightlyRunKey } from '../../shared/platform/nightly-runs.js';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_LIST_SHARDS,
  accountByTermQuery,
  accountIndexAttributes,
  accountKey,
  lockboxDueKey,
  lockboxDueQuery,
  LOCKBOX_DUE_SHARDS,
  accountListQuery,
  accountQuery,
  accountsOfPolicyQuery,
  accountShard,
  checkKey,
  entryKey,
  lockboxNumberKey,
  paymentLocatorKey,
  termIdOfRow,
} from '../../shared/billing/keys.js';
import { postingWrites } from '../../shared/billing/store.js';
import type { BillingAccount } from '../../shared/billing/model.js';

const POLICY = '6a1f0c2e-1111-4222-8333-944455556666';
const TERM = '7b2f0c2e-1111-4222-8333-944455556666';

describe('billing keys', () => {
  it("keeps a term's account, its rows and the policy's posted checks in the policy's billing partition", () => {
    expect(accountKey(POLICY, TERM)).toEqual({ pk: `BILLING#${POLICY}`, sk: `TERM#${TERM}#ACCOUNT` });
    expect(entryKey(POLICY, TERM, 'e1')).toEqual({ pk: `BILLING#${POLICY}`, sk: `TERM#${TERM}#ENTRY#e1` });
    expect(checkKey(POLICY, '1001')).toEqual({ pk: `BILLING#${POLICY}`, sk: 'CHECK#1001' });
    // A row names its term: the account record and a history row alike.
    expect(termIdOfRow(accountKey(POLICY, TERM).sk)).toBe(TERM);
    expect(termIdOfRow(entryKey(POLICY, TERM, 'e1').sk)).toBe(TERM);
    expect(accountQuery('T', POLICY, TERM)).toEqual({
      TableName: 'T',
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :term)',
      ExpressionAttributeValues: { ':pk': `BILLING#${POLICY}`, ':term': `TERM#${TERM}#` },
      ConsistentRead: true,
    });
    // Every term's accounts and rows, never the partition's checks.
    expect(accountsOfPolicyQuery('T', POLICY)).toEqual({
      TableName: 'T',
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :term)',
      ExpressionAttributeValues: { ':pk': `BILLING#${POLICY}`, ':term': 'TERM#' },
      ConsistentRead: true,
    });
  });

  it('finds a payment, a lockbox number, a term and a nightly run by their own keys', () => {
    expect(paymentLocatorKey('p1')).toEqual({ pk: 'PAYMENT#p1', sk: 'PAYMENT' });
    expect(lockboxNumberKey('1020267')).toEqual({ pk: 'LOCKBOX#1020267', sk: 'LOCKBOX' });
    expect(nightlyRunKey('billing', '2026-05-01', 'r1')).toEqual({ pk: 'NIGHTLY#billing', sk: 'RUN#2026-05-01#r1' });
    expect(accountByTermQuery('T', TERM)).toEqual({ TableName: 'T', IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `BILLINGTERM#${TERM}` } });
  });

  it('spreads the account list over 8 index partitions by a stable hash of the policy id', () => {
    const shard = accountShard(POLICY);
    expect(shard).toBe(accountShard(POLICY));
    expect(shard).toBeGreaterThanOrEqual(0);
    expect(shard).toBeLessThan(ACCOUNT_LIST_SHARDS);
    expect(accountIndexAttributes(POLICY, TERM)).toEqual({ gsi1pk: `BILLINGTERM#${TERM}`, gsi1sk: POLICY, gsi2pk: `BILLINGACCOUNTS#${shard}`, gsi2sk: `${POLICY}#${TERM}` });
    expect(accountListQuery('T', 3)).toEqual({ TableName: 'T', IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': 'BILLINGACCOUNTS#3' } });
    const used = new Set(Array.from({ length: 400 }, (_, index) => accountShard(`policy-${index}`)));
    expect(used.size).toBe(ACCOUNT_LIST_SHARDS);
  });
});

describe('lockbox-due keys', () => {
  it("puts an owing account's record in its policy's shard, sorted by lockbox number then policy and term, and reads a shard from after a key", () => {
    const key = lockboxDueKey({ policyId: POLICY, termId: TERM, lockboxNumber: '1020267' });
    expect(key.pk).toMatch(new RegExp(`^LOCKBOXDUE#[0-${LOCKBOX_DUE_SHARDS - 1}]$`));
    expect(lockboxDueKey({ policyId: POLICY, termId: 'another term', lockboxNumber: '1020267' }).pk).toBe(key.pk);
    expect(key.sk).toBe(`1020267#${POLICY}#${TERM}`);
    expect(lockboxDueQuery('T', 3)).toEqual({ TableName: 'T', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'LOCKBOXDUE#3' } });
    expect(lockboxDueQuery('T', 3, 'k')).toEqual({ TableName: 'T', KeyConditionExpression: 'pk = :pk AND sk > :after', ExpressionAttributeValues: { ':pk': 'LOCKBOXDUE#3', ':after': 'k' } });
  });
});

describe('a posting', () => {
  const account = { policyId: POLICY, termId: TERM, policyNumber: '10-2026-7', lockboxNumber: '1020267', balanceCents: 1000, version: 4 } as BillingAccount;
  const entry = { id: 'e1', type: 'Payment', date: '2026-03-02', amountCents: -1000 } as never;

  it('moves the balance by the sum of its rows and raises the version, always under the version read (its lockbox-due record is computed from the rows read)', () => {
    process.env.TABLE_NAME = 'T';
    const [update, put, check, locator, due] = postingWrites({ account, prior: { entries: [] }, entries: [entry], holdChecks: ['1001'], locatePayments: ['e1'] }) as Array<Record<string, any>>;
    expect(update.Update).toMatchObject({
      Key: accountKey(POLICY, TERM),
      UpdateExpression: 'ADD #balance :delta, #version :one',
      ConditionExpression: 'attribute_exists(pk) AND #version = :expected',
      ExpressionAttributeValues: { ':delta': -1000, ':one': 1, ':expected': 4 },
    });
    // Paid to 0: the account owes nothing, its lockbox-due record goes.
    expect(due.Delete).toMatchObject({ Key: lockboxDueKey(account) });
    expect(put.Put).toMatchObject({ Item: { ...entryKey(POLICY, TERM, 'e1'), entity: 'AccountEntry' }, ConditionExpression: 'attribute_not_exists(pk)' });
    expect(check.Put).toMatchObject({ Item: checkKey(POLICY, '1001'), ConditionExpression: 'attribute_not_exists(pk)' });
    expect(locator.Put).toMatchObject({ Item: { ...paymentLocatorKey('e1'), policyId: POLICY, termId: TERM } });
    // The books count what the payment collected, in the month of its date (shared/books), after billing's own writes.
    expect(JSON.stringify(postingWrites({ account, prior: { entries: [] }, entries: [entry] }).slice(3))).toMatch(/2026-03/);
    const [guarded] = postingWrites({ account, prior: { entries: [] }, entries: [], guardVersion: true, set: { policyStatus: 'Cancelled' } }) as Array<Record<string, any>>;
    expect(guarded.Update).toMatchObject({
      UpdateExpression: 'ADD #balance :delta, #version :one SET #s0 = :s0',
      ConditionExpression: 'attribute_exists(pk) AND #version = :expected',
      ExpressionAttributeValues: { ':delta': 0, ':expected': 4, ':s0': 'Cancelled' },
    });
  });
});
