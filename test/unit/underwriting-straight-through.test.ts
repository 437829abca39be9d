import { describe, expect, it } from 'vitest';
import { productFromRecords, type ProductCatalog } from '../../shared/catalog/model.js';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import type { PropertyToRate, RevisionToRate } from '../../shared/rating/model.js';
import { UnderwritingRuleError } from '../../shared/underwriting/model.js';
import { straightThrough } from '../../shared/underwriting/straight-through.js';

const product = productFromRecords(referenceCatalogRecords());
const HO3 = 'd11cfc80-886b-4a1c-8e38-e77ae4256998';
const DWELLING = '2deb7d04-daec-47e3-a98a-c9c075598673';
const OTHER_STRUCTURES = '3d53c2b9-6b16-4cd3-99b6-6021399257cb';
const QUESTION = {
  construction: '640841e5-3bf8-445e-ae51-607bd2aa9589',
  protectionClass: '771ae8ec-8b3e-4125-8f7a-6b5e504782f2',
  losses: 'e29555d3-7101-4947-a3af-a279d8774c09',
  vacant: '7a49ec9a-64fc-41fd-bf61-55a1e593fa10',
  business: '67344a3c-7863-4d65-8ae5-4b8157514146',
};

function home(change: { limitCents?: number; yearBuilt?: string | number; protectionClass?: string } = {}): PropertyToRate {
  return {
    id: 'p1',
    name: 'Property #1',
    answers: { [QUESTION.construction]: 'Frame', [QUESTION.protectionClass]: change.protectionClass ?? '3' },
    fields: { year_built: change.yearBuilt ?? '1990' },
    items: [
      { id: 'd', itemId: DWELLING, limitCents: change.limitCents ?? 250_000_00 },
      { id: 'os', itemId: OTHER_STRUCTURES },
    ],
  };
}

function revision(properties: PropertyToRate[] = [home()], answers: Record<string, string> = {}): RevisionToRate {
  const clean = { [QUESTION.losses]: 'no', [QUESTION.vacant]: 'no', [QUESTION.business]: 'no' };
  return { policyTypeId: HO3, termStart: '2026-01-01', termEnd: '2027-01-01', answers: { ...clean, ...answers }, properties, policyItems: [] };
}

describe('straight-through processing of the reference product', () => {
  it('passes a quote that meets every rule', () => {
    expect(straightThrough(product, revision())).toEqual({ success: true, decision: 'accept', details: [] });
  });

  it.each([
    ['Losses in past 3 years', QUESTION.losses, 'refer'],
    ['Dwelling vacant or unoccupied', QUESTION.vacant, 'decline'],
    ['Business conducted on premises', QUESTION.business, 'refer'],
  ] as const)('fails on "%s" answered yes alone', (name, questionId, outcome) => {
    const result = straightThrough(product, revision([home()], { [questionId]: 'Yes' }));
    expect(result).toEqual({ success: false, decision: outcome, details: [{ rule: name, outcome, message: `${name}: answered "Yes" (${outcome})` }] });
  });

  it('refers a Dwelling limit over 1,000,000 but not one of exactly 1,000,000', () => {
    expect(straightThrough(product, revision([home({ limitCents: 1_000_000_00 })])).success).toBe(true);
    expect(straightThrough(product, revision([home({ limitCents: 1_000_000_01 })])).details).toEqual([
      { rule: 'Dwelling limit over 1,000,000', outcome: 'refer', message: 'Dwelling limit over 1,000,000: Property #1 has Dwelling limit 1000000.01' },
    ]);
  });

  it('refers a home built before 1900 but not one built in 1900', () => {
    expect(straightThrough(product, revision([home({ yearBuilt: 1900 })])).success).toBe(true);
    expect(straightThrough(product, revision([home({ yearBuilt: '1899' })])).details).toEqual([
      { rule: 'Year built before 1900', outcome: 'refer', message: 'Year built before 1900: Property #1 has year_built 1899' },
    ]);
  });

  it.each(['9', '10'])('refers protection class %s alone', (protectionClass) => {
    expect(straightThrough(product, revision([home({ protectionClass })])).details).toEqual([
      { rule: 'Protection class 9 or 10', outcome: 'refer', message: `Protection class 9 or 10: Property #1 has Protection Class ${protectionClass}` },
    ]);
    expect(straightThrough(product, revision([home({ protectionClass: '8' })])).success).toBe(true);
  });

  it('names every failed rule on every property, a decline outweighing referrals', () => {
    const second = { ...home({ protectionClass: '10', yearBuilt: '1850' }), id: 'p2', name: 'Property #2' };
    const result = straightThrough(product, revision([home(), second], { [QUESTION.vacant]: 'yes', [QUESTION.losses]: 'yes' }));
    expect(result.decision).toBe('decline');
    expect(result.details.map((finding) => finding.message)).toEqual([
      'Losses in past 3 years: answered "yes" (refer)',
      'Dwelling vacant or unoccupied: answered "yes" (decline)',
      'Year built before 1900: Property #2 has year_built 1850',
      'Protection class 9 or 10: Property #2 has Protection Class 10',
    ]);
  });

  it('does not fail a rule whose value is not given', () => {
    const bare: PropertyToRate = { id: 'p1', answers: {}, items: [] };
    expect(straightThrough(product, revision([bare], { [QUESTION.losses]: '' })).success).toBe(true);
  });

  it('reads its thresholds from the catalog data', () => {
    const stricter: ProductCatalog = {
      ...product,
      underwritingRules: product.underwritingRules.map((set) => ({
        ...set,
        rules: set.rules.map((rule) => (rule.name === 'Year built before 1900' ? { ...rule, name: 'Year built before 1950', when: { riskField: 'year_built', lessThan: '1950' } } : rule)),
      })),
    };
    expect(straightThrough(stricter, revision([home({ yearBuilt: '1920' })])).details.map((finding) => finding.rule)).toEqual(['Year built before 1950']);
  });

  it('refuses a catalog rule it cannot read', () => {
    const broken: ProductCatalog = { ...product, underwritingRules: product.underwritingRules.map((set) => ({ ...set, rules: [{ name: 'Odd', when: { limitOf: DWELLING }, outcome: 'refer' as const }] })) };
    expect(() => straightThrough(broken, revision())).toThrow(UnderwritingRuleError);
  });
});
