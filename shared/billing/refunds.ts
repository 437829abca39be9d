/**
 * Refunds paid out: a credit the carrier owes above the refund threshold becomes a pending refund
 * in the move that owed it (billingAtCancellation); here it is approved, voided or marked issued,
 * each step a row on the account history written with the refund's new state in one transaction.
 * The credit stays on the account until the refund is issued (the Refund row then takes it off),
 * so a voided refund leaves it where it was: owed to the insured, or set against what he owes next.
 */
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { formatCents, toAmount } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { todayIso } from '../platform/dates.js';
import { clock } from '../platform/clock.js';
import { runTransaction } from '../platform/transactions.js';
import { policyWithinReach } from '../policies/index.js';
import { accountEntry } from './account-history.js';
import type { Refund, RefundState } from './model.js';
import { listPolicyRefunds, loadAccount, loadRefund, postingWrites, refundsInState, refundStateWrite } from './store.js';
import { isConditionalCheckFailure } from '../platform/dynamo.js';
import { randomUUID } from 'node:crypto';

export function refundWire(refund: Refund) {
  return {
    refund_id: refund.refundId,
    policy_id: refund.policyId,
    policy_term_id: refund.termId,
    policy_number: refund.policyNumber,
    payee: refund.payee.name,
    payee_contact_id: refund.payee.contactId,
    payee_role: refund.payee.role ?? 'named_insured',
    mailing_address: refund.payee.mailingAddress
      ? { address_line1: refund.payee.mailingAddress.line1, address_line2: refund.payee.mailingAddress.line2 ?? null, address_city: refund.payee.mailingAddress.city, address_state: refund.payee.mailingAddress.state, address_zip: refund.payee.mailingAddress.zip }
      : null,
    amount: toAmount(refund.amountCents),
    reason: refund.reason,
    state: refund.state,
    date: refund.date,
    check_number: refund.checkNumber ?? null,
    ach_trace: refund.achTrace ?? null,
    void_reason: refund.voidReason ?? null,
  };
}

/**
 * A policy's refunds, in one state when asked; without a policy, the refunds in one state across
 * the book, oldest first, read from the index keyed by state (never a scan). A caller whose reach
 * is its agencies sees theirs only.
 */
export async function listRefunds(principal: Principal, request: { policyId?: string; state?: RefundState }) {
  if (request.policyId) {
    const { policy } = await policyWithinReach(principal, { policyId: request.policyId });
    const refunds = await listPolicyRefunds(policy.id);
    return refunds.filter((refund) => !request.state || refund.state === request.state).map(refundWire);
  }
  if (!request.state) throw new BusinessRuleError('state: give a state (pending, approved, issued or voided) or a policy_id');
  const inState = await refundsInState(request.state);
  const reached = principal.isAdministrator || principal.scope === 'all'
    ? inState
    : inState.filter((refund) => principal.scope === 'agency' && !!refund.agencyId && principal.agencyIds.includes(refund.agencyId));
  return reached.map(refundWire);
}

const STEPS = {
  approve: { from: ['pending'], to: 'approved' },
  void: { from: ['pending', 'approved'], to: 'voided' },
  issue: { from: ['approved'], to: 'issued' },
} as const satisfies Record<string, { from: readonly RefundState[]; to: RefundState }>;

/** One step of a refund: its new state and its row on the account history, in one transaction. */
async function stepRefund(principal: Principal, refundId: string, step: keyof typeof STEPS, details: { reason?: string; checkNumber?: string; achTrace?: string } = {}) {
  const refund = await loadRefund(refundId);
  if (!refund) throw new NotFoundError(`refund_id: refund ${refundId.slice(0, 40)}`);
  await policyWithinReach(principal, { policyId: refund.policyId });
  const { from, to } = STEPS[step];
  if (!(from as readonly RefundState[]).includes(refund.state)) throw new BusinessRuleError(`refund_id: the refund is ${refund.state}; only a refund ${from.join(' or ')} can be ${to}`);
  const loaded = await loadAccount(refund.policyId, refund.termId);
  if (!loaded) throw new NotFoundError(`refund_id: the refund's account`);
  const now = clock.now();
  const paidBy = details.checkNumber ? `check ${details.checkNumber}` : details.achTrace ? `ACH trace ${details.achTrace}` : '';
  const summary = {
    approve: `Refund ${formatCents(refund.amountCents)} to ${refund.payee.name} approved`,
    void: `Refund ${formatCents(refund.amountCents)} to ${refund.payee.name} voided (${details.reason ?? ''}); the credit stays on the account`,
    issue: `Refund ${formatCents(refund.amountCents)} to ${refund.payee.name} paid by ${paidBy}`,
  }[step];
  const row = accountEntry(
    { id: randomUUID(), postedAt: now.toISOString(), generatedBy: principal.contactId, policyStatus: loaded.account.policyStatus },
    { type: 'Refund', date: todayIso(now), amountCents: step === 'issue' ? refund.amountCents : 0, summary, ...(details.checkNumber ? { checkNumber: details.checkNumber } : {}) },
  );
  const set: Partial<Refund> = { state: to, ...(details.checkNumber ? { checkNumber: details.checkNumber } : {}), ...(details.achTrace ? { achTrace: details.achTrace } : {}), ...(step === 'void' ? { voidReason: details.reason } : {}) };
  await runTransaction([refundStateWrite(refund, set), ...postingWrites({ account: loaded.account, prior: loaded, entries: [row], guardVersion: true })], { label: `Refund ${refund.refundId}` });
  return refundWire({ ...refund, ...set, version: refund.version + 1 });
}

export const approveRefund = (principal: Principal, refundId: string) => stepRefund(principal, refundId, 'approve');
export const voidRefund = (principal: Principal, refundId: string, reason: string) => stepRefund(principal, refundId, 'void', { reason });
export const markRefundIssued = (principal: Principal, refundId: string, paidBy: { checkNumber?: string; achTrace?: string }) => stepRefund(principal, refundId, 'issue', paidBy);

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * The bank's positive-pay file of the approved refunds: check number (from `firstCheckNumber`
 * on, oldest refund first), date, amount, payee. Each refund exported is marked issued by that
 * check in its own transaction under its version, so it is exported once: a second export of
 * the same batch finds nothing approved, and a refund changed meanwhile is left out.
 */
export async function exportRefunds(principal: Principal, firstCheckNumber: number): Promise<{ csv: string; exported: number }> {
  const today = todayIso(clock.now());
  const lines = ['check_number,date,amount,payee'];
  let next = firstCheckNumber;
  for (const approved of await refundsInState('approved')) {
    const checkNumber = String(next);
    try {
      await stepRefund(principal, approved.refundId, 'issue', { checkNumber });
    } catch (error) {
      if (error instanceof BusinessRuleError || isConditionalCheckFailure(error)) continue;
      throw error;
    }
    lines.push([checkNumber, today, formatCents(approved.amountCents), csvCell(approved.payee.name)].join(','));
    next += 1;
  }
  return { csv: `${lines.join('\n')}\n`, exported: next - firstCheckNumber };
}
