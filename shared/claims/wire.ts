/** A claim's records as the wire carries them: snake_case, amounts as numbers with two decimals. */
import { toAmount } from '../platform/money.js';
import type { CatastropheRecord, ClaimChange, ClaimContactRecord, ClaimDateRecord, ClaimRecord, ClaimSummary, DueDate, ExposureRecord } from './model.js';

const amount = (cents: number | null) => (cents === null ? null : toAmount(cents));

export function dueDateToWire(due: DueDate) {
  return { clock: due.clockId, what: due.what, from: due.from, from_date: due.fromDate, due_date: due.dueDate, calendar: due.calendar, status: due.status, met_at: due.metAt, met_by: due.metBy, breached_at: due.breachedAt };
}

export function exposureToWire(exposure: ExposureRecord) {
  return {
    id: exposure.exposureId,
    claim_id: exposure.claimId,
    coverage: exposure.coverage,
    coverage_item_id: exposure.coverageItemId,
    section: exposure.section,
    limit: amount(exposure.limitCents),
    limit_per: exposure.limitPer,
    deductible_applies: exposure.deductibleApplies,
    claimant_contact_id: exposure.claimantContactId,
    status: exposure.status,
    close_reason: exposure.closeReason,
    history: exposure.history,
    created_at: exposure.createdAt,
  };
}

export const contactToWire = (contact: ClaimContactRecord) => ({ contact_id: contact.contactId, role: contact.role, name: contact.name, added_at: contact.addedAt, added_by: contact.addedBy });
export const dateToWire = (claimDate: ClaimDateRecord) => ({ id: claimDate.claimDateId, claim_date_type: claimDate.type, claim_date: claimDate.date, recorded_at: claimDate.recordedAt, recorded_by: claimDate.recordedBy });
export const changeToWire = (change: ClaimChange) => ({ id: change.changeId, at: change.at, by: change.by, kind: change.kind, changes: change.changes, reason: change.reason });

export function catastropheToWire(catastrophe: CatastropheRecord) {
  return {
    id: catastrophe.catastropheId,
    title: catastrophe.title,
    pcs_number: catastrophe.pcsNumber,
    states: catastrophe.states,
    counties: catastrophe.counties,
    from: catastrophe.from,
    to: catastrophe.to,
    moratorium_id: catastrophe.moratoriumId,
    declared_by: catastrophe.declaredBy,
    declared_at: catastrophe.declaredAt,
  };
}

export function summaryToWire(summary: ClaimSummary) {
  return {
    id: summary.claimId,
    claim_number: summary.claimNumber,
    policy_id: summary.policyId,
    policy_number: summary.policyNumber,
    insured_name: summary.insuredName,
    loss_date: summary.lossDate,
    reported_date: summary.reportedDate,
    peril: summary.perilCode,
    status: summary.status,
    state: summary.state,
    adjuster_contact_id: summary.adjusterContactId,
    cat_id: summary.catastropheId,
    policy_term_id: summary.termId,
  };
}

export function claimToWire(claim: ClaimRecord) {
  return {
    id: claim.claimId,
    claim_number: claim.claimNumber,
    claim_number_origin: claim.claimNumberOrigin,
    policy_id: claim.policyId,
    policy_number: claim.policyNumber,
    agency_id: claim.agencyId,
    insured_contact_id: claim.insuredContactId,
    insured_name: claim.insuredName,
    state: claim.state,
    loss_date: claim.lossDate,
    loss_time: claim.lossTime,
    time_zone: claim.timeZone,
    reported_date: claim.reportedDate,
    peril: claim.perilCode,
    description: claim.description,
    property_id: claim.propertyId,
    loss_address: { address_line1: claim.lossAddress.line1, address_line2: claim.lossAddress.line2, address_city: claim.lossAddress.city, address_state: claim.lossAddress.state, address_zip: claim.lossAddress.zip, county: claim.lossAddress.county, county_code: claim.lossAddress.countyCode },
    reported_by: claim.reportedBy,
    cat_id: claim.catastropheId,
    adjuster_contact_id: claim.adjusterContactId,
    coverage: claim.coverage.status,
    coverage_reason: claim.coverage.reason,
    coverage_at_loss: {
      policy_term_id: claim.coverage.termId,
      term_effective_date: claim.coverage.termEffectiveDate,
      term_expiration_date: claim.coverage.termExpirationDate,
      revision_id: claim.coverage.revisionId,
      revision_date: claim.coverage.revisionDate,
      deductible: amount(claim.coverage.deductibleCents),
      coverages: claim.coverage.coverages.map((coverage) => ({ item_id: coverage.itemId, name: coverage.name, limit: amount(coverage.limitCents), deductible: amount(coverage.deductibleCents), property_id: coverage.riskId })),
    },
    status: claim.status,
    status_history: claim.statusHistory,
    denial: claim.denial,
    due_dates: claim.dueDates.map(dueDateToWire),
    created_at: claim.createdAt,
    created_by: claim.createdBy,
    updated_at: claim.updatedAt,
  };
}
