/**
 * The billing area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { returnPremium } from './cancellation.js';
export { billableItems, installmentsFor } from './schedules.js';
export { installmentPlan, UnknownBillingScheduleError, type InstallmentPlan } from './installment-plans.js';
export type { PaymentJoin, PostedPayment } from './model.js';
export { makeManualPayment, storeNsf, type ManualPayment, type NsfRequestWire } from './payments.js';
export { applyLockboxFile } from './lockbox-application.js';
export { applyLockboxChunk, type LockboxChunk } from './lockbox-runs.js';
