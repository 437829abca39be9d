/**
 * Money coming in and going back: the account history, manual payments (the account a payment to
 * a policy goes to), an NSF (the payment reversed, the fee debited or waived) and who may pay a
 * policy. Each posting is one transaction with its rows, its note and its event (store.ts writePosting).
 */
import { FINANCE_COMPANY_ROLE_ID, getContactSummaries } from '../contacts/index.js';
import { clock } from '../platform/clock.js';
import { amountOf, eventOf } from '../events/index.js';
import { readClosedMonths } from '../books/index.js';
import { noteOf } from '../notes/index.js';
import { mapLimited } from '../platform/concurrency.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { recordMoneyMove } from '../platform/metrics.js';
import { formatCents, type Cents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { loadRevision, policyWithinReach, policyWithinReachWith, type PolicyRecord, type TermRecord } from '../policies/index.js';
import { accountHistoryPage, paymentEntry } from './account-history.js';
import { billingSettings } from './installment-plans.js';
import { InvalidPaymentAmountError, parsePaymentAmount, statusOf } from './lockbox.js';
import type { AccountEntry, AccountHistoryPage, BillingAccount, PaymentJoin } from './model.js';
import { nsfDueDate, nsfEntries, nsfFeeToDebit } from './nsf.js';
import { entryContext, instant } from './posting-context.js';
import { findPayment, loadAccount, loadAccountsOfPolicy, policyIdOfTerm, writePosting, type LoadedAccount } from './store.js';
import { refundOwedWrites } from './refund-owed.js';

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
async function accountOfPolicy(policy: PolicyRecord, terms: readonly TermRecord[], read: { accounts: ReadonlyMap<string, LoadedAccount>; complete: boolean }): Promise<LoadedAccount> {
  const active = terms.find((term) => term.id === policy.activeTermId);
  const termIds = [policy.activeTermId, ...(active?.renewal?.state === 'committed' && !active.renewal.inForce ? [active.renewal.termId] : [])];
  // A term the partial read did not hold whole is read on its own.
  const found = await Promise.all(termIds.map((termId) => read.accounts.get(termId) ?? (read.complete ? undefined : loadAccount(policy.id, termId))));
  const loaded = found.filter((account): account is LoadedAccount => !!account);
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
export async function makeManualPayment(principal: Principal, request: ManualPayment, now = clock.now(), joins: readonly PaymentJoin[] = []): Promise<{ paymentId: string }> {
  if (!request.policyNumber) throw new MissingPaymentFieldError('A policy number must be submitted');
  if (request.amount === undefined || request.amount === null || request.amount === '') throw new MissingPaymentFieldError('An amount must be submitted');
  let amountCents: Cents;
  try {
    amountCents = parsePaymentAmount(request.amount);
  } catch (error) {
    if (error instanceof InvalidPaymentAmountError) throw new BusinessRuleError(`amount: ${error.detail}`);
    throw error;
  }
  // A payment posts to the books: their closed months are read beside the policy and its account.
  readClosedMonths();
  // The policy's accounts are read from its id beside the policy itself: which of them is paid is decided from its terms.
  const { policy, terms, beside: accounts } = await policyWithinReachWith(principal, { policyNumber: request.policyNumber }, loadAccountsOfPolicy);
  const paying = await accountOfPolicy(policy, terms, accounts);
  const { account } = paying;
  const at = instant(now);
  const entry = paymentEntry(entryContext(principal.contactId, statusOf(account, todayIso(now)), at), {
    date: request.depositDate ?? todayIso(now),
    amountCents,
    paymentType: request.paymentType,
  });
  const note = noteOf({
    policyId: policy.id, termId: account.termId, createdBy: principal.contactId, createdAt: at, agencyId: policy.agencyId, contactIds: policy.contactIds,
    text: `Manual payment of ${formatCents(amountCents)}${request.paymentType ? ` (${request.paymentType})` : ''} posted`,
  });
  // A payment above what the term owes leaves a credit: above the threshold it is refunded, in the payment's transaction,
  // written under the account's version so the credit it is worked from is the one the payment leaves.
  const overpaid = await overpaymentRefund(account, entry, now);
  // The areas joined to a payment (commission earned as collected), in its transaction.
  const posted = { policyId: account.policyId, termId: account.termId, policyNumber: account.policyNumber, agencyId: account.agencyId, paymentId: entry.id, amountCents: -entry.amountCents, date: entry.date, postedAt: entry.postedAt };
  const joined = (await Promise.all(joins.map((join) => join(posted)))).flat();
  const guarded = overpaid.length + joined.length > 0;
  await writePosting({ account, prior: paying, entries: [entry], locatePayments: [entry.id], handed: [note, paymentPostedEvent(account, entry), ...overpaid, ...joined], ...(guarded ? { guardVersion: true } : {}) });
  await recordMoneyMove('PaymentsPosted');
  return { paymentId: entry.id };
}

/** The pending refund of the credit a payment leaves on the account, if above the threshold (no writes otherwise). */
async function overpaymentRefund(account: BillingAccount, payment: AccountEntry, now: Date) {
  const creditCents = -(account.balanceCents + payment.amountCents);
  if (creditCents <= 0) return [];
  return refundOwedWrites({
    account,
    creditCents,
    reason: `Overpayment: payment of ${formatCents(-payment.amountCents)} on ${payment.date} above the ${formatCents(Math.max(0, account.balanceCents))} owed`,
    date: todayIso(now),
    createdAt: instant(now, 1),
  });
}

/** payment.posted for integrators (shared/events), in the posting's transaction. */
export function paymentPostedEvent(account: BillingAccount, entry: AccountEntry) {
  return eventOf({
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
export async function storeNsf(principal: Principal, request: NsfRequestWire, now = clock.now(), joins: readonly PaymentJoin[] = []): Promise<{ reversalId: string; feeId: string }> {
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
  const note = noteOf({
    policyId: policy.id, termId: located.termId, createdBy: principal.contactId, createdAt: instant(now), agencyId: policy.agencyId, contactIds: policy.contactIds,
    text: `Payment of ${formatCents(-payment.amountCents)} returned for non-sufficient funds; ${fee.waived ? 'NSF fee waived' : `NSF fee ${formatCents(fee.amountCents)} charged`}; cancellation ${request.allowCancel ? 'allowed' : `postponed until ${reversal.dueDate}`}`,
  });
  // The areas joined to a payment see its reversal as a payment taken back (commission earned on it, on the collected basis, charged back).
  const reversed = { policyId: policy.id, termId: located.termId, policyNumber: loaded.account.policyNumber, agencyId: loaded.account.agencyId, paymentId: reversal.id, amountCents: -reversal.amountCents, date: reversal.date, postedAt: reversal.postedAt };
  const joined = (await Promise.all(joins.map((join) => join(reversed)))).flat();
  await writePosting({
    account: loaded.account,
    prior: loaded,
    entries: [reversal, fee],
    guardVersion: true,
    releaseChecks: payment.checkNumber ? [payment.checkNumber] : [],
    handed: [
      note,
      eventOf({
        type: 'payment.reversed', policyId: policy.id, policyNumber: loaded.account.policyNumber, agencyId: loaded.account.agencyId, transactionId: reversal.id, occurredAt: reversal.postedAt,
        data: { term_id: located.termId, payment_id: request.paymentId, amount: amountOf(reversal.amountCents), nsf_fee: amountOf(fee.amountCents), reason: 'nsf' },
      }),
      ...joined,
    ],
  });
  return { reversalId: reversal.id, feeId: fee.id };
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
