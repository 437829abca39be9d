/**
 * Items and sub lines added to a revision: where they go, what comes with them, and
 * what is refused (add_line_item, add_sub_line, copy_sub_line). No I/O: ids come from
 * the `newId` given.
 */
import type { ItemDefinition, ProductCatalog, SubLineDefinition } from '../catalog/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import type { Addition, LineItemRecord, Placement, RevisionSnapshot, RiskRecord, SubLineRecord } from './model.js';
import { withoutCalculatedPremium } from './premiums.js';
import {
  findItemDefinition,
  findSubLineDefinition,
  itemsStartingOn,
  microsNow,
  newLineItem,
  newSubLine,
  requireOffered,
  subLineInstanceFor,
  withDefaultLimits,
} from './structure.js';

const where = (riskId: string | null) => (riskId ? 'property' : 'revision');

/** The property a property-level item or sub line goes on: the one named, else the primary property. */
export function propertyFor(snapshot: RevisionSnapshot, propertyId: string | undefined, what: string): RiskRecord {
  if (propertyId) {
    const risk = snapshot.risks.find((candidate) => candidate.id === propertyId);
    if (!risk) throw new NotFoundError(`Property ${propertyId} of revision ${snapshot.header.id}`);
    return risk;
  }
  const risk = snapshot.risks.find((candidate) => candidate.primary) ?? snapshot.risks[0];
  if (!risk) throw new BusinessRuleError(`property_id: ${what} belongs on a property and the revision has none; create_risk first`);
  return risk;
}

export function itemDefinition(product: ProductCatalog, itemId: string, field = 'item_id'): ItemDefinition {
  const definition = findItemDefinition(product, itemId);
  if (!definition) throw new BusinessRuleError(`${field}: ${itemId} is not an item of the catalog`);
  return definition;
}

/** The riskId a catalog entry goes under: the property's for property entries, none for policy ones. */
export function riskIdFor(entry: { category: 'policy' | 'property'; name: string }, snapshot: RevisionSnapshot, propertyId: string | undefined): string | null {
  return entry.category === 'property' ? propertyFor(snapshot, propertyId, entry.name).id : null;
}

/**
 * The added items with the limits that follow another limit of their property (or of the
 * revision) resolved against what is already there.
 */
export function withFollowingLimits(snapshot: RevisionSnapshot, riskId: string | null, added: readonly LineItemRecord[], product: ProductCatalog): LineItemRecord[] {
  const addedIds = new Set(added.map((item) => item.id));
  return withDefaultLimits([...snapshot.items.filter((item) => item.riskId === riskId), ...added], product).filter((item) => addedIds.has(item.id));
}

/** A sub_line_id given with add_line_item must be the item's own sub line (by catalog id or instance id). */
function checkNamedSubLine(snapshot: RevisionSnapshot, product: ProductCatalog, definition: ItemDefinition, subLineId: string | undefined): void {
  if (!subLineId) return;
  const named = snapshot.subLines.find((subLine) => subLine.id === subLineId);
  if ((named?.subLineId ?? subLineId) === definition.subLineId) return;
  throw new BusinessRuleError(`sub_line_id: ${definition.name} belongs on the ${findSubLineDefinition(product, definition.subLineId)?.name ?? definition.subLineId} sub line`);
}

/** The item's sub line, added with its starting items when missing and the caller allows it. */
function subLineForItem(product: ProductCatalog, snapshot: RevisionSnapshot, definition: ItemDefinition, placement: Placement, checkForSubLine: boolean, newId: () => string): Addition & { subLine: SubLineRecord; added: boolean } {
  const existing = subLineInstanceFor(snapshot, definition.subLineId, placement.riskId);
  if (existing) return { subLine: existing, items: [], added: false };
  const subLineDefinition = findSubLineDefinition(product, definition.subLineId);
  if (!subLineDefinition) throw new BusinessRuleError(`item_id: the sub line of ${definition.name} is missing from the catalog`);
  if (!checkForSubLine) {
    throw new BusinessRuleError(`sub_line_id: the ${subLineDefinition.name} sub line is not on the ${where(placement.riskId)}; pass check_for_sub_line true to add it with the item`);
  }
  requireOffered(subLineDefinition, placement.policyTypeId, 'sub_line_id');
  const subLine = newSubLine(subLineDefinition, placement, newId());
  const items = itemsStartingOn(product, subLine, placement, newId).filter((item) => item.itemId !== definition.id);
  return { subLine, items, added: true };
}

/** add_line_item: the item on its sub line, the sub line with its starting items when asked to add it. */
export function planLineItem(
  product: ProductCatalog,
  snapshot: RevisionSnapshot,
  input: { property_id?: string; sub_line_id?: string; item_id: string; link_id?: string; check_for_sub_line: boolean },
  now: Date,
  newId: () => string,
): Addition {
  const header = snapshot.header;
  const definition = itemDefinition(product, input.item_id);
  requireOffered(definition, header.policyTypeId, 'item_id');
  const riskId = riskIdFor(definition, snapshot, input.property_id);
  checkNamedSubLine(snapshot, product, definition, input.sub_line_id);
  const placement: Placement = { revisionId: header.id, riskId, policyTypeId: header.policyTypeId, today: header.termStart, now, linkId: input.link_id ?? null };
  const home = subLineForItem(product, snapshot, definition, placement, input.check_for_sub_line, newId);
  if (!definition.allowMultiples && snapshot.items.some((item) => item.itemId === definition.id && item.riskId === riskId)) {
    throw new BusinessRuleError(`item_id: ${definition.name} is already on the ${where(riskId)} and cannot be added twice`);
  }
  const added = [...home.items, newLineItem(definition, { ...placement, subLineInstanceId: home.subLine.id }, newId())];
  return { subLine: home.added ? home.subLine : null, items: withFollowingLimits(snapshot, riskId, added, product) };
}

/** The item ids of `optional_items`: given as ids, or as objects carrying `item_id` or `id`. */
export function optionalItemIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((entry) => (typeof entry === 'string' ? entry : String((entry as Record<string, unknown>)?.item_id ?? (entry as Record<string, unknown>)?.id ?? '')))
    .filter(Boolean);
}

/** The optional items chosen for a sub line instance, each once and not already present. */
function optionalItemsFor(product: ProductCatalog, subLine: SubLineRecord, itemIds: readonly string[], present: readonly LineItemRecord[], placement: Placement & { subLineInstanceId: string }, newId: () => string) {
  return itemIds
    .filter((itemId, index) => itemIds.indexOf(itemId) === index)
    .filter((itemId) => !present.some((item) => item.itemId === itemId))
    .map((itemId, index) => {
      const definition = itemDefinition(product, itemId, `optional_items.${index}`);
      requireOffered(definition, placement.policyTypeId, `optional_items.${index}`);
      if (definition.subLineId !== subLine.subLineId) throw new BusinessRuleError(`optional_items.${index}: ${definition.name} does not belong on the ${subLine.name} sub line`);
      return newLineItem(definition, placement, newId());
    });
}

/** add_sub_line: a new instance of a catalog sub line, with its starting items and the optional ones chosen. */
export function planSubLine(
  product: ProductCatalog,
  snapshot: RevisionSnapshot,
  input: { property_id?: string; sub_line_id: string; link_id?: string; optional_items?: unknown },
  now: Date,
  newId: () => string,
): Addition & { subLine: SubLineRecord } {
  const header = snapshot.header;
  const definition: SubLineDefinition | undefined = findSubLineDefinition(product, input.sub_line_id);
  if (!definition) throw new BusinessRuleError(`sub_line_id: ${input.sub_line_id} is not a sub line of the catalog`);
  requireOffered(definition, header.policyTypeId, 'sub_line_id');
  const riskId = riskIdFor(definition, snapshot, input.property_id);
  if (!definition.allowMultiples && subLineInstanceFor(snapshot, definition.id, riskId)) {
    throw new BusinessRuleError(`sub_line_id: ${definition.name} is already on the ${where(riskId)} and cannot be added twice`);
  }
  const placement: Placement = { revisionId: header.id, riskId, policyTypeId: header.policyTypeId, today: header.termStart, now, linkId: input.link_id ?? null };
  const subLine = newSubLine(definition, placement, newId());
  const starting = itemsStartingOn(product, subLine, placement, newId);
  const optional = optionalItemsFor(product, subLine, optionalItemIds(input.optional_items), starting, { ...placement, subLineInstanceId: subLine.id }, newId);
  return { subLine, items: withFollowingLimits(snapshot, riskId, [...starting, ...optional], product) };
}

/** copy_sub_line: a copy of an instance and its items (calculated premiums cleared) on a property or the revision. */
export function planSubLineCopy(
  product: ProductCatalog,
  snapshot: RevisionSnapshot,
  input: { property_id?: string; sub_line_id: string; sub_line_instance_id: string; link_id?: string; optional_items?: unknown },
  now: Date,
  newId: () => string,
): Addition & { subLine: SubLineRecord } {
  const header = snapshot.header;
  const source = snapshot.subLines.find((subLine) => subLine.id === input.sub_line_instance_id);
  if (!source) throw new NotFoundError(`Sub line instance ${input.sub_line_instance_id} of revision ${header.id}`);
  if (source.subLineId !== input.sub_line_id) throw new BusinessRuleError(`sub_line_id: sub line instance ${source.id} is a ${source.name}, not ${input.sub_line_id}`);
  const riskId = riskIdFor(source, snapshot, input.property_id);
  if (!source.allowMultiples && subLineInstanceFor(snapshot, source.subLineId, riskId)) {
    throw new BusinessRuleError(`property_id: the ${where(riskId)} already has the ${source.name} sub line, which cannot be added twice`);
  }
  const placement: Placement = { revisionId: header.id, riskId, policyTypeId: header.policyTypeId, today: header.termStart, now, linkId: input.link_id ?? null };
  const copy: SubLineRecord = { ...source, id: newId(), riskId, linkId: input.link_id ?? null, dateAdded: header.termStart, dateAddedMicro: microsNow(now.getTime()), persistStatus: 'normal' };
  const copied = snapshot.items
    .filter((item) => item.subLineInstanceId === source.id)
    .map((item) => withoutCalculatedPremium({ ...item, id: newId(), riskId, subLineInstanceId: copy.id, dateAddedMicro: microsNow(now.getTime()), persistStatus: 'normal' }));
  const optional = optionalItemsFor(product, copy, optionalItemIds(input.optional_items), copied, { ...placement, subLineInstanceId: copy.id }, newId);
  return { subLine: copy, items: withFollowingLimits(snapshot, riskId, [...copied, ...optional], product) };
}
