/**
 * The billing area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { returnPremium } from './cancellation.js';
export { billableItems, installmentsFor } from './schedules.js';
export { installmentPlan, UnknownBillingScheduleError, type InstallmentPlan } from './installment-plans.js';
export type { PaymentJoin, PostedPayment } from './model.js';
export { makeManualPayment, storeNsf, type ManualPayment, type NsfRequestWire } from './payments.js';
export { DEFAULT_HISTORY_PAGE_SIZE } from './account-history.js';
export { billingSettings, scheduleOptions } from './installment-plans.js';
export { LOCKBOX_SYNC_LINES, lockboxFileId, startLargeLockboxFile } from './large-lockbox-files.js';
export { applyLockboxFile } from './lockbox-application.js';
export { MATCHFILE_LINES_PER_ANSWER, lockboxMatchfile, lockboxMatchfilePage } from './lockbox-matchfile.js';
export { applyLockboxChunk, lockboxChunkMessage, lockboxRunResult, type LockboxChunk } from './lockbox-runs.js';
export type { NightlyAccountDecision } from './model.js';
export { decideNightlyBatch, nightlyBatchMessage, planNightlyBilling } from './nightly.js';
export { accountHistory, potentialPayors } from './payments.js';
export { approveRefund, exportRefunds, listRefunds, markRefundIssued, voidRefund } from './refunds.js';
