/**
 * The claims area's public face: what entry files and other areas may use of claims. Anything not
 * exported here (its records, its store) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export type { ClaimRecord, ClaimStatus, ClaimSummary, ExposureRecord, CatastropheRecord, ClaimContactRole, CloseReason, ReporterRelation } from './model.js';
export { CLAIM_CONTACT_ROLES, CLOSE_REASONS, REPORTER_RELATIONS } from './model.js';
export type { ClaimPayment, ClaimPaymentByYear, ClaimTransaction, ClaimTransactionType, CostType, DeductibleLedger, PaymentLine, PaymentMethod, PaymentPayee, PaymentStatus, RecoveryCategory } from './model.js';
export { CLAIM_TRANSACTION_TYPES, COST_TYPES, PAYMENT_METHODS, PAYMENT_STATUSES, RECOVERY_CATEGORIES } from './model.js';
export { paymentRequestOf, paymentTermsFields } from './payment-fields.js';
export { reportClaim, type ClaimReport } from './report.js';
export {
  addClaimContact,
  allCatastrophes,
  allPerils,
  claimWithinReach,
  contactClaims,
  createClaimDate,
  createExposure,
  declareCatastrophe,
  exposureWithinReach,
  getClaimChanges,
  getClaimContacts,
  getClaimView,
  listExposures,
  lossHistory,
  policyClaims,
  removeClaimContact,
  searchClaims,
  updateClaim,
  updateExposureStatus,
} from './service.js';
export { RESERVATION_OF_RIGHTS, requestReservationOfRights } from './reservations.js';
export { CLAIM_MONEY_KINDS, commitClaimMove, type ClaimMoneyEntry, type ClaimMoneyKind, type ClaimMove, type ClaimMoveContribution, type ClaimMoveFacts } from './moves.js';
export { lossesOnFile, type LossOnFile } from './loss-history.js';
export { autoAssignClaim } from './assignment.js';
export { claimDeadlines, flagDeadlineBreaches } from './deadlines.js';
export {
  addRecovery,
  addRecoveryReserve,
  addReserve,
  approvePayment,
  claimPaymentsIssuedIn,
  exportClaimPayments,
  getAccountingOverview,
  getAllClaimTransactions,
  getClaimPayments,
  getExposureTransactions,
  makePayment,
  markPaymentCleared,
  voidTransaction,
  type PaymentRequest,
} from './money.js';
// An operation naming an exposure begins its locator beside the caller's authentication (issue 47).
export { exposureLocatorBegun } from './store.js';
export { lossRun, type LossRunRequest } from './loss-run.js';
export { federalThresholdCents, vendorPayments1099 } from './vendor-1099.js';
