/**
 * The request fields of a claim payment's terms (payees, method, invoice, service dates, final,
 * confirm_duplicate, memo), on the house vocabulary, and the terms they carry: make_payment and
 * make_multi_exposures_payment take the same terms over one line or several.
 */
import * as z from 'zod/mini';
import { boundedString, date, flagOr, id, list, optional } from '../platform/request-fields.js';
import type { PaymentRequest } from './money.js';
import { PAYMENT_METHODS } from './model.js';

export const paymentTermsFields = () => ({
  payees: list(id(), 10),
  method: z.enum(PAYMENT_METHODS),
  invoice_number: optional(boundedString(60)),
  service_from: optional(date()),
  service_to: optional(date()),
  final: flagOr(false),
  confirm_duplicate: flagOr(false),
  memo: optional(boundedString(500)),
});

export interface PaymentTermsOnWire {
  payees: string[];
  method: PaymentRequest['method'];
  invoice_number?: string;
  service_from?: string;
  service_to?: string;
  final: boolean;
  confirm_duplicate: boolean;
  memo?: string;
}

/** The terms of a payment as the wire gave them, for its lines. */
export function paymentRequestOf(lines: PaymentRequest['lines'], terms: PaymentTermsOnWire): PaymentRequest {
  return {
    lines,
    payeeIds: terms.payees,
    method: terms.method,
    final: terms.final,
    confirmDuplicate: terms.confirm_duplicate,
    ...(terms.invoice_number ? { invoiceNumber: terms.invoice_number } : {}),
    ...(terms.service_from ? { serviceFrom: terms.service_from } : {}),
    ...(terms.service_to ? { serviceTo: terms.service_to } : {}),
    ...(terms.memo ? { memo: terms.memo } : {}),
  };
}
