/**
 * The billing services the entry files call: invoices at issue (its contribution to the issue move),
 * schedule options, account history, payments (manual and lockbox), NSF, the lockbox
 * matchfile and potential payors. Rules are the pure modules beside this one; the rows and
 * the account live in the billing store; every read checks the caller's reach.
 */
import { randomUUID } from 'node:crypto';
import { TRANSACTION_ITEM_LIMIT, type TransactionWrite } from '../platform/transactions.js';
import { getCatalogRecords, getProductCatalog, type BillingScheduleDefinition } from '../catalog/index.js';
import { FINANCE_COMPANY_ROLE_ID, getContactSummaries } from '../contacts/index.js';
import type { CommittedRevision, Contribution, RenewedTerm } from '../lifecycle/index.js';
import { newNote, notePut } from '../notes/index.js';
import { mapLimited } from '../platform/concurrency.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { formatCents, sum, type Cents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { loadRevision, policyWithinReach, revisionWithinReach, type PolicyRecord, type RevisionSnapshot, type TermRecord } from '../policies/index.js';
import { accountHistoryPage, invoiceEntry, paymentEntry, type EntryContext } from './account-history.js';
import { amountOf, eventWrite } from '../events/index.js';
import { decideLockboxTransactions, lockboxAccount, lockboxCheckOf, lockboxNumberOf, MAX_CHECK_NUMBER_LENGTH, rowsOfLockboxDue, lockboxPolicyNumber, matchfileLinesOf, parsePaymentAmount, statusOf, InvalidPaymentAmountError, type LockboxDue } from './lockbox.js';
import { recordMoneyMove } from '../platform/metrics.js';
import type { AccountEntry, AccountHistoryPage, BillableItem, BillingAccount, BillingSettings, BillingScheduleOptionWire, Installment, LockboxMatchRecord, LockboxTransactionResult } from './model.js';
import { nsfDueDate, nsfEntries, nsfFeeToDebit } from './nsf.js';
import { billableItems, billingScheduleOptions, installmentsFor } from './schedules.js';
import { billingSettingsFromRecords } from './settings.js';
import {
  accountRefsByLockboxNumber,
  CheckAlreadyPostedError,
  findPayment,
  loadAccount,
  lockboxDuePage,
  newAccountWrites,
  policyIdOfTerm,
  postingWrites,
  readLockboxAccounts,
  writePosting,
  writePostingsTogether,
  type LoadedAccount,
  type Posting,
} from './store.js';
import { LOCKBOX_DUE_SHARDS } from './keys.js';
import { clock } from '../platform/clock.js';

export { statusOf };

export const FULL_PAY_LABEL = 'Full Pay';

export async function billingSettings(): Promise<BillingSettings> {
  return billingSettingsFromRecords(await getCatalogRecords());
}

/** The billed amounts of a revision's line items, each earned as its catalog item says. */
export async function billableItemsOfRevision(revisionId: string): Promise<BillableItem[]> {
  const [snapshot, product] = await Promise.all([loadRevision(revisionId), getProductCatalog()]);
  if (!snapshot) throw new NotFoundError(`Revision ${revisionId}`);
  return billableItems(snapshot.items, product.items);
}

/** A billing schedule id that names no schedule. */
export class UnknownBillingScheduleError extends BusinessRuleError {
  constructor(scheduleId: string) {
    super(`issue_info.billing_schedule_id: no billing schedule ${scheduleId.slice(0, 100)}; retrieve_billing_schedule_options lists them`);
    this.name = 'UnknownBillingScheduleError';
  }
}

/** The installments a revision is billed in. */
export interface InstallmentPlan {
  schedule: BillingScheduleDefinition;
  installments: Installment[];
}

/**
 * The installments of a revision on a schedule (Full Pay when none is chosen): the one rule
 * that issue's invoices and the Declaration's installment table both come from, so they
 * cannot disagree. An unknown schedule id is UnknownBillingScheduleError.
 */
export async function installmentPlan(revision: Pick<RevisionSnapshot, 'header' | 'items'>, scheduleId?: string): Promise<InstallmentPlan> {
  const [settings, product] = await Promise.all([billingSettings(), getProductCatalog()]);
  const chosen = scheduleId ? settings.schedules.find((candidate) => candidate.id === scheduleId) : undefined;
  if (scheduleId && !chosen) throw new UnknownBillingScheduleError(scheduleId);
  const schedule = chosen ?? settings.schedules.find((candidate) => candidate.label === FULL_PAY_LABEL) ?? settings.schedules[0];
  return { schedule, installments: installmentsFor(schedule, settings.rules, billableItems(revision.items, product.items), revision.header.termStart) };
}

function entryContext(generatedBy: string, policyStatus: string, postedAt: string): EntryContext {
  return { id: randomUUID(), postedAt, generatedBy, policyStatus };
}

/** An instant `offsetMs` after `now`, so that rows posted together keep their order. */
const instant = (now: Date, offsetMs = 0) => new Date(now.getTime() + offsetMs).toISOString();

// ---------------------------------------------------------------- invoices at issue

/**
 * Issue's billing contribution: the account of the term and the invoices of the chosen
 * schedule (Full Pay when none was chosen), written in the commit's transaction.
 */
export function billingAtIssue(now: () => Date = () => clock.now()): Contribution<CommittedRevision> {
  return async (committed: CommittedRevision) => {
    const snapshot = await loadRevision(committed.revisionId);
    if (!snapshot) throw new NotFoundError(`Revision ${committed.revisionId}`);
    return newTermAccountWrites(committed, snapshot, { scheduleId: committed.billingScheduleId, at: now(), generatedBy: 'system' });
  };
}

/**
 * A renewal's billing: the renewal term's own account and its invoices, on the expiring term's
 * schedule, written in the renewal's transaction. A renewal held for review bills nothing yet.
 */
export function billingAtRenewal(): Contribution<RenewedTerm> {
  return async (renewed: RenewedTerm) => {
    if (renewed.held) return [];
    // The expiring term's account learns it is no longer the policy's latest (the matchfile's fallback reads it), under its version.
    const expiring = await loadAccount(renewed.policyId, renewed.expiringTermId);
    return [
      ...(await newTermAccountWrites(
        { ...renewed, agencyId: renewed.agencyId, namedInsuredContactIds: renewed.namedInsuredContactIds },
        renewed.revision,
        { scheduleId: renewed.billingScheduleId, at: new Date(renewed.decidedAt), generatedBy: renewed.decidedBy },
      )),
      ...(expiring && expiring.account.laterTermId !== renewed.termId
        ? postingWrites({ account: expiring.account, prior: expiring, entries: [], guardVersion: true, set: { laterTermId: renewed.termId } })
        : []),
    ];
  };
}

/** A term's account and the invoices of its installment plan: the same at issue and at renewal. */
async function newTermAccountWrites(
  term: { policyId: string; termId: string; policyNumber: string; revisionId: string; effectiveDate: string; expirationDate: string; agencyId?: string; namedInsuredContactIds: string[] },
  snapshot: Pick<RevisionSnapshot, 'header' | 'items'>,
  options: { scheduleId?: string; at: Date; generatedBy: string },
) {
  const { schedule, installments } = await installmentPlan(snapshot, options.scheduleId);
  const entries = installments.map((installment, index) => invoiceEntry(entryContext(options.generatedBy, 'Active', instant(options.at, index)), installment, installments.length));
  const account: BillingAccount = {
    policyId: term.policyId,
    termId: term.termId,
    policyNumber: term.policyNumber,
    lockboxNumber: lockboxPolicyNumber(term.policyNumber),
    revisionId: term.revisionId,
    scheduleId: schedule.id,
    effectiveDate: term.effectiveDate,
    expirationDate: term.expirationDate,
    policyStatus: 'Active',
    agencyId: term.agencyId ?? null,
    contactIds: term.namedInsuredContactIds,
    balanceCents: sum(entries.map((entry) => entry.amountCents)),
    nonPayment: { status: 'current', cancelDate: null, chargeId: null },
    nightlyDate: null,
    version: 1,
  };
  // invoice.created for integrators (shared/events), one per invoice, in the move's transaction.
  const invoiceEvents = entries.map((entry) =>
    eventWrite({
      type: 'invoice.created', policyId: account.policyId, policyNumber: account.policyNumber, agencyId: account.agencyId, transactionId: entry.id, occurredAt: entry.postedAt,
      data: { term_id: account.termId, amount: amountOf(entry.amountCents), bill_date: entry.billDate, due_date: entry.dueDate, installment_number: entry.installmentNumber ?? null },
    }),
  );
  return [...newAccountWrites(account, entries), ...invoiceEvents];
}

// ---------------------------------------------------------------- schedule options

/** The revision a term is billed on: the policy's active revision when it belongs to that term, else the term's latest. */
function revisionOfTerm(policy: PolicyRecord, term: TermRecord): string {
  return term.id === policy.activeTermId || term.revisionIds.length === 0 ? policy.activeRevisionId : term.revisionIds[term.revisionIds.length - 1];
}

export async function scheduleOptions(principal: Principal, request: { policyNumber: string; termId?: string }): Promise<BillingScheduleOptionWire[]> {
  const { policy, terms } = await policyWithinReach(principal, { policyNumber: request.policyNumber });
  const term = terms.find((candidate) => candidate.id === (request.termId ?? policy.activeTermId)) ?? terms.find((candidate) => candidate.id === policy.activeTermId);
  if (!term) throw new NotFoundError(`Policy term ${request.termId ?? policy.activeTermId}`);
  const revision = await revisionWithinReach(principal, revisionOfTerm(policy, term));
  const [settings, items] = await Promise.all([billingSettings(), billableItemsOfRevision(revision.header.id)]);
  return billingScheduleOptions(settings.schedules, settings.rules, items, revision.header.termStart);
}

// ---------------------------------------------------------------- account history

/** The term of a policy that is in force on `today` (else the policy's active term). */
export function termOn(policy: PolicyRecord, terms: readonly TermRecord[], today: string): TermRecord | undefined {
  return terms.find((term) => term.effectiveDate <= today && today < term.expirationDate) ?? terms.find((term) => term.id === policy.activeTermId);
}

export interface HistoryRequest {
  policyId?: string;
  termId?: string;
  filter?: Record<string, unknown> | null;
  currentPage?: number;
  pageSize?: number;
  /** The day the history is shown as of (rows dated after it are hidden); today when absent. */
  asOf?: string;
}

export async function accountHistory(principal: Principal, request: HistoryRequest, now = clock.now()): Promise<AccountHistoryPage> {
  const today = todayIso(now);
  const policyId = request.policyId ?? (request.termId ? await policyIdOfTerm(request.termId) : undefined);
  if (!policyId) throw new NotFoundError(`Policy term ${request.termId}`);
  const { policy, terms } = await policyWithinReach(principal, { policyId });
  const term = request.termId ? terms.find((candidate) => candidate.id === request.termId) : termOn(policy, terms, today);
  if (!term) throw new NotFoundError(`Policy term ${request.termId ?? ''}`.trim());
  const loaded = await loadAccount(policy.id, term.id);
  const entries = loaded?.entries ?? [];
  // Rows billed later (installments not yet due to be billed) are not shown until their bill date;
  // the first invoice is, from issue on, even when the term starts later.
  const firstBill = entries.filter((entry) => entry.type === 'Invoice').map((entry) => entry.date).sort()[0];
  const asOf = request.asOf ?? (firstBill && firstBill > today ? firstBill : today);
  return accountHistoryPage(entries, { filter: request.filter, currentPage: request.currentPage, pageSize: request.pageSize, asOf });
}

// ---------------------------------------------------------------- payments

/**
 * The account a payment to a policy goes to: of its active term and the renewal made of it,
 * the earliest that owes (an unpaid installment of the ending term before the renewal's first
 * invoice); when none owes, the latest (a payment ahead of the renewal's invoices waits there).
 */
async function accountOfPolicy(policy: PolicyRecord, terms: readonly TermRecord[]): Promise<LoadedAccount> {
  const active = terms.find((term) => term.id === policy.activeTermId);
  const termIds = [policy.activeTermId, ...(active?.renewal?.state === 'committed' && !active.renewal.inForce ? [active.renewal.termId] : [])];
  const loaded = (await Promise.all(termIds.map((termId) => loadAccount(policy.id, termId)))).filter((found): found is LoadedAccount => !!found);
  if (loaded.length === 0) throw new BusinessRuleError(`Policy ${policy.policyNumber} has not been issued; it has no account to pay into`);
  const paying = payingAccount(loaded.map((found) => found.account));
  return loaded.find((found) => found.account === paying)!;
}

/** Of one policy's accounts, the one a payment goes to: the earliest owing that is not cancelled, else the latest. */
export function payingAccount<T extends Pick<BillingAccount, 'effectiveDate' | 'balanceCents' | 'policyStatus'>>(accounts: readonly T[]): T {
  const inOrder = [...accounts].sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
  return inOrder.find((account) => account.balanceCents > 0 && account.policyStatus !== 'Cancelled') ?? inOrder.at(-1)!;
}

export class MissingPaymentFieldError extends BusinessRuleError {}

export interface ManualPayment {
  policyNumber?: string;
  amount?: string | number;
  paymentType?: string;
  depositDate?: string;
}

/** makeManualPolicyPayment: posts an already-collected payment (row, balance and note in one transaction). */
export async function makeManualPayment(principal: Principal, request: ManualPayment, now = clock.now()): Promise<{ paymentId: string }> {
  if (!request.policyNumber) throw new MissingPaymentFieldError('A policy number must be submitted');
  if (request.amount === undefined || request.amount === null || request.amount === '') throw new MissingPaymentFieldError('An amount must be submitted');
  let amountCents: Cents;
  try {
    amountCents = parsePaymentAmount(request.amount);
  } catch (error) {
    if (error instanceof InvalidPaymentAmountError) throw new BusinessRuleError(`amount: ${error.detail}`);
    throw error;
  }
  const { policy, terms } = await policyWithinReach(principal, { policyNumber: request.policyNumber });
  const paying = await accountOfPolicy(policy, terms);
  const { account } = paying;
  const at = instant(now);
  const entry = paymentEntry(entryContext(principal.contactId, statusOf(account, todayIso(now)), at), {
    date: request.depositDate ?? todayIso(now),
    amountCents,
    paymentType: request.paymentType,
  });
  const note = newNote({
    policyId: policy.id, termId: account.termId, createdBy: principal.contactId, createdAt: at, agencyId: policy.agencyId, contactIds: policy.contactIds,
    text: `Manual payment of ${formatCents(amountCents)}${request.paymentType ? ` (${request.paymentType})` : ''} posted`,
  });
  await writePosting({ account, prior: paying, entries: [entry], locatePayments: [entry.id], handed: [notePut(note), paymentPostedEvent(account, entry)] });
  recordMoneyMove('PaymentsPosted');
  return { paymentId: entry.id };
}

/** payment.posted for integrators (shared/events), in the posting's transaction. */
function paymentPostedEvent(account: BillingAccount, entry: AccountEntry) {
  return eventWrite({
    type: 'payment.posted', policyId: account.policyId, policyNumber: account.policyNumber, agencyId: account.agencyId, transactionId: entry.id, occurredAt: entry.postedAt,
    data: { term_id: account.termId, amount: amountOf(-entry.amountCents), deposit_date: entry.date, check_number: entry.checkNumber ?? null },
  });
}


// ---------------------------------------------------------------- NSF

export interface NsfRequestWire {
  paymentId: string;
  policyId?: string;
  dueMonth?: string;
  dueDay?: string;
  dueYear?: string;
  assessFee?: string | number;
  allowCancel: boolean;
}

/** storeNSF: the payment is reversed (treated as never made), the NSF fee debited or waived, the cancellation allowed or postponed. */
export async function storeNsf(principal: Principal, request: NsfRequestWire, now = clock.now()): Promise<{ reversalId: string; feeId: string }> {
  const located = await findPayment(request.paymentId);
  if (!located || (request.policyId && request.policyId !== located.policyId)) throw new NotFoundError(`Payment ${request.paymentId}`);
  const { policy } = await policyWithinReach(principal, { policyId: located.policyId });
  const loaded = await loadAccount(policy.id, located.termId);
  if (!loaded) throw new NotFoundError(`Payment ${request.paymentId}`);
  const settings = await billingSettings();
  const today = todayIso(now);
  const status = statusOf(loaded.account, today);
  const [reversal, fee] = nsfEntries(
    loaded.entries,
    {
      paymentId: request.paymentId,
      reversedOn: today,
      dueDate: nsfDueDate(request),
      feeCents: nsfFeeToDebit(request.assessFee, settings.nsfFeeCents),
      allowCancel: request.allowCancel,
    },
    { reversal: entryContext(principal.contactId, status, instant(now)), fee: entryContext(principal.contactId, status, instant(now, 1)) },
  );
  const payment = loaded.entries.find((entry) => entry.id === request.paymentId)!;
  const note = newNote({
    policyId: policy.id, termId: located.termId, createdBy: principal.contactId, createdAt: instant(now), agencyId: policy.agencyId, contactIds: policy.contactIds,
    text: `Payment of ${formatCents(-payment.amountCents)} returned for non-sufficient funds; ${fee.waived ? 'NSF fee waived' : `NSF fee ${formatCents(fee.amountCents)} charged`}; cancellation ${request.allowCancel ? 'allowed' : `postponed until ${reversal.dueDate}`}`,
  });
  await writePosting({
    account: loaded.account,
    prior: loaded,
    entries: [reversal, fee],
    guardVersion: true,
    releaseChecks: payment.checkNumber ? [payment.checkNumber] : [],
    handed: [
      notePut(note),
      eventWrite({
        type: 'payment.reversed', policyId: policy.id, policyNumber: loaded.account.policyNumber, agencyId: loaded.account.agencyId, transactionId: reversal.id, occurredAt: reversal.postedAt,
        data: { term_id: located.termId, payment_id: request.paymentId, amount: amountOf(reversal.amountCents), nsf_fee: amountOf(fee.amountCents), reason: 'nsf' },
      }),
    ],
  });
  return { reversalId: reversal.id, feeId: fee.id };
}

// ---------------------------------------------------------------- lockbox

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
 * account, lockbox-due record and note, and (a file applied in chunks) one item of its lines' answers (24 × 4 + 4 ≤ 100).
 */
const LOCKBOX_PAYMENTS_PER_POSTING = 24;

/** One account per policy: the one its payments go to (payingAccount). */
function latestPerPolicy(accounts: readonly BillingAccount[]): BillingAccount[] {
  const byPolicy = new Map<string, BillingAccount[]>();
  for (const account of accounts) byPolicy.set(account.policyId, [...(byPolicy.get(account.policyId) ?? []), account]);
  return [...byPolicy.values()].map((candidates) => payingAccount(candidates));
}

/** Lockbox-due records read in one query page: a page of 1,000 records stays under DynamoDB's 1 MB. */
const LOCKBOX_DUES_PER_PAGE = 1000;
/**
 * The most matchfile lines one answer carries (also the largest page_size): 25,000 lines of at
 * most ~140 bytes stay well under Lambda's 6 MB answer.
 */
export const MATCHFILE_LINES_PER_ANSWER = 25_000;

/** The matchfile is larger than one answer carries: it is asked for in pages. */
export class MatchfileTooLargeError extends BusinessRuleError {
  constructor() {
    super(`The matchfile has more lines than the ${MATCHFILE_LINES_PER_ANSWER} one answer carries: ask for it in pages with page_size (at most ${MATCHFILE_LINES_PER_ANSWER}) and each answer's next_page_token as page_token`);
    this.name = 'MatchfileTooLargeError';
  }
}

/** A page_token that no answer gave. */
export class InvalidPageTokenError extends BusinessRuleError {
  constructor() {
    super('page_token: not a token a matchfile answer gave (ask again from the first page, without page_token)');
    this.name = 'InvalidPageTokenError';
  }
}

/** Where a paged matchfile read stands: the shard being read and the last record key taken from it. */
export interface MatchfileCursor {
  shard: number;
  afterSk?: string;
}

export function encodePageToken(cursor: MatchfileCursor): string {
  return Buffer.from(JSON.stringify(cursor.afterSk === undefined ? [cursor.shard] : [cursor.shard, cursor.afterSk])).toString('base64url');
}

export function decodePageToken(token: string): MatchfileCursor {
  try {
    const [shard, afterSk] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    if (typeof shard !== 'number' || !Number.isInteger(shard) || shard < 0 || shard >= LOCKBOX_DUE_SHARDS) throw new InvalidPageTokenError();
    if (afterSk !== undefined && (typeof afterSk !== 'string' || afterSk.length > 400)) throw new InvalidPageTokenError();
    return afterSk === undefined ? { shard } : { shard, afterSk: afterSk as string };
  } catch {
    throw new InvalidPageTokenError();
  }
}

/**
 * Lockbox-due records of one shard from `cursor`, whole policies only (a policy's terms are read
 * together: which one the matchfile shows depends on all of them), until at least `wanted` lines
 * are found or the shard ends. Answers the lines and where the next read starts (none at the shard's end).
 */
async function matchfileLinesOfShard(
  cursor: MatchfileCursor,
  wanted: number,
  asOf: string,
  found: { lines: number; limit: number } = { lines: 0, limit: Number.POSITIVE_INFINITY },
): Promise<{ records: Array<{ policyNumber: string; record: LockboxMatchRecord }>; next?: MatchfileCursor }> {
  const records: Array<{ policyNumber: string; record: LockboxMatchRecord }> = [];
  let afterSk = cursor.afterSk;
  let pending: Array<LockboxDue & { sk: string }> = [];
  for (;;) {
    // Each record gives at most one line: reading no more records than lines still wanted, a page never holds more than asked.
    const page = await lockboxDuePage(cursor.shard, { afterSk, limit: Math.min(LOCKBOX_DUES_PER_PAGE, Math.max(1, wanted - records.length)) });
    const read = [...pending, ...page.dues];
    // The last policy of a page that did not end the shard may go on in the next page: kept for it.
    const lastPolicy = page.lastSk ? read.at(-1)?.policyId : undefined;
    const whole = lastPolicy ? read.filter((due) => due.policyId !== lastPolicy) : read;
    pending = lastPolicy ? read.filter((due) => due.policyId === lastPolicy) : [];
    const lines = matchfileLinesOf(whole, asOf);
    records.push(...lines);
    found.lines += lines.length;
    // Shards read in parallel count their lines together: past the limit, none reads on.
    if (!page.lastSk || found.lines > found.limit) return { records };
    afterSk = page.lastSk;
    if (records.length >= wanted && whole.length > 0) return { records, next: { shard: cursor.shard, afterSk: whole.at(-1)!.sk } };
  }
}

/** retrieve_lockbox_matchfile_info, whole: every policy with an amount due, amounts in pennies, in policy-number order. */
export async function lockboxMatchfile(now = clock.now()): Promise<LockboxMatchRecord[]> {
  const today = todayIso(now);
  const found = { lines: 0, limit: MATCHFILE_LINES_PER_ANSWER };
  const shards = await Promise.all(Array.from({ length: LOCKBOX_DUE_SHARDS }, (_, shard) => matchfileLinesOfShard({ shard }, Number.POSITIVE_INFINITY, today, found)));
  if (found.lines > MATCHFILE_LINES_PER_ANSWER) throw new MatchfileTooLargeError();
  return shards
    .flatMap((shard) => shard.records)
    .sort((a, b) => a.policyNumber.localeCompare(b.policyNumber))
    .map((line) => line.record);
}

/**
 * retrieve_lockbox_matchfile_info, one page: `pageSize` lines (fewer only on the last page), in
 * shard order, and the token of the next page (null after the last). Every owing policy is on
 * exactly one page of a walk from the first page to the last.
 */
export async function lockboxMatchfilePage(request: { pageSize: number; pageToken?: string }, now = clock.now()): Promise<{ records: LockboxMatchRecord[]; nextPageToken: string | null }> {
  const today = todayIso(now);
  let cursor: MatchfileCursor | undefined = request.pageToken ? decodePageToken(request.pageToken) : { shard: 0 };
  const records: LockboxMatchRecord[] = [];
  while (cursor && records.length < request.pageSize) {
    const read = await matchfileLinesOfShard(cursor, request.pageSize - records.length, today);
    records.push(...read.records.map((line) => line.record));
    cursor = read.next ?? (cursor.shard + 1 < LOCKBOX_DUE_SHARDS ? { shard: cursor.shard + 1 } : undefined);
  }
  return { records, nextPageToken: cursor ? encodePageToken(cursor) : null };
}

/**
 * apply_lockbox_payment_transactions (and each chunk of a large file): one result per transaction,
 * in order. The accounts are read in a few BatchGetItem calls (readLockboxAccounts), every line is
 * judged by the one rule (decideLockboxTransactions), and accepted payments are posted a posting per
 * policy (up to 24 payments), each holding its check numbers: the postings of several policies share
 * a transaction, and when it fails each is posted alone, where a check that another request posted
 * meanwhile answers `error` on its line and the rest of that policy's posting is posted again.
 */
export interface LockboxApplication {
  /**
   * Writes that record the success of the given lines (their index in `transactions`), handed to
   * the transaction that posts them (once per transaction, with all its lines): a file applied in
   * chunks keeps each line's answer with its money, so a chunk interrupted and delivered again
   * answers exactly what it answered the first time.
   */
  recordSuccess?: (lines: readonly number[]) => TransactionWrite[];
}

export async function applyLockboxTransactions(transactions: readonly unknown[], now = clock.now(), application: LockboxApplication = {}): Promise<LockboxTransactionResult[]> {
  const today = todayIso(now);
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
  // An account is judged and posted from its lockbox-due record (what its rows owe) with the checks
  // posted to its term; one without a record of the version read (or owing nothing) is read whole.
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
  const loadedById = new Map<string, LoadedAccount>();
  const accounts = judged
    .filter((found): found is NonNullable<typeof found> => !!found)
    .map(({ loaded, postedChecks }) => {
      loadedById.set(loaded.account.policyNumber, loaded);
      const account = lockboxAccount({ policyNumber: loaded.account.policyNumber, policyStatus: statusOf(loaded.account, today) }, loaded.entries, today);
      return postedChecks ? { ...account, postedChecks } : account;
    });
  const decisions = decideLockboxTransactions(transactions, accounts);
  const results = decisions.map((decision) => decision.outcome);

  const perPolicy = new Map<string, number[]>();
  decisions.forEach((decision, index) => {
    if (decision.payment) perPolicy.set(decision.payment.policyNumber, [...(perPolicy.get(decision.payment.policyNumber) ?? []), index]);
  });
  const chunksPerPolicy = new Map<string, number[][]>();
  for (const [policyNumber, lines] of perPolicy) {
    const policyChunks: number[][] = [];
    for (let start = 0; start < lines.length; start += LOCKBOX_PAYMENTS_PER_POSTING) policyChunks.push(lines.slice(start, start + LOCKBOX_PAYMENTS_PER_POSTING));
    chunksPerPolicy.set(policyNumber, policyChunks);
  }
  const at = instant(now);

  /** The posting of some of the lines of one policy on its account as `state` holds it; with their answers unless the shared transaction records them. */
  const lockboxPosting = (state: LoadedAccount, lines: readonly number[], answers = true): Posting => {
    const { account } = state;
    const entries = lines.map((line, offset) => {
      const payment = decisions[line].payment!;
      return paymentEntry(entryContext('lockbox', statusOf(account, today), instant(now, offset)), { date: today, amountCents: payment.amountCents, checkNumber: payment.checkNumber });
    });
    const total = sum(entries.map((entry) => -entry.amountCents));
    const note = newNote({
      policyId: account.policyId, termId: account.termId, createdBy: 'lockbox', createdAt: at, agencyId: account.agencyId, contactIds: account.contactIds,
      text: `Lockbox: ${entries.length} payment${entries.length === 1 ? '' : 's'} of ${formatCents(total)} posted (check ${entries.map((entry) => entry.checkNumber).join(', ')})`,
    });
    return {
      account,
      prior: state,
      entries,
      holdChecks: entries.map((entry) => entry.checkNumber!),
      locatePayments: entries.map((entry) => entry.id),
      handed: [notePut(note), ...entries.map((entry) => paymentPostedEvent(account, entry)), ...((answers && application.recordSuccess?.(lines)) || [])],
    };
  };

  /** Posts lines of one policy alone (writePosting): a check another request posted meanwhile answers `error` on its line and the rest is posted again. */
  const postAlone = async (state: LoadedAccount, lines: readonly number[]): Promise<LoadedAccount> => {
    let pending = lines;
    while (pending.length > 0) {
      try {
        const after = await writePosting(lockboxPosting(state, pending));
        recordMoneyMove('PaymentsPosted', pending.length);
        return after;
      } catch (error) {
        if (!(error instanceof CheckAlreadyPostedError)) throw error;
        const line = pending.find((candidate) => decisions[candidate].payment!.checkNumber === error.checkNumber)!;
        results[line] = { result: 'error', detail: error.messages[0] };
        pending = pending.filter((candidate) => candidate !== line);
      }
    }
    return state;
  };

  // A policy with one posting (most of a file: a check or a few per policy) shares a transaction with
  // other such policies, up to DynamoDB's 100 writes; when the shared one fails (an account changed
  // since it was read, a check posted meanwhile), nothing was written and each is posted alone, so
  // every line is answered as it would be alone.
  const groups: Array<Array<{ state: LoadedAccount; lines: number[]; posting: Posting }>> = [];
  let group: (typeof groups)[number] = [];
  // The shared transaction's answers item, when the lines' answers are recorded.
  const answersWrites = application.recordSuccess ? 1 : 0;
  let writes = answersWrites;
  const several: Array<[string, number[][]]> = [];
  for (const [policyNumber, policyChunks] of chunksPerPolicy) {
    if (policyChunks.length > 1) {
      several.push([policyNumber, policyChunks]);
      continue;
    }
    const state = loadedById.get(policyNumber)!;
    const posting = lockboxPosting(state, policyChunks[0], false);
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

  await Promise.all([
    mapLimited(groups, LOCKBOX_GROUPS_AT_ONCE, async (members) => {
      const lines = members.flatMap((member) => member.lines);
      if (members.length > 1 && (await writePostingsTogether(members.map((member) => member.posting), application.recordSuccess?.(lines) ?? []))) {
        recordMoneyMove('PaymentsPosted', sum(members.map((member) => member.lines.length)));
        return;
      }
      await mapLimited(members, LOCKBOX_POSTINGS_AT_ONCE, (member) => postAlone(member.state, member.lines));
    }),
    // One policy's postings one after another (each writes its account's lockbox-due record under
    // the version the one before left); different policies in parallel.
    mapLimited(several, LOCKBOX_POSTINGS_AT_ONCE, async ([policyNumber, policyChunks]) => {
      let state = loadedById.get(policyNumber)!;
      for (const lines of policyChunks) state = await postAlone(state, lines);
    }),
  ]);
  return results;
}

// ---------------------------------------------------------------- payors

export interface PotentialPayor {
  policy_id: string;
  policy_number: string;
  contact_id: string;
  contact_name: string;
  contact_role: 'named_insured' | 'finance_company' | 'addtl_interest' | 'mortgagee';
}


/** retrieve_potential_policies_payors: who may pay each policy the caller reaches (unknown numbers are skipped). */
export async function potentialPayors(principal: Principal, policyNumbers: readonly string[]): Promise<PotentialPayor[]> {
  const perPolicy = await mapLimited([...new Set(policyNumbers)], 8, async (policyNumber) => {
    let policy: PolicyRecord;
    try {
      ({ policy } = await policyWithinReach(principal, { policyNumber }));
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
    const revision = await loadRevision(policy.activeRevisionId);
    const candidates: Array<{ contactId: string; role: PotentialPayor['contact_role'] }> = [
      ...policy.contacts.namedInsuredIds.map((contactId) => ({ contactId, role: 'named_insured' as const })),
      ...policy.contacts.additionalInterestIds.map((contactId) => ({ contactId, role: 'addtl_interest' as const })),
      ...(revision?.mortgagees ?? []).map((mortgagee) => ({ contactId: mortgagee.contactId, role: 'mortgagee' as const })),
    ];
    const known = new Set(candidates.map((candidate) => candidate.contactId));
    const summaries = await getContactSummaries([...new Set([...known, ...policy.contactIds])]);
    for (const contactId of policy.contactIds) {
      if (!known.has(contactId) && summaries.get(contactId)?.roleIds.includes(FINANCE_COMPANY_ROLE_ID)) candidates.push({ contactId, role: 'finance_company' });
    }
    const seen = new Set<string>();
    return candidates
      .filter((candidate) => {
        const key = `${candidate.contactId}|${candidate.role}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((candidate) => ({
        policy_id: policy.id,
        policy_number: policy.policyNumber,
        contact_id: candidate.contactId,
        contact_name: summaries.get(candidate.contactId)?.name ?? '',
        contact_role: candidate.role,
      }));
  });
  return perPolicy.flat();
}

