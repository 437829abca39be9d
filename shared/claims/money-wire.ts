/** A claim's money as the wire carries it: snake_case, amounts as numbers with two decimals. */
import { toAmount } from '../platform/money.js';
import type { ClaimPayment, ClaimPaymentByYear, ClaimTransaction } from './model.js';

const optionalAmount = (cents: number | undefined) => (cents === undefined ? null : toAmount(cents));

export function transactionToWire(row: ClaimTransaction) {
  return {
    id: row.transactionId,
    claim_id: row.claimId,
    exposure_id: row.exposureId,
    coverage: row.coverage,
    type: row.type,
    cost_type: row.costType,
    amount: toAmount(row.amountCents),
    outstanding_after: optionalAmount(row.outstandingAfterCents),
    gross_amount: optionalAmount(row.grossCents),
    deductible: optionalAmount(row.deductibleCents),
    status: row.status,
    source: row.source,
    payment_id: row.paymentId ?? null,
    category: row.category ?? null,
    deductible_reimbursed: optionalAmount(row.deductibleReimbursedCents),
    carrier_share: optionalAmount(row.carrierShareCents),
    description: row.description ?? null,
    date: row.date ?? null,
    who: row.by,
    when: row.at,
    reason: row.reason,
  };
}

export function paymentToWire(payment: ClaimPayment) {
  return {
    id: payment.paymentId,
    claim_id: payment.claimId,
    claim_number: payment.claimNumber,
    kind: payment.kind,
    amount: toAmount(payment.amountCents),
    lines: payment.lines.map((line) => ({
      transaction_id: line.transactionId,
      exposure_id: line.exposureId,
      coverage: line.coverage,
      cost_type: line.costType,
      gross_amount: toAmount(line.grossCents),
      deductible: toAmount(line.deductibleCents),
      amount: toAmount(line.amountCents),
    })),
    payees: payment.payees.map((payee) => ({ contact_id: payee.contactId, name: payee.name, as: payee.as })),
    method: payment.method,
    invoice_number: payment.invoiceNumber,
    service_from: payment.serviceFrom,
    service_to: payment.serviceTo,
    final: payment.final,
    status: payment.status,
    broken_limits: payment.brokenLimits,
    made_by: payment.madeBy,
    made_at: payment.madeAt,
    approved_by: payment.approvedBy,
    approved_at: payment.approvedAt,
    issued_date: payment.issuedDate,
    check_number: payment.checkNumber,
    trace_number: payment.traceNumber,
    cleared_date: payment.clearedDate,
    voided_at: payment.voidedAt,
    voided_by: payment.voidedBy,
    void_reason: payment.voidReason,
    memo: payment.memo,
  };
}

export const paymentByYearToWire = (listing: ClaimPaymentByYear) => ({
  payment_id: listing.paymentId,
  claim_id: listing.claimId,
  claim_number: listing.claimNumber,
  kind: listing.kind,
  issued_date: listing.issuedDate,
  amount: toAmount(listing.amountCents),
  cost_types: listing.costTypes,
  payees: listing.payees.map((payee) => ({ contact_id: payee.contactId, name: payee.name, as: payee.as })),
  method: listing.method,
  check_number: listing.checkNumber,
  trace_number: listing.traceNumber,
});
