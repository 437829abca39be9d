/**
 * The billing store: the only code that knows the billing keys (keys.ts). A posting (a
 * payment, an NSF, a cancellation's rows) is one transaction: its rows, the account's
 * balance and version, and what the action writes with it (a note, the check number, the
 * payment's locator). Concurrent postings to one account conflict in DynamoDB; such a
 * transaction changed nothing and is simply tried again.
 */
import { booksOfPosting } from '../books/index.js';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { batchGetAll, batchWriteAll, isConditionalCheckFailure, queryAll, queryPages } from '../platform/dynamo.js';
import { conflictBackoffCeilingMs, RecordChangedError, runTransaction, TRANSACTION_ITEM_LIMIT, TransactionTooLargeError, withoutStorageKeys, type TransactionWrite } from '../platform/transactions.js';
import { BusinessRuleError, ConcurrentChangeError } from '../platform/errors.js';
import {
  ACCOUNT_LIST_SHARDS,
  accountIndexAttributes,
  accountByTermQuery,
  accountKey,
  accountListQuery,
  accountQuery,
  accountsOfPolicyQuery,
  termIdOfRow,
  billingMigrationKey,
  billingPartition,
  checkKey,
  entryKey,
  lockboxDueKey,
  lockboxDueQuery,
  lockboxAnswersKey,
  lockboxAnswersQuery,
  lockboxChunkAnswersQuery,
  lockboxChunkDoneKey,
  lockboxNumberKey,
  lockboxRunKey,
  paymentLocatorKey,
  policyRefundsQuery,
  refundKey,
  refundLocatorKey,
  refundIndexAttributes,
  refundsInStateQuery,
} from './keys.js';
import { ledgerFromEntries } from './ledger.js';
import { lockboxDueOf, type LockboxDue } from './lockbox.js';
import type { AccountEntry, BillingAccount, LockboxTransactionResult, NightlyAccountDecision, Refund } from './model.js';
import type { ReadsAhead } from '../lifecycle/index.js';
import { clock } from '../platform/clock.js';

const table = () => config.tableName();
/** Attempts of a posting that keeps meeting concurrent postings to the same account. */
const MAX_ATTEMPTS = 12;
/**
 * Attempts of a payment written as deltas that keeps meeting other transactions on its account
 * (each meeting costs a wait under 500 ms, nothing read again): 40 payments to one account at once all post.
 */
const DELTA_ATTEMPTS = 40;

export type { TransactionWrite };

/** A check number already posted to the policy (its natural key held). */
export class CheckAlreadyPostedError extends BusinessRuleError {
  constructor(readonly checkNumber: string, policyNumber: string) {
    super(`Check ${checkNumber} was already posted to policy ${policyNumber}`);
    this.name = 'CheckAlreadyPostedError';
  }
}

const strip = <T>(item: Record<string, unknown>): T => withoutStorageKeys<T>(item);

// ---------------------------------------------------------------- writes handed to other moves

const accountItem = (account: BillingAccount) => ({ ...accountKey(account.policyId, account.termId), ...accountIndexAttributes(account.policyId, account.termId), entity: 'BillingAccount', ...account });
const accountRef = (account: Pick<BillingAccount, 'policyId' | 'termId'>) => `${account.policyId}#${account.termId}`;

/**
 * The write keeping an account's lockbox-due record as a posting leaves the account: put while it
 * owes, deleted when it owes nothing (the records are the matchfile's source: only owing accounts).
 * It carries the account version it was written with: a lockbox file reads it instead of the
 * account's rows only when that version is the account's (readLockboxAccounts).
 */
function lockboxDueWrite(account: BillingAccount, rows: readonly AccountEntry[]): TransactionWrite {
  const due = lockboxDueOf(account, rows);
  const key = lockboxDueKey(account);
  return due ? { Put: { TableName: table(), Item: { ...key, entity: 'LockboxDue', ...due, accountVersion: account.version } } } : { Delete: { TableName: table(), Key: key } };
}

/** The new account of a term, created with its first rows and found by its lockbox number from then on (issue). */
export function newAccountWrites(account: BillingAccount, entries: readonly AccountEntry[]): TransactionWrite[] {
  return [
    { Put: { TableName: table(), Item: accountItem(account), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...entries.map((entry) => entryPut(account, entry)),
    lockboxDueWrite(account, entries),
    ...booksOfPosting(account, { posted: entries }),
    {
      Update: {
        TableName: table(),
        Key: lockboxNumberKey(account.lockboxNumber),
        UpdateExpression: 'ADD accountRefs :ref SET entity = :entity',
        ExpressionAttributeValues: { ':ref': new Set([accountRef(account)]), ':entity': 'LockboxNumber' },
      },
    },
  ];
}

/** The same records as plain items, for a bulk load (BatchWriteItem) of accounts that do not exist yet. */
export function newAccountItems(account: BillingAccount, entries: readonly AccountEntry[]): Array<Record<string, unknown>> {
  return [
    accountItem(account),
    ...entries.map((entry) => (entryPut(account, entry).Put as { Item: Record<string, unknown> }).Item),
    { ...lockboxNumberKey(account.lockboxNumber), entity: 'LockboxNumber', accountRefs: new Set([accountRef(account)]) },
    ...[lockboxDueWrite(account, entries).Put?.Item].filter((item): item is Record<string, unknown> => !!item),
  ];
}

function entryPut(account: Pick<BillingAccount, 'policyId' | 'termId'>, entry: AccountEntry): TransactionWrite {
  return {
    Put: {
      TableName: table(),
      Item: { ...entryKey(account.policyId, account.termId, entry.id), entity: 'AccountEntry', policyId: account.policyId, termId: account.termId, ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export interface Posting {
  account: BillingAccount;
  /** The account's rows as read with `account` (loadAccount): with the posting's, what its lockbox-due record is computed from. */
  prior: { entries: readonly AccountEntry[]; voided?: readonly AccountEntry[] };
  entries: readonly AccountEntry[];
  /** Attributes of the account to set with the posting (status, non-payment state). */
  set?: Partial<BillingAccount>;
  /**
   * Require the account unchanged since it was read: a decision made on its rows fails on a
   * concurrent change. Every posting is written under the version read (its lockbox-due record is
   * computed from the rows read); without this flag writePosting reads the account again and retries.
   */
  guardVersion?: boolean;
  /** Added to the balance beside the rows' sum (a cancellation voiding invoices not yet billed). */
  balanceAdjustmentCents?: number;
  /** Check numbers the posting holds for the policy. */
  holdChecks?: readonly string[];
  /** Check numbers the posting releases (an NSF: the check may be presented again). */
  releaseChecks?: readonly string[];
  /** Payments to make findable by id alone. */
  locatePayments?: readonly string[];
  /** Writes of other areas (a note, a revision) that land with the posting or not at all. */
  handed?: readonly TransactionWrite[];
}

/** The account and its rows as a posting leaves them (what loadAccount would read once it is written). */
export function postingOutcome(posting: Posting): LoadedAccount {
  const { account } = posting;
  const delta = posting.entries.reduce((total, entry) => total + entry.amountCents, posting.balanceAdjustmentCents ?? 0);
  const after: BillingAccount = { ...account, ...posting.set, balanceCents: account.balanceCents + delta, version: account.version + 1 };
  const voided = new Set(after.voidedEntryIds ?? []);
  const rows = [...posting.prior.entries, ...(posting.prior.voided ?? []), ...posting.entries];
  return { account: after, entries: rows.filter((entry) => !voided.has(entry.id)), voided: rows.filter((entry) => voided.has(entry.id)) };
}

/** The writes of a posting: the account first, its rows, checks, locators, its lockbox-due record, then the handed writes. */
export function postingWrites(posting: Posting): TransactionWrite[] {
  const { account } = posting;
  const delta = posting.entries.reduce((total, entry) => total + entry.amountCents, posting.balanceAdjustmentCents ?? 0);
  const outcome = postingOutcome(posting);
  const names: Record<string, string> = { '#balance': 'balanceCents', '#version': 'version' };
  const values: Record<string, unknown> = { ':delta': delta, ':one': 1 };
  const assignments: string[] = [];
  Object.entries(posting.set ?? {}).forEach(([attribute, value], index) => {
    names[`#s${index}`] = attribute;
    values[`:s${index}`] = value;
    assignments.push(`#s${index} = :s${index}`);
  });
  const condition = 'attribute_exists(pk) AND #version = :expected';
  values[':expected'] = account.version;
  return [
    {
      Update: {
        TableName: table(),
        Key: accountKey(account.policyId, account.termId),
        UpdateExpression: `ADD #balance :delta, #version :one${assignments.length ? ` SET ${assignments.join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...posting.entries.map((entry) => entryPut(account, entry)),
    ...(posting.holdChecks ?? []).map((checkNumber) => ({
      Put: {
        TableName: table(),
        Item: { ...checkKey(account.policyId, checkNumber), entity: 'PostedCheck', checkNumber, termId: account.termId },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    ...(posting.releaseChecks ?? []).map((checkNumber) => ({ Delete: { TableName: table(), Key: checkKey(account.policyId, checkNumber) } })),
    ...(posting.locatePayments ?? []).map((paymentId) => ({
      Put: {
        TableName: table(),
        Item: { ...paymentLocatorKey(paymentId), entity: 'PaymentLocator', paymentId, policyId: account.policyId, termId: account.termId },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    lockboxDueWrite(outcome.account, outcome.entries),
    ...(posting.handed ?? []),
    ...booksOfPosting(account, { posted: posting.entries, ...voidingOf(posting) }),
  ];
}

/** The invoices a posting voids (set.voidedEntryIds grows) or bills again (it shrinks): the books take them back or add them again. */
function voidingOf(posting: Posting): { voided: AccountEntry[]; billedAgain: AccountEntry[] } {
  const before = new Set(posting.account.voidedEntryIds ?? []);
  const after = new Set(posting.set?.voidedEntryIds ?? [...before]);
  return {
    voided: posting.prior.entries.filter((entry) => after.has(entry.id) && !before.has(entry.id)),
    billedAgain: (posting.prior.voided ?? []).filter((entry) => before.has(entry.id) && !after.has(entry.id)),
  };
}

/**
 * Whether a posting only adds payments to an account: a payment decides nothing on the account's
 * rows, so it is written as deltas (paymentWrites) that need no version, and many payments to one
 * account at once all post.
 */
function paysOnly(posting: Posting): boolean {
  if (posting.guardVersion || posting.set || posting.balanceAdjustmentCents || posting.releaseChecks?.length) return false;
  return posting.entries.length > 0 && posting.entries.every((entry) => entry.type === 'Payment' && entry.amountCents < 0);
}

const postingDelta = (posting: Posting) => posting.entries.reduce((total, entry) => total + entry.amountCents, posting.balanceAdjustmentCents ?? 0);

/**
 * Where a payment finds the account's lockbox-due record (kept only while the account owes): owing
 * more than the payment pays (added to), owing no more than it pays (the payment settles it: deleted),
 * or absent (the account owes nothing). Each is the condition of the record's write, so a payment
 * written on a wrong guess changes nothing and is written again on the record as it stands.
 */
type DueStanding = 'owes-more' | 'settled' | 'absent';

function dueStandingOf(balanceCents: number | undefined, paidCents: number): DueStanding {
  if (balanceCents === undefined || balanceCents <= 0) return 'absent';
  return balanceCents > paidCents ? 'owes-more' : 'settled';
}

/** Where a payment's writes hold the account's lockbox-due record. */
const dueWriteIndex = (posting: Posting) => 1 + posting.entries.length + (posting.holdChecks?.length ?? 0) + (posting.locatePayments?.length ?? 0);

/**
 * The writes of a payment-only posting (paysOnly) as deltas, in the same order as postingWrites:
 * the account's balance and version added to, its rows put under their own ids, and its
 * lockbox-due record added to the same way (balance, version, a credit per day paid), deleted or
 * left absent, on the one condition the record's rule needs: where it stands (DueStanding).
 */
function paymentWrites(posting: Posting, due: DueStanding = dueStandingOf(posting.account.balanceCents, -postingDelta(posting))): TransactionWrite[] {
  const whole = postingWrites(posting);
  if (!paysOnly(posting)) return whole;
  const { account } = posting;
  const delta = postingDelta(posting);
  const key = lockboxDueKey(account);
  const writes = [...whole];
  writes[0] = {
    Update: {
      TableName: table(),
      Key: accountKey(account.policyId, account.termId),
      UpdateExpression: 'ADD #balance :delta, #version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#balance': 'balanceCents', '#version': 'version' },
      ExpressionAttributeValues: { ':delta': delta, ':one': 1 },
    },
  };
  const perDay = new Map<string, number>();
  for (const credit of ledgerFromEntries(posting.entries).credits) perDay.set(credit.date, (perDay.get(credit.date) ?? 0) + credit.amountCents);
  const credits = [...perDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, cents]) => `${date} ${cents}`);
  writes[dueWriteIndex(posting)] =
    due === 'owes-more'
      ? {
          Update: {
            TableName: table(),
            Key: key,
            UpdateExpression: 'ADD #balance :delta, #version :one SET #credits = list_append(#credits, :credits)',
            ConditionExpression: '#balance > :paid',
            ExpressionAttributeNames: { '#balance': 'balanceCents', '#version': 'accountVersion', '#credits': 'credits' },
            ExpressionAttributeValues: { ':delta': delta, ':one': 1, ':paid': -delta, ':credits': credits },
          },
        }
      : due === 'settled'
        ? { Delete: { TableName: table(), Key: key, ConditionExpression: '#balance <= :paid', ExpressionAttributeNames: { '#balance': 'balanceCents' }, ExpressionAttributeValues: { ':paid': -delta } } }
        : { ConditionCheck: { TableName: table(), Key: key, ConditionExpression: 'attribute_not_exists(pk)' } };
  return writes;
}

/** The balance an account's lockbox-due record holds now (undefined when it has none). */
async function lockboxDueBalance(account: BillingAccount): Promise<number | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: table(), Key: lockboxDueKey(account), ConsistentRead: true, ProjectionExpression: 'balanceCents' }));
  return found.Item?.balanceCents as number | undefined;
}

/** The account changed since it was read, under a posting that did not decide on it: read again and write again. */
class StaleAccountError extends ConcurrentChangeError {}

/** A payment's lockbox-due record stands otherwise than the payment's writes assumed (another posting moved it): nothing was written. */
class DueMovedError extends ConcurrentChangeError {}

/**
 * Writes a posting as one transaction. A conflict with a concurrent posting is retried
 * (a cancelled transaction wrote nothing); a held check number that exists is
 * CheckAlreadyPostedError; a changed account under a version guard is ConcurrentChangeError.
 */
export async function writePosting(posting: Posting): Promise<LoadedAccount> {
  const checksFrom = 1 + posting.entries.length;
  const held = posting.holdChecks ?? [];
  const label = `The account of policy ${posting.account.policyNumber}`;
  // A payment is written as deltas, its lockbox-due record as it stands; a guess found wrong reads only that record again.
  const asDeltas = paysOnly(posting);
  let due = dueStandingOf(posting.account.balanceCents, -postingDelta(posting));
  for (let attempt = 1; ; attempt += 1) {
    try {
      await runTransaction(asDeltas ? paymentWrites(posting, due) : postingWrites(posting), {
        label,
        // Deltas never go stale: a conflict with another posting to the account is only a matter of turns.
        maxAttempts: asDeltas ? DELTA_ATTEMPTS : MAX_ATTEMPTS,
        tooLarge: (count) => new TransactionTooLargeError(count, `The posting needs ${count} writes; at most ${TRANSACTION_ITEM_LIMIT} fit one transaction`),
        onConditionFailed: (failure) => {
          const refusedCheck = held.find((_, index) => failure.indexes.includes(checksFrom + index));
          if (refusedCheck) return new CheckAlreadyPostedError(refusedCheck, posting.account.policyNumber);
          if (asDeltas) return failure.indexes.includes(dueWriteIndex(posting)) ? new DueMovedError(label) : undefined;
          return !posting.guardVersion && failure.indexes.includes(0) ? new StaleAccountError(label) : undefined;
        },
      });
      return postingOutcome(posting);
    } catch (error) {
      if (error instanceof DueMovedError && attempt < MAX_ATTEMPTS) {
        due = dueStandingOf(await lockboxDueBalance(posting.account), -postingDelta(posting));
        continue;
      }
      // A payment met another posting to the same account: its rows are the same, the account's rows are read again,
      // after a jittered wait, so that many payments to one account (20 at once) stop meeting each round.
      if (!(error instanceof StaleAccountError) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * conflictBackoffCeilingMs(attempt - 1)));
      const reloaded = await loadAccount(posting.account.policyId, posting.account.termId);
      if (!reloaded) throw error;
      posting = { ...posting, account: reloaded.account, prior: reloaded };
    }
  }
}

/**
 * Writes the postings of different accounts (of different policies) as one transaction, their
 * writes together at most TRANSACTION_ITEM_LIMIT: all land or none, each under its account's
 * version as writePosting writes it. Answers each account as its posting leaves it, or undefined
 * when nothing was written because a condition failed (an account changed, a check was posted) or
 * conflicts kept coming: the caller then posts them one by one with writePosting, so one changed
 * account or posted check never fails its neighbours and each line is answered as alone.
 * `handed` are writes of the whole transaction (the answers of all its lines).
 */
export async function writePostingsTogether(postings: readonly Posting[], handed: readonly TransactionWrite[] = []): Promise<LoadedAccount[] | undefined> {
  const writes = [...postings.flatMap((posting) => paymentWrites(posting)), ...handed];
  try {
    await runTransaction(writes, { label: `The accounts of ${postings.length} policies`, maxAttempts: 3 });
  } catch (error) {
    if (error instanceof ConcurrentChangeError) return undefined;
    throw error;
  }
  return postings.map(postingOutcome);
}

// ---------------------------------------------------------------- reads

export interface LoadedAccount {
  account: BillingAccount;
  entries: AccountEntry[];
  /** The rows a cancellation voided (installments never to be billed): a reinstatement bills them again. */
  voided: AccountEntry[];
}

/** A term's account and every row of it, in one strongly consistent Query. */
export async function loadAccount(policyId: string, termId: string): Promise<LoadedAccount | undefined> {
  return loadedOf(await queryAll(accountQuery(table(), policyId, termId)));
}

/** A term's account, from the reads its move began beside its own (a wiring's readAhead) when it has them; else read now. */
export function accountAsRead(policyId: string, termId: string, reads: ReadsAhead | undefined): Promise<LoadedAccount | undefined> {
  return reads ? reads.once(`billing:account ${policyId} ${termId}`, () => loadAccount(policyId, termId)) : loadAccount(policyId, termId);
}

/** Rows of a policy's billing partition read beside the policy at most: a young policy's every term; an older one is read term by term. */
export const ACCOUNTS_BESIDE_POLICY_ROWS = 100;

/**
 * The accounts of a policy's terms and their rows, by term id, from one strongly consistent page
 * of the policy's billing partition (read from its id alone, beside the policy's own read), and
 * whether that page held the whole partition: when it did not (a policy with many terms' rows),
 * a term missing from it is read on its own (`accountOf`), so a payment never reads a long
 * history whole.
 */
export async function loadAccountsOfPolicy(policyId: string, rows = ACCOUNTS_BESIDE_POLICY_ROWS): Promise<{ accounts: Map<string, LoadedAccount>; complete: boolean }> {
  const page = await documentClient().send(new QueryCommand({ ...accountsOfPolicyQuery(table(), policyId), Limit: rows }));
  const byTerm = new Map<string, Record<string, unknown>[]>();
  for (const item of page.Items ?? []) {
    const termId = termIdOfRow(String(item.sk));
    byTerm.set(termId, [...(byTerm.get(termId) ?? []), item]);
  }
  const complete = !page.LastEvaluatedKey;
  // The last term of an incomplete page may be cut short: only whole terms are kept.
  const lastTerm = complete ? undefined : termIdOfRow(String(page.LastEvaluatedKey!.sk));
  const accounts = new Map<string, LoadedAccount>();
  for (const [termId, items] of byTerm) {
    if (termId === lastTerm) continue;
    const found = loadedOf(items);
    if (found) accounts.set(termId, found);
  }
  return { accounts, complete };
}

function loadedOf(items: readonly Record<string, unknown>[]): LoadedAccount | undefined {
  let account: BillingAccount | undefined;
  const entries: AccountEntry[] = [];
  for (const item of items) {
    if (item.entity === 'BillingAccount') account = strip<BillingAccount>(item);
    else if (item.entity === 'AccountEntry') {
      const { policyId: _p, termId: _t, ...entry } = strip<AccountEntry & { policyId: string; termId: string }>(item);
      entries.push(entry as AccountEntry);
    }
  }
  if (!account) return undefined;
  const voided = new Set(account.voidedEntryIds ?? []);
  return { account, entries: voided.size ? entries.filter((entry) => !voided.has(entry.id)) : entries, voided: entries.filter((entry) => voided.has(entry.id)) };
}

/** Where a payment was posted, from its id alone. */
export async function findPayment(paymentId: string): Promise<{ policyId: string; termId: string } | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: paymentLocatorKey(paymentId), ConsistentRead: true }));
  return result.Item ? { policyId: result.Item.policyId as string, termId: result.Item.termId as string } : undefined;
}

/** Every account of one list shard, a page at a time (the index is eventually consistent). */
export async function* accountPages(shard: number, pageSize = 500): AsyncGenerator<BillingAccount[], void> {
  for await (const page of queryPages<Record<string, unknown>>({ ...accountListQuery(table(), shard), Limit: pageSize })) {
    yield page.items.map((item) => strip<BillingAccount>(item));
  }
}

export const accountShards = () => Array.from({ length: ACCOUNT_LIST_SHARDS }, (_, shard) => shard);

/** Every account, all shards read in parallel. */
export async function allAccounts(): Promise<BillingAccount[]> {
  const shards = await Promise.all(
    accountShards().map(async (shard) => {
      const accounts: BillingAccount[] = [];
      for await (const page of accountPages(shard)) accounts.push(...page);
      return accounts;
    }),
  );
  return shards.flat();
}

/**
 * The accounts of lockbox numbers (a policy's terms, or numbers that differ only in
 * punctuation), by number: BatchGetItem, 100 numbers a call, a few calls at once.
 */
export async function accountRefsByLockboxNumber(lockboxNumbers: readonly string[]): Promise<Map<string, Array<{ policyId: string; termId: string }>>> {
  const items = await batchGetAll<{ pk: string; accountRefs?: Set<string> }>(lockboxNumbers.map(lockboxNumberKey), { consistentRead: true, concurrency: 4 });
  return new Map(
    items.map((item) => [
      item.pk.slice('LOCKBOX#'.length),
      [...(item.accountRefs ?? [])].map((ref) => {
        const [policyId, termId] = ref.split('#');
        return { policyId, termId };
      }),
    ]),
  );
}

/** What a lockbox file reads of one account at once: the account, and its lockbox-due record when that was written with this version of it. */
export interface LockboxAccountReading {
  account: BillingAccount;
  due?: LockboxDue;
}

/**
 * The accounts of a lockbox file in a few BatchGetItem calls instead of a Query each: every
 * account item, then, of the accounts that owe, the lockbox-due record (what the rows owe, summed:
 * lockbox.ts rowsOfLockboxDue) and the records of the given check numbers of their policies (which
 * term each was posted to). A due record written under another version of the account than the one
 * read is left out (the items are not read as one snapshot), as is every account owing nothing (it
 * has no record): such an account is read whole (loadAccount).
 */
export async function readLockboxAccounts(
  refs: ReadonlyArray<{ policyId: string; termId: string; lockboxNumber: string }>,
  checks: ReadonlyArray<{ policyId: string; checkNumber: string }>,
): Promise<{ accounts: LockboxAccountReading[]; postedChecks: Map<string, Array<{ checkNumber: string; termId: string }>> }> {
  const accounts = (await batchGetAll<Record<string, unknown>>(refs.map((ref) => accountKey(ref.policyId, ref.termId)), { consistentRead: true, concurrency: 4 })).map((item) => strip<BillingAccount>(item));
  const owing = accounts.filter((account) => account.balanceCents > 0);
  const owingPolicies = new Set(owing.map((account) => account.policyId));
  const keys = [...owing.map(lockboxDueKey), ...checks.filter((check) => owingPolicies.has(check.policyId)).map((check) => checkKey(check.policyId, check.checkNumber))];
  const dues = new Map<string, LockboxDue & { accountVersion?: number }>();
  /** By policy id: the checks found, each with the term it was posted to. */
  const postedChecks = new Map<string, Array<{ checkNumber: string; termId: string }>>();
  for (const item of await batchGetAll<Record<string, unknown>>(keys, { consistentRead: true, concurrency: 4 })) {
    if (item.entity === 'LockboxDue') {
      const due = strip<LockboxDue & { accountVersion?: number }>(item);
      dues.set(accountRef(due), due);
    } else if (item.entity === 'PostedCheck') {
      const policyId = (item.pk as string).slice(billingPartition('').length);
      postedChecks.set(policyId, [...(postedChecks.get(policyId) ?? []), { checkNumber: item.checkNumber as string, termId: item.termId as string }]);
    }
  }
  return {
    accounts: accounts.map((account) => {
      const { accountVersion, ...due } = dues.get(accountRef(account)) ?? {};
      return accountVersion === account.version ? { account, due: due as LockboxDue } : { account };
    }),
    postedChecks,
  };
}

/** One page of lockbox-due records of a shard, in key order, from after `afterSk`; `lastSk` is where the page ended (none at the shard's end). */
export async function lockboxDuePage(shard: number, options: { afterSk?: string; limit: number }): Promise<{ dues: Array<LockboxDue & { sk: string }>; lastSk?: string }> {
  for await (const page of queryPages<Record<string, unknown>>({ ...lockboxDueQuery(table(), shard, options.afterSk), Limit: options.limit }, { maxItems: options.limit })) {
    const dues = page.items.map((item) => ({ ...strip<LockboxDue>(item), sk: item.sk as string }));
    return { dues, ...(page.lastEvaluatedKey ? { lastSk: page.lastEvaluatedKey.sk as string } : {}) };
  }
  return { dues: [] };
}

/** Whether a one-time billing migration has finished. */
export async function billingMigrationDone(name: string): Promise<boolean> {
  return !!(await documentClient().send(new GetCommand({ TableName: table(), Key: billingMigrationKey(name), ConsistentRead: true }))).Item;
}

export async function markBillingMigrationDone(name: string, outcome: Record<string, number>): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: { ...billingMigrationKey(name), entity: 'BillingMigration', name, finishedAt: clock.now().toISOString(), ...outcome } }));
}

// ---------------------------------------------------------------- nightly runs

// The run records are the platform's (renewals keep theirs the same way); billing's readers keep their import.
export { countNightlyBatchDone, getNightlyRun, NIGHTLY_DECISIONS_LISTED_PER_BATCH, recordNightlyRun, type NightlyRun } from '../platform/nightly-runs.js';

/** The policy of a term, from the term id alone (its account's index entry). */
export async function policyIdOfTerm(termId: string): Promise<string | undefined> {
  for await (const page of queryPages<Record<string, unknown>>(accountByTermQuery(table(), termId), { maxItems: 1 })) {
    if (page.items[0]) return page.items[0].policyId as string;
  }
  return undefined;
}

// ---------------------------------------------------------------- lockbox answers

/** The answer a line of a lockbox file was given, by its place in the file. */
export type LockboxLineAnswer = { line: number } & LockboxTransactionResult;

/** Refusals kept to one answers item (well under DynamoDB's 400 KB an item). */
const REFUSALS_PER_ITEM = 1000;

/** The answers of some lines of a file's chunk, one item keyed by its first line (a file applied in one call is its chunk 0). */
export const lockboxAnswersItem = (fileId: string, chunk: number, answers: readonly LockboxLineAnswer[]) => ({
  ...lockboxAnswersKey(fileId, chunk, answers[0].line, answers[0].result === 'success' ? 'posted' : 'refused'),
  entity: 'LockboxAnswers',
  answers,
});

/** The write keeping the successes of lines one posting transaction posts, handed to that transaction. */
export function lockboxSuccessesWrite(fileId: string, chunk: number, lines: readonly number[]): TransactionWrite {
  return { Put: { TableName: table(), Item: lockboxAnswersItem(fileId, chunk, lines.map((line) => ({ line, result: 'success', detail: '' }))) } };
}

/** Keeps the refusals of a chunk's lines, after its postings. */
export async function keepLockboxRefusals(fileId: string, chunk: number, refusals: readonly LockboxLineAnswer[]): Promise<void> {
  const items = [];
  for (let start = 0; start < refusals.length; start += REFUSALS_PER_ITEM) items.push({ PutRequest: { Item: lockboxAnswersItem(fileId, chunk, refusals.slice(start, start + REFUSALS_PER_ITEM)) } });
  await batchWriteAll(items, { concurrency: 4 });
}

/**
 * The answers a chunk's lines were given already, by line. A line two applications answered at
 * once (one posted it, the other found its check posted) keeps the success: the one that posted it tells.
 */
export async function keptLockboxAnswers(fileId: string, chunk: number): Promise<Map<number, LockboxTransactionResult>> {
  const kept = new Map<number, LockboxTransactionResult>();
  for await (const page of queryPages<{ answers: LockboxLineAnswer[] }>(lockboxChunkAnswersQuery(table(), fileId, chunk))) {
    for (const item of page.items) {
      for (const { line, result, detail } of item.answers) if (kept.get(line)?.result !== 'success') kept.set(line, { result, detail });
    }
  }
  return kept;
}

// ---------------------------------------------------------------- refunds

/** A new refund, written in the transaction of the move that owes it. */
export function refundPut(refund: Refund): TransactionWrite[] {
  return [
    { Put: { TableName: table(), Item: { ...refundKey(refund.policyId, refund.refundId), ...refundIndexAttributes(refund), entity: 'Refund', ...refund }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table(), Item: { ...refundLocatorKey(refund.refundId), entity: 'RefundLocator', policyId: refund.policyId }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
}

/** A refund by its id alone; undefined when there is none. */
export async function loadRefund(refundId: string): Promise<Refund | undefined> {
  const locator = await documentClient().send(new GetCommand({ TableName: table(), Key: refundLocatorKey(refundId), ConsistentRead: true }));
  const policyId = (locator.Item as { policyId?: string } | undefined)?.policyId;
  if (!policyId) return undefined;
  const found = await documentClient().send(new GetCommand({ TableName: table(), Key: refundKey(policyId, refundId), ConsistentRead: true }));
  return found.Item ? withoutStorageKeys<Refund>(found.Item as Record<string, unknown>) : undefined;
}

/** A refund's new state (and what it was paid by), under its version: written with the account row it leaves. */
export function refundStateWrite(refund: Refund, set: Partial<Refund>): TransactionWrite {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':expected': refund.version, ':next': refund.version + 1 };
  const indexed = set.state ? refundIndexAttributes({ ...refund, state: set.state }) : {};
  const assignments = Object.entries({ ...set, ...indexed }).map(([attribute, value], index) => {
    names[`#s${index}`] = attribute;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  return {
    Update: {
      TableName: table(),
      Key: refundKey(refund.policyId, refund.refundId),
      UpdateExpression: `SET #version = :next, ${assignments.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk) AND #version = :expected',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A policy's refunds, oldest first. */
export async function listPolicyRefunds(policyId: string): Promise<Refund[]> {
  const items = await queryAll(policyRefundsQuery(table(), policyId));
  return items.map((item) => withoutStorageKeys<Refund>(item as Record<string, unknown>)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The refunds in one state, oldest first, from the index (eventually consistent, as every index). */
export async function refundsInState(state: string): Promise<Refund[]> {
  const items = await queryAll(refundsInStateQuery(table(), state));
  return items.map((item) => withoutStorageKeys<Refund>(item as Record<string, unknown>));
}

export interface LockboxRun {
  fileId: string;
  lines: number;
  chunks: number;
  chunksDone: number;
  startedAt: string;
  /** Who sent the file: only they (or an Administrator) read its answers. */
  sentBy: string;
}

/** Records a large file's run; false when a run of that file id exists already (the same file sent twice at once). */
export async function putNewLockboxRun(run: LockboxRun): Promise<boolean> {
  try {
    await documentClient().send(new PutCommand({ TableName: table(), Item: { ...lockboxRunKey(run.fileId), entity: 'LockboxRun', ...run }, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

export async function getLockboxRun(fileId: string): Promise<LockboxRun | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: table(), Key: lockboxRunKey(fileId), ConsistentRead: true }));
  if (!found.Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, ...run } = found.Item;
  return run as LockboxRun;
}

/** A chunk of a run marked done and counted on the run, once: a chunk already counted (a redelivery) changes nothing. */
export async function countLockboxChunkDone(fileId: string, chunk: number): Promise<void> {
  try {
    await runTransaction(
      [
        { Put: { TableName: table(), Item: { ...lockboxChunkDoneKey(fileId, chunk), entity: 'LockboxChunkDone' }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: table(), Key: lockboxRunKey(fileId), UpdateExpression: 'ADD chunksDone :one', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':one': 1 } } },
      ],
      { label: `Lockbox file ${fileId}` },
    );
  } catch (error) {
    if (!(error instanceof RecordChangedError)) throw error;
  }
}

/** A run's line answers as stored, a page at a time (successes grouped per posting, refusals one per line). */
export async function* lockboxAnswerPages(fileId: string): AsyncGenerator<LockboxLineAnswer[]> {
  for await (const page of queryPages<Record<string, unknown>>(lockboxAnswersQuery(table(), fileId))) {
    const answers: LockboxLineAnswer[] = [];
    for (const item of page.items) {
      if (item.entity === 'LockboxAnswers') answers.push(...(item.answers as LockboxLineAnswer[]));
      else if (item.entity === 'LockboxLine') answers.push(item as unknown as LockboxLineAnswer);
    }
    yield answers;
  }
}
