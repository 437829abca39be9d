/** The wire shapes of the spec (2.5 to 2.10) built from stored records. */
import { toUsDate } from '../platform/dates.js';
import { toAmount, type Cents } from '../platform/money.js';
import type {
  RewriteLink,
  ContactNames,
  LineItemRecord,
  MortgageeRecord,
  PolicyContacts,
  PolicyRecord,
  RevisionRecord,
  RevisionSnapshot,
  RiskRecord,
  SubLineRecord,
  TermRecord,
} from './model.js';
import { RISK_TEXT_FIELDS } from './model.js';
import { primaryPropertyId } from './risk-rules.js';
import { underwritingToWire } from './underwriting-fields.js';

const amount = (cents: Cents | null | undefined): number | null => (cents === null || cents === undefined ? null : toAmount(cents));

function contactEntry(id: string, names: ContactNames, detailed: boolean) {
  const summary = names.get(id);
  const entry: Record<string, unknown> = { id, name: summary?.name ?? null };
  if (detailed) Object.assign(entry, { type: summary?.type ?? null, role_ids: summary?.roleIds ?? [], agency_ids: summary?.agencyIds ?? [] });
  return entry;
}

/** The policy_contacts object: who created, sells and is insured by the policy. */
export function policyContactsToWire(contacts: PolicyContacts, names: ContactNames, detailed = false) {
  return {
    creator: contactEntry(contacts.creatorId, names, detailed),
    agent: contacts.agentId ? contactEntry(contacts.agentId, names, detailed) : null,
    agency: contacts.agencyId ? contactEntry(contacts.agencyId, names, detailed) : null,
    named_insureds: once(contacts.namedInsuredIds).map((id) => contactEntry(id, names, detailed)),
    additional_interests: once(contacts.additionalInterestIds).map((id) => contactEntry(id, names, detailed)),
  };
}

/** Each contact once, in the order first listed. */
const once = (ids: readonly string[]) => [...new Set(ids)];

/** Revision fields shared by retrieve_revision_details and the revisions inside a term (spec 2.7). */
function revisionCommon(revision: RevisionRecord) {
  return {
    id: revision.id,
    policy_id: revision.policyId,
    policy_term_id: revision.policyTermId,
    policy_status_reason_id: revision.policyStatusReasonId,
    cancel_date: revision.cancelDate,
    commit_date: revision.commitDate,
    create_date: revision.createDate,
    revision_date: revision.revisionDate,
    underwriting_contacted_date: revision.underwritingContactedDate,
    date_archived: revision.dateArchived,
    commission_rate: Number(revision.commissionRate),
    written_fee: amount(revision.writtenFeeCents),
    written_premium: amount(revision.writtenPremiumCents),
    annual_fee: amount(revision.annualFeeCents),
    annual_premium: amount(revision.annualPremiumCents),
    dec_description: revision.decDescription,
    description: revision.description,
    policy_status: revision.policyStatus,
    grant_mortgagee_extension: revision.grantMortgageeExtension,
    override_commission: revision.overrideCommission,
    print_dec: revision.printDec,
    underwriting_contacted: revision.underwritingContacted,
    builder_pending: revision.builderPending,
    revision_state: revision.revisionState,
    underwriting_questions: revision.underwritingQuestions,
    underwriting_options: revision.underwritingOptions,
    credit_report_permissions: revision.creditReportPermissions,
    policy_type_id: revision.policyTypeId,
    // Beyond the interface, once rated: the rate version its premiums come from (the rating trace's version).
    ...(revision.rateVersion ? { rate_version: { id: revision.rateVersion.id, name: revision.rateVersion.name } } : {}),
    // The product version (a published line file) those rates came with.
    ...(revision.rateVersion?.productVersion ? { product_version: revision.rateVersion.productVersion } : {}),
  };
}

/** A revision as listed inside its term. */
export function termRevisionToWire(revision: RevisionRecord) {
  return { ...revisionCommon(revision), end_date: revision.termEnd };
}

/**
 * retrieve_revision_details data (spec 2.7), also create_policy's revision_data and
 * retrieve_policy's active_revision: with the primary property (null until one exists)
 * and the agents and named insureds on the policy.
 */
export function revisionDetailsToWire(
  snapshot: RevisionSnapshot,
  context: { policyTypeName: string; names: ContactNames; detailed?: boolean },
) {
  const revision = snapshot.header;
  const detailed = context.detailed ?? false;
  const contacts = revision.contacts;
  const details: Record<string, unknown> = {
    ...revisionCommon(revision),
    policy_term_start: revision.termStart,
    policy_term_end: revision.termEnd,
    policy_type: context.policyTypeName,
    primary_property_id: primaryPropertyId(snapshot.risks),
    additional_interests: once(contacts.additionalInterestIds).map((id) => contactEntry(id, context.names, detailed)),
    agents: contacts.agentId ? [contactEntry(contacts.agentId, context.names, detailed)] : [],
    mortgagees: snapshot.mortgagees.map((mortgagee) => mortgageeToWire(mortgagee, context.names)),
    named_insureds: once(contacts.namedInsuredIds).map((id) => contactEntry(id, context.names, detailed)),
    ...underwritingToWire(revision.underwriting),
    items: [...snapshot.items].sort(bySortOrder).map(lineItemToWire),
  };
  if (detailed) details.policy_contacts = policyContactsToWire(contacts, context.names, true);
  return details;
}

/** A term with its revisions (spec 2.6). */
export function termToWire(term: TermRecord, revisions: readonly RevisionRecord[]) {
  return {
    id: term.id,
    policy_id: term.policyId,
    effective_date: term.effectiveDate,
    expiration_date: term.expirationDate,
    is_renewal: term.isRenewal,
    term_length: term.termLength,
    term_type: term.termType,
    renewal_type: term.renewalType,
    renewal_status: term.renewalStatus,
    renewal_status_description: term.renewalStatusDescription,
    manual_reason: term.manualReason,
    renewal_status_reason_id: term.renewalStatusReasonId,
    // Beyond the interface, only once a cancellation is set: pending (until cancel_pending_date) or cancelled.
    ...(term.cancellationStatus
      ? { cancellation_status: term.cancellationStatus, cancel_pending_date: term.cancelPendingDate ?? null, cancel_reason_id: term.cancelReasonId ?? null }
      : {}),
    // Beyond the interface, once the renewal moves have decided something of the term.
    ...(term.renewal ? { renewal: { policy_term_id: term.renewal.termId, revision_id: term.renewal.revisionId, state: term.renewal.inForce ? 'in_force' : term.renewal.state, decided_on: term.renewal.decidedOn } } : {}),
    ...(term.renewedFromTermId ? { renewed_from_term_id: term.renewedFromTermId } : {}),
    ...(term.expiredOn ? { expired: true, expired_on: term.expiredOn } : {}),
    // Days a reinstatement with lapse left without cover.
    ...(term.lapses?.length ? { lapses: term.lapses.map((lapse) => ({ from: lapse.from, to: lapse.to })) } : {}),
    revisions: revisions.map(termRevisionToWire),
  };
}

/** retrieve_policy data (spec 2.5). */
export function policyToWire(
  policy: PolicyRecord,
  parts: { activeRevision: Record<string, unknown> | null; activeTerm: Record<string, unknown> | null; policyContacts: Record<string, unknown> },
) {
  return {
    id: policy.id,
    policy_number: policy.policyNumber,
    active: policy.active,
    rewritten: policy.rewritten,
    show_app: policy.showApp,
    submit_bound: policy.submitBound,
    date_added: toUsDate(policy.dateAdded),
    inception_date: toUsDate(policy.inceptionDate),
    policy_group_id: policy.policyGroupId,
    copied_from_rev_id: policy.copiedFromRevId,
    copied_to_rev_id: policy.copiedToRevId,
    flag: policy.flag,
    system_tags: policy.systemTags,
    submit_receipt_email: policy.submitReceiptEmail,
    submit_receipt_name: policy.submitReceiptName,
    submit_confirm_email: policy.submitConfirmEmail,
    submit_confirm_name: policy.submitConfirmName,
    active_revision: parts.activeRevision,
    active_policy_term: parts.activeTerm,
    policy_contacts: parts.policyContacts,
    britecore_claims: [],
    external_system_reference: policy.externalSystemReference,
    last_visited: policy.lastVisited?.params ?? null,
    // Beyond the vendor: a rewrite to a new account names the other side on each policy.
    ...(policy.rewrittenTo ? { rewritten_to: rewriteLinkToWire(policy.rewrittenTo) } : {}),
    ...(policy.rewrittenFrom ? { rewritten_from: rewriteLinkToWire(policy.rewrittenFrom) } : {}),
  };
}

const rewriteLinkToWire = (link: RewriteLink) => ({ policy_id: link.policyId, policy_number: link.policyNumber, policy_term_id: link.termId });

/** A line item (spec 2.9). */
export function lineItemToWire(item: LineItemRecord) {
  return {
    id: item.id,
    item_id: item.itemId,
    ...(item.riskId ? { property_id: item.riskId } : { revision_id: item.revisionId }),
    ...(item.subLineInstanceId ? { sub_line_instance_id: item.subLineInstanceId } : {}),
    apply_date: item.applyDate,
    date_added: item.dateAdded,
    date_added_micro: item.dateAddedMicro,
    limit: amount(item.limitCents),
    deductible: amount(item.deductibleCents),
    written_premium: amount(item.writtenPremiumCents),
    annual_premium: amount(item.annualPremiumCents),
    written_fee: amount(item.writtenFeeCents),
    annual_fee: amount(item.annualFeeCents),
    prev_adj_amt: amount(item.prevAdjAmtCents),
    manual: item.manual,
    resolved: item.resolved,
    allow_multiples: item.allowMultiples,
    mandatory: item.mandatory,
    show_in_builder: item.showInBuilder,
    loss_exposure_group: item.lossExposureGroup,
    sort_order: item.sortOrder,
    builder_obj: item.builderObj,
    link_obj: item.linkObj,
    rating_details: item.ratingDetails,
    // Beyond the interface, once rated: what the trace's steps read (a Territory step's territory; a condition's answer and its explanation).
    ...(item.ratingBasis ? { rating_basis: item.ratingBasis } : {}),
    persist_status: item.persistStatus,
    status_reason: item.statusReason,
    description: item.description,
    limit_availability: item.limitAvailability,
    name: item.name,
    category: item.category,
    type: item.type,
  };
}

/** A sub line instance (spec 2.10). */
export function subLineToWire(subLine: SubLineRecord) {
  return {
    id: subLine.id,
    sub_line_id: subLine.subLineId,
    inheritance_id: subLine.inheritanceId,
    policy_type_id: subLine.policyTypeId,
    ...(subLine.riskId ? { property_id: subLine.riskId } : { revision_id: subLine.revisionId }),
    date_added: subLine.dateAdded,
    date_added_micro: subLine.dateAddedMicro,
    category: subLine.category,
    default: subLine.default,
    mandatory: subLine.mandatory,
    allow_multiples: subLine.allowMultiples,
    resolved: subLine.resolved,
    name: subLine.name,
    description: subLine.description,
    status_reason: subLine.statusReason,
    sort_order: subLine.sortOrder,
    type: subLine.type,
    persist_status: subLine.persistStatus,
  };
}

export function mortgageeToWire(mortgagee: MortgageeRecord, names?: ContactNames) {
  return {
    x_contact_reference: mortgagee.id,
    contact_id: mortgagee.contactId,
    name: names?.get(mortgagee.contactId)?.name ?? null,
    property_id: mortgagee.riskId,
    description: mortgagee.description,
    loan_num: mortgagee.loanNum,
    type: mortgagee.type,
    dec_mort_statement: mortgagee.decMortStatement,
  };
}

/** A risk as listed by retrieve_risks (spec 2.8). */
export function riskToWire(risk: RiskRecord) {
  const text: Record<string, string | null> = {};
  for (const field of RISK_TEXT_FIELDS) if (field !== 'fire_district') text[field] = risk[field] ?? null;
  return {
    id: risk.id,
    revision_id: risk.revisionId,
    name: risk.name,
    primary: risk.primary,
    address_accuracy: risk.addressAccuracy,
    ...text,
    address_county: risk.county?.id ?? null,
    county_specify: risk.countySpecification?.id ?? null,
    county: risk.county,
    county_specification: risk.countySpecification,
    copy_address: risk.copyAddress,
    date_added: risk.dateAdded,
    fire_district_distance: risk.fireDistrictDistance,
    flag: risk.flag,
    hydrant_distance: risk.hydrantDistance,
    latitude: risk.latitude,
    longitude: risk.longitude,
    iso_pc_data: risk.isoPcData,
    approved_limits: risk.approvedLimits,
    property_group_number: risk.propertyGroupNumber,
    building_number: risk.buildingNumber,
  };
}

/** retrieve_risk_details data: the risk with its items, sub lines and mortgagees (spec 2.8). */
export function riskDetailsToWire(
  risk: RiskRecord,
  snapshot: RevisionSnapshot,
  questions: ReadonlyArray<{ id: string; name: string; group?: string; options?: string[] }>,
  names?: ContactNames,
) {
  const { address_county: _county, county_specify: _specify, ...listed } = riskToWire(risk);
  const questionGroups: Record<string, unknown[]> = {};
  for (const question of questions) {
    (questionGroups[question.group ?? 'General'] ??= []).push({
      id: question.id,
      name: question.name,
      options: question.options ?? [],
      answer: risk.questions[question.id] ?? null,
    });
  }
  return {
    ...listed,
    fire_district: risk.fire_district ?? null,
    items: snapshot.items.filter((item) => item.riskId === risk.id).sort(bySortOrder).map(lineItemToWire),
    sub_lines: snapshot.subLines.filter((subLine) => subLine.riskId === risk.id).sort(bySortOrder).map(subLineToWire),
    mortgagees: snapshot.mortgagees.filter((mortgagee) => mortgagee.riskId === risk.id).map((mortgagee) => mortgageeToWire(mortgagee, names)),
    inspectors: [],
    photos: [],
    disclosures: [],
    loss_history: [],
    britecore_claims: [],
    question_groups: questionGroups,
    tenants: risk.tenants,
  };
}

export function bySortOrder(a: { sortOrder: number; dateAddedMicro: string }, b: { sortOrder: number; dateAddedMicro: string }): number {
  return a.sortOrder - b.sortOrder || a.dateAddedMicro.localeCompare(b.dateAddedMicro);
}
