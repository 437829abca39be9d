/**
 * The migration step that gives accounts written before the lockbox-due records their record
 * (and the `laterTermId` of a term whose renewal has an account): walks the account list once,
 * writes each owing or renewed account's record as a posting with no rows would (under the
 * account's version, so a concurrent posting, which writes its own record, is never overwritten:
 * the account is read again and the step retried), then records that it is done, so later starts
 * cost one read. Run by the local bootstrap and, in AWS, once by infra/migrations/backfill-lockbox-dues.ts.
 */
import { ConcurrentChangeError } from '../platform/errors.js';
import type { BillingAccount } from './model.js';
import { accountPages, accountShards, billingMigrationDone, loadAccount, markBillingMigrationDone, writePosting } from './store.js';

export const LOCKBOX_DUES_MIGRATION = 'lockbox-dues-v1';
const ATTEMPTS = 5;

/** Of one policy's accounts, the term each is renewed by (the next by effective date), if any. */
export function laterTermsOf(accounts: readonly BillingAccount[]): Map<string, string | undefined> {
  const inOrder = [...accounts].sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
  return new Map(inOrder.map((account, index) => [account.termId, inOrder[index + 1]?.termId]));
}

/** Writes the lockbox-due records the table lacks; answers how many accounts it wrote (0 once done, unless `force`). */
export async function backfillLockboxDues(options: { force?: boolean } = {}): Promise<{ accounts: number; written: number }> {
  if (!options.force && (await billingMigrationDone(LOCKBOX_DUES_MIGRATION))) return { accounts: 0, written: 0 };
  const byPolicy = new Map<string, BillingAccount[]>();
  let accounts = 0;
  for (const shard of accountShards()) {
    for await (const page of accountPages(shard)) {
      for (const account of page) {
        accounts += 1;
        byPolicy.set(account.policyId, [...(byPolicy.get(account.policyId) ?? []), account]);
      }
    }
  }
  let written = 0;
  for (const policyAccounts of byPolicy.values()) {
    for (const [termId, laterTermId] of laterTermsOf(policyAccounts)) {
      const listed = policyAccounts.find((account) => account.termId === termId)!;
      if (listed.balanceCents <= 0 && (!laterTermId || listed.laterTermId === laterTermId)) continue;
      for (let attempt = 1; ; attempt += 1) {
        const loaded = await loadAccount(listed.policyId, termId);
        if (!loaded) break;
        try {
          await writePosting({ account: loaded.account, prior: loaded, entries: [], guardVersion: true, ...(laterTermId ? { set: { laterTermId } } : {}) });
          written += 1;
          break;
        } catch (error) {
          if (!(error instanceof ConcurrentChangeError) || attempt >= ATTEMPTS) throw error;
        }
      }
    }
  }
  await markBillingMigrationDone(LOCKBOX_DUES_MIGRATION, { accounts, written });
  return { accounts, written };
}
