import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { productFromRecords } from '../../shared/catalog/model.js';
import {
  allocatePolicyNumberUpdate,
  guardedRevisionUpdate,
  lineItemKey,
  locatorKey,
  policyKey,
  policyNumberCounterKey,
  policyNumberKey,
  revisionPartitionQuery,
  termKey,
} from '../../shared/policies/keys.js';
import { formatPolicyNumber, lockboxForm, numberingYear } from '../../shared/policies/numbering.js';
import type { ZipAnswer } from '../../shared/policies/model.js';
import { withoutCalculatedPremium } from '../../shared/policies/premiums.js';
import { applyLocation, newRisk, orderRisks } from '../../shared/policies/risk-rules.js';
import { limitProblem, startingStructure, withDefaultLimits } from '../../shared/policies/structure.js';
import { deduceTerm, expirationFor } from '../../shared/policies/terms.js';
import { validateUnderwritingAnswers } from '../../shared/policies/underwriting.js';

const product = productFromRecords(referenceCatalogRecords());
const HO3 = 'd11cfc80-886b-4a1c-8e38-e77ae4256998';
const DP3 = '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7';
let counter = 0;
const nextId = () => `id-${++counter}`;
const placement = (riskId: string | null, policyTypeId = HO3) => ({ revisionId: 'rev', riskId, policyTypeId, today: '2026-03-01', now: new Date('2026-03-01T10:00:00Z') });

describe('policy keys', () => {
  it('builds the documented keys', () => {
    expect(policyKey('p')).toEqual({ pk: 'POLICY#p', sk: 'POLICY' });
    expect(termKey('p', 't')).toEqual({ pk: 'POLICY#p', sk: 'TERM#t' });
    expect(policyNumberKey('10-2026-1')).toEqual({ pk: 'POLICYNUMBER#10-2026-1', sk: 'POLICYNUMBER' });
    expect(policyNumberCounterKey('10', 2026)).toEqual({ pk: 'COUNTER#POLICYNUMBER', sk: '10-2026' });
    expect(lineItemKey('r', 'i')).toEqual({ pk: 'REVISION#r', sk: 'ITEM#i' });
    expect(locatorKey('x')).toEqual({ pk: 'LOCATOR#x', sk: 'LOCATOR' });
  });

  it('allocates a number with one atomic ADD answering the new value', () => {
    expect(allocatePolicyNumberUpdate('table', '10', 2026)).toEqual({
      TableName: 'table',
      Key: { pk: 'COUNTER#POLICYNUMBER', sk: '10-2026' },
      UpdateExpression: 'ADD lastNumber :one SET entity = :entity',
      ExpressionAttributeValues: { ':one': 1, ':entity': 'PolicyNumberCounter' },
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('guards a revision change by its version and open state', () => {
    expect(guardedRevisionUpdate('table', 'r', 4, { riskSequence: 2 })).toEqual({
      TableName: 'table',
      Key: { pk: 'REVISION#r', sk: 'REVISION' },
      UpdateExpression: 'SET #version = :next, #a0 = :a0',
      ConditionExpression: '#version = :expected AND #state = :open',
      ExpressionAttributeNames: { '#version': 'version', '#state': 'revisionState', '#a0': 'riskSequence' },
      ExpressionAttributeValues: { ':expected': 4, ':next': 5, ':open': 'open', ':a0': 2 },
    });
  });

  it('reads a revision whole with one strongly consistent query', () => {
    expect(revisionPartitionQuery('table', 'r')).toEqual({
      TableName: 'table',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'REVISION#r' },
      ConsistentRead: true,
    });
  });
});

describe('numbering', () => {
  it('formats 10-YYYY-n from the creation year, and the lockbox form', () => {
    expect(formatPolicyNumber('10', numberingYear(new Date('2027-01-01T00:00:00Z')), 1)).toBe('10-2027-1');
    expect(lockboxForm('10-2026-7')).toBe('1020267');
  });
});

describe('terms', () => {
  it('computes expirations and deduces the type and length from dates', () => {
    expect(expirationFor('2026-01-31', '1 Year')).toBe('2027-01-31');
    expect(expirationFor('2026-08-31', '6 Months')).toBe('2027-02-28');
    expect(deduceTerm('2026-01-01', '2029-01-01')).toEqual({ termType: '3 Years', termLength: 36 });
    expect(deduceTerm('2026-01-01', '2026-02-01')).toEqual({ termType: '1 Month', termLength: 1 });
    expect(deduceTerm('2026-01-01', '2026-08-15')).toEqual({ termType: 'Custom', termLength: 7 });
  });
});

describe('structure of a revision', () => {
  it('starts an HO3 policy with Section II and its mandatory and automatic items', () => {
    const policy = startingStructure(product, placement(null), 'policy', nextId);
    expect(policy.subLines.map((subLine) => subLine.name)).toEqual(['Section II - Liability']);
    expect(policy.items.map((item) => [item.name, item.limitCents])).toEqual([
      ['Personal Liability', 30000000],
      ['Medical Payments', 500000],
      ['Claims-Free Discount', null],
      ['Policy Fee', null],
    ]);
  });

  it('starts a DP3 property without the optional Personal Property', () => {
    const property = startingStructure(product, placement('risk-1', DP3), 'property', nextId);
    expect(property.items.map((item) => item.name)).toEqual(['Dwelling', 'Other Structures', 'Loss of Use']);
    expect(property.items[0]).toMatchObject({ deductibleCents: 100000, limitCents: null, mandatory: true });
  });

  it('moves default limits with the Dwelling limit, but not limits set by hand', () => {
    const property = startingStructure(product, placement('risk-1'), 'property', nextId).items;
    const withDwelling = property.map((item) => (item.name === 'Dwelling' ? { ...item, limitCents: 25000000 } : item));
    const limits = Object.fromEntries(withDefaultLimits(withDwelling, product).map((item) => [item.name, item.limitCents]));
    expect(limits).toEqual({ Dwelling: 25000000, 'Other Structures': 2500000, 'Personal Property': 12500000, 'Loss of Use': 5000000 });
    const setByHand = withDwelling.map((item) => (item.name === 'Other Structures' ? { ...item, limitCents: 4000000, limitIsDefault: false } : item));
    expect(withDefaultLimits(setByHand, product).find((item) => item.name === 'Other Structures')!.limitCents).toBe(4000000);
  });

  it('checks limits against the rule, naming the field', () => {
    const dwelling = product.items.find((item) => item.name === 'Dwelling')!;
    const lossOfUse = product.items.find((item) => item.name === 'Loss of Use')!;
    expect(limitProblem(dwelling, 4000000, 'items.0.limit')).toBe('items.0.limit: Dwelling limit must be at least 50000');
    expect(limitProblem(dwelling, null, 'items.0.limit')).toBe('items.0.limit: Dwelling requires a limit');
    expect(limitProblem(dwelling, 25000000, 'items.0.limit')).toBeUndefined();
    expect(limitProblem(lossOfUse, 100, 'x')).toMatch(/cannot be set/);
  });

  it('clears calculated premiums but keeps manual and external ones', () => {
    const [item] = startingStructure(product, placement('r'), 'property', nextId).items;
    const rated = { ...item, annualPremiumCents: 100, writtenPremiumCents: 100, ratingDetails: { 'Base Rate': 1 }, premiumSource: 'calculated' as const };
    expect(withoutCalculatedPremium(rated)).toMatchObject({ annualPremiumCents: null, ratingDetails: {} });
    expect(withoutCalculatedPremium({ ...rated, manual: true })).toMatchObject({ annualPremiumCents: 100 });
    expect(withoutCalculatedPremium({ ...rated, premiumSource: 'external' })).toMatchObject({ annualPremiumCents: 100 });
  });
});

describe('locations', () => {
  const zipTable: Record<string, ZipAnswer> = {
    '90210': { valid: true, zip: '90210', stateAbbr: 'CA', cities: ['Beverly Hills'], counties: [{ name: 'Los Angeles', fips: '06037', id: 'county-la' }] },
  };
  const lookup = (zip: string) => zipTable[zip] ?? { valid: false, zip, stateAbbr: null, cities: [], counties: [] };
  const risk = newRisk({ id: 'r', revisionId: 'rev', policyId: 'p', sequence: 3, primary: false, now: new Date() });

  it('names a new property Property #n', () => {
    expect(risk.name).toBe('Property #3');
  });

  it('fills state, city and county from the ZIP table', () => {
    const located = applyLocation(risk, { address_zip: '90210', address_city: 'Elsewhere' }, { soft: false, hard: false, lookup });
    expect(located).toMatchObject({ address_state: 'CA', address_city: 'Beverly Hills', county: { name: 'Los Angeles', code: '06037', id: 'county-la' } });
  });

  it('keeps omitted keys, clears empty ones', () => {
    const first = applyLocation(risk, { address_line1: '1 Main', year_built: '1990', address_zip: '90210' }, { soft: false, hard: false, lookup });
    const second = applyLocation(first, { year_built: null }, { soft: false, hard: false, lookup });
    expect(second).toMatchObject({ address_line1: '1 Main', year_built: null, address_zip: '90210' });
  });

  it('refuses an unknown ZIP unless bypassed', () => {
    expect(() => applyLocation(risk, { address_zip: '00000' }, { soft: false, hard: false, lookup })).toThrow(/not a known US ZIP code/);
    expect(applyLocation(risk, { address_zip: '00000' }, { soft: false, hard: true, lookup }).address_zip).toBe('00000');
  });

  it('keeps the name and code of a county it keeps when the new ZIP is kept as given', () => {
    const located = applyLocation(risk, { address_zip: '90210' }, { soft: false, hard: false, lookup });
    const moved = applyLocation(located, { address_zip: '00000' }, { soft: false, hard: true, lookup });
    expect(moved).toMatchObject({ address_zip: '00000', county: { name: 'Los Angeles', code: '06037', id: 'county-la' } });
  });

  it('orders names naturally', () => {
    const ordered = orderRisks([{ name: 'Property #10' }, { name: 'Property #2' }, { name: 'Property #1' }], 'name');
    expect(ordered.map((risk) => risk.name)).toEqual(['Property #1', 'Property #2', 'Property #10']);
  });
});

describe('underwriting answers', () => {
  it('merges answers by question and refuses unknown questions or answers', () => {
    const losses = 'e29555d3-7101-4947-a3af-a279d8774c09';
    const merged = validateUnderwritingAnswers(product, [{ questionId: losses, yesNoAnswer: 'yes', explanation: 'hail' }], [{ questionId: losses, yesNoAnswer: 'no', explanation: '' }]);
    expect(merged).toEqual([{ questionId: losses, yesNoAnswer: 'yes', explanation: 'hail' }]);
    expect(() => validateUnderwritingAnswers(product, [{ questionId: losses, yesNoAnswer: 'maybe', explanation: '' }], [])).toThrow(
      'underwriting_questions.0.yesNoAnswer: must be one of yes, no',
    );
  });
});
