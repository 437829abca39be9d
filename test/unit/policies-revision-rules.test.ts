/**
 * Changes of a revision, as pure rules: the per-item rating change, adding items and sub
 * lines, the primary property, readiness to rate, copying a property, the locators the
 * store derives, and the revision as it is after a change.
 */
import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { productFromRecords } from '../../shared/catalog/model.js';
import { planLineItem, planSubLine, planSubLineCopy } from '../../shared/policies/item-rules.js';
import { locatorsOf } from '../../shared/policies/locators.js';
import type { LineItemRecord, RevisionSnapshot, ZipAnswer } from '../../shared/policies/model.js';
import { draftPolicy, policyRecordsFor } from '../../shared/policies/new-policy.js';
import { applyRatingChange, planRatingChanges, resetPremiums } from '../../shared/policies/premiums.js';
import { snapshotAfter } from '../../shared/policies/revision-snapshot.js';
import { primaryMovedTo, primaryPropertyId, readinessChange, riskCopyChange } from '../../shared/policies/risk-rules.js';
import { inceptionFollowsTerm, movedTerm } from '../../shared/policies/terms.js';
import { ITEM, POLICY_TYPE, SUB_LINE, UNDERWRITING_QUESTION } from '../support/reference-product.js';

const product = productFromRecords(referenceCatalogRecords());
const NOW = new Date('2026-03-01T10:00:00Z');
const CONSTRUCTION = '640841e5-3bf8-445e-ae51-607bd2aa9589';
const zip: ZipAnswer = { valid: true, zip: '90210', stateAbbr: 'CA', cities: ['Beverly Hills'], counties: [{ name: 'Los Angeles', fips: '06037', id: 'county-la' }] };

let counter = 0;
const newId = () => `id-${++counter}`;

/** A quote with one property (HO3 unless told), as create_policy with property_zip makes it. */
function quote(policyTypeId: string = POLICY_TYPE.HO3): RevisionSnapshot {
  const draft = draftPolicy(
    product,
    { manual_policy_number: false, term_type: '1 Year', renewal_term_type: '1 Year', is_renewal: false, as_agent: false, property_zip: '90210', inception_date: '2026-03-01', policy_type_id: policyTypeId },
    { contactId: 'admin', isAgent: false, asAgent: false, agencyIds: [] },
    undefined,
    NOW,
    { newId, lookupZip: () => zip },
  );
  return { header: policyRecordsFor(draft, '10-2026-1').revision, risks: draft.risks, subLines: draft.subLines, items: draft.items, mortgagees: [] };
}
const itemNamed = (items: readonly LineItemRecord[], name: string) => items.find((item) => item.name === name)!;

describe('the per-item rating change', () => {
  const snapshot = quote();
  const dwelling = itemNamed(snapshot.items, 'Dwelling');

  it('sets a limit and deductible within the rules, naming the field of each refusal', () => {
    expect(applyRatingChange(dwelling, { id: dwelling.id, limit: '250000', deductible: 2500 }, product, 'items.0')).toMatchObject({
      item: { limitCents: 25000000, deductibleCents: 250000, limitIsDefault: false },
      problems: [],
    });
    expect(applyRatingChange(dwelling, { id: dwelling.id, limit: 40000, deductible: 750 }, product, 'items.3').problems).toEqual([
      'items.3.limit: Dwelling limit must be at least 50000',
      'items.3.deductible: Dwelling deductible must be one of 500, 1000, 2500, 5000',
    ]);
  });

  it('takes a manual premium only on a manually rated item, and drops it when manual rating ends', () => {
    expect(applyRatingChange(dwelling, { id: dwelling.id, annual_premium: '900.10' }, product, 'items.0').problems).toEqual([
      'items.0.annual_premium: only a manually rated item takes an annual premium; set manual true with it',
    ]);
    const manual = applyRatingChange(dwelling, { id: dwelling.id, manual: true, annual_premium: '900.10' }, product, 'items.0').item;
    expect(manual).toMatchObject({ manual: true, annualPremiumCents: 90010, writtenPremiumCents: 90010, premiumSource: 'manual' });
    expect(applyRatingChange(manual, { id: dwelling.id, manual: false }, product, 'items.0').item).toMatchObject({ manual: false, annualPremiumCents: null, premiumSource: null });
  });

  it('reads per-property answers from the builder object, refusing an answer not offered', () => {
    const answered = applyRatingChange(dwelling, { id: dwelling.id, builder_obj: { questions: { [CONSTRUCTION]: ['Masonry'] } } }, product, 'items.0');
    expect(answered.propertyAnswers).toEqual({ [CONSTRUCTION]: 'Masonry' });
    expect(applyRatingChange(dwelling, { id: dwelling.id, builder_obj: { questions: { [CONSTRUCTION]: ['Straw'] } } }, product, 'items.0').problems).toEqual([
      `items.0.builder_obj.questions.${CONSTRUCTION}: Construction Type must be one of Frame, Masonry, Superior`,
    ]);
  });

  it('moves the limits that follow the Dwelling and clears calculated premiums of what changed', () => {
    const rated = { ...snapshot, items: snapshot.items.map((item) => (item.name === 'Other Structures' ? { ...item, annualPremiumCents: 1200, premiumSource: 'calculated' as const } : item)) };
    const plan = planRatingChanges(rated, product, [{ id: ITEM.DWELLING, limit: 300000 }], { riskId: snapshot.risks[0].id, resetPremiums: true });
    expect(plan.problems).toEqual([]);
    expect(plan.items.map((item) => [item.name, item.limitCents, item.annualPremiumCents])).toEqual([
      ['Dwelling', 30000000, null],
      ['Other Structures', 3000000, null],
      ['Personal Property', 15000000, null],
      ['Loss of Use', 6000000, null],
    ]);
  });

  it('names a change whose id is found nowhere in scope', () => {
    const plan = planRatingChanges(snapshot, product, [{ id: 'nope', limit: 1 }], { resetPremiums: true });
    expect(plan.problems).toEqual(['items.0.id: line item nope was not found on the revision']);
  });

  it('resets only premiums rating computed', () => {
    const items = [
      { ...dwelling, annualPremiumCents: 100, premiumSource: 'calculated' as const },
      { ...dwelling, id: 'manual', manual: true, annualPremiumCents: 100 },
      { ...dwelling, id: 'unrated' },
    ];
    expect(resetPremiums(items).map((item) => [item.id, item.annualPremiumCents])).toEqual([[dwelling.id, null]]);
  });
});

describe('adding items and sub lines', () => {
  it('adds Water Backup to the primary property with its catalog default limit', () => {
    const snapshot = quote();
    const addition = planLineItem(product, snapshot, { item_id: ITEM.WATER_BACKUP, check_for_sub_line: false }, NOW, newId);
    expect(addition.subLine).toBeNull();
    expect(addition.items).toEqual([expect.objectContaining({ name: 'Water Backup', riskId: snapshot.risks[0].id, limitCents: 500000 })]);
  });

  it('refuses an item twice, and an item whose sub line is missing unless check_for_sub_line', () => {
    const snapshot = quote(POLICY_TYPE.DP3);
    const withoutSectionI = { ...snapshot, subLines: snapshot.subLines.filter((subLine) => subLine.subLineId !== SUB_LINE.SECTION_I) };
    expect(() => planLineItem(product, snapshot, { item_id: ITEM.DWELLING, check_for_sub_line: false }, NOW, newId)).toThrow('item_id: Dwelling is already on the property and cannot be added twice');
    expect(() => planLineItem(product, withoutSectionI, { item_id: ITEM.WATER_BACKUP, check_for_sub_line: false }, NOW, newId)).toThrow(
      'sub_line_id: the Section I - Property sub line is not on the property; pass check_for_sub_line true to add it with the item',
    );
    const added = planLineItem(product, { ...withoutSectionI, items: [] }, { item_id: ITEM.WATER_BACKUP, check_for_sub_line: true }, NOW, newId);
    expect(added.subLine).toMatchObject({ subLineId: SUB_LINE.SECTION_I, riskId: snapshot.risks[0].id });
    expect(added.items.map((item) => item.name)).toEqual(['Dwelling', 'Other Structures', 'Loss of Use', 'Water Backup']);
  });

  it('adds a sub line with the optional items chosen, and copies one with its items unrated', () => {
    const snapshot = quote(POLICY_TYPE.DP3);
    expect(() => planSubLine(product, snapshot, { sub_line_id: SUB_LINE.SECTION_I }, NOW, newId)).toThrow('sub_line_id: Section I - Property is already on the property and cannot be added twice');
    const bare = { ...snapshot, subLines: snapshot.subLines.filter((subLine) => subLine.riskId === null), items: snapshot.items.filter((item) => item.riskId === null) };
    const added = planSubLine(product, bare, { sub_line_id: SUB_LINE.SECTION_I, optional_items: [{ item_id: ITEM.PERSONAL_PROPERTY }] }, NOW, newId);
    expect(added.items.map((item) => item.name)).toEqual(['Dwelling', 'Other Structures', 'Loss of Use', 'Personal Property']);
    // A second property without Section I takes a copy of the first's, rated premiums cleared.
    const source = snapshot.subLines.find((subLine) => subLine.subLineId === SUB_LINE.SECTION_I)!;
    const rated = snapshot.items.map((item) => (item.riskId ? { ...item, annualPremiumCents: 500, premiumSource: 'calculated' as const } : item));
    const twoProperties = { ...snapshot, risks: [snapshot.risks[0], { ...snapshot.risks[0], id: 'second', primary: false }], items: rated };
    const copy = planSubLineCopy(product, twoProperties, { property_id: 'second', sub_line_id: SUB_LINE.SECTION_I, sub_line_instance_id: source.id }, NOW, newId);
    expect(copy.subLine).toMatchObject({ subLineId: SUB_LINE.SECTION_I, riskId: 'second', persistStatus: 'normal' });
    expect(copy.items.map((item) => [item.name, item.riskId, item.annualPremiumCents])).toEqual([
      ['Dwelling', 'second', null],
      ['Other Structures', 'second', null],
      ['Loss of Use', 'second', null],
    ]);
    expect(() => planSubLineCopy(product, twoProperties, { sub_line_id: SUB_LINE.SECTION_I, sub_line_instance_id: source.id }, NOW, newId)).toThrow(
      'property_id: the property already has the Section I - Property sub line, which cannot be added twice',
    );
  });
});

describe('properties', () => {
  const snapshot = quote();
  const first = snapshot.risks[0];
  const second = { ...first, id: 'second', name: 'Property #2', primary: false, builder_ready_to_rate: 'true' };
  const both = { ...snapshot, risks: [first, second] };

  it('names the primary property: none before one exists, then the one marked', () => {
    expect(primaryPropertyId([])).toBeNull();
    expect(primaryPropertyId(both.risks)).toBe(first.id);
    expect(primaryMovedTo(both.risks, second).map((risk) => [risk.id, risk.primary])).toEqual([
      ['second', true],
      [first.id, false],
    ]);
  });

  it('keeps the builder pending until every property is ready', () => {
    expect(readinessChange(both, first.id, true)).toMatchObject({ header: { builderPending: false }, replace: [{ id: first.id, builder_ready_to_rate: 'true' }] });
    expect(readinessChange({ ...both, risks: [first, { ...second, builder_ready_to_rate: 'false' }] }, first.id, true).header).toEqual({ builderPending: true });
    expect(readinessChange(both, undefined, false).replace!.map((risk) => (risk as typeof first).builder_ready_to_rate)).toEqual(['false', 'false']);
  });

  it('copies address and rating onto another property, replacing its rating structure', () => {
    const target = quote();
    const source = { snapshot, risk: { ...first, address_line1: '5 Elm Road', questions: { [CONSTRUCTION]: 'Masonry' } } };
    const change = riskCopyChange(source, { snapshot: target, risk: target.risks[0] }, { copy_address: true, copy_rating: true, copy_mortgagees: false, copy_tenants: false }, NOW, newId);
    expect(change.risk).toMatchObject({ id: target.risks[0].id, address_line1: '5 Elm Road', questions: { [CONSTRUCTION]: 'Masonry' } });
    expect(change.remove!.map((part) => part.id).sort()).toEqual([...target.subLines, ...target.items].filter((part) => part.riskId === target.risks[0].id).map((part) => part.id).sort());
    expect(change.create!.filter((part) => part.entity === 'LineItem').map((part) => (part as LineItemRecord).name)).toEqual(['Dwelling', 'Other Structures', 'Personal Property', 'Loss of Use']);
    expect(change.header).toEqual({ annualPremiumCents: 0, writtenPremiumCents: 0, annualFeeCents: 0, writtenFeeCents: 0 });
  });
});

describe('term dates moved', () => {
  const term = { effectiveDate: '2026-05-01', expirationDate: '2027-05-01', termType: '1 Year' as const };

  it('keeps the term type when only the start moves, and deduces it from two dates', () => {
    expect(movedTerm(term, { effective_date: '2026-06-01' })).toEqual({ effectiveDate: '2026-06-01', expirationDate: '2027-06-01', termType: '1 Year', termLength: 12 });
    expect(movedTerm(term, { expiration_date: '2026-11-01' })).toEqual({ effectiveDate: '2026-05-01', expirationDate: '2026-11-01', termType: '6 Months', termLength: 6 });
    expect(movedTerm(term, { policy_term_type: 'Annual' })).toMatchObject({ termType: 'Annual', termLength: 12 });
    expect(() => movedTerm(term, { expiration_date: '2026-04-01' })).toThrow('expiration_date: must be after the effective date');
  });

  it('moves the inception with the first term until the policy is issued, unless it was set apart', () => {
    expect(inceptionFollowsTerm({ active: false, inceptionDate: '2026-05-01' }, true, term, '2026-06-01')).toBe(true);
    expect(inceptionFollowsTerm({ active: true, inceptionDate: '2026-05-01' }, true, term, '2026-06-01')).toBe(false);
    expect(inceptionFollowsTerm({ active: false, inceptionDate: '2026-04-15' }, true, term, '2026-06-01')).toBe(false);
  });
});

describe('what the store derives and what a change leaves', () => {
  it('derives a locator for each risk, sub line and mortgagee, none for line items', () => {
    const snapshot = quote();
    const mortgagee = { entity: 'Mortgagee' as const, id: 'm', revisionId: snapshot.header.id, riskId: snapshot.risks[0].id, contactId: 'c', description: '', loanNum: '', type: '', decMortStatement: '' };
    const locators = locatorsOf([...snapshot.risks, ...snapshot.subLines, ...snapshot.items, mortgagee], 'policy');
    expect(locators.map((locator) => [locator.kind, locator.riskId])).toEqual([
      ['risk', snapshot.risks[0].id],
      ['subline', null],
      ['subline', snapshot.risks[0].id],
      ['mortgagee', snapshot.risks[0].id],
    ]);
    expect(locators.every((locator) => locator.policyId === 'policy' && locator.revisionId === snapshot.header.id)).toBe(true);
  });

  it('answers the revision after a change: replaced, created and removed parts, header set, version raised', () => {
    const snapshot = quote();
    const [policyItem] = snapshot.items;
    const after = snapshotAfter(snapshot, {
      header: { underwritingQuestions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no', explanation: '' }] },
      replace: [{ ...policyItem, limitCents: 1 }],
      remove: [snapshot.items[1]],
      create: [{ ...policyItem, id: 'new' }],
    });
    expect(after.header.version).toBe(snapshot.header.version + 1);
    expect(after.header.underwritingQuestions).toHaveLength(1);
    expect(after.items.map((item) => item.id)).toEqual([policyItem.id, ...snapshot.items.slice(2).map((item) => item.id), 'new']);
    expect(after.items[0].limitCents).toBe(1);
  });
});
