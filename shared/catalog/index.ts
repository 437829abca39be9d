/**
 * The catalog area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export type { ChargeDefinition, ChargeKind, NoticeDays, StateFiling, TerritoryTable, Availability, BillingRules, BillingScheduleDefinition, CancelReason, CancellationRules, NonRenewalReason, RenewalRules, FormDefinition, ItemDefinition, ProductCatalog, QuestionDefinition, RateVersion, RatingStep, Role, SubLineDefinition, TableKey, TableRow, UnderwritingRules, ValueReference } from './model.js';
export { getCarrierSettings, getCatalogRecord, getCatalogRecords, getProductCatalog, getRenewalRules, listCatalog, listNonRenewalReasons, listRoles } from './store.js';
export { COUNTRYWIDE, notWrittenProblem, productForFiling, resolveFiling, STATE_NAMES, type ResolvedFiling } from './filings.js';
