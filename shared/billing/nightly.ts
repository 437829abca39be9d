/**
 * Nightly billing: for one day, every account that may owe is decided on non-payment. The
 * planner (an EventBridge schedule, or `npm run nightly -- billing <date>` locally) lists
 * the accounts from the sharded account list and fans them out to the nightly-billing queue
 * in batches; the consumer decides each account of a batch. Each decision compares the
 * account's state on that day with the state the last run stored on the account, so a run
 * repeated for the same day finds nothing left to do: a second run changes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { cancelPolicy, rescindCancellation, Wired } from '../lifecycle/index.js';
import { mapLimited } from '../platform/concurrency.js';
import { nightlyDecisionInstant, nightlyBatchMessageOf, type NightlyBatchOf } from '../platform/nightly-runs.js';
import { sendInBatches } from '../platform/queue-sends.js';
import type { Principal } from '../platform/principal.js';
import { ledgerFromEntries } from './ledger.js';
import type { BillingAccount, NightlyAccountDecision, NonPaymentAction } from './model.js';
import { decideNonPayment } from './non-payment.js';
import { getPolicyWithTerms } from '../policies/index.js';
import { billingSettings } from './installment-plans.js';
import { accountPages, accountShards, countNightlyBatchDone, loadAccount, recordNightlyRun } from './store.js';
import { clock } from '../platform/clock.js';

export const NIGHTLY_JOB = 'billing';
/** Accounts per queue message: a consumer gets up to 10 messages, 1,000 accounts, well inside its minute. */
export const ACCOUNTS_PER_BATCH = 100;
/** Accounts decided at once inside one batch. */
const DECISIONS_AT_ONCE = 16;
export const NON_PAYMENT_REASON_ID = 'eb24d327-578e-4fa8-84c8-335786ee5064';

/** The caller the nightly job acts as: the service itself, reaching every policy. */
export const NIGHTLY_PRINCIPAL: Principal = {
  contactId: 'nightly-billing',
  credential: 'api_key',
  roleIds: [],
  heldRoleIds: [],
  permissions: new Set(['*']),
  agencyIds: [],
  scope: 'all',
  isAdministrator: true,
};

export type NightlyBatch = NightlyBatchOf<typeof NIGHTLY_JOB, 'accounts'>;

/** The message of the nightly-billing queue: one batch of accounts to decide. */
export const nightlyBatchMessage = nightlyBatchMessageOf(NIGHTLY_JOB, 'accounts', ACCOUNTS_PER_BATCH);

/** Whether the nightly job needs to look at an account at all: cancelled ones and ones owing nothing, with nothing pending on their term, are passed over. */
export function needsDecision(account: BillingAccount): boolean {
  if (account.policyStatus === 'Cancelled') return false;
  return account.balanceCents > 0 || account.nonPayment?.status === 'cancellation_pending' || !!account.nightlyWatch;
}

/** Plans one day's run: lists the accounts and sends them to the queue in batches. */
export async function planNightlyBilling(date: string): Promise<{ runId: string; batches: number; accounts: number }> {
  const runId = randomUUID();
  const shardAccounts = await Promise.all(
    accountShards().map(async (shard) => {
      const picked: Array<{ policyId: string; termId: string }> = [];
      for await (const page of accountPages(shard)) {
        for (const account of page) if (needsDecision(account)) picked.push({ policyId: account.policyId, termId: account.termId });
      }
      return picked;
    }),
  );
  const accounts = shardAccounts.flat();
  const batches: NightlyBatch[] = [];
  for (let start = 0; start < accounts.length; start += ACCOUNTS_PER_BATCH) {
    batches.push({ job: NIGHTLY_JOB, date, runId, batch: batches.length, accounts: accounts.slice(start, start + ACCOUNTS_PER_BATCH) });
  }
  // Recorded before the batches go out, so that the first batch done finds the run to count itself in.
  await recordNightlyRun({ job: NIGHTLY_JOB, date, runId, batches: batches.length, accounts: accounts.length, startedAt: clock.now().toISOString() });
  await sendInBatches('nightly-billing', batches.map((batch) => ({ id: String(batch.batch), body: batch })), `the batches of run ${runId}`);
  return { runId, batches: batches.length, accounts: accounts.length };
}


/** The moves the nightly job makes, wired once in shared/moves.ts and handed in by its consumer. */
export interface NightlyMoves {
  cancel: Wired<typeof cancelPolicy>;
  rescind: Wired<typeof rescindCancellation>;
}

export interface AccountOutcome {
  action: NonPaymentAction | 'cancel_requested';
  /** What the run record lists; none when nothing was done. */
  decided?: NightlyAccountDecision;
}

/**
 * Decides one account for the day and makes the move the decision needs. A pending
 * cancellation is read from the term, whoever set it (cancel_policy, or an earlier night).
 */
export async function decideAccount(ref: { policyId: string; termId: string }, date: string, moves: NightlyMoves): Promise<AccountOutcome> {
  const loaded = await loadAccount(ref.policyId, ref.termId);
  if (!loaded || loaded.account.policyStatus === 'Cancelled') return { action: 'none' };
  const { account, entries } = loaded;
  const policyNumber = account.policyNumber;
  const decision = { now: nightlyDecisionInstant(date), decidedBy: 'nightly-billing' };
  const term = (await getPolicyWithTerms(ref.policyId))?.terms.find((candidate) => candidate.id === ref.termId);
  // A cancellation cancel_policy set for a later day takes effect on that day; one for non-payment is decided below, where a payment in time saves the policy.
  if (term?.cancellationStatus === 'pending' && term.cancelPendingDate && term.cancelReasonId && term.cancelReasonId !== NON_PAYMENT_REASON_ID && term.cancelPendingDate <= date) {
    await moves.cancel(NIGHTLY_PRINCIPAL, { policyId: account.policyId, termId: account.termId, reasonId: term.cancelReasonId, cancelDate: term.cancelPendingDate }, decision);
    return { action: 'cancel_requested', decided: { policyNumber, decision: 'cancelled', cancelDate: term.cancelPendingDate } };
  }
  const settings = await billingSettings();
  const { charges, credits } = ledgerFromEntries(entries);
  const found = decideNonPayment({ charges, credits, date, rules: settings.rules, previous: account.nonPayment, expirationDate: account.expirationDate });
  if (found.action === 'none') return { action: 'none' };
  if (found.action === 'cancel') {
    await moves.cancel(NIGHTLY_PRINCIPAL, { policyId: account.policyId, termId: account.termId, reasonId: NON_PAYMENT_REASON_ID, cancelDate: found.cancelDate! }, decision);
    return { action: 'cancel', decided: { policyNumber, decision: 'cancelled', cancelDate: found.cancelDate! } };
  }
  if (found.action === 'notify_cancellation_pending') {
    await moves.cancel(
      NIGHTLY_PRINCIPAL,
      {
        policyId: account.policyId,
        termId: account.termId,
        reasonId: NON_PAYMENT_REASON_ID,
        cancelPendingDate: found.cancelDate!,
        unpaidChargeId: found.chargeId,
        summary: `Unpaid on its due date: pending cancellation for non-payment effective ${found.cancelDate}; Notice of Cancellation requested`,
      },
      decision,
    );
    const dueDate = charges.find((charge) => charge.id === found.chargeId)?.dueDate;
    return { action: found.action, decided: { policyNumber, decision: 'pending', cancelDate: found.cancelDate!, ...(dueDate ? { dueDate } : {}) } };
  }
  await moves.rescind(NIGHTLY_PRINCIPAL, { policyId: account.policyId, termId: account.termId, reasonId: NON_PAYMENT_REASON_ID, summary: 'Balance paid: the pending cancellation for non-payment is rescinded' }, decision);
  return { action: found.action, decided: { policyNumber, decision: 'rescinded' } };
}

/** Decides every account of one batch; answers how many took each action. */
export async function decideNightlyBatch(batch: NightlyBatch, moves: NightlyMoves): Promise<Record<string, number>> {
  const failures: unknown[] = [];
  const actions = await mapLimited(batch.accounts, DECISIONS_AT_ONCE, async (ref) => {
    try {
      return await decideAccount(ref, batch.date, moves);
    } catch (error) {
      // The others are still decided; the batch then fails and is retried whole, which redoes nothing already done.
      failures.push(error);
      return { action: 'failed' as const };
    }
  });
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of ${batch.accounts.length} accounts of nightly batch ${batch.batch} failed`);
  const counts: Record<string, number> = {};
  for (const { action } of actions) counts[action] = (counts[action] ?? 0) + 1;
  const decided = actions.flatMap((outcome) => ('decided' in outcome && outcome.decided ? [outcome.decided] : []));
  await countNightlyBatchDone(batch.job, batch.date, batch.runId, decided);
  return counts;
}
