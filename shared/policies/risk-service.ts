/** Risks (properties) of a revision: create_risk, copy_risk, the risk reads and the property updates. */
import { randomUUID } from 'node:crypto';
import { getProductCatalog } from '../catalog/index.js';
import { getContactSummaries } from '../contacts/index.js';
import { lookupZip } from '../geography/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import { revisionWithinReach, riskWithinReach, type Principal } from './access.js';
import type { LocationChange, RevisionChange, RevisionSnapshot, RiskCopyOptions, RiskRecord } from './model.js';
import { UNRATED_TOTALS, resetPremiums } from './premiums.js';
import { snapshotAfter } from './revision-snapshot.js';
import { applyLocation, newRisk, orderRisks, primaryMovedTo, readinessChange, riskCopyChange } from './risk-rules.js';
import { changeRevision } from './store.js';
import { startingStructure } from './structure.js';
import { riskDetailsToWire, riskToWire } from './wire.js';
import { clock } from '../platform/clock.js';

export async function riskDetails(risk: RiskRecord, snapshot: RevisionSnapshot) {
  const mortgageeIds = snapshot.mortgagees.filter((mortgagee) => mortgagee.riskId === risk.id).map((mortgagee) => mortgagee.contactId);
  const names = mortgageeIds.length ? await getContactSummaries(mortgageeIds) : new Map();
  const questions = (await getProductCatalog()).questions.filter((question) => question.level === 'property');
  return riskDetailsToWire(risk, snapshot, questions, names);
}

/** Writes a change of a property's revision and answers the property's details as they now are. */
async function changeAndDescribe(snapshot: RevisionSnapshot, riskId: string, change: RevisionChange) {
  await changeRevision(snapshot.header, change);
  const after = snapshotAfter(snapshot, change);
  return riskDetails(after.risks.find((candidate) => candidate.id === riskId)!, after);
}

// ---------------------------------------------------------------- create_risk

export async function createRisk(principal: Principal, input: { revision_id: string; property_group_number?: string; building_number?: string }, now = clock.now()) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const product = await getProductCatalog();
  const header = snapshot.header;
  const sequence = header.riskSequence + 1;
  const risk = newRisk({
    id: randomUUID(),
    revisionId: header.id,
    policyId: header.policyId,
    sequence,
    // The first property is primary until another is made primary.
    primary: !snapshot.risks.some((existing) => existing.primary),
    now,
    propertyGroupNumber: input.property_group_number ?? null,
    buildingNumber: input.building_number ?? null,
  });
  const placement = { revisionId: header.id, riskId: risk.id, policyTypeId: header.policyTypeId, today: header.termStart, now };
  const structure = startingStructure(product, placement, 'property', randomUUID);
  await changeRevision(header, {
    header: { riskSequence: sequence, builderPending: true, ...UNRATED_TOTALS },
    create: [risk, ...structure.subLines, ...structure.items],
  });
  return { id: risk.id, revision_id: risk.revisionId, name: risk.name, address_state: risk.address_state ?? null };
}

// ---------------------------------------------------------------- reads

export async function retrieveRisks(
  principal: Principal,
  input: { revision_id: string; page: number; page_size: number; retrieve_remaining: boolean; order_by: string; risk_types?: string[] },
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id);
  const wanted = input.risk_types?.map((type) => type.toLowerCase());
  const listed = snapshot.risks
    .filter((risk) => !wanted?.length || wanted.some((type) => ['property', 'properties', 'dwelling'].includes(type) || (risk.type ?? '').toLowerCase() === type))
    .map(riskToWire);
  const ordered = orderRisks(listed as unknown as Record<string, unknown>[], input.order_by || 'name');
  const start = input.page * input.page_size;
  const results = input.retrieve_remaining ? ordered.slice(start) : ordered.slice(start, start + input.page_size);
  return { page: input.page, page_size: input.page_size, total_size: listed.length, results };
}

/** What a property's details show from areas the policies area may not import, read by whoever wires the operation: the policy's claims. */
export interface RiskDetailReads {
  /** The policy's claims as `loss_history` lists them (number, loss date, peril, status). */
  lossHistory?: (policyId: string) => Promise<unknown[]>;
}

export async function retrieveRiskDetails(principal: Principal, riskId: string, reads: RiskDetailReads = {}) {
  const { snapshot, risk } = await riskWithinReach(principal, riskId, { label: 'Risk' });
  const [details, lossHistory] = await Promise.all([riskDetails(risk, snapshot), reads.lossHistory?.(snapshot.header.policyId)]);
  return lossHistory ? { ...details, loss_history: lossHistory } : details;
}

// ---------------------------------------------------------------- property updates

export async function updatePropertyLocation(
  principal: Principal,
  input: { location: LocationChange & { id: string; primary?: boolean }; soft_geoservice_bypass: boolean; hard_geoservice_bypass: boolean; reset_premiums: boolean },
) {
  const { snapshot, risk } = await riskWithinReach(principal, input.location.id, { open: true });
  const updated = applyLocation(risk, input.location, { soft: input.soft_geoservice_bypass, hard: input.hard_geoservice_bypass, lookup: lookupZip });
  if (input.location.primary === false && risk.primary) throw new BusinessRuleError('location.primary: make another property primary instead (update_primary_property)');
  const change: RevisionChange = { replace: input.location.primary === true ? primaryMovedTo(snapshot.risks, updated) : [updated] };
  if (input.reset_premiums) {
    change.replace!.push(...resetPremiums(snapshot.items.filter((item) => item.riskId === risk.id)));
    change.header = { ...UNRATED_TOTALS };
  }
  return changeAndDescribe(snapshot, risk.id, change);
}

export async function updatePrimaryProperty(principal: Principal, propertyId: string) {
  const { snapshot, risk } = await riskWithinReach(principal, propertyId, { open: true });
  if (risk.primary) return `${risk.name} is already the primary property`;
  await changeRevision(snapshot.header, { replace: primaryMovedTo(snapshot.risks, risk) });
  return `${risk.name} is now the primary property`;
}

export async function updateBuilderReadyToRate(principal: Principal, input: { revision_id?: string; property_id?: string; is_completed: boolean }) {
  const readiness = input.is_completed ? 'ready' : 'not ready';
  if (input.property_id) {
    const { snapshot, risk } = await riskWithinReach(principal, input.property_id, { open: true });
    await changeRevision(snapshot.header, readinessChange(snapshot, risk.id, input.is_completed));
    return `${risk.name} is ${readiness} to rate`;
  }
  if (!input.revision_id) throw new BusinessRuleError('revision_id: give revision_id or property_id');
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  await changeRevision(snapshot.header, readinessChange(snapshot, undefined, input.is_completed));
  return `The revision is ${readiness} to rate`;
}

// ---------------------------------------------------------------- copy_risk

export async function copyRisk(principal: Principal, input: { from_risk_id: string; to_risk_id: string } & RiskCopyOptions) {
  if (input.from_risk_id === input.to_risk_id) throw new BusinessRuleError('to_risk_id: a property cannot be copied onto itself');
  const source = await riskWithinReach(principal, input.from_risk_id, { label: 'Risk' });
  const target = await riskWithinReach(principal, input.to_risk_id, { open: true, label: 'Risk' });
  const { risk, ...change } = riskCopyChange(source, target, input, clock.now(), randomUUID);
  return changeAndDescribe(target.snapshot, risk.id, change);
}
