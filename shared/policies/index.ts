/**
 * The policies area's public face: what other areas may use of policies, terms and
 * revisions. Anything not exported here (the store's keys, its internals) is the area's own.
 */
export type * from './model.js';
export { policyAndActiveRevisionWithinReach, policyRecordWithinReach, policyWithinReach, policyWithinReachWith, revisionWithinReach, riskWithinReach } from './access.js';
// A claim's first notice reads the policy's first revision beside the policy: its id follows from the policy's.
export { firstRevisionIdOf } from './revision-ids.js';
export {
  getPolicy,
  getPolicyWithTerms,
  getRevisionHeaders as revisionHeaders,
  loadRevision,
  policyGroupChange,
  policyNumberFreeCheck,
  policyBegun,
  policyNumberLookupBegun,
  revisionBegun,
  recordLossAnalysisResult,
  quoteRetirement,
  setRiskInspectionRequested,
} from './store.js';
export type { CancellationMove } from './lifecycle-store.js';
export { createPolicy, storeNewPolicy, namedInsuredNamesFor, numberForRewrite, type PreparePolicy } from './new-policy-service.js';
export { buildRevisionStructure, type BuiltStructure, type StructureRequest } from './quote-structure.js';
export { applyRating, revisionToRate } from './rating-input.js';
export { NO_UNDERWRITING, underwritingOf, type ReviewMoveRecord, type RevisionUnderwriting } from './underwriting-fields.js';
export { recordUnderwriting } from './underwriting-service.js';
export { underwritingAnswer, underwritingOption } from './schemas.js';
export { contactIdsOf, contactRoles } from './new-policy.js';
// What the endorse move (shared/lifecycle/endorse.ts) builds on: the open revision's copy and store, the pure endorsement rules, the term's revision facts.
export { createOpenRevision, discardOpenRevision, type EndorsementCommit, type RevisionRewrite } from './endorsement-store.js';
export { endorsementCopy, placeItem } from './endorsement-copy.js';
// Named one by one (not `export * as`): esbuild keeps a whole namespace in every bundle that touches it.
export {
  applyFieldChanges,
  changesToReapply,
  conflictsOf,
  fieldChanges,
  inEffectOrder,
  inForceOn,
  isWithinTerm,
  revisionPeriods,
  spreadOverInstallments,
  termPremium,
  totalOf,
  writtenByItemFrom,
  premiumChangeLayers,
  type CommittedVersion,
  type CoverageItem,
  type FieldChange,
  type FieldValue,
  type InstallmentShare,
  type ItemAnnual,
  type OosConflict,
  type Resolution,
} from './endorsement-rules.js';
export { committedAtOf, termCommittedRevisions, termRevisionFacts, type TermRevisionFacts } from './term-revisions.js';
export { totalsOfItems } from './rating-input.js';
export { lineItemToWire } from './wire.js';
// What the renewal moves (shared/lifecycle/renew.ts) build on: the renewal draft, its writes, the nightly run's watch.
export { needsReview, premiumChangePercent, renewalDraft, renewalTermDates } from './renewal.js';
export { claimsExplained, type AnswerFromClaims, type RenewalLoss } from './renewal-losses.js';
export {
  stopWatchingTerm,
  watchedTermPages,
  type ArchivedHeldRenewal,
  type ExpiringTermChange,
  type WatchedTerm,
} from './renewal-store.js';
export { ratingTrace } from './rating-input.js';
// What bind and issue share: a revision whose premium is stale is rated before it goes on.
export { isRated } from './premiums.js';
export { ratedInMemory } from './rating-service.js';
export { createPolicyFromExternalQuote } from './external-quote-service.js';
export { removeLineItem } from './item-removal-service.js';
export { addLineItem, addSubLine, copySubLine, updatePropertySubLineName } from './item-service.js';
export { updateMortgageeInformation } from './mortgagee-service.js';
export { newPolicyInformation } from './new-policy-service.js';
export { updateRatingInformation } from './premium-service.js';
export { rateStoredRevision, rateStoredRisk, resetRevisionPremium, resetRiskPremium, retrieveRatesForQuote } from './rating-service.js';
export { retrievePolicy, retrievePolicyTerms, retrieveRevisionDetails } from './read-service.js';
export { updateEffectiveAndExpirationDate, updatePolicyLastVisited, updateUnderwritingOptions, updateUnderwritingQuestions } from './revision-settings-service.js';
export { copyRisk, createRisk, retrieveRiskDetails, retrieveRisks, updateBuilderReadyToRate, updatePrimaryProperty, updatePropertyLocation } from './risk-service.js';
export { clearableText, optionalItem, underwritingAnswers, underwritingOptions, yearBuilt } from './schemas.js';
export { CREATABLE_TERM_TYPES, RENEWAL_TERM_TYPES, TERM_TYPES } from './terms.js';
