/**
 * Inspections of a property: the coverage options an inspection can be ordered for, and the
 * order itself, placed with an inspection vendor and recorded with the property's
 * inspection_requested_date in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { riskWithinReach, type LineItemRecord, setRiskInspectionRequested } from '../policies/index.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { toAmount } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { riskAddress } from './assemble.js';
import { inspectionVendor, inspectionVendorNames } from './inspection-vendors.js';
import { inspectionPut, type InspectionRecord } from './store.js';
import { clock } from '../platform/clock.js';

const isCoverage = (item: LineItemRecord) => (item.type === 'coverage' || item.type === 'nonRate') && item.persistStatus !== 'rejected';

export interface CoverageOption {
  id: string;
  item_id: string;
  name: string;
  description: string;
  limit: number | null;
  deductible: number | null;
}

function coverageOption(item: LineItemRecord): CoverageOption {
  return {
    id: item.id,
    item_id: item.itemId,
    name: item.name,
    description: item.description,
    limit: item.limitCents === null || item.limitCents === undefined ? null : toAmount(item.limitCents),
    deductible: item.deductibleCents === null || item.deductibleCents === undefined ? null : toAmount(item.deductibleCents),
  };
}

/** The property's coverages with their limits, in the product's order. */
export async function inspectionCoverageOptions(principal: Principal, propertyId: string): Promise<CoverageOption[]> {
  const { snapshot, risk } = await riskWithinReach(principal, propertyId);
  return snapshot.items
    .filter((item) => item.riskId === risk.id && isCoverage(item))
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .map(coverageOption);
}

export interface InspectionRequestInput {
  revisionId?: string;
  propertyId: string;
  vendor?: string;
  primaryCoverageId?: string;
  supplements?: string;
  additionalComments?: string;
  reportType?: string;
  specialInstructions?: string;
  commercial: boolean;
}

export async function requestInspection(principal: Principal, input: InspectionRequestInput, now = clock.now()) {
  const { snapshot, risk } = await riskWithinReach(principal, input.propertyId);
  if (input.revisionId && input.revisionId !== snapshot.header.id) {
    throw new BusinessRuleError(`propertyId: property ${input.propertyId} is not on revision ${input.revisionId}`);
  }
  const vendor = inspectionVendor(input.vendor);
  if (!vendor) throw new BusinessRuleError(`vendor: no inspection vendor is called ${input.vendor!.slice(0, 60)} (known: ${inspectionVendorNames().join(', ')})`);
  const coverage = input.primaryCoverageId
    ? snapshot.items.find((item) => (item.id === input.primaryCoverageId || item.itemId === input.primaryCoverageId) && item.riskId === risk.id && isCoverage(item))
    : undefined;
  if (input.primaryCoverageId && !coverage) throw new BusinessRuleError(`primaryCoverageId: ${input.primaryCoverageId} is not a coverage of property ${risk.id}`);
  const inspectionId = randomUUID();
  const details: Record<string, string> = {};
  for (const key of ['supplements', 'additionalComments', 'reportType', 'specialInstructions'] as const) {
    if (input[key]) details[key] = input[key]!;
  }
  const placed = await vendor.requestInspection({
    inspectionId,
    policyNumber: snapshot.header.policyNumber,
    propertyName: risk.name,
    address: riskAddress(risk),
    ...(coverage ? { primaryCoverage: { name: coverage.name, limitCents: coverage.limitCents } } : {}),
    ...details,
    commercial: input.commercial,
  });
  const requestedDate = todayIso(now);
  const record: InspectionRecord = {
    inspectionId,
    propertyId: risk.id,
    revisionId: snapshot.header.id,
    policyId: snapshot.header.policyId,
    vendor: vendor.name,
    vendorReference: placed.reference,
    status: placed.status,
    requestedDate,
    requestedAt: now.toISOString(),
    requestedBy: principal.contactId,
    details: { ...details, ...(coverage ? { primaryCoverageId: coverage.id } : {}), commercial: String(input.commercial) },
  };
  await setRiskInspectionRequested(snapshot.header, risk, requestedDate, [inspectionPut(record)]);
  return {
    inspection_id: inspectionId,
    property_id: risk.id,
    vendor: vendor.name,
    vendor_reference: placed.reference,
    status: placed.status,
    inspection_requested_date: requestedDate,
  };
}
