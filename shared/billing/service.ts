/**
 * What billing contributes to the issue and renewal moves: the term's account and the invoices
 * of its installment plan, written in the move's transaction. Billing's other contributions are
 * in move-contributions.ts (cancel, reinstate, expire...) and endorsement.ts; the house branch
 * gathers all three into one file (issue 29). The services the entry files call are by concern:
 * installment-plans.ts, payments.ts (history, payments, NSF, payors), lockbox-matchfile.ts and
 * lockbox-application.ts.
 */
import type { CommittedRevision, Contribution, RenewedTerm } from '../lifecycle/index.js';
import { amountOf, eventWrite } from '../events/index.js';
import { NotFoundError } from '../platform/errors.js';
import { sum } from '../platform/money.js';
import { loadRevision, type RevisionSnapshot } from '../policies/index.js';
import { invoiceEntry } from './account-history.js';
import { installmentPlan } from './installment-plans.js';
import { lockboxPolicyNumber } from './lockbox.js';
import type { BillingAccount } from './model.js';
import { entryContext, instant } from './posting-context.js';
import { loadAccount, newAccountWrites, postingWrites } from './store.js';

// ---------------------------------------------------------------- invoices at issue

/**
 * Issue's billing contribution: the account of the term and the invoices of the chosen
 * schedule (Full Pay when none was chosen), written in the commit's transaction.
 */
export function billingAtIssue(now: () => Date = () => new Date()): Contribution<CommittedRevision> {
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
