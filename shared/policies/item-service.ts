/**
 * Line items, sub lines and the revision-wide settings: add_line_item, add_sub_line,
 * copy_sub_line, update_rating_information, the underwriting answers, the term dates
 * and the last-visited wizard position.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/principal.js';
import type { ItemDefinition, ProductCatalog } from '../catalog/model.js';
import { getProductCatalog } from '../catalog/store.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { toCents, type Cents } from '../platform/money.js';
import { policyWithinReach, revisionWithinReach, riskWithinReach } from './access.js';
import type { LineItemRecord, LocatorRecord, RevisionRecord, RevisionSnapshot, RiskRecord, SubLineRecord, UnderwritingAnswer, UnderwritingOption } from './records.js';
import { UNRATED_TOTALS, applyChange, resetPremiums } from './risk-service.js';
import { RevisionNotOpenError, changeRevision, loadRevision, setPolicyLastVisited, type RevisionChange } from './store.js';
import {
  deductibleProblem,
  findItemDefinition,
  findSubLineDefinition,
  itemsStartingOn,
  limitProblem,
  microsNow,
  newLineItem,
  newSubLine,
  requireOffered,
  subLineInstanceFor,
  withDefaultLimits,
  withoutCalculatedPremium,
} from './structure.js';
import { deduceTerm, expirationFor, monthsOf, type TermType } from './terms.js';
import { mergeUnderwritingOptions, validateUnderwritingAnswers } from './underwriting.js';
import { lineItemToWire, subLineToWire } from './wire.js';

const locator = (subLine: SubLineRecord, header: RevisionRecord): LocatorRecord => ({
  entity: 'Locator',
  id: subLine.id,
  kind: 'subline',
  revisionId: header.id,
  policyId: header.policyId,
  riskId: subLine.riskId,
});

/** The property a property-level item or sub line goes on: the one named, else the primary property. */
function propertyFor(snapshot: RevisionSnapshot, propertyId: string | undefined, what: string): RiskRecord {
  if (propertyId) {
    const risk = snapshot.risks.find((candidate) => candidate.id === propertyId);
    if (!risk) throw new NotFoundError(`Property ${propertyId} of revision ${snapshot.header.id}`);
    return risk;
  }
  const risk = snapshot.risks.find((candidate) => candidate.primary) ?? snapshot.risks[0];
  if (!risk) throw new BusinessRuleError(`property_id: ${what} belongs on a property and the revision has none; create_risk first`);
  return risk;
}

function itemDefinition(product: ProductCatalog, itemId: string, field = 'item_id'): ItemDefinition {
  const definition = findItemDefinition(product, itemId);
  if (!definition) throw new BusinessRuleError(`${field}: ${itemId} is not an item of the catalog`);
  return definition;
}

// ---------------------------------------------------------------- add_line_item

export async function addLineItem(
  principal: Principal,
  input: { revision_id: string; property_id?: string; sub_line_id?: string; item_id: string; link_id?: string; check_for_sub_line: boolean },
  now = new Date(),
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const product = await getProductCatalog();
  const header = snapshot.header;
  const definition = itemDefinition(product, input.item_id);
  requireOffered(definition, header.policyTypeId, 'item_id');
  const riskId = definition.category === 'property' ? propertyFor(snapshot, input.property_id, definition.name).id : null;
  if (input.sub_line_id) {
    const named = snapshot.subLines.find((subLine) => subLine.id === input.sub_line_id);
    const namedSubLineId = named?.subLineId ?? input.sub_line_id;
    if (namedSubLineId !== definition.subLineId) {
      throw new BusinessRuleError(`sub_line_id: ${definition.name} belongs on the ${findSubLineDefinition(product, definition.subLineId)?.name ?? definition.subLineId} sub line`);
    }
  }
  const placement = { revisionId: header.id, riskId, policyTypeId: header.policyTypeId, today: header.termStart, now, linkId: input.link_id ?? null };
  const change: RevisionChange = { create: [], locators: [], header: { ...UNRATED_TOTALS } };
  let subLine = subLineInstanceFor(snapshot, definition.subLineId, riskId);
  let addedSubLine: SubLineRecord | null = null;
  const added: LineItemRecord[] = [];
  if (!subLine) {
    const subLineDefinition = findSubLineDefinition(product, definition.subLineId);
    if (!subLineDefinition) throw new BusinessRuleError(`item_id: the sub line of ${definition.name} is missing from the catalog`);
    if (!input.check_for_sub_line) {
      throw new BusinessRuleError(
        `sub_line_id: the ${subLineDefinition.name} sub line is not on the ${riskId ? 'property' : 'revision'}; pass check_for_sub_line true to add it with the item`,
      );
    }
    requireOffered(subLineDefinition, header.policyTypeId, 'sub_line_id');
    subLine = addedSubLine = newSubLine(subLineDefinition, placement, randomUUID());
    change.create!.push(subLine);
    change.locators!.push(locator(subLine, header));
    added.push(...itemsStartingOn(product, subLine, placement, randomUUID).filter((item) => item.itemId !== definition.id));
  }
  if (!definition.allowMultiples && snapshot.items.some((item) => item.itemId === definition.id && item.riskId === riskId)) {
    throw new BusinessRuleError(`item_id: ${definition.name} is already on the ${riskId ? 'property' : 'revision'} and cannot be added twice`);
  }
  added.push(newLineItem(definition, { ...placement, subLineInstanceId: subLine.id }, randomUUID()));
  const scope = [...snapshot.items.filter((item) => item.riskId === riskId), ...added];
  const withLimits = withDefaultLimits(scope, product);
  const addedIds = new Set(added.map((item) => item.id));
  const finalAdded = withLimits.filter((item) => addedIds.has(item.id));
  change.create!.push(...finalAdded);
  await changeRevision(header, change);
  return { added_items: finalAdded.map(lineItemToWire), added_subline: addedSubLine ? subLineToWire(addedSubLine) : null };
}

// ---------------------------------------------------------------- add_sub_line / copy_sub_line

function optionalItemsFor(product: ProductCatalog, subLine: SubLineRecord, itemIds: readonly string[], policyTypeId: string, present: readonly LineItemRecord[], placement: Parameters<typeof newLineItem>[1]) {
  return itemIds
    .filter((itemId, index) => itemIds.indexOf(itemId) === index)
    .filter((itemId) => !present.some((item) => item.itemId === itemId))
    .map((itemId, index) => {
      const definition = itemDefinition(product, itemId, `optional_items.${index}`);
      requireOffered(definition, policyTypeId, `optional_items.${index}`);
      if (definition.subLineId !== subLine.subLineId) throw new BusinessRuleError(`optional_items.${index}: ${definition.name} does not belong on the ${subLine.name} sub line`);
      return newLineItem(definition, placement, randomUUID());
    });
}

function optionalItemIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => (typeof entry === 'string' ? entry : String((entry as Record<string, unknown>)?.item_id ?? (entry as Record<string, unknown>)?.id ?? ''))).filter(Boolean);
}

export async function addSubLine(
  principal: Principal,
  input: { revision_id: string; property_id?: string; sub_line_id: string; link_id?: string; optional_items?: unknown },
  now = new Date(),
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const product = await getProductCatalog();
  const header = snapshot.header;
  const definition = findSubLineDefinition(product, input.sub_line_id);
  if (!definition) throw new BusinessRuleError(`sub_line_id: ${input.sub_line_id} is not a sub line of the catalog`);
  requireOffered(definition, header.policyTypeId, 'sub_line_id');
  const riskId = definition.category === 'property' ? propertyFor(snapshot, input.property_id, definition.name).id : null;
  if (!definition.allowMultiples && subLineInstanceFor(snapshot, definition.id, riskId)) {
    throw new BusinessRuleError(`sub_line_id: ${definition.name} is already on the ${riskId ? 'property' : 'revision'} and cannot be added twice`);
  }
  const placement = { revisionId: header.id, riskId, policyTypeId: header.policyTypeId, today: header.termStart, now, linkId: input.link_id ?? null };
  const subLine = newSubLine(definition, placement, randomUUID());
  const starting = itemsStartingOn(product, subLine, placement, randomUUID);
  const optional = optionalItemsFor(product, subLine, optionalItemIds(input.optional_items), header.policyTypeId, starting, { ...placement, subLineInstanceId: subLine.id });
  const items = withDefaultLimits([...snapshot.items.filter((item) => item.riskId === riskId), ...starting, ...optional], product).filter(
    (item) => item.subLineInstanceId === subLine.id,
  );
  await changeRevision(header, { create: [subLine, ...items], locators: [locator(subLine, header)], header: { ...UNRATED_TOTALS } });
  return { ...subLineToWire(subLine), items: items.map(lineItemToWire) };
}

export async function copySubLine(
  principal: Principal,
  input: { revision_id: string; property_id?: string; sub_line_id: string; sub_line_instance_id: string; link_id?: string; optional_items?: unknown },
  now = new Date(),
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const product = await getProductCatalog();
  const header = snapshot.header;
  const source = snapshot.subLines.find((subLine) => subLine.id === input.sub_line_instance_id);
  if (!source) throw new NotFoundError(`Sub line instance ${input.sub_line_instance_id} of revision ${header.id}`);
  if (source.subLineId !== input.sub_line_id) throw new BusinessRuleError(`sub_line_id: sub line instance ${source.id} is a ${source.name}, not ${input.sub_line_id}`);
  const riskId = source.category === 'property' ? propertyFor(snapshot, input.property_id, source.name).id : null;
  if (!source.allowMultiples && subLineInstanceFor(snapshot, source.subLineId, riskId)) {
    throw new BusinessRuleError(`property_id: the ${riskId ? 'property' : 'revision'} already has the ${source.name} sub line, which cannot be added twice`);
  }
  const placement = { revisionId: header.id, riskId, policyTypeId: header.policyTypeId, today: header.termStart, now, linkId: input.link_id ?? null };
  const copy: SubLineRecord = { ...source, id: randomUUID(), riskId, linkId: input.link_id ?? null, dateAdded: header.termStart, dateAddedMicro: microsNow(now.getTime()), persistStatus: 'normal' };
  const copied = snapshot.items
    .filter((item) => item.subLineInstanceId === source.id)
    .map((item) => withoutCalculatedPremium({ ...item, id: randomUUID(), riskId, subLineInstanceId: copy.id, dateAddedMicro: microsNow(now.getTime()), persistStatus: 'normal' }));
  const optional = optionalItemsFor(product, copy, optionalItemIds(input.optional_items), header.policyTypeId, copied, { ...placement, subLineInstanceId: copy.id });
  const items = withDefaultLimits([...snapshot.items.filter((item) => item.riskId === riskId), ...copied, ...optional], product).filter(
    (item) => item.subLineInstanceId === copy.id,
  );
  await changeRevision(header, { create: [copy, ...items], locators: [locator(copy, header)], header: { ...UNRATED_TOTALS } });
  return { ...subLineToWire(copy), items: items.map(lineItemToWire) };
}

// ---------------------------------------------------------------- update_rating_information

export interface RatingItemChange {
  id: string;
  limit?: string | number | null;
  deductible?: string | number | null;
  manual?: boolean;
  annual_premium?: string | number | null;
  loss_exposure_group?: number | null;
  builder_obj?: Record<string, unknown> | null;
}

const cents = (value: string | number | null | undefined): Cents | null | undefined => (value === undefined ? undefined : value === null ? null : toCents(value));

export async function updateRatingInformation(
  principal: Principal,
  input: { property_id?: string; revision_id?: string; items: RatingItemChange[]; reset_premiums: boolean; update_review: boolean },
) {
  let snapshot: RevisionSnapshot;
  let risk: RiskRecord | undefined;
  if (input.property_id) {
    ({ snapshot, risk } = await riskWithinReach(principal, input.property_id, { open: true }));
    if (input.revision_id && input.revision_id !== snapshot.header.id) throw new NotFoundError(`Property ${input.property_id} of revision ${input.revision_id}`);
  } else if (input.revision_id) {
    snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  } else {
    throw new BusinessRuleError('property_id: give property_id or revision_id');
  }
  const product = await getProductCatalog();
  const inScope = (item: LineItemRecord) => (risk ? item.riskId === risk.id : true);
  const problems: string[] = [];
  const changed = new Map<string, LineItemRecord>();
  const questionAnswers = new Map<string, Record<string, string>>();

  input.items.forEach((change, index) => {
    const field = `items.${index}`;
    const matches = snapshot.items.filter((item) => inScope(item) && item.id === change.id);
    const byCatalogId = matches.length ? matches : snapshot.items.filter((item) => inScope(item) && item.itemId === change.id);
    if (byCatalogId.length !== 1) {
      problems.push(byCatalogId.length ? `${field}.id: ${change.id} names several items; give the line item id` : `${field}.id: line item ${change.id} was not found ${risk ? 'on the property' : 'on the revision'}`);
      return;
    }
    const original = changed.get(byCatalogId[0].id) ?? byCatalogId[0];
    const definition = findItemDefinition(product, original.itemId);
    const item: LineItemRecord = { ...original };
    if (change.limit !== undefined) {
      const limit = cents(change.limit)!;
      const problem = definition ? limitProblem(definition, limit, `${field}.limit`) : undefined;
      if (problem) problems.push(problem);
      item.limitCents = limit;
      item.limitIsDefault = limit === null && typeof definition?.limit?.default === 'object';
    }
    if (change.deductible !== undefined) {
      const deductible = cents(change.deductible)!;
      const problem = definition ? deductibleProblem(definition, deductible, `${field}.deductible`) : undefined;
      if (problem) problems.push(problem);
      item.deductibleCents = deductible;
    }
    if (change.manual !== undefined) item.manual = change.manual;
    if (change.annual_premium !== undefined) {
      if (!item.manual && change.annual_premium !== null) {
        problems.push(`${field}.annual_premium: only a manually rated item takes an annual premium; set manual true with it`);
      } else {
        const premium = cents(change.annual_premium)!;
        Object.assign(item, { annualPremiumCents: premium, writtenPremiumCents: premium, premiumSource: premium === null ? null : 'manual', ratingDetails: {} });
      }
    }
    if (change.manual === false && original.manual) Object.assign(item, { annualPremiumCents: null, writtenPremiumCents: null, premiumSource: null });
    if (change.loss_exposure_group !== undefined) item.lossExposureGroup = change.loss_exposure_group;
    if (change.builder_obj !== undefined) {
      item.builderObj = change.builder_obj ?? {};
      const answers = propertyAnswers(product, change.builder_obj?.questions, `${field}.builder_obj.questions`, problems);
      if (answers && item.riskId) questionAnswers.set(item.riskId, { ...(questionAnswers.get(item.riskId) ?? {}), ...answers });
    }
    changed.set(item.id, item);
  });
  if (problems.length) throw new BusinessRuleError(problems);

  // Limits that follow another limit (10% of the Dwelling...) move with it.
  const merged = snapshot.items.map((item) => changed.get(item.id) ?? item);
  const relimited = withDefaultLimits(merged, product);
  relimited.forEach((item, index) => {
    if (item !== merged[index]) changed.set(item.id, item);
  });
  let updated = [...changed.values()];
  if (input.reset_premiums) updated = updated.map(withoutCalculatedPremium);

  const change: RevisionChange = { replace: updated };
  for (const [riskId, answers] of questionAnswers) {
    const target = snapshot.risks.find((candidate) => candidate.id === riskId)!;
    change.replace!.push({ ...target, questions: { ...target.questions, ...answers } });
  }
  if (input.reset_premiums) change.header = { ...UNRATED_TOTALS };
  await changeRevision(snapshot.header, change);
  return {
    ...(risk ? { property_id: risk.id } : {}),
    revision_id: snapshot.header.id,
    reset_premiums: input.reset_premiums,
    items: updated.map(lineItemToWire),
  };
}

/** Answers of per-property questions found in a builder_obj's `questions` ({questionId: [answer]}). */
function propertyAnswers(product: ProductCatalog, questions: unknown, field: string, problems: string[]): Record<string, string> | undefined {
  if (!questions || typeof questions !== 'object') return undefined;
  const answers: Record<string, string> = {};
  for (const [questionId, value] of Object.entries(questions as Record<string, unknown>)) {
    const question = product.questions.find((candidate) => candidate.id === questionId && candidate.level === 'property');
    if (!question) continue;
    const answer = String(Array.isArray(value) ? value[0] : value);
    if (question.options && !question.options.includes(answer)) {
      problems.push(`${field}.${questionId}: ${question.name} must be one of ${question.options.join(', ')}`);
      continue;
    }
    answers[questionId] = answer;
  }
  return answers;
}

// ---------------------------------------------------------------- underwriting

export async function updateUnderwritingQuestions(principal: Principal, input: { revision_id: string; underwriting_questions: UnderwritingAnswer[] }) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const product = await getProductCatalog();
  const answers = validateUnderwritingAnswers(product, input.underwriting_questions, snapshot.header.underwritingQuestions);
  // Adjustments read the answers (the claims-free discount): their premiums are stale now.
  const adjustments = resetPremiums(snapshot.items.filter((item) => item.type === 'adjustment'));
  await changeRevision(snapshot.header, { header: { underwritingQuestions: answers, ...UNRATED_TOTALS }, replace: adjustments });
}

export async function updateUnderwritingOptions(principal: Principal, input: { revision_id: string; underwriting_options: UnderwritingOption[] }) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const options = mergeUnderwritingOptions(snapshot.header.underwritingOptions, input.underwriting_options);
  await changeRevision(snapshot.header, { header: { underwritingOptions: options } });
  return { revision_id: snapshot.header.id, underwriting_options: options };
}

// ---------------------------------------------------------------- term dates

export async function updateEffectiveAndExpirationDate(
  principal: Principal,
  input: { policy_id: string; effective_date?: string; expiration_date?: string; policy_term_type?: TermType; policy_type_id?: string },
) {
  const { policy, terms } = await policyWithinReach(principal, { policyId: input.policy_id });
  const term = terms.find((candidate) => candidate.id === policy.activeTermId) ?? terms[terms.length - 1];
  if (!term) throw new NotFoundError(`The term of policy ${policy.policyNumber}`);
  const snapshot = await loadRevision(policy.activeRevisionId);
  if (!snapshot) throw new NotFoundError(`The revision of policy ${policy.policyNumber}`);
  if (snapshot.header.revisionState !== 'open') throw new RevisionNotOpenError(snapshot.header.id, snapshot.header.revisionState);

  const effective = input.effective_date ?? term.effectiveDate;
  let expiration = input.expiration_date;
  if (!expiration) {
    const keepType = (input.policy_term_type ?? term.termType) as TermType;
    expiration = keepType === 'Custom' ? term.expirationDate : expirationFor(effective, keepType)!;
  }
  if (expiration <= effective) throw new BusinessRuleError('expiration_date: must be after the effective date');
  const deduced = deduceTerm(effective, expiration);
  // A requested name of the same length (Annual for 1 Year) is kept.
  const termType = input.policy_term_type && monthsOf(input.policy_term_type) === monthsOf(deduced.termType) && deduced.termType !== 'Custom' ? input.policy_term_type : deduced.termType;

  const product = await getProductCatalog();
  const header: Partial<RevisionRecord> = { termStart: effective, termEnd: expiration, revisionDate: effective, ...UNRATED_TOTALS };
  const change: RevisionChange = { header, create: [] };
  if (input.policy_type_id && input.policy_type_id !== snapshot.header.policyTypeId) {
    if (!product.policyTypes.some((type) => type.id === input.policy_type_id)) throw new BusinessRuleError(`policy_type_id: ${input.policy_type_id} is not a policy type of the catalog`);
    header.policyTypeId = input.policy_type_id;
    change.create = missingMandatoryItems(product, snapshot, input.policy_type_id);
  }
  change.replace = resetPremiums(snapshot.items);
  change.term = { policyId: policy.id, termId: term.id, expectedVersion: term.version, set: { effectiveDate: effective, expirationDate: expiration, termType, termLength: deduced.termLength } };
  // Before a policy is first issued its inception is its first term's start: it moves with it,
  // unless the client had set a different inception date on purpose.
  const isFirstTerm = terms[0]?.id === term.id;
  if (!policy.active && isFirstTerm && policy.inceptionDate === term.effectiveDate && effective !== term.effectiveDate) {
    change.policy = { policyId: policy.id, expectedVersion: policy.version, set: { inceptionDate: effective } };
  }
  await changeRevision(snapshot.header, change);
  return { policy_term: termType, effective_date: effective, expiration_date: expiration, term_length: deduced.termLength };
}

/** Mandatory and automatic items a policy type adds to the sub lines already on the revision. */
function missingMandatoryItems(product: ProductCatalog, snapshot: RevisionSnapshot, policyTypeId: string): LineItemRecord[] {
  const added: LineItemRecord[] = [];
  const now = new Date();
  for (const subLine of snapshot.subLines) {
    const placement = { revisionId: snapshot.header.id, riskId: subLine.riskId, policyTypeId, today: snapshot.header.termStart, now };
    for (const item of itemsStartingOn(product, subLine, placement, randomUUID)) {
      if (!snapshot.items.some((existing) => existing.itemId === item.itemId && existing.riskId === subLine.riskId)) added.push(item);
    }
  }
  const withLimits = withDefaultLimits([...snapshot.items, ...added], product);
  const ids = new Set(added.map((item) => item.id));
  return withLimits.filter((item) => ids.has(item.id));
}

// ---------------------------------------------------------------- last visited

export async function updatePolicyLastVisited(
  principal: Principal,
  input: { policy_id: string; params: Record<string, unknown>; revision_id?: string },
) {
  const { policy, terms } = await policyWithinReach(principal, { policyId: input.policy_id });
  if (input.revision_id && !terms.some((term) => term.revisionIds.includes(input.revision_id!))) {
    throw new NotFoundError(`Revision ${input.revision_id} of policy ${policy.policyNumber}`);
  }
  await setPolicyLastVisited(policy, { params: input.params, revisionId: input.revision_id ?? null, at: new Date().toISOString() });
}

