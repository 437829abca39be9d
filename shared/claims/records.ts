/**
 * The claims area's stored records, each declared once (shared/platform/records.ts): their keys,
 * index keys, queries and their rows of docs/data-model.md all come from here. Only the area's
 * stores import this module.
 *
 * - A claim's own partition `CLAIM#<id>` holds the claim, its exposures, people, dates and changes:
 *   one query reads a claim whole (get_claim), strongly consistent.
 * - Listings (`CLAIMLIST#<dimension>#<value>`, sorted by loss date) are the search: one per
 *   dimension a claim is found by (every claim, status, adjuster, peril, catastrophe, state,
 *   agency, policy, claimant, each word of the insured's name), rewritten in the transaction of
 *   every move that changes what they carry; a search queries the narrowest one, never scans.
 * - Numbers: a year's counter and one record per number taken, both in the FNOL's transaction.
 * - Deadlines not yet met, by state and due date (`CLAIMDEADLINES#<state>`), for claims/deadlines and the nightly run.
 * - Money (part two): the claim's transactions and payments live in its partition too, beside the
 *   small records a money move decides on and guards (the deductible ledger, each exposure's limit
 *   use, the payments' fingerprints), so that a payment reads those by key, never the claim's
 *   payment history, and rewrites neither the claim nor its listings; locators find a payment's or
 *   transaction's claim from its id; the year's issued payments are listed by date
 *   (`CLAIMPAYMENTS#<yyyy>`) for 1099 reporting; check numbers are drawn from a counter and each
 *   one taken is recorded, never given twice.
 */
import { defineRecord } from '../platform/records.js';
import type {
  CatastropheRecord,
  ClaimChange,
  ClaimCheckCounter,
  ClaimCheckNumber,
  ClaimMoneyLocator,
  ClaimPayment,
  ClaimPaymentByYear,
  ClaimTransaction,
  ClaimContactRecord,
  ClaimDateRecord,
  ClaimDeductible,
  ClaimLimitUse,
  ClaimListing,
  ClaimPaymentFingerprint,
  ClaimNumberCounter,
  ClaimNumberRecord,
  ClaimRecord,
  DeadlineListing,
  ExposureLocator,
  ExposureRecord,
} from './model.js';

/** A reported loss: the policy, the coverage in force on the loss date, status and its history, due dates (version-guarded). */
export const claimRecord = /* @__PURE__ */ defineRecord<ClaimRecord>({
  entity: 'Claim',
  key: { pk: 'CLAIM#${claimId}', sk: 'CLAIM' },
});

/** One coverage of the revision at loss for one claimant: status, limit, and part two's reserve and payment totals (version-guarded). */
export const exposureRecord = /* @__PURE__ */ defineRecord<ExposureRecord>({
  entity: 'ClaimExposure',
  key: { pk: 'CLAIM#${claimId}', sk: 'EXPOSURE#${exposureId}' },
});

/** Finds an exposure's claim from the exposure id alone (strongly consistent, unlike an index). */
export const exposureLocatorRecord = /* @__PURE__ */ defineRecord<ExposureLocator>({
  entity: 'ClaimExposureLocator',
  key: { pk: 'CLAIMEXPOSURE#${exposureId}', sk: 'LOCATOR' },
});

/** A person on the claim in one role (claimant, public adjuster, contractor, attorney, witness, mortgagee). */
export const claimContactRecord = /* @__PURE__ */ defineRecord<ClaimContactRecord>({
  entity: 'ClaimContact',
  key: { pk: 'CLAIM#${claimId}', sk: 'CONTACT#${contactId}#${role}' },
});

/** A dated event of the claim (proof of loss received, inspection, accepted): the clocks run from them. */
export const claimDateRecord = /* @__PURE__ */ defineRecord<ClaimDateRecord>({
  entity: 'ClaimDate',
  key: { pk: 'CLAIM#${claimId}', sk: 'DATE#${claimDateId}' },
});

/** One move of the claim: who, when, each field from and to (claims/get_claim_changes). */
export const claimChangeRecord = /* @__PURE__ */ defineRecord<ClaimChange>({
  entity: 'ClaimChange',
  key: { pk: 'CLAIM#${claimId}', sk: 'CHANGE#${at}#${changeId}' },
});

/** The claim's summary listed under one search dimension, by loss date (claims/search, claims/loss_run, britecore_claims, a contact's claims). */
export const claimListingRecord = /* @__PURE__ */ defineRecord<ClaimListing>({
  entity: 'ClaimListing',
  key: { pk: 'CLAIMLIST#${dimension}#${value}', sk: '${lossDate}#${claimId}' },
});

/** The last claim number of a year, moved on in the FNOL's transaction (version-guarded: a refused FNOL takes none). */
export const claimNumberCounterRecord = /* @__PURE__ */ defineRecord<ClaimNumberCounter>({
  entity: 'ClaimNumberCounter',
  key: { pk: 'CLAIMNUMBERS', sk: 'YEAR#${year}' },
});

/** A claim number taken (allocated or external): never a second claim with it. */
export const claimNumberRecord = /* @__PURE__ */ defineRecord<ClaimNumberRecord>({
  entity: 'ClaimNumber',
  key: { pk: 'CLAIMNUMBER#${claimNumber}', sk: 'NUMBER' },
});

/** A due date of a claim not yet met, by state and date (claims/deadlines, the nightly breach run, which marks it breachedAt): kept until met or the claim closes. */
export const deadlineListingRecord = /* @__PURE__ */ defineRecord<DeadlineListing>({
  entity: 'ClaimDeadline',
  key: { pk: 'CLAIMDEADLINES#${state}', sk: '${dueDate}#${claimId}#${clockId}' },
});

/** A catastrophe the carrier declared (title, PCS number, states, counties, dates): every FNOL reads them all in one query. */
export const catastropheRecord = /* @__PURE__ */ defineRecord<CatastropheRecord>({
  entity: 'Catastrophe',
  key: { pk: 'CATASTROPHES', sk: 'CATASTROPHE#${catastropheId}' },
});

/** One change of a claim's money (a reserve set or released, a payment line, a recovery, a recovery reserve): amounts never rewritten; a payment line's status follows its payment. */
export const claimTransactionRecord = /* @__PURE__ */ defineRecord<ClaimTransaction>({
  entity: 'ClaimTransaction',
  key: { pk: 'CLAIM#${claimId}', sk: 'TRANSACTION#${transactionId}' },
});

/** A claim payment (a check or a transfer) over one or several exposures: payees, deductible taken, approval, check number, cleared, void (version-guarded). */
export const claimPaymentRecord = /* @__PURE__ */ defineRecord<ClaimPayment>({
  entity: 'ClaimPayment',
  key: { pk: 'CLAIM#${claimId}', sk: 'PAYMENT#${paymentId}' },
});

/** Finds a claim payment's or claim transaction's claim from its id alone (approve_payment, void_transaction, mark_payment_cleared). */
export const claimMoneyLocatorRecord = /* @__PURE__ */ defineRecord<ClaimMoneyLocator>({
  entity: 'ClaimMoneyLocator',
  key: { pk: 'CLAIMMONEY#${id}', sk: 'LOCATOR' },
});

/** A claim payment issued in a year, by issued date, with its payees and amount: a year's 1099 reporting is one query; removed when the payment is voided. */
export const claimPaymentByYearRecord = /* @__PURE__ */ defineRecord<ClaimPaymentByYear>({
  entity: 'ClaimPaymentByYear',
  key: { pk: 'CLAIMPAYMENTS#${year}', sk: '${issuedDate}#${paymentId}' },
});

/** The last claim check number (or ACH trace number) drawn, moved on in the export's transaction (version-guarded: a refused export takes none). */
export const claimCheckCounterRecord = /* @__PURE__ */ defineRecord<ClaimCheckCounter>({
  entity: 'ClaimCheckCounter',
  key: { pk: 'CLAIMCHECKS', sk: 'SERIES#${series}' },
});

/** A claim check number given to a payment: never a second payment with it. */
export const claimCheckNumberRecord = /* @__PURE__ */ defineRecord<ClaimCheckNumber>({
  entity: 'ClaimCheckNumber',
  key: { pk: 'CLAIMCHECK#${checkNumber}', sk: 'CHECK' },
});

/** The claim's deductible once per occurrence: applied (given back by a void) and reimbursed out of recoveries (version-guarded; absent: none taken). */
export const claimDeductibleRecord = /* @__PURE__ */ defineRecord<ClaimDeductible>({
  entity: 'ClaimDeductible',
  key: { pk: 'CLAIM#${claimId}', sk: 'DEDUCTIBLE' },
});

/** What an exposure's limit has committed (its loss payments not voided, waiting approval included), against which a payment is refused (version-guarded; absent: none). */
export const claimLimitUseRecord = /* @__PURE__ */ defineRecord<ClaimLimitUse>({
  entity: 'ClaimLimitUse',
  key: { pk: 'CLAIM#${claimId}', sk: 'LIMITUSE#${exposureId}' },
});

/** The payments not voided with one identity (payees, gross amount, invoice number; the fingerprint is its digest): the duplicate guard, created on the first and refusing a second unless confirmed. */
export const claimPaymentFingerprintRecord = /* @__PURE__ */ defineRecord<ClaimPaymentFingerprint>({
  entity: 'ClaimPaymentFingerprint',
  key: { pk: 'CLAIM#${claimId}', sk: 'PAYMENTPRINT#${fingerprint}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const CLAIMS_RECORDS = [
  claimRecord,
  exposureRecord,
  exposureLocatorRecord,
  claimContactRecord,
  claimDateRecord,
  claimChangeRecord,
  claimListingRecord,
  claimNumberCounterRecord,
  claimNumberRecord,
  deadlineListingRecord,
  catastropheRecord,
  claimTransactionRecord,
  claimPaymentRecord,
  claimMoneyLocatorRecord,
  claimPaymentByYearRecord,
  claimCheckCounterRecord,
  claimCheckNumberRecord,
  claimDeductibleRecord,
  claimLimitUseRecord,
  claimPaymentFingerprintRecord,
] as const;
