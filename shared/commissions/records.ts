/**
 * The commissions area's stored records, declared once (shared/platform/records.ts). Only the
 * area's store imports this module.
 *
 * - An agency's schedules share `COMMISSION_SCHEDULES#<agency>`, sorted by line and state: a move reads them all in one query.
 * - A term's commission terms: `COMMISSION_TERM#<term>` / `TERM`.
 * - An agency's commission rows and payments share `COMMISSIONS#<agency>`, rows sorted by the month posted, payments by the
 *   month paid on: a statement reads its month's (and the months before for the balance), never the book.
 * - A payment's reference, once per agency, written with the payment, so the same remittance is never recorded twice.
 */
import { defineRecord } from '../platform/records.js';
import type { CommissionPayment, CommissionRow, CommissionSchedule, CommissionTerm } from './model.js';

/**
 * The agency's rates for a line (or `*`) in a state (or `*`): newBusinessRate, renewalRate (percent, decimal strings), setBy,
 * setAt. Put by `set_commission_schedule`, replacing the same line and state. Without one the reference rates apply (15 new business, 12 renewal).
 */
export const commissionScheduleRecord = /* @__PURE__ */ defineRecord<CommissionSchedule>({
  entity: 'CommissionSchedule',
  key: { pk: 'COMMISSION_SCHEDULES#${agencyId}', sk: 'SCHEDULE#${lineId}#${state}' },
});

/**
 * A term's commission terms: policyId, policyNumber, agencyId, insured (named insureds' names at issue), rate fixed for the term
 * (issue's override, else the most specific schedule of the agency for the line and the primary property's state: line and state,
 * line, state, any), overridden, standingChargebackCents and standingReturnPremiumCents (what the latest cancellation charged back,
 * restored and cleared by a reinstatement), kind (`new_business` or `renewal`), basis (`written` or `collected`), on the collected
 * basis writtenPremiumCents, chargesCents, collectedCents and earnedCents, version. Created `attribute_not_exists(pk)` at issue or
 * renewal; changed by a Put conditioned on `version`.
 */
export const commissionTermRecord = /* @__PURE__ */ defineRecord<CommissionTerm>({
  entity: 'CommissionTerm',
  key: { pk: 'COMMISSION_TERM#${termId}', sk: 'TERM' },
});

/**
 * A payment to the agency: month (of paidOn), paidOn, amountCents, reference, recordedBy, recordedAt. Put `attribute_not_exists(pk)`
 * by `record_commission_payment` (Administrators) with its reference claim, in one transaction.
 */
export const commissionPaymentRecord = /* @__PURE__ */ defineRecord<CommissionPayment>({
  entity: 'CommissionPayment',
  key: { pk: 'COMMISSIONS#${agencyId}', sk: 'PAID#${month}#${paidOn}#${paymentId}' },
});

/** A payment's reference claimed for the agency: paymentId. Put `attribute_not_exists(pk)` with the payment: a reference is recorded once per agency, a second refused with nothing written. */
export const commissionPaymentReferenceRecord = /* @__PURE__ */ defineRecord<{ paymentId: string }>({
  entity: 'CommissionPaymentReference',
  key: { pk: 'COMMISSION_PAYMENT_REF#${agencyId}#${reference}', sk: 'REF' },
});

/**
 * One commission movement: month (of the move's decision date), policyId, termId, policyNumber, insured, transaction (`New Business`,
 * `Renewal`, `Endorsement`, `Cancellation`, `Reinstatement`, `Collection`, `Rewrite`), effectiveDate, premiumCents (negative: return
 * premium), rate, commissionCents. `attribute_not_exists(pk)`.
 */
export const commissionRowRecord = /* @__PURE__ */ defineRecord<CommissionRow>({
  entity: 'CommissionRow',
  key: { pk: 'COMMISSIONS#${agencyId}', sk: 'ROW#${month}#${postedAt}#${rowId}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const COMMISSIONS_RECORDS = [commissionScheduleRecord, commissionTermRecord, commissionPaymentRecord, commissionPaymentReferenceRecord, commissionRowRecord] as const;
