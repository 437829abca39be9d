/**
 * The pending refund a credit above the carrier's threshold becomes: the part of it not already
 * being refunded, paid to the payee the product's rule names. Loaded on first use (refund-owed.ts):
 * most moves and postings leave no such credit, so their cold starts parse none of this.
 */
import { randomUUID } from 'node:crypto';
import { getContacts } from '../contacts/index.js';
import { sum } from '../platform/money.js';
import { loadRevision, type RevisionSnapshot } from '../policies/index.js';
import type { BillingSettings, Refund, RefundPayee } from './model.js';
import type { CreditOwed } from './refund-owed.js';
import { listPolicyRefunds } from './store.js';

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

/** The pending refund of a credit above the threshold, if any is left once the refunds under way are taken off. */
export async function pendingRefundOf(owed: CreditOwed, settings: BillingSettings): Promise<Refund | undefined> {
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
