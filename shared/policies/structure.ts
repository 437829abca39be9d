/**
 * Building and changing the structure of a revision (sub lines and line items) from
 * the catalog: plain functions over plain data, no I/O.
 */
import type { Availability, ItemDefinition, ProductCatalog, SubLineDefinition, ValueReference } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import { percentOf, sameAmount, toCents, formatCents, type Cents } from '../platform/money.js';
import type { LineItemRecord, Placement, RevisionSnapshot, SubLineRecord } from './model.js';

let lastMicros = 0n;
/** Microseconds since the epoch as a string, strictly increasing within a process. */
export function microsNow(now = Date.now()): string {
  let micros = BigInt(now) * 1000n;
  if (micros <= lastMicros) micros = lastMicros + 1n;
  lastMicros = micros;
  return micros.toString();
}

export function availabilityOf(entry: { availability: Record<string, Availability> }, policyTypeId: string): Availability | undefined {
  return entry.availability[policyTypeId];
}

export function findItemDefinition(product: ProductCatalog, itemId: string): ItemDefinition | undefined {
  return product.items.find((item) => item.id === itemId);
}

export function findSubLineDefinition(product: ProductCatalog, subLineId: string): SubLineDefinition | undefined {
  return product.subLines.find((subLine) => subLine.id === subLineId);
}

export function newSubLine(definition: SubLineDefinition, placement: Placement, id: string): SubLineRecord {
  const availability = availabilityOf(definition, placement.policyTypeId);
  return {
    entity: 'SubLine',
    id,
    subLineId: definition.id,
    inheritanceId: definition.id,
    policyTypeId: placement.policyTypeId,
    revisionId: placement.revisionId,
    riskId: placement.riskId,
    linkId: placement.linkId ?? null,
    dateAdded: placement.today,
    dateAddedMicro: microsNow(placement.now.getTime()),
    category: definition.category,
    default: availability === 'mandatory',
    mandatory: availability === 'mandatory',
    allowMultiples: definition.allowMultiples,
    resolved: false,
    name: definition.name,
    description: definition.description,
    statusReason: '',
    sortOrder: definition.sortOrder,
    type: definition.type,
    persistStatus: 'normal',
  };
}

export function newLineItem(definition: ItemDefinition, placement: Placement & { subLineInstanceId: string | null }, id: string): LineItemRecord {
  const fixedDefault = typeof definition.limit?.default === 'string' ? toCents(definition.limit.default) : null;
  const availability = availabilityOf(definition, placement.policyTypeId);
  return {
    entity: 'LineItem',
    id,
    itemId: definition.id,
    revisionId: placement.revisionId,
    riskId: placement.riskId,
    subLineInstanceId: placement.subLineInstanceId,
    applyDate: placement.today,
    dateAdded: placement.today,
    dateAddedMicro: microsNow(placement.now.getTime()),
    limitCents: fixedDefault,
    limitIsDefault: typeof definition.limit?.default === 'object',
    deductibleCents: definition.deductible?.default !== undefined ? toCents(definition.deductible.default) : null,
    writtenPremiumCents: null,
    annualPremiumCents: null,
    writtenFeeCents: null,
    annualFeeCents: null,
    prevAdjAmtCents: 0,
    manual: false,
    resolved: false,
    allowMultiples: definition.allowMultiples,
    mandatory: availability === 'mandatory' || availability === 'automatic',
    showInBuilder: definition.showInBuilder,
    lossExposureGroup: null,
    sortOrder: definition.sortOrder,
    builderObj: {},
    linkObj: placement.linkId ? { link_id: placement.linkId } : {},
    ratingDetails: {},
    persistStatus: 'normal',
    statusReason: '',
    description: definition.description,
    limitAvailability: limitAvailability(definition),
    name: definition.name,
    category: definition.category,
    type: definition.type,
    premiumSource: null,
  };
}

function limitAvailability(definition: ItemDefinition): string {
  const limit = definition.limit;
  if (!limit) return '';
  if (limit.options) return limit.options.join(', ');
  if (limit.min || limit.max) return `${limit.min ?? '0'} to ${limit.max ?? 'no maximum'}`;
  return '';
}

/**
 * The sub line instance and the mandatory and automatic items a new policy
 * (category `policy`) or a new property (category `property`) starts with.
 */
export function startingStructure(
  product: ProductCatalog,
  placement: Placement,
  category: 'policy' | 'property',
  newId: () => string,
): { subLines: SubLineRecord[]; items: LineItemRecord[] } {
  const subLines: SubLineRecord[] = [];
  const items: LineItemRecord[] = [];
  for (const definition of product.subLines) {
    if (definition.category !== category) continue;
    if (availabilityOf(definition, placement.policyTypeId) !== 'mandatory') continue;
    const subLine = newSubLine(definition, placement, newId());
    subLines.push(subLine);
    items.push(...itemsStartingOn(product, subLine, placement, newId));
  }
  return { subLines, items: withDefaultLimits(items, product) };
}

/** Mandatory and automatic items of a sub line instance just added. */
export function itemsStartingOn(product: ProductCatalog, subLine: SubLineRecord, placement: Placement, newId: () => string): LineItemRecord[] {
  return product.items
    .filter((item) => item.subLineId === subLine.subLineId && item.category === subLine.category)
    .filter((item) => {
      const availability = availabilityOf(item, placement.policyTypeId);
      return availability === 'mandatory' || availability === 'automatic';
    })
    .map((item) => newLineItem(item, { ...placement, subLineInstanceId: subLine.id }, newId()));
}

function resolveReference(reference: ValueReference, item: LineItemRecord, siblings: readonly LineItemRecord[]): Cents | null {
  if ('limitOf' in reference) {
    if (reference.limitOf === 'self') return item.limitCents;
    return siblings.find((sibling) => sibling.itemId === reference.limitOf)?.limitCents ?? null;
  }
  const basis = siblings.find((sibling) => sibling.itemId === reference.percentOfLimit.item)?.limitCents ?? null;
  return basis === null ? null : percentOf(basis, reference.percentOfLimit.percent);
}

/**
 * Recomputes the limits that follow a default derived from another limit (10% of
 * the Dwelling limit...) within each property, and for the revision level.
 * Answers new records for the items whose limit changed; others are returned as they are.
 */
export function withDefaultLimits(items: readonly LineItemRecord[], product: ProductCatalog): LineItemRecord[] {
  return items.map((item) => {
    const definition = findItemDefinition(product, item.itemId);
    const rule = definition?.limit;
    if (!rule || typeof rule.default !== 'object') return item;
    if (!item.limitIsDefault && !rule.locked) return item;
    const siblings = items.filter((sibling) => sibling.riskId === item.riskId);
    const limitCents = resolveReference(rule.default, item, siblings);
    return limitCents === item.limitCents ? item : { ...item, limitCents };
  });
}

/** Checks a limit against the item's rule; answers a message naming `field`, or undefined. */
export function limitProblem(definition: ItemDefinition, limitCents: Cents | null, field: string): string | undefined {
  const rule = definition.limit;
  if (limitCents === null) return rule?.required ? `${field}: ${definition.name} requires a limit` : undefined;
  if (!rule) return `${field}: ${definition.name} takes no limit`;
  if (rule.locked) return `${field}: the limit of ${definition.name} follows its rule and cannot be set`;
  const text = formatCents(limitCents);
  if (rule.options && !rule.options.some((option) => sameAmount(option, text))) {
    return `${field}: ${definition.name} limit must be one of ${rule.options.join(', ')}`;
  }
  if (rule.min !== undefined && limitCents < toCents(rule.min)) return `${field}: ${definition.name} limit must be at least ${rule.min}`;
  if (rule.max !== undefined && limitCents > toCents(rule.max)) return `${field}: ${definition.name} limit must be at most ${rule.max}`;
  if (limitCents < 0) return `${field}: a limit cannot be negative`;
  return undefined;
}

export function deductibleProblem(definition: ItemDefinition, deductibleCents: Cents | null, field: string): string | undefined {
  if (deductibleCents === null) return undefined;
  const rule = definition.deductible;
  if (!rule) return `${field}: ${definition.name} takes no deductible`;
  if (!rule.options.some((option) => sameAmount(option, formatCents(deductibleCents)))) {
    return `${field}: ${definition.name} deductible must be one of ${rule.options.join(', ')}`;
  }
  return undefined;
}

/** Where an item goes: its catalog sub line on the property (property items) or the revision (policy items). */
export function subLineInstanceFor(snapshot: RevisionSnapshot, subLineId: string, riskId: string | null): SubLineRecord | undefined {
  return snapshot.subLines.find((subLine) => subLine.subLineId === subLineId && subLine.riskId === riskId);
}

/** Refuses an item or sub line that the revision's policy type does not offer. */
export function requireOffered(entry: { name: string; availability: Record<string, Availability> }, policyTypeId: string, field: string): Availability {
  const availability = availabilityOf(entry, policyTypeId);
  if (!availability) throw new BusinessRuleError(`${field}: ${entry.name} is not offered on this policy type`);
  return availability;
}

/** Mandatory and automatic items a policy type adds to the sub lines already on the revision. */
export function missingMandatoryItems(product: ProductCatalog, snapshot: RevisionSnapshot, policyTypeId: string, now: Date, newId: () => string): LineItemRecord[] {
  const added: LineItemRecord[] = [];
  for (const subLine of snapshot.subLines) {
    const placement = { revisionId: snapshot.header.id, riskId: subLine.riskId, policyTypeId, today: snapshot.header.termStart, now };
    for (const item of itemsStartingOn(product, subLine, placement, newId)) {
      if (!snapshot.items.some((existing) => existing.itemId === item.itemId && existing.riskId === subLine.riskId)) added.push(item);
    }
  }
  const ids = new Set(added.map((item) => item.id));
  return withDefaultLimits([...snapshot.items, ...added], product).filter((item) => ids.has(item.id));
}
