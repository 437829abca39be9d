/**
 * A credit the carrier owes becoming a refund: whatever left it (a cancellation's or an
 * endorsement's return premium, a payment above what the term owes), the part of the credit not
 * already being refunded is paid out when it is above the carrier's refund threshold, as a pending
 * refund written in the same transaction as the move or posting; at or below it, it stays on the
 * account. The payee is the first named insured, or the revision's first mortgagee where the
 * product's return-premium rules say `refundPayee: mortgageeFirst`; the check is mailed to the
 * payee's mailing address (its first address, a mailing one first), else the insured property's.
 */
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import type { Cents } from '../platform/money.js';
import type { TransactionWrite } from '../platform/transactions.js';
import type { RevisionSnapshot } from '../policies/index.js';
import { billingSettings } from './installment-plans.js';
import type { BillingAccount, Refund } from './model.js';
import { refundPut } from './store.js';

/** What a credit above the threshold becomes (refund-pending.ts), loaded the first time one is. */
const pendingRefunds = /* @__PURE__ */ moduleOnFirstUse<typeof import('./refund-pending.js')>(new URL('./refund-pending.mjs', import.meta.url), new URL('./refund-pending.ts', import.meta.url));

export interface CreditOwed {
  account: Pick<BillingAccount, 'policyId' | 'termId' | 'policyNumber' | 'contactIds' | 'agencyId' | 'revisionId'>;
  /** The credit the account will hold once the move or posting is written (positive cents). */
  creditCents: Cents;
  /** The revision whose mortgagees and property the payee is read from (the account's when absent). */
  revisionId?: string;
  namedInsuredContactIds?: readonly string[];
  /** That revision as the move read it (not read again). */
  revision?: RevisionSnapshot;
  reason: string;
  /** The day of the move or posting that owes it. */
  date: string;
  createdAt: string;
}

/** The pending refund a credit owes, if any: its part not already being refunded, above the threshold. */
export async function refundOwed(owed: CreditOwed): Promise<Refund | undefined> {
  const settings = await billingSettings();
  if (owed.creditCents <= settings.refundThresholdCents) return undefined;
  return (await pendingRefunds()).pendingRefundOf(owed, settings);
}

/** The writes of the refund a credit owes (none when it stays on the account). */
export async function refundOwedWrites(owed: CreditOwed): Promise<TransactionWrite[]> {
  const refund = await refundOwed(owed);
  return refund ? refundPut(refund) : [];
}
