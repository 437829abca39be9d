/**
 * The catalog area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export type { ChargeDefinition, ClaimAssignmentRules, ClaimClock, ClaimCoverageRule, ClaimsRules, ChargeKind, NoticeDays, StateFiling, TerritoryTable, Availability, BillingRules, BillingScheduleDefinition, CancelReason, CancellationRules, NonRenewalReason, RenewalRules, FormDefinition, ItemDefinition, ProductCatalog, QuestionDefinition, RateVersion, RatingStep, Role, SubLineDefinition, TableKey, TableRow, UnderwritingRules, ValueReference } from './model.js';
export { publishProductVersion } from './publishing-store.js';
export { forgetCatalogCache, getCarrierSettings, getCatalogRecord, getCatalogRecords, getProductCatalog, getRenewalRules, getClaimsRules, listCatalog, listNonRenewalReasons, listRoles, writeCatalogRecords, putProductVersion, getProductVersion, listProductVersions, deleteCatalogRecords, catalogSeedPartitions, type ProductVersionRecord } from './store.js';
export { COUNTRYWIDE, longestRenewalLeadDays, notWrittenProblem, productForFiling, renewalLeadDays, resolveFiling, type ResolvedFiling } from './filings.js';
export { STATE_NAMES } from './state-names.js';
export { productFromRecords, chargeItems, commissionBasisOf } from './model.js';
export { catalogRecord, packageRecords, type CatalogRecord } from './package-record-store.js';
export { readPackage, PACKAGE_FILES, type PackageDocument, type PackageProblem, type ProductPackage, type Worksheet } from './package-schema.js';
export { validatePackage, type CountyList } from './package-validation.js';
export { diffPackages, type PackageChange } from './package-diff.js';
export { referencePackageDocument } from './reference-package.js';
export { readPackageFolder } from './package-folder.js';
export { referenceCatalogRecords } from './reference-data.js';
export { seedReferenceCatalog } from './seed-service.js';
