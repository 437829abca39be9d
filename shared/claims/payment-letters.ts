/**
 * What the letter telling a payee of an issued payment is made from (the move's `issuedPayments`,
 * read by the documents area's claimLetters): the payment as issued, and what it paid for in words.
 */
import type { ClaimPayment } from './model.js';
import type { IssuedPaymentFacts } from './moves.js';

const COST_TYPE_WORDS = { loss: 'loss', expense: 'adjusting expense' } as const;

export function issuedPaymentFacts(payment: ClaimPayment): IssuedPaymentFacts {
  const paidFor =
    payment.kind === 'deductible_reimbursement'
      ? 'your deductible, reimbursed out of what we recovered from the party responsible for the loss'
      : payment.lines.map((line) => `${line.coverage} ${COST_TYPE_WORDS[line.costType]}`).join(', ');
  return {
    paymentId: payment.paymentId,
    amountCents: payment.amountCents,
    method: payment.method,
    checkNumber: payment.checkNumber,
    traceNumber: payment.traceNumber,
    issuedDate: payment.issuedDate ?? '',
    payees: payment.payees.map((payee) => ({ contactId: payee.contactId, name: payee.name, as: payee.as })),
    paidFor,
  };
}
