/**
 * Billing's part of an endorsement (billingAtEndorsement in joins-moves.ts): ONE Endorsement row carrying
 * the additional (or return) premium, which moves the running balance by that amount at once,
 * written in the endorsement's transaction under the account's version. How it is then owed
 * follows the schedule: an additional premium is spread over the installments not yet billed
 * (Full Pay, or nothing left unbilled: owed on its own, due in the carrier's usual days); a
 * return premium is a credit, and a credit the account no longer needs above the carrier's
 * threshold is marked for refund as return premium.
 */
import { randomUUID } from 'node:crypto';
import type { AreaPart, EndorsedRevision, JoinMode } from '../lifecycle/index.js';
import { addDays } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { formatCents, toAmount, type Cents } from '../platform/money.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { spreadOverInstallments, type InstallmentShare } from '../policies/index.js';
import { accountEntry } from './account-history.js';
import type { AccountEntry, BillingAccount } from './model.js';
import { billingSettings } from './installment-plans.js';
import { accountAsRead, loadAccount, postingWrites } from './store.js';

export interface EndorsementBilling {
  row: AccountEntry;
  /** Installments that take a share of an additional premium, with their new amounts. */
  shares: InstallmentShare[];
  /** Full Pay (or nothing unbilled): the additional premium is billed on its own, due then. */
  ownInvoice: { billDate: string; dueDate: string; amountCents: Cents } | null;
  /** A return premium: the credit beyond everything still owed on the term, and whether it is refunded. */
  creditCents: Cents;
  refundCents: Cents;
}

/** The Endorsement row and how it is owed, from the account's rows. Pure. */
export function endorsementBilling(
  endorsed: Pick<EndorsedRevision, 'revisionDate' | 'commitDate' | 'committedAt' | 'premiumChangeCents' | 'feeChangeCents'>,
  account: Pick<BillingAccount, 'balanceCents' | 'policyStatus'>,
  entries: readonly AccountEntry[],
  rules: { billDaysBeforeDue: number; refundThresholdCents: Cents },
  context: { id: string; generatedBy: string },
  /** A reversal's return premium is taken back from the installments not yet billed, as the change it reverses was spread over them. */
  how: { takeBack?: boolean } = {},
): EndorsementBilling {
  const today = endorsed.commitDate;
  const amountCents = endorsed.premiumChangeCents + endorsed.feeChangeCents;
  const unbilled = entries
    .filter((entry) => entry.type === 'Invoice' && (entry.billDate ?? entry.date) > today)
    .sort((a, b) => (a.installmentNumber ?? 0) - (b.installmentNumber ?? 0))
    .map((entry) => ({ number: entry.installmentNumber ?? 0, billDate: entry.billDate ?? entry.date, dueDate: entry.dueDate ?? entry.date, amountCents: entry.amountCents }));
  const additional = amountCents > 0;
  const takenBack = how.takeBack === true && amountCents < 0;
  const shares = additional || takenBack ? spreadOverInstallments(amountCents, unbilled) : [];
  const ownInvoice = additional && shares.length === 0 ? { billDate: today, dueDate: addDays(today, rules.billDaysBeforeDue), amountCents } : null;
  const creditCents = amountCents < 0 && !shares.length ? Math.max(0, -(account.balanceCents + amountCents)) : 0;
  const refundCents = creditCents > rules.refundThresholdCents ? creditCents : 0;
  const what = additional ? 'Additional premium' : amountCents < 0 ? 'Return premium' : 'No premium change';
  let description: string;
  if (shares.length) {
    description = takenBack
      ? `${what} ${formatCents(-amountCents)} taken back from installments ${shares.map((share) => `${share.number} (${formatCents(share.shareCents)})`).join(', ')}`
      : `${what} ${formatCents(amountCents)} billed with installments ${shares.map((share) => `${share.number} (+${formatCents(share.shareCents)})`).join(', ')}`;
  } else if (ownInvoice) {
    description = `${what} ${formatCents(amountCents)} invoiced, due ${ownInvoice.dueDate}`;
  } else if (amountCents < 0) {
    description = `${what} ${formatCents(-amountCents)} credited${refundCents ? `; ${formatCents(refundCents)} to be refunded as return premium` : ''}`;
  } else {
    description = what;
  }
  const row = accountEntry(
    { id: context.id, postedAt: endorsed.committedAt, generatedBy: context.generatedBy, policyStatus: account.policyStatus },
    {
      type: 'Endorsement',
      date: today,
      amountCents,
      summary: `Endorsement effective ${endorsed.revisionDate}: ${amountCents < 0 ? 'return' : 'additional'} premium ${formatCents(Math.abs(amountCents))}`,
      description,
      ...(ownInvoice ? { billDate: ownInvoice.billDate, dueDate: ownInvoice.dueDate } : {}),
      ...(shares.length
        ? { installmentShares: shares.map((share) => ({ installmentNumber: share.number, billDate: share.billDate, dueDate: share.dueDate, amountCents: share.shareCents })) }
        : {}),
    },
  );
  return { row, shares, ownInvoice, creditCents, refundCents };
}

function previewOf(billing: EndorsementBilling, account: BillingAccount) {
  return {
    balance_before: toAmount(account.balanceCents),
    balance_after: toAmount(account.balanceCents + billing.row.amountCents),
    endorsement_row: { amount: toAmount(billing.row.amountCents), summary: billing.row.summary, description: billing.row.description },
    installments_respread: billing.shares.map((share) => ({
      installment: share.number,
      bill_date: share.billDate,
      due_date: share.dueDate,
      amount_before: toAmount(share.amountCents - share.shareCents),
      amount_after: toAmount(share.amountCents),
      share: toAmount(share.shareCents),
    })),
    new_invoice: billing.ownInvoice ? { amount: toAmount(billing.ownInvoice.amountCents), bill_date: billing.ownInvoice.billDate, due_date: billing.ownInvoice.dueDate } : null,
    credit: toAmount(billing.creditCents),
    refund: toAmount(billing.refundCents),
  };
}

export type EndorsementPosting = (loaded: NonNullable<Awaited<ReturnType<typeof loadAccount>>>, row: AccountEntry, billing: EndorsementBilling) => TransactionWrite[] | Promise<TransactionWrite[]>;

/** Reads the account and works the Endorsement row out; `posting` (absent for a preview) turns it into writes. */
export async function endorsementPart(endorsed: EndorsedRevision, mode: JoinMode, posting?: EndorsementPosting, how: { takeBack?: boolean } = {}): Promise<AreaPart> {
  const [loaded, settings] = await Promise.all([accountAsRead(endorsed.policyId, endorsed.termId, endorsed.reads), billingSettings()]);
  if (!loaded) throw new BusinessRuleError(`Policy ${endorsed.policyNumber} has no billing account for this term; it cannot be endorsed`);
  const billing = endorsementBilling(endorsed, loaded.account, loaded.entries, {
    billDaysBeforeDue: settings.rules.billDaysBeforeDue,
    refundThresholdCents: settings.refundThresholdCents,
  }, { id: randomUUID(), generatedBy: 'system' }, how);
  return {
    area: 'billing',
    writes: mode.preview || !posting ? [] : await posting(loaded, billing.row, billing),
    preview: previewOf(billing, loaded.account),
  };
}
