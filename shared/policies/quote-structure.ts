/**
 * The records of a revision built whole from a request (a quote by names): its properties
 * at their locations with their answers, the starting sub lines and items, and the items
 * asked for with their limits and deductibles. Pure: the caller stores it or only rates it.
 */
import type { ProductCatalog } from '../catalog/index.js';
import { lookupZip } from '../geography/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Cents } from '../platform/money.js';
import type { LineItemRecord, RiskRecord, SubLineRecord } from './model.js';
import type { LocationChange, Placement } from './model.js';
import { applyLocation, newRisk } from './risk-rules.js';
import { deductibleProblem, findItemDefinition, findSubLineDefinition, limitProblem, newLineItem, newSubLine, startingStructure, withDefaultLimits } from './structure.js';

export interface StructureRequest {
  policyTypeId: string;
  locations: Array<{ change: LocationChange; answers: Record<string, string>; primary: boolean }>;
  items: Array<{ itemId: string; location: number | null; limitCents: Cents | null; deductibleCents: Cents | null; field: string }>;
  hardGeoBypass: boolean;
}

export interface BuiltStructure {
  risks: RiskRecord[];
  subLines: SubLineRecord[];
  items: LineItemRecord[];
}

export function buildRevisionStructure(
  product: ProductCatalog,
  request: StructureRequest,
  at: { policyId: string; revisionId: string; today: string; now: Date },
  newId: () => string,
): BuiltStructure {
  const placement: Placement = { revisionId: at.revisionId, riskId: null, policyTypeId: request.policyTypeId, today: at.today, now: at.now };
  // The store derives the locators of these parts when it writes them.
  const built: BuiltStructure = { risks: [], subLines: [], items: [] };
  const add = (riskId: string | null, category: 'policy' | 'property') => {
    const start = startingStructure(product, { ...placement, riskId }, category, newId);
    built.subLines.push(...start.subLines);
    built.items.push(...start.items);
  };
  add(null, 'policy');
  request.locations.forEach((location, index) => {
    const fresh = newRisk({ id: newId(), revisionId: at.revisionId, policyId: at.policyId, sequence: index + 1, primary: location.primary, now: at.now });
    const risk = { ...applyLocation(fresh, location.change, { soft: false, hard: request.hardGeoBypass, lookup: lookupZip }), questions: location.answers };
    built.risks.push(risk);
    add(risk.id, 'property');
  });
  const problems: string[] = [];
  for (const wanted of request.items) setItem(product, built, wanted, { placement, newId }, problems);
  if (problems.length) throw new BusinessRuleError(problems);
  built.items = withDefaultLimits(built.items, product);
  return built;
}

function setItem(
  product: ProductCatalog,
  built: BuiltStructure,
  wanted: StructureRequest['items'][number],
  tools: { placement: Placement; newId: () => string },
  problems: string[],
): void {
  const definition = findItemDefinition(product, wanted.itemId)!;
  const riskId = wanted.location === null ? null : built.risks[wanted.location].id;
  let index = built.items.findIndex((item) => item.itemId === definition.id && item.riskId === riskId);
  if (index < 0) {
    let subLine = built.subLines.find((candidate) => candidate.subLineId === definition.subLineId && candidate.riskId === riskId);
    if (!subLine) {
      subLine = newSubLine(findSubLineDefinition(product, definition.subLineId)!, { ...tools.placement, riskId }, tools.newId());
      built.subLines.push(subLine);
    }
    built.items.push(newLineItem(definition, { ...tools.placement, riskId, subLineInstanceId: subLine.id }, tools.newId()));
    index = built.items.length - 1;
  }
  const item = { ...built.items[index] };
  if (wanted.limitCents !== null) {
    const problem = limitProblem(definition, wanted.limitCents, `${wanted.field}.limit`);
    if (problem) problems.push(problem);
    Object.assign(item, { limitCents: wanted.limitCents, limitIsDefault: false });
  }
  if (wanted.deductibleCents !== null) {
    const problem = deductibleProblem(definition, wanted.deductibleCents, `${wanted.field}.deductible`);
    if (problem) problems.push(problem);
    item.deductibleCents = wanted.deductibleCents;
  }
  built.items[index] = item;
}
