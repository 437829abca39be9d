/** Risks (properties) of a revision: create_risk, copy_risk, the risk reads and the property updates. */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/principal.js';
import { getProductCatalog } from '../catalog/store.js';
import { getContactSummaries } from '../contacts/summaries.js';
import { lookupZip } from '../geography/zip-lookup.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { partWithinReach, revisionWithinReach, riskWithinReach } from './access.js';
import type { LineItemRecord, LocatorRecord, MortgageeRecord, RevisionRecord, RevisionSnapshot, RiskRecord, SubLineRecord } from './records.js';
import { addressOf, applyLocation, newRisk, orderRisks, type LocationChange } from './risk-rules.js';
import { changeRevision, type RevisionChange } from './store.js';
import { microsNow, startingStructure, withoutCalculatedPremium } from './structure.js';
import { mortgageeToWire, riskDetailsToWire, riskToWire, subLineToWire } from './wire.js';

/** Premium totals of a revision go back to zero whenever something they depend on changes. */
export const UNRATED_TOTALS: Partial<RevisionRecord> = { annualPremiumCents: 0, writtenPremiumCents: 0, annualFeeCents: 0, writtenFeeCents: 0 };

const locator = (id: string, kind: LocatorRecord['kind'], header: RevisionRecord, riskId: string | null): LocatorRecord => ({
  entity: 'Locator',
  id,
  kind,
  revisionId: header.id,
  policyId: header.policyId,
  riskId,
});

async function propertyQuestions() {
  const product = await getProductCatalog();
  return product.questions.filter((question) => question.level === 'property');
}

export async function riskDetails(risk: RiskRecord, snapshot: RevisionSnapshot) {
  const mortgageeIds = snapshot.mortgagees.filter((mortgagee) => mortgagee.riskId === risk.id).map((mortgagee) => mortgagee.contactId);
  const names = mortgageeIds.length ? await getContactSummaries(mortgageeIds) : new Map();
  return riskDetailsToWire(risk, snapshot, await propertyQuestions(), names);
}

// ---------------------------------------------------------------- create_risk

export async function createRisk(
  principal: Principal,
  input: { revision_id: string; property_group_number?: string; building_number?: string },
  now = new Date(),
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const product = await getProductCatalog();
  const header = snapshot.header;
  const sequence = header.riskSequence + 1;
  const risk = newRisk({
    id: randomUUID(),
    revisionId: header.id,
    policyId: header.policyId,
    sequence,
    primary: !snapshot.risks.some((existing) => existing.primary),
    now,
    propertyGroupNumber: input.property_group_number ?? null,
    buildingNumber: input.building_number ?? null,
  });
  const structure = startingStructure(
    product,
    { revisionId: header.id, riskId: risk.id, policyTypeId: header.policyTypeId, today: header.termStart, now },
    'property',
    randomUUID,
  );
  await changeRevision(header, {
    header: { riskSequence: sequence, builderPending: true, ...UNRATED_TOTALS },
    create: [risk, ...structure.subLines, ...structure.items],
    locators: [locator(risk.id, 'risk', header, risk.id), ...structure.subLines.map((subLine) => locator(subLine.id, 'subline', header, risk.id))],
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

export async function retrieveRiskDetails(principal: Principal, riskId: string) {
  const { snapshot, risk } = await riskWithinReach(principal, riskId, { label: 'Risk' });
  return riskDetails(risk, snapshot);
}

// ---------------------------------------------------------------- update_property_location

export async function updatePropertyLocation(
  principal: Principal,
  input: { location: LocationChange & { id: string; primary?: boolean }; soft_geoservice_bypass: boolean; hard_geoservice_bypass: boolean; reset_premiums: boolean },
) {
  const { snapshot, risk } = await riskWithinReach(principal, input.location.id, { open: true });
  const updated = applyLocation(risk, input.location, { soft: input.soft_geoservice_bypass, hard: input.hard_geoservice_bypass, lookup: lookupZip });
  const change: RevisionChange = { replace: [updated] };
  if (input.location.primary === true) {
    updated.primary = true;
    change.replace!.push(...snapshot.risks.filter((other) => other.id !== risk.id && other.primary).map((other) => ({ ...other, primary: false })));
  } else if (input.location.primary === false && risk.primary) {
    throw new BusinessRuleError('location.primary: make another property primary instead (update_primary_property)');
  }
  if (input.reset_premiums) {
    change.replace!.push(...resetPremiums(snapshot.items.filter((item) => item.riskId === risk.id)));
    change.header = { ...UNRATED_TOTALS };
  }
  await changeRevision(snapshot.header, change);
  const after = applyChange(snapshot, change);
  return riskDetails(after.risks.find((candidate) => candidate.id === risk.id)!, after);
}

/** Items whose calculated premium must go, changed; items with nothing to clear are left out. */
export function resetPremiums(items: readonly LineItemRecord[]): LineItemRecord[] {
  return items.map((item) => ({ before: item, after: withoutCalculatedPremium(item) })).filter(({ before, after }) => before !== after && hasCalculated(before)).map(({ after }) => after);
}

function hasCalculated(item: LineItemRecord): boolean {
  return item.annualPremiumCents !== null || item.writtenPremiumCents !== null || item.annualFeeCents !== null || item.writtenFeeCents !== null || Object.keys(item.ratingDetails).length > 0;
}

/** The snapshot as it is after a change was written (for echoing answers without reading again). */
export function applyChange(snapshot: RevisionSnapshot, change: RevisionChange): RevisionSnapshot {
  const replaced = new Map([...(change.replace ?? []), ...(change.create ?? [])].map((part) => [`${part.entity}#${part.id}`, part]));
  const removed = new Set((change.remove ?? []).map((part) => `${part.entity}#${part.id}`));
  const merge = <T extends { entity: string; id: string }>(list: readonly T[], entity: string): T[] => {
    const kept = list.filter((part) => !removed.has(`${part.entity}#${part.id}`)).map((part) => (replaced.get(`${part.entity}#${part.id}`) as T | undefined) ?? part);
    const added = [...replaced.values()].filter((part) => part.entity === entity && !list.some((existing) => existing.id === part.id)) as unknown as T[];
    return [...kept, ...added];
  };
  return {
    header: { ...snapshot.header, ...(change.header ?? {}), version: snapshot.header.version + 1 } as RevisionRecord,
    risks: merge(snapshot.risks, 'Risk'),
    subLines: merge(snapshot.subLines, 'SubLine'),
    items: merge(snapshot.items, 'LineItem'),
    mortgagees: merge(snapshot.mortgagees, 'Mortgagee'),
  };
}

// ---------------------------------------------------------------- small property updates

export async function updatePrimaryProperty(principal: Principal, propertyId: string) {
  const { snapshot, risk } = await riskWithinReach(principal, propertyId, { open: true });
  if (risk.primary) return `${risk.name} is already the primary property`;
  const replace = [{ ...risk, primary: true }, ...snapshot.risks.filter((other) => other.primary).map((other) => ({ ...other, primary: false }))];
  await changeRevision(snapshot.header, { replace });
  return `${risk.name} is now the primary property`;
}

export async function updatePropertySubLineName(principal: Principal, input: { property_sub_line_id: string; property_sub_line_name: string }) {
  const snapshot = await partWithinReach(principal, input.property_sub_line_id, 'subline', 'Sub line');
  const subLine = snapshot.subLines.find((candidate) => candidate.id === input.property_sub_line_id);
  if (!subLine) throw new NotFoundError(`Sub line ${input.property_sub_line_id}`);
  const renamed: SubLineRecord = { ...subLine, name: input.property_sub_line_name };
  await changeRevision(snapshot.header, { replace: [renamed] });
  return subLineToWire(renamed);
}

export async function updateBuilderReadyToRate(principal: Principal, input: { revision_id?: string; property_id?: string; is_completed: boolean }) {
  if (input.property_id) {
    const { snapshot, risk } = await riskWithinReach(principal, input.property_id, { open: true });
    const updated: RiskRecord = { ...risk, builder_ready_to_rate: String(input.is_completed) };
    const others = snapshot.risks.filter((other) => other.id !== risk.id);
    const allReady = input.is_completed && others.every((other) => other.builder_ready_to_rate === 'true');
    await changeRevision(snapshot.header, { replace: [updated], header: { builderPending: !allReady } });
    return `${risk.name} is ${input.is_completed ? 'ready' : 'not ready'} to rate`;
  }
  if (!input.revision_id) throw new BusinessRuleError('revision_id: give revision_id or property_id');
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const replace = snapshot.risks.map((risk) => ({ ...risk, builder_ready_to_rate: String(input.is_completed) }));
  await changeRevision(snapshot.header, { replace, header: { builderPending: !input.is_completed } });
  return `The revision is ${input.is_completed ? 'ready' : 'not ready'} to rate`;
}

// ---------------------------------------------------------------- mortgagees

/** Connects a mortgagee contact to a property; answers its x_contact_reference. */
export async function attachMortgagee(snapshot: RevisionSnapshot, riskId: string, contactId: string, info: Partial<Pick<MortgageeRecord, 'description' | 'loanNum' | 'type' | 'decMortStatement'>> = {}) {
  const mortgagee: MortgageeRecord = {
    entity: 'Mortgagee',
    id: randomUUID(),
    revisionId: snapshot.header.id,
    riskId,
    contactId,
    description: info.description ?? '',
    loanNum: info.loanNum ?? '',
    type: info.type ?? '',
    decMortStatement: info.decMortStatement ?? '',
  };
  await changeRevision(snapshot.header, { create: [mortgagee], locators: [locator(mortgagee.id, 'mortgagee', snapshot.header, riskId)] });
  return mortgagee;
}

export async function updateMortgageeInformation(
  principal: Principal,
  input: { x_contact_reference: string; mortgagee_info: { description?: string | null; loan_num?: string | null; type?: string | null; dec_mort_statement?: string | null } },
) {
  const snapshot = await partWithinReach(principal, input.x_contact_reference, 'mortgagee', 'Mortgagee reference');
  const mortgagee = snapshot.mortgagees.find((candidate) => candidate.id === input.x_contact_reference);
  if (!mortgagee) throw new NotFoundError(`Mortgagee reference ${input.x_contact_reference}`);
  const info = input.mortgagee_info;
  const pick = (given: string | null | undefined, current: string) => (given === undefined ? current : (given ?? ''));
  const updated: MortgageeRecord = {
    ...mortgagee,
    description: pick(info.description, mortgagee.description),
    loanNum: pick(info.loan_num, mortgagee.loanNum),
    type: pick(info.type, mortgagee.type),
    decMortStatement: pick(info.dec_mort_statement, mortgagee.decMortStatement),
  };
  await changeRevision(snapshot.header, { replace: [updated] });
  const names = await getContactSummaries([updated.contactId]);
  return mortgageeToWire(updated, names);
}

// ---------------------------------------------------------------- copy_risk

export async function copyRisk(
  principal: Principal,
  input: { from_risk_id: string; to_risk_id: string; copy_address: boolean; copy_rating: boolean; copy_mortgagees: boolean; copy_tenants: boolean },
) {
  if (input.from_risk_id === input.to_risk_id) throw new BusinessRuleError('to_risk_id: a property cannot be copied onto itself');
  const from = await riskWithinReach(principal, input.from_risk_id, { label: 'Risk' });
  const to = await riskWithinReach(principal, input.to_risk_id, { open: true, label: 'Risk' });
  const target = to.snapshot;
  const now = new Date();
  let risk: RiskRecord = { ...to.risk };
  const change: RevisionChange = { replace: [], create: [], remove: [], locators: [], removeLocators: [] };
  if (input.copy_address) risk = { ...risk, ...addressOf(from.risk) };
  if (input.copy_tenants) risk.tenants = [...from.risk.tenants];
  if (input.copy_rating) {
    risk = { ...risk, questions: { ...from.risk.questions }, builder_ready_to_rate: from.risk.builder_ready_to_rate ?? 'false', property_val: from.risk.property_val ?? null, year_built: from.risk.year_built ?? null };
    // The target's rating structure is replaced by a copy of the source's.
    const oldSubLines = target.subLines.filter((subLine) => subLine.riskId === risk.id);
    change.remove!.push(...oldSubLines, ...target.items.filter((item) => item.riskId === risk.id));
    change.removeLocators!.push(...oldSubLines.map((subLine) => subLine.id));
    const newIds = new Map<string, string>();
    for (const subLine of from.snapshot.subLines.filter((candidate) => candidate.riskId === from.risk.id)) {
      const copy: SubLineRecord = { ...subLine, id: randomUUID(), revisionId: target.header.id, riskId: risk.id, dateAddedMicro: microsNow(now.getTime()), persistStatus: 'normal' };
      newIds.set(subLine.id, copy.id);
      change.create!.push(copy);
      change.locators!.push(locator(copy.id, 'subline', target.header, risk.id));
    }
    for (const item of from.snapshot.items.filter((candidate) => candidate.riskId === from.risk.id)) {
      change.create!.push(
        withoutCalculatedPremium({
          ...item,
          id: randomUUID(),
          revisionId: target.header.id,
          riskId: risk.id,
          subLineInstanceId: item.subLineInstanceId ? (newIds.get(item.subLineInstanceId) ?? null) : null,
          dateAddedMicro: microsNow(now.getTime()),
          persistStatus: 'normal',
        }),
      );
    }
    change.header = { ...UNRATED_TOTALS };
  }
  if (input.copy_mortgagees) {
    for (const mortgagee of from.snapshot.mortgagees.filter((candidate) => candidate.riskId === from.risk.id)) {
      const copy: MortgageeRecord = { ...mortgagee, id: randomUUID(), revisionId: target.header.id, riskId: risk.id };
      change.create!.push(copy);
      change.locators!.push(locator(copy.id, 'mortgagee', target.header, risk.id));
    }
  }
  change.replace!.push(risk);
  await changeRevision(target.header, change);
  const after = applyChange(target, change);
  return riskDetails(after.risks.find((candidate) => candidate.id === risk.id)!, after);
}
