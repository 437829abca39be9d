/**
 * Applying a lockbox file (apply_lockbox_payment_transactions, and each chunk of a large file),
 * in named steps: the accounts its lines name are read (readAccountsOfFile), every line is judged
 * by the one rule (decideLockboxTransactions), the accepted payments are cut into postings per
 * policy (postingsPerPolicy) and posted (postFile): policies with one posting share transactions
 * (groupSinglePostings), a policy with several posts them one after another, and a policy whose
 * payments are joined by other areas (commission earned as collected: shared/moves/payment.ts)
 * posts each payment alone with its joins, as a manual payment is posted. A file applied
 * within the call keeps each line's answer (applyLockboxFile), so a file sent again answers as it
 * did the first time.
 */
import { noteOf } from '../notes/index.js';
import { clock } from '../platform/clock.js';
import { ConcurrentChangeError } from '../platform/errors.js';
import { mapLimited } from '../platform/concurrency.js';
import { todayIso } from '../platform/dates.js';
import { recordMoneyMove } from '../platform/metrics.js';
import { formatCents, sum } from '../platform/money.js';
import { TRANSACTION_ITEM_LIMIT, type TransactionWrite } from '../platform/transactions.js';
import { paymentEntry } from './account-history.js';
import { decideLockboxTransactions, lockboxAccount, lockboxCheckOf, lockboxNumberOf, MAX_CHECK_NUMBER_LENGTH, rowsOfLockboxDue, statusOf, type LockboxAccount, type LockboxDecision } from './lockbox.js';
import type { BillingAccount, LockboxTransactionResult, PaymentJoin, PostedPayment } from './model.js';
import { payingAccount, paymentPostedEvent } from './payments.js';
import { refundOwedWrites } from './refund-owed.js';
import { billingSettings } from './installment-plans.js';
import { entryContext, instant } from './posting-context.js';
import {
  accountRefsByLockboxNumber,
  CheckAlreadyPostedError,
  keepLockboxRefusals,
  keptLockboxAnswers,
  loadAccount,
  lockboxSuccessesWrite,
  postingWrites,
  readLockboxAccounts,
  writePosting,
  writePostingsTogether,
  type LoadedAccount,
  type Posting,
} from './store.js';

const LOCKBOX_READS_AT_ONCE = 64;
const LOCKBOX_POSTINGS_AT_ONCE = 64;
/**
 * Shared transactions of several policies' postings in flight at once (each up to 100 writes), per
 * file or chunk: chunks run side by side, and on DynamoDB Local (which writes them one after
 * another) more in flight only spent more of its CPU on each payment (test/bench/lockbox-bound.ts).
 */
const LOCKBOX_GROUPS_AT_ONCE = 2;
/**
 * A lockbox payment writes its row, its check number, its locator and its event; a posting its
 * account, lockbox-due record and note, (a file applied in chunks) one item of its lines' answers, and the books' month
 * aggregate and its marker (shared/books: a posting's payments of one deposit day land on one item): 23 × 4 + 4 + 2 ≤ 100.
 */
const LOCKBOX_PAYMENTS_PER_POSTING = 23;
/** Tries of a posting with a refund or joins whose account (or joined record) another posting changed meanwhile. */
const GUARDED_POSTING_ATTEMPTS = 10;

/** One account per policy: the one its payments go to (payingAccount). */
function latestPerPolicy(accounts: readonly BillingAccount[]): BillingAccount[] {
  const byPolicy = new Map<string, BillingAccount[]>();
  for (const account of accounts) byPolicy.set(account.policyId, [...(byPolicy.get(account.policyId) ?? []), account]);
  return [...byPolicy.values()].map((candidates) => payingAccount(candidates));
}

/** What an application of lines does beside posting them. */
export interface LockboxApplication {
  /**
   * Writes that record the success of the given lines (their index in `transactions`), handed to
   * the transaction that posts them (once per transaction, with all its lines): a file applied in
   * chunks keeps each line's answer with its money, so a chunk interrupted and delivered again
   * answers exactly what it answered the first time.
   */
  recordSuccess?: (lines: readonly number[]) => TransactionWrite[];
  /** The areas joined to a payment (wired in shared/moves/payment.ts): each payment they may join is posted alone, their writes in its transaction. */
  joins?: readonly PaymentJoin[];
}

/**
 * apply_lockbox_payment_transactions (and each chunk of a large file): one result per transaction,
 * in order. The accounts are read in a few BatchGetItem calls (readLockboxAccounts), every line is
 * judged by the one rule (decideLockboxTransactions), and accepted payments are posted a posting per
 * policy (up to 24 payments), each holding its check numbers: the postings of several policies share
 * a transaction, and when it fails each is posted alone, where a check that another request posted
 * meanwhile answers `error` on its line and the rest of that policy's posting is posted again.
 */
export async function applyLockboxTransactions(transactions: readonly unknown[], now = clock.now(), application: LockboxApplication = {}): Promise<LockboxTransactionResult[]> {
  const today = todayIso(now);
  const { accounts, loadedByNumber } = await readAccountsOfFile(transactions, today);
  const decisions = decideLockboxTransactions(transactions, accounts);
  const file: FilePosting = { decisions, results: decisions.map((decision) => decision.outcome), now, today, at: instant(now), application };
  await postFile(file, postingsPerPolicy(decisions), loadedByNumber);
  return file.results;
}

/**
 * The accounts a file's lines name, as the rules judge them (LockboxAccount), and each as the
 * postings start from, by policy number. The accounts are read in a few BatchGetItem calls with
 * the checks the lines name; an account is judged and posted from its lockbox-due record (what its
 * rows owe) with the checks posted to its term; one without a record of the version read (or
 * owing nothing) is read whole.
 */
async function readAccountsOfFile(transactions: readonly unknown[], today: string): Promise<{ accounts: LockboxAccount[]; loadedByNumber: Map<string, LoadedAccount> }> {
  const numbers = [...new Set(transactions.map(lockboxNumberOf).filter(Boolean))];
  const refsByNumber = await accountRefsByLockboxNumber(numbers);
  const refs = [...refsByNumber].flatMap(([lockboxNumber, found]) => found.map((ref) => ({ ...ref, lockboxNumber })));
  // The checks the lines name, on every policy their number reaches: whether each is posted, and to which term.
  const checks = transactions.flatMap((transaction) => {
    const checkNumber = lockboxCheckOf(transaction);
    if (!checkNumber || checkNumber.length > MAX_CHECK_NUMBER_LENGTH) return [];
    return (refsByNumber.get(lockboxNumberOf(transaction)) ?? []).map((ref) => ({ policyId: ref.policyId, checkNumber }));
  });
  const read = await readLockboxAccounts(refs, checks);
  const paying = new Set(latestPerPolicy(read.accounts.map((found) => found.account)));
  const judged = await mapLimited(
    read.accounts.filter((found) => paying.has(found.account)),
    LOCKBOX_READS_AT_ONCE,
    async ({ account, due }): Promise<{ loaded: LoadedAccount; postedChecks?: string[] } | undefined> => {
      if (!due) {
        const loaded = await loadAccount(account.policyId, account.termId);
        return loaded && { loaded };
      }
      const postedChecks = (read.postedChecks.get(account.policyId) ?? []).filter((check) => check.termId === account.termId).map((check) => check.checkNumber);
      return { loaded: { account, entries: rowsOfLockboxDue(due), voided: [] }, postedChecks };
    },
  );
  const loadedByNumber = new Map<string, LoadedAccount>();
  const accounts = judged
    .filter((found): found is NonNullable<typeof found> => !!found)
    .map(({ loaded, postedChecks }) => {
      loadedByNumber.set(loaded.account.policyNumber, loaded);
      const account = lockboxAccount({ policyNumber: loaded.account.policyNumber, policyStatus: statusOf(loaded.account, today) }, loaded.entries, today);
      return postedChecks ? { ...account, postedChecks } : account;
    });
  return { accounts, loadedByNumber };
}

/** The accepted lines of each policy, in file order, cut into postings of at most LOCKBOX_PAYMENTS_PER_POSTING. */
function postingsPerPolicy(decisions: readonly LockboxDecision[]): Map<string, number[][]> {
  const perPolicy = new Map<string, number[]>();
  decisions.forEach((decision, index) => {
    if (!decision.payment) return;
    const lines = perPolicy.get(decision.payment.policyNumber);
    if (lines) lines.push(index);
    else perPolicy.set(decision.payment.policyNumber, [index]);
  });
  const chunksPerPolicy = new Map<string, number[][]>();
  for (const [policyNumber, lines] of perPolicy) {
    const policyChunks: number[][] = [];
    for (let start = 0; start < lines.length; start += LOCKBOX_PAYMENTS_PER_POSTING) policyChunks.push(lines.slice(start, start + LOCKBOX_PAYMENTS_PER_POSTING));
    chunksPerPolicy.set(policyNumber, policyChunks);
  }
  return chunksPerPolicy;
}

/** A file being posted: its lines' decisions, their answers so far (a check posted meanwhile changes one), and when. */
interface FilePosting {
  decisions: readonly LockboxDecision[];
  results: LockboxTransactionResult[];
  now: Date;
  today: string;
  /** The instant of the file's notes. */
  at: string;
  application: LockboxApplication;
}

/**
 * Whether the areas joined to a payment may write with this account's payments (BillingAccount
 * paymentsJoined; an account without an agency never joins). Read from the account the file
 * already read: an account that does not join costs no read more.
 */
const joinsPayments = (file: FilePosting, account: BillingAccount) => !!file.application.joins?.length && !!account.agencyId && account.paymentsJoined !== false;

/** A posted payment as the areas joined to it see it (a manual payment's shape). */
const postedPayment = (account: BillingAccount, entry: { id: string; amountCents: number; date: string; postedAt: string }): PostedPayment => ({
  policyId: account.policyId, termId: account.termId, policyNumber: account.policyNumber, agencyId: account.agencyId, paymentId: entry.id, amountCents: -entry.amountCents, date: entry.date, postedAt: entry.postedAt,
});

/** The posting of some of the lines of one policy on its account as `state` holds it; with their answers unless the shared transaction records them. */
function lockboxPosting(file: FilePosting, state: LoadedAccount, lines: readonly number[], answers = true, refund: readonly TransactionWrite[] = [], firstOffset = 0): Posting {
  const { account } = state;
  const entries = lines.map((line, offset) => {
    const payment = file.decisions[line].payment!;
    return paymentEntry(entryContext('lockbox', statusOf(account, file.today), instant(file.now, firstOffset + offset)), { date: file.today, amountCents: payment.amountCents, checkNumber: payment.checkNumber });
  });
  const total = sum(entries.map((entry) => -entry.amountCents));
  const note = noteOf({
    policyId: account.policyId, termId: account.termId, createdBy: 'lockbox', createdAt: file.at, agencyId: account.agencyId, contactIds: account.contactIds,
    text: `Lockbox: ${entries.length} payment${entries.length === 1 ? '' : 's'} of ${formatCents(total)} posted (check ${entries.map((entry) => entry.checkNumber).join(', ')})`,
  });
  return {
    account,
    prior: state,
    entries,
    holdChecks: entries.map((entry) => entry.checkNumber!),
    locatePayments: entries.map((entry) => entry.id),
    handed: [note, ...entries.map((entry) => paymentPostedEvent(account, entry)), ...((answers && file.application.recordSuccess?.(lines)) || []), ...refund],
    // A refund is worked from the credit the payments leave on the balance read: written under that balance's version.
    ...(refund.length ? { guardVersion: true } : {}),
  };
}

/** The joined areas' writes for a posting's payments (a posting with joins carries one payment), under the account's version. */
async function withJoins(file: FilePosting, posting: Posting): Promise<Posting> {
  if (!joinsPayments(file, posting.account)) return posting;
  const joins = file.application.joins!;
  const joined = (await Promise.all(posting.entries.flatMap((entry) => joins.map((join) => join(postedPayment(posting.account, entry)))))).flat();
  return joined.length ? { ...posting, handed: [...(posting.handed ?? []), ...joined], guardVersion: true } : posting;
}

/** What lines of one policy pay in all (positive cents). */
const paidBy = (file: FilePosting, lines: readonly number[]) => sum(lines.map((line) => file.decisions[line].payment!.amountCents));

/** Whether lines leave a credit on the account that may be refunded (above the threshold): such a policy is posted alone. */
const mayOverpay = (file: FilePosting, state: LoadedAccount, lines: readonly number[], thresholdCents: number) => paidBy(file, lines) - state.account.balanceCents > thresholdCents;

/** The refund the credit lines leave owes, if any (a payment above what the term owes, as a manual payment's). */
async function lockboxRefund(file: FilePosting, state: LoadedAccount, lines: readonly number[]): Promise<TransactionWrite[]> {
  const paid = paidBy(file, lines);
  const creditCents = paid - state.account.balanceCents;
  if (creditCents <= 0) return [];
  return refundOwedWrites({
    account: state.account,
    creditCents,
    reason: `Overpayment: lockbox payment of ${formatCents(paid)} on ${file.today} above the ${formatCents(Math.max(0, state.account.balanceCents))} owed`,
    date: file.today,
    createdAt: instant(file.now, lines.length + 1),
  });
}

/**
 * Posts lines of one policy alone (writePosting): a check another request posted meanwhile answers
 * `error` on its line and the rest is posted again. `firstOffset` orders the payments of a policy
 * posted one by one (its joined payments) as one posting of them would.
 */
async function postAlone(file: FilePosting, state: LoadedAccount, lines: readonly number[], firstOffset = 0): Promise<LoadedAccount> {
  let pending = lines;
  let changedMeanwhile = 0;
  while (pending.length > 0) {
    const refund = await lockboxRefund(file, state, pending);
    const posting = await withJoins(file, lockboxPosting(file, state, pending, true, refund, firstOffset));
    try {
      const after = await writePosting(posting);
      await recordMoneyMove('PaymentsPosted', pending.length);
      return after;
    } catch (error) {
      // A refund or a join is written under what it was worked from (the balance, the joined record): either changed meanwhile (another chunk, a manual payment), read again.
      if (posting.guardVersion && error instanceof ConcurrentChangeError && !(error instanceof CheckAlreadyPostedError) && changedMeanwhile < GUARDED_POSTING_ATTEMPTS) {
        changedMeanwhile += 1;
        state = (await loadAccount(state.account.policyId, state.account.termId)) ?? state;
        continue;
      }
      if (!(error instanceof CheckAlreadyPostedError)) throw error;
      const line = pending.find((candidate) => file.decisions[candidate].payment!.checkNumber === error.checkNumber)!;
      file.results[line] = { result: 'error', detail: error.messages[0] };
      pending = pending.filter((candidate) => candidate !== line);
    }
  }
  return state;
}

type SharedGroup = Array<{ state: LoadedAccount; lines: number[]; posting: Posting }>;

/**
 * A policy with one posting (most of a file: a check or a few per policy) shares a transaction with
 * other such policies, up to DynamoDB's 100 writes; policies with several postings are answered apart.
 */
function groupSinglePostings(file: FilePosting, chunksPerPolicy: ReadonlyMap<string, number[][]>, loadedByNumber: ReadonlyMap<string, LoadedAccount>): { groups: SharedGroup[]; several: Array<[string, number[][]]> } {
  const groups: SharedGroup[] = [];
  let group: SharedGroup = [];
  // The shared transaction's answers item, when the lines' answers are recorded.
  // And one kept for the books: the guards of a file's landings in an ended month (one per fence
  // shard, at most one per posting) outnumber the month markers merged away by at most one.
  const answersWrites = (file.application.recordSuccess ? 1 : 0) + 1;
  let writes = answersWrites;
  const several: Array<[string, number[][]]> = [];
  for (const [policyNumber, policyChunks] of chunksPerPolicy) {
    if (policyChunks.length > 1) {
      several.push([policyNumber, policyChunks]);
      continue;
    }
    const state = loadedByNumber.get(policyNumber)!;
    const posting = lockboxPosting(file, state, policyChunks[0], false);
    const count = postingWrites(posting).length;
    if (writes + count > TRANSACTION_ITEM_LIMIT && group.length > 0) {
      groups.push(group);
      group = [];
      writes = answersWrites;
    }
    group.push({ state, lines: policyChunks[0], posting });
    writes += count;
  }
  if (group.length > 0) groups.push(group);
  return { groups, several };
}

/**
 * Posts a file's postings. When a shared transaction fails (an account changed since it was read,
 * a check posted meanwhile), nothing was written and each of its postings is posted alone, so
 * every line is answered as it would be alone.
 */
async function postFile(file: FilePosting, chunksPerPolicy: ReadonlyMap<string, number[][]>, loadedByNumber: ReadonlyMap<string, LoadedAccount>): Promise<void> {
  // A policy whose payments may leave a refundable credit is posted alone, its refund worked out in its transaction.
  const thresholdCents = (await billingSettings()).refundThresholdCents;
  // A policy whose payments are joined posts each payment alone with its joins, one after another (a manual payment's posting, each).
  const joined = new Map([...chunksPerPolicy].filter(([policyNumber]) => joinsPayments(file, loadedByNumber.get(policyNumber)!.account)));
  const overpaying = new Map([...chunksPerPolicy].filter(([policyNumber, policyChunks]) => !joined.has(policyNumber) && mayOverpay(file, loadedByNumber.get(policyNumber)!, policyChunks.flat(), thresholdCents)));
  const { groups, several } = groupSinglePostings(file, new Map([...chunksPerPolicy].filter(([policyNumber]) => !overpaying.has(policyNumber) && !joined.has(policyNumber))), loadedByNumber);
  // One payment fewer per posting than usual: its refund's two writes fit the transaction.
  const fewer = LOCKBOX_PAYMENTS_PER_POSTING - 1;
  several.push(...[...overpaying].map(([policyNumber, policyChunks]): [string, number[][]] => {
    const policyLines = policyChunks.flat();
    return [policyNumber, Array.from({ length: Math.ceil(policyLines.length / fewer) }, (_, index) => policyLines.slice(index * fewer, (index + 1) * fewer))];
  }));
  await Promise.all([
    mapLimited(groups, LOCKBOX_GROUPS_AT_ONCE, async (members) => {
      const lines = members.flatMap((member) => member.lines);
      if (members.length > 1 && (await writePostingsTogether(members.map((member) => member.posting), file.application.recordSuccess?.(lines) ?? []))) {
        await recordMoneyMove('PaymentsPosted', sum(members.map((member) => member.lines.length)));
        return;
      }
      await mapLimited(members, LOCKBOX_POSTINGS_AT_ONCE, (member) => postAlone(file, member.state, member.lines));
    }),
    // One policy's postings one after another (each writes its account's lockbox-due record under
    // the version the one before left); different policies in parallel.
    mapLimited(several, LOCKBOX_POSTINGS_AT_ONCE, async ([policyNumber, policyChunks]) => {
      let state = loadedByNumber.get(policyNumber)!;
      for (const lines of policyChunks) state = await postAlone(file, state, lines);
    }),
    mapLimited([...joined], LOCKBOX_POSTINGS_AT_ONCE, async ([policyNumber, policyChunks]) => {
      let state = loadedByNumber.get(policyNumber)!;
      const policyLines = policyChunks.flat();
      for (const [offset, line] of policyLines.entries()) state = await postAlone(file, state, [line], offset);
    }),
  ]);
}

/**
 * apply_lockbox_payment_transactions for a file applied within the call: each line answered as
 * the file's first application answered it. A file sent again (the same lines from the same
 * sender, `fileId`) keeps every line's first judgement, posted or refused: a line refused as below
 * the minimum is not judged again once the account owes less. Successes are kept in the posting's
 * own transaction, refusals after; a line without a kept answer (an application interrupted) is judged now.
 * `joins` are the areas joined to a payment (shared/moves/payment.ts), as a manual payment's.
 */
export async function applyLockboxFile(fileId: string, transactions: readonly unknown[], now = clock.now(), joins: readonly PaymentJoin[] = []): Promise<LockboxTransactionResult[]> {
  const kept = await keptLockboxAnswers(fileId, 0);
  const pending = transactions.map((_, line) => line).filter((line) => !kept.has(line));
  const results: LockboxTransactionResult[] = transactions.map((_, line) => kept.get(line)!);
  if (pending.length === 0) return results;
  const judged = await applyLockboxTransactions(
    pending.map((line) => transactions[line]),
    now,
    { recordSuccess: (indexes) => [lockboxSuccessesWrite(fileId, 0, indexes.map((index) => pending[index]))], joins },
  );
  await keepLockboxRefusals(fileId, 0, judged.flatMap((result, index) => (result.result === 'success' ? [] : [{ line: pending[index], ...result }])));
  judged.forEach((result, index) => (results[pending[index]] = result));
  return results;
}
