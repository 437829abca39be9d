/**
 * The cancel move (cancel_policy, and the nightly job's cancellation for non-payment). With
 * a pending date the term goes to cancellation pending; otherwise it is cancelled with every
 * side effect at once: a committed revision carrying reason and date, the cancel date on the
 * revision in force and later ones, the Cancellation and Return Premium rows (daily pro-rata,
 * minimum earned premium, flat cancellation), a note, and what other areas contribute (the
 * Notice of Cancellation, the search status): ONE transaction, guarded by the account's and
 * the records' versions, so a retry after any failure starts again from a clean state.
 */
import { randomUUID } from 'node:crypto';
import type { CancellationContribution, CancelledTerm } from '../lifecycle/model.js';
import { newNote, notePut } from '../notes/store.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { formatCents, sum } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { policyWithinReach } from '../policies/access.js';
import { cancellationWrites } from '../policies/lifecycle-store.js';
import { getRevisionHeaders } from '../policies/store.js';
import { cancellationEntry, returnPremiumEntry } from './account-history.js';
import { cancellationBalanceChange, InvalidCancelDateError, returnPremium } from './cancellation.js';
import type { AccountEntry } from './model.js';
import { billableItemsOfRevision, billingSettings } from './service.js';
import { loadAccount, writePosting } from './store.js';

export interface CancelRequest {
  policyId: string;
  termId?: string;
  reasonId: string;
  cancelDate?: string;
  /** Takes precedence over cancelDate: the policy goes to cancellation pending. */
  cancelPendingDate?: string;
}

export interface CancelOutcome {
  outcome: 'pending' | 'cancelled';
  policyNumber: string;
  cancelDate: string;
  returnPremiumCents: number;
  message: string;
}

export class PolicyNotCancellableError extends BusinessRuleError {}

/** What the term's invoices billed, by kind: premium, and fees (installment fees are charges of their own). */
export function billedOnTerm(entries: readonly AccountEntry[]): { premiumCents: number; feesCents: number } {
  const invoices = entries.filter((entry) => entry.type === 'Invoice' && entry.schedule);
  return {
    premiumCents: sum(invoices.map((entry) => entry.schedule!.premiumCents)),
    feesCents: sum(invoices.map((entry) => entry.schedule!.customFeesCents)),
  };
}

export async function cancelPolicy(
  principal: Principal,
  request: CancelRequest,
  contributions: readonly CancellationContribution[],
  options: { now?: Date; generatedBy?: string } = {},
): Promise<CancelOutcome> {
  const now = options.now ?? new Date();
  const today = todayIso(now);
  const generatedBy = options.generatedBy ?? principal.contactId;
  const settings = await billingSettings();
  const reason = settings.cancelReasons.find((candidate) => candidate.id === request.reasonId);
  if (!reason) throw new BusinessRuleError(`cancel_reason_id: ${request.reasonId.slice(0, 40)} is not a cancel reason`);
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const term = terms.find((candidate) => candidate.id === (request.termId ?? policy.activeTermId));
  if (!term) throw new NotFoundError(`Policy term ${request.termId ?? ''}`.trim());
  const loaded = await loadAccount(policy.id, term.id);
  if (!loaded) throw new PolicyNotCancellableError(`Policy ${policy.policyNumber} has not been issued; only an issued policy can be cancelled`);
  const { account, entries } = loaded;
  if (account.policyStatus === 'Cancelled') throw new PolicyNotCancellableError(`Policy ${policy.policyNumber} is already cancelled`);
  const revisions = await getRevisionHeaders(term.revisionIds);
  const committed = revisions.filter((revision) => revision.revisionState === 'committed');
  const base = committed.find((revision) => revision.id === policy.activeRevisionId) ?? committed.at(-1);
  if (!base) throw new PolicyNotCancellableError(`Policy ${policy.policyNumber} has no committed revision on this term`);

  const outcome = request.cancelPendingDate ? 'pending' : 'cancelled';
  const cancelDate = (request.cancelPendingDate ?? request.cancelDate)!;
  if (cancelDate < term.effectiveDate || cancelDate > term.expirationDate) throw new InvalidCancelDateError(cancelDate, term.effectiveDate, term.expirationDate);
  const newRevisionId = randomUUID();
  const context = (offset: number) => ({ id: randomUUID(), postedAt: new Date(now.getTime() + offset).toISOString(), generatedBy, policyStatus: account.policyStatus });

  let rows: AccountEntry[] = [];
  let unbilled: AccountEntry[] = [];
  let returnPremiumCents = 0;
  let message: string;
  if (outcome === 'cancelled') {
    const figures = returnPremium(
      { effectiveDate: term.effectiveDate, expirationDate: term.expirationDate, cancelDate, items: await billableItemsOfRevision(base.id) },
      settings.cancellation,
      settings.minimumEarnedPremiumCents,
    );
    returnPremiumCents = figures.returnedPremiumCents;
    // Installments not yet billed never are: their invoices are voided, and only what was billed is set against what stays earned.
    unbilled = entries.filter((entry) => entry.type === 'Invoice' && (entry.billDate ?? entry.date) > today);
    const change = cancellationBalanceChange(figures, billedOnTerm(entries.filter((entry) => !unbilled.includes(entry))));
    rows = [
      cancellationEntry(context(0), { date: today, cancelDate, reason: reason.name }),
      returnPremiumEntry(context(1), { date: today, cancelDate, amountCents: change, returnedPremiumCents: figures.returnedPremiumCents }),
    ];
    message = `Policy ${policy.policyNumber} cancelled effective ${cancelDate} (${reason.name}); return premium ${formatCents(returnPremiumCents)}${figures.flat ? ' (flat cancellation)' : ''}`;
  } else {
    message = `Policy ${policy.policyNumber} is pending cancellation effective ${cancelDate} (${reason.name})`;
  }

  const cancelled: CancelledTerm = {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    termId: term.id,
    revisionId: outcome === 'cancelled' ? newRevisionId : base.id,
    inForceRevisionId: base.id,
    outcome,
    cancelDate,
    reason: reason.name,
    returnPremiumCents,
    ...(policy.agencyId ? { agencyId: policy.agencyId } : {}),
    namedInsuredContactIds: [...policy.contacts.namedInsuredIds],
  };
  const contributed = (await Promise.all(contributions.map((contribute) => contribute(cancelled)))).flat() as Array<Record<string, unknown>>;
  const note = newNote({ policyId: policy.id, termId: term.id, createdBy: generatedBy, createdAt: now.toISOString(), agencyId: policy.agencyId, contactIds: policy.contactIds, text: message });
  await writePosting({
    account,
    entries: rows,
    guardVersion: true,
    balanceAdjustmentCents: -sum(unbilled.map((entry) => entry.amountCents)),
    set:
      outcome === 'cancelled'
        ? {
            policyStatus: 'Cancelled',
            cancelPending: null,
            nonPayment: { status: 'cancelled', cancelDate, chargeId: account.nonPayment.chargeId },
            ...(unbilled.length ? { voidedEntryIds: [...(account.voidedEntryIds ?? []), ...unbilled.map((entry) => entry.id)] } : {}),
          }
        : { cancelPending: { date: cancelDate, reasonId: reason.id } },
    handed: [
      ...cancellationWrites({ term, base, others: committed, outcome, cancelDate, reasonId: reason.id, today, newRevisionId }),
      notePut(note),
      ...contributed,
    ],
  });
  return { outcome, policyNumber: policy.policyNumber, cancelDate, returnPremiumCents, message };
}
