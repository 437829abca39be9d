/**
 * A credit the carrier owes becoming a refund: whatever left it (a cancellation's or an
 * endorsement's return premium, a payment above what the term owes), the part of the credit not
 * already being refunded is paid out when it is above the carrier's refund threshold, as a pending
 * refund written in the same transaction as the move or posting; at or below it, it stays on the
 * account. The payee is the first named insured, or the revision's first mortgagee where the
 * product's return-premium rules say `refundPayee: mortgageeFirst`; the check is mailed to the
 * payee's mailing address (its first address, a mailing one first), else the insured property's.
 */
import { randomUUID } from 'node:crypto';
import { getContacts } from '../contacts/index.js';
import { sum, type Cents } from '../platform/money.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { loadRevision, type RevisionSnapshot } from '../policies/index.js';
import { billingSettings } from './installment-plans.js';
import type { BillingAccount, BillingSettings, Refund, RefundPayee } from './model.js';
import { listPolicyRefunds, refundPut } from './store.js';

/** Refund states still to be paid out: the credit they stand for is on the account until issued. */
const OUTSTANDING = new Set<Refund['state']>(['pending', 'approved']);

type Address = NonNullable<RefundPayee['mailingAddress']>;

interface StoredAddress {
  addressLine1: string;
  addressLine2?: string;
  addressCity?: string;
  addressState?: string;
  addressZip?: string;
  addressType?: string;
}

function addressOf(addresses: readonly StoredAddress[] | undefined): Address | undefined {
  const chosen = addresses?.find((address) => /mail/i.test(address.addressType ?? '')) ?? addresses?.[0];
  if (!chosen || !(chosen.addressLine1 || chosen.addressZip)) return undefined;
  return { line1: chosen.addressLine1, ...(chosen.addressLine2 ? { line2: chosen.addressLine2 } : {}), city: chosen.addressCity ?? '', state: chosen.addressState ?? '', zip: chosen.addressZip ?? '' };
}

function propertyAddress(snapshot: Pick<RevisionSnapshot, 'risks'> | undefined): Address | undefined {
  const ordered = [...(snapshot?.risks ?? [])].sort((a, b) => a.sequence - b.sequence);
  const risk = ordered.find((candidate) => candidate.primary) ?? ordered[0];
  if (!risk) return undefined;
  return { line1: risk.address_line1 ?? '', ...(risk.address_line2 ? { line2: risk.address_line2 } : {}), city: risk.address_city ?? '', state: risk.address_state ?? '', zip: risk.address_zip ?? '' };
}

/** Who a refund of the term is paid to, by the product's rule, and where its check goes (the revision as a move read it, when given). */
export async function refundPayee(namedInsuredContactIds: readonly string[], revisionId: string | undefined, settings: Pick<BillingSettings, 'cancellation'>, asRead?: RevisionSnapshot): Promise<RefundPayee> {
  const snapshot = !revisionId ? undefined : asRead?.header.id === revisionId ? asRead : await loadRevision(revisionId);
  const mortgagee = settings.cancellation.refundPayee === 'mortgageeFirst' ? snapshot?.mortgagees[0] : undefined;
  const contactId = mortgagee?.contactId ?? namedInsuredContactIds[0] ?? null;
  const contact = contactId ? (await getContacts([contactId])).get(contactId) : undefined;
  const mailingAddress = addressOf((contact as { addresses?: StoredAddress[] } | undefined)?.addresses) ?? (mortgagee ? undefined : propertyAddress(snapshot));
  return { contactId, name: contact?.name ?? '', role: mortgagee ? 'mortgagee' : 'named_insured', ...(mailingAddress ? { mailingAddress } : {}) };
}

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
  // Who would be paid is read beside the refunds already under way, not after them.
  const payeeRead = refundPayee(owed.namedInsuredContactIds ?? owed.account.contactIds, owed.revisionId ?? owed.account.revisionId, settings, owed.revision);
  payeeRead.catch(() => undefined);
  const outstanding = sum((await listPolicyRefunds(owed.account.policyId)).filter((refund) => refund.termId === owed.account.termId && OUTSTANDING.has(refund.state)).map((refund) => refund.amountCents));
  const amountCents = owed.creditCents - outstanding;
  if (amountCents <= settings.refundThresholdCents) return undefined;
  const payee = await payeeRead;
  return {
    refundId: randomUUID(),
    policyId: owed.account.policyId,
    termId: owed.account.termId,
    policyNumber: owed.account.policyNumber,
    payee,
    agencyId: owed.account.agencyId ?? null,
    amountCents,
    reason: owed.reason,
    state: 'pending',
    date: owed.date,
    createdAt: owed.createdAt,
    version: 1,
  };
}

/** The writes of the refund a credit owes (none when it stays on the account). */
export async function refundOwedWrites(owed: CreditOwed): Promise<TransactionWrite[]> {
  const refund = await refundOwed(owed);
  return refund ? refundPut(refund) : [];
}
