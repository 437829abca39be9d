import { describe, expect, it } from 'vitest';
import type { ItemDefinition, ProductCatalog, RatingStep } from '../../shared/catalog/model.js';
import { formatCents } from '../../shared/platform/money.js';
import { rateRevision } from '../../shared/rating/engine.js';
import { RatingInputError, RatingRuleError, type LineItemToRate, type PropertyToRate, type RevisionToRate } from '../../shared/rating/model.js';

const POLICY_TYPE = 'policy-type';
const QUESTION = 'construction';

function item(id: string, steps: RatingStep[], extra: Partial<ItemDefinition> = {}): ItemDefinition {
  return {
    id,
    name: id,
    description: '',
    category: 'property',
    type: 'coverage',
    subLineId: extra.category === 'policy' ? 'policy-sub-line' : 'property-sub-line',
    sortOrder: 1,
    allowMultiples: false,
    showInBuilder: true,
    availability: { [POLICY_TYPE]: 'optional' },
    rating: { steps },
    ...extra,
  };
}

function catalog(items: ItemDefinition[]): ProductCatalog {
  return {
    lines: [],
    policyTypes: [],
    subLines: [],
    items,
    questions: [{ id: QUESTION, name: 'Construction Type', level: 'property', answerType: 'choice', sortOrder: 1 }],
    forms: [],
    underwritingRules: [],
    rateVersions: [],
  };
}

function property(items: LineItemToRate[], answers: Record<string, string> = {}, id = 'p1'): PropertyToRate {
  return { id, name: `Property ${id}`, answers, items };
}

function revision(properties: PropertyToRate[], policyItems: LineItemToRate[] = [], extra: Partial<RevisionToRate> = {}): RevisionToRate {
  return { policyTypeId: POLICY_TYPE, termStart: '2026-01-01', termEnd: '2027-01-01', answers: {}, properties, policyItems, ...extra };
}

/** The running totals of the first rated item called `name`, as two-decimal text. */
function trace(product: ProductCatalog, toRate: RevisionToRate, name = 'a'): string[] {
  const rated = rateRevision(product, toRate).items.find((entry) => entry.name === name)!;
  return rated.ratingDetails.map((detail) => formatCents(detail.runningTotalCents));
}

const line = (itemId: string, limitCents?: number, deductibleCents?: number): LineItemToRate => ({ id: `line-${itemId}`, itemId, limitCents, deductibleCents });

describe('value references and limits', () => {
  it('rates per thousand of the item own limit, rounded half-up to the cent', () => {
    const product = catalog([item('a', [{ name: 'Base', op: 'perThousand', of: { limitOf: 'self' }, rate: '2.75' }])]);
    // 123,456 / 1000 x 2.75 = 339.504 -> 339.50; 1,002 / 1000 x 2.5 = 2.505 -> 2.51
    expect(trace(product, revision([property([line('a', 123_456_00)])]))).toEqual(['339.50']);
    expect(trace(catalog([item('a', [{ name: 'Base', op: 'perThousand', of: { limitOf: 'self' }, rate: '2.5' }])]), revision([property([line('a', 1_002_00)])]))).toEqual(['2.51']);
  });

  it('reads the limit of another item of the same property, and a percent of it', () => {
    const product = catalog([
      item('main', [], { limit: { required: true } }),
      item('a', [
        { name: 'Of main', op: 'perThousand', of: { limitOf: 'main' }, rate: '1' },
        { name: 'Of a quarter of main', op: 'perThousand', of: { percentOfLimit: { item: 'main', percent: '25' } }, rate: '1' },
      ]),
    ]);
    const first = property([line('main', 100_000_00), line('a')], {}, 'p1');
    const second = property([line('main', 40_000_00), line('a')], {}, 'p2');
    const rated = rateRevision(product, revision([first, second])).items.filter((entry) => entry.name === 'a');
    expect(rated.map((entry) => entry.ratingDetails.map((detail) => formatCents(detail.runningTotalCents)))).toEqual([
      ['100.00', '125.00'],
      ['40.00', '50.00'],
    ]);
  });

  it('uses the catalog default limit when the line item has none, and a locked limit whatever is given', () => {
    const rate: RatingStep = { name: 'Base', op: 'perThousand', of: { limitOf: 'self' }, rate: '1' };
    const product = catalog([
      item('main', [], { limit: { required: true } }),
      item('a', [rate], { limit: { default: '5000' } }),
      item('b', [rate], { limit: { default: { percentOfLimit: { item: 'main', percent: '20' } }, locked: true } }),
    ]);
    const rated = rateRevision(product, revision([property([line('main', 100_000_00), line('a'), line('b', 1_000_000_00)])])).items;
    expect(rated.map((entry) => [entry.name, entry.limitCents, formatCents(entry.annualPremiumCents)])).toEqual([
      ['main', 100_000_00, '0.00'],
      ['a', 5_000_00, '5.00'],
      ['b', 20_000_00, '20.00'],
    ]);
  });

  it('rates per thousand of the excess over another value; below it the step is a credit', () => {
    const product = catalog([
      item('main', [], { limit: { required: true } }),
      item('a', [
        { name: 'Additional', op: 'perThousandExcess', of: { limitOf: 'self' }, over: { percentOfLimit: { item: 'main', percent: '10' } }, rate: '2.00' },
        { name: 'Floor', op: 'atLeast', amount: '0.00' },
      ]),
    ]);
    expect(trace(product, revision([property([line('main', 200_000_00), line('a', 30_000_00)])]))).toEqual(['20.00', '20.00']);
    expect(trace(product, revision([property([line('main', 200_000_00), line('a', 15_000_00)])]))).toEqual(['-10.00', '0.00']);
  });
});

describe('factor and option tables', () => {
  const factorBy = (by: Extract<RatingStep, { op: 'factor' }>['by'], table: Extract<RatingStep, { op: 'factor' }>['table']) =>
    catalog([item('a', [{ name: 'Base', op: 'flat', amount: '100.00' }, { name: 'Factor', op: 'factor', by, table }], { deductible: { options: [], default: '1000' } })]);

  it('multiplies by the factor of the answer, whatever its case', () => {
    const product = factorBy({ answer: QUESTION }, [{ equals: 'Frame', factor: '1.10' }, { equals: 'Masonry', factor: '1.00' }]);
    expect(trace(product, revision([property([line('a')], { [QUESTION]: 'frame' })]))).toEqual(['100.00', '110.00']);
  });

  it('matches inclusive numeric ranges, open at either end, and equal decimals written differently', () => {
    const product = factorBy({ answer: QUESTION }, [
      { from: '1', to: '4', factor: '0.90' },
      { equals: '5.0', factor: '0.95' },
      { from: '6', factor: '1.25' },
    ]);
    const factorFor = (answer: string) => trace(product, revision([property([line('a')], { [QUESTION]: answer })]))[1];
    expect(['1', '4', '4.00', '5', '6', '60'].map(factorFor)).toEqual(['90.00', '90.00', '90.00', '95.00', '125.00', '125.00']);
  });

  it('reads factors by the deductible given, else the default deductible', () => {
    const product = factorBy({ deductible: true }, [{ equals: '500', factor: '1.08' }, { equals: '1000', factor: '1.00' }]);
    expect(trace(product, revision([property([line('a', undefined, 500_00)])]))).toEqual(['100.00', '108.00']);
    expect(trace(product, revision([property([line('a')])]))).toEqual(['100.00', '100.00']);
  });

  it('reads factors by a range of the limit', () => {
    const product = factorBy({ limit: true }, [{ from: '0', to: '99999.99', factor: '1.20' }, { from: '100000', factor: '1.00' }]);
    expect(trace(product, revision([property([line('a', 99_999_99)])]))).toEqual(['100.00', '120.00']);
    expect(trace(product, revision([property([line('a', 100_000_00)])]))).toEqual(['100.00', '100.00']);
  });

  it('adds the amount of the option chosen by limit or by answer', () => {
    const byLimit = catalog([item('a', [{ name: 'Premium', op: 'byOption', by: { limit: true }, table: [{ equals: '5000', amount: '40.00' }, { equals: '10000', amount: '65.00' }] }], { limit: { default: '5000' } })]);
    expect(trace(byLimit, revision([property([line('a', 10_000_00)])]))).toEqual(['65.00']);
    expect(trace(byLimit, revision([property([line('a')])]))).toEqual(['40.00']);
    const byAnswer = catalog([item('a', [{ name: 'Premium', op: 'byOption', by: { answer: QUESTION }, table: [{ equals: 'Frame', amount: '12.34' }] }])]);
    expect(trace(byAnswer, revision([property([line('a')], { [QUESTION]: 'Frame' })]))).toEqual(['12.34']);
  });

  it('refuses a value no row covers, naming the step and the value', () => {
    const product = factorBy({ answer: QUESTION }, [{ equals: 'Frame', factor: '1.10' }]);
    expect(() => rateRevision(product, revision([property([line('a')], { [QUESTION]: 'Log' })]))).toThrow(
      'Cannot rate Property p1, a: Factor has no entry for the answer to Construction Type "Log"',
    );
  });
});

describe('bounds, flat amounts and rounding', () => {
  it('raises the running total to at least a minimum and caps it at a maximum', () => {
    const product = catalog([
      item('a', [{ name: 'Base', op: 'flat', amount: '100.00' }, { name: 'Minimum', op: 'atLeast', amount: '250.00' }, { name: 'Maximum', op: 'atMost', amount: '200.00' }]),
      item('b', [{ name: 'Base', op: 'flat', amount: '300.00' }, { name: 'Minimum', op: 'atLeast', amount: '250.00' }]),
    ]);
    expect(trace(product, revision([property([line('a'), line('b')])]), 'a')).toEqual(['100.00', '250.00', '200.00']);
    expect(trace(product, revision([property([line('a'), line('b')])]), 'b')).toEqual(['300.00', '300.00']);
  });

  it('rounds half-up after every step, which differs from rounding once at the end', () => {
    const product = catalog([
      item('a', [
        { name: 'Base', op: 'flat', amount: '10.05' },
        { name: 'First', op: 'factor', by: { answer: QUESTION }, table: [{ factor: '1.5' }] },
        { name: 'Second', op: 'factor', by: { answer: QUESTION }, table: [{ factor: '1.5' }] },
      ]),
    ]);
    // 10.05 x 1.5 = 15.075 -> 15.08; x 1.5 = 22.62. Rounded only at the end: 10.05 x 2.25 = 22.6125 -> 22.61.
    expect(trace(product, revision([property([line('a')], { [QUESTION]: 'any' })]))).toEqual(['10.05', '15.08', '22.62']);
  });

  it('rounds a negative half cent away from zero', () => {
    const product = catalog([
      item('a', [{ name: 'Base', op: 'flat', amount: '0.25' }]),
      item('discount', [{ name: 'Discount', op: 'percentOfPremiums', percent: '-10', of: { category: 'property', type: 'coverage', scope: 'sameProperty' } }], { type: 'adjustment' }),
    ]);
    expect(trace(product, revision([property([line('a'), line('discount')])]), 'discount')).toEqual(['-0.03']);
  });
});

describe('adjustments over other premiums', () => {
  const coverage = (id: string, amount: string) => item(id, [{ name: 'Base', op: 'flat', amount }]);
  const discount = (scope: 'sameProperty' | 'allProperties', when?: { answer: string; equals: string }) =>
    item('discount', [{ name: 'Discount', op: 'percentOfPremiums', percent: '-10', of: { category: 'property', type: 'coverage', scope }, when }], {
      type: 'adjustment',
      category: scope === 'allProperties' ? 'policy' : 'property',
    });

  it('sums the coverages of the same property only, rated before the adjustment even when listed first', () => {
    const product = catalog([coverage('a', '100.00'), coverage('b', '50.00'), discount('sameProperty')]);
    const toRate = revision([property([line('discount'), line('a'), line('b')], {}, 'p1'), property([line('a')], {}, 'p2')]);
    const rated = rateRevision(product, toRate);
    expect(rated.items.map((entry) => [entry.propertyId, entry.name, formatCents(entry.annualPremiumCents)])).toEqual([
      ['p1', 'discount', '-15.00'],
      ['p1', 'a', '100.00'],
      ['p1', 'b', '50.00'],
      ['p2', 'a', '100.00'],
    ]);
  });

  it('sums the coverages of every property for a policy adjustment when its answer holds', () => {
    const product = catalog([coverage('a', '100.00'), discount('allProperties', { answer: 'losses', equals: 'no' })]);
    const properties = [property([line('a')], {}, 'p1'), property([line('a')], {}, 'p2')];
    const discountFor = (answers: Record<string, string>) =>
      formatCents(rateRevision(product, revision(properties, [line('discount')], { answers })).items[0].annualPremiumCents);
    expect(discountFor({ losses: 'No' })).toBe('-20.00');
    expect(discountFor({ losses: 'yes' })).toBe('0.00');
    expect(discountFor({})).toBe('0.00');
  });

  it('refuses catalog adjustments that read each other', () => {
    const circular = (id: string) =>
      item(id, [{ name: 'Loop', op: 'percentOfPremiums', percent: '5', of: { category: 'property', type: 'adjustment', scope: 'sameProperty' } }], { type: 'adjustment' });
    expect(() => rateRevision(catalog([circular('x'), circular('y')]), revision([property([line('x')])]))).toThrow(RatingRuleError);
  });
});

describe('item types and written figures', () => {
  it('keeps fees apart from premium and rates non-rating items at 0 whatever their steps', () => {
    const product = catalog([
      item('a', [{ name: 'Base', op: 'flat', amount: '100.00' }]),
      item('info', [{ name: 'Ignored', op: 'flat', amount: '999.00' }], { type: 'nonRate' }),
      item('fee', [{ name: 'Fee', op: 'flat', amount: '25.00' }], { type: 'fee', category: 'policy' }),
    ]);
    const rated = rateRevision(product, revision([property([line('a'), line('info')])], [line('fee')]));
    expect(rated.items.map((entry) => [entry.name, entry.annualPremiumCents, entry.annualFeeCents, entry.ratingDetails.length])).toEqual([
      ['fee', 0, 25_00, 1],
      ['a', 100_00, 0, 1],
      ['info', 0, 0, 0],
    ]);
    expect(rated.totals).toMatchObject({ annualPremiumCents: 100_00, annualFeeCents: 25_00, annualTotalCents: 125_00 });
  });

  it('writes each item pro rata by day, rounded per item, and totals the rounded figures; a fully earned fee is written whole', () => {
    const product = catalog([
      item('a', [{ name: 'Base', op: 'flat', amount: '100.00' }]),
      item('b', [{ name: 'Base', op: 'flat', amount: '100.00' }]),
      item('fee', [{ name: 'Fee', op: 'flat', amount: '30.00' }], { type: 'fee', category: 'policy', earning: 'fullyEarned' }),
      item('service', [{ name: 'Fee', op: 'flat', amount: '30.00' }], { type: 'fee', category: 'policy' }),
    ]);
    const rated = rateRevision(product, revision([property([line('a'), line('b')])], [line('fee'), line('service')], { termEnd: '2026-01-04', daysInForce: 1 }));
    expect(rated.items.map((entry) => [entry.name, formatCents(entry.writtenPremiumCents + entry.writtenFeeCents)])).toEqual([
      ['fee', '30.00'],
      ['service', '10.00'],
      ['a', '33.33'],
      ['b', '33.33'],
    ]);
    expect(rated.totals).toMatchObject({ writtenPremiumCents: 66_66, writtenFeeCents: 40_00, writtenTotalCents: 106_66 });
  });
});

describe('inputs the engine cannot rate', () => {
  const product = catalog([
    item('a', [{ name: 'Base', op: 'perThousand', of: { limitOf: 'self' }, rate: '1' }]),
    item('policy', [{ name: 'Construction', op: 'byOption', by: { answer: QUESTION }, table: [{ amount: '1.00' }] }], { category: 'policy' }),
  ]);

  it('names the item when a policy item misses a revision answer', () => {
    const attempt = () => rateRevision(product, revision([], [line('policy')]));
    expect(attempt).toThrow(RatingInputError);
    expect(attempt).toThrow('Cannot rate policy: the answer to Construction Type');
  });

  it('names the property and item when a limit is missing, instead of rating NaN', () => {
    try {
      rateRevision(product, revision([property([line('a')])]));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RatingInputError);
      expect((error as RatingInputError).problem).toEqual({ propertyId: 'p1', propertyName: 'Property p1', itemId: 'line-a', itemName: 'a', missing: 'its limit' });
      expect((error as RatingInputError).messages).toEqual(['Cannot rate Property p1, a: its limit']);
    }
  });

  it('refuses an item the catalog does not have, or one placed on the wrong level', () => {
    expect(() => rateRevision(product, revision([property([line('nope')])]))).toThrow('item nope, which the catalog does not have');
    expect(() => rateRevision(product, revision([], [line('a', 1000_00)]))).toThrow('a property item cannot be rated on the policy');
  });

  it('refuses a term that does not end after it starts, and days in force outside the term', () => {
    expect(() => rateRevision(product, revision([], [], { termEnd: '2026-01-01' }))).toThrow('a term that ends after it starts');
    expect(() => rateRevision(product, revision([], [], { daysInForce: 366 }))).toThrow('days in force between 0 and the 365 days of the term');
  });
});
