/** Rates by date: the version in force for new business or for renewals on a day, the one a revision names, and the product as a version rates it. */
import { describe, expect, it } from 'vitest';
import type { ProductCatalog, RateVersion } from '../../shared/catalog/index.js';
import { productAtRateVersion, rateVersionFor, rateVersionOf } from '../../shared/rating/versions.js';
import { BusinessRuleError } from '../../shared/platform/errors.js';

const version = (id: string, newBusiness: string, renewal: string, items: RateVersion['items'] = {}): RateVersion => ({ id, name: id, newBusinessEffectiveDate: newBusiness, renewalEffectiveDate: renewal, items });
const shipped = version('v1', '2020-01-01', '2020-01-01');
const raised = version('v2', '2027-01-01', '2027-03-01', { dwelling: { steps: [{ name: 'Base Rate', op: 'perThousand', of: { limitOf: 'self' }, rate: '3.80' }] as never } });
const product = { rateVersions: [raised, shipped] } as Pick<ProductCatalog, 'rateVersions'>;

describe('the rate version in force', () => {
  it('is the latest whose effective date for the basis is on or before the day', () => {
    expect(rateVersionFor(product, { date: '2026-12-31', basis: 'new_business' }).id).toBe('v1');
    expect(rateVersionFor(product, { date: '2027-01-01', basis: 'new_business' }).id).toBe('v2');
    // Renewals take it from its own, later date.
    expect(rateVersionFor(product, { date: '2027-01-01', basis: 'renewal' }).id).toBe('v1');
    expect(rateVersionFor(product, { date: '2027-02-28', basis: 'renewal' }).id).toBe('v1');
    expect(rateVersionFor(product, { date: '2027-03-01', basis: 'renewal' }).id).toBe('v2');
  });

  it('is refused, naming the date, before the first version', () => {
    expect(() => rateVersionFor(product, { date: '2019-12-31', basis: 'new_business' })).toThrow(BusinessRuleError);
    expect(() => rateVersionFor(product, { date: '2019-12-31', basis: 'new_business' })).toThrow('effective_date: the product has no rates in force for new business on 2019-12-31');
  });

  it('is the one a revision names (an endorsement keeps its term’s), else by its basis and start; none without versions', () => {
    expect(rateVersionOf(product, { rateVersionId: 'v1', termStart: '2027-06-01' })?.id).toBe('v1');
    expect(rateVersionOf(product, { termStart: '2027-06-01' })?.id).toBe('v2');
    expect(rateVersionOf(product, { termStart: '2027-02-01', rateBasis: 'renewal' })?.id).toBe('v1');
    expect(rateVersionOf({ rateVersions: [] }, { termStart: '2027-06-01' })).toBeNull();
  });
});

describe('the product at a version', () => {
  it('rates the items the version names by its steps and the others by their own', () => {
    const items = [{ id: 'dwelling', rating: { steps: [{ rate: '3.50' }] } }, { id: 'other', rating: { steps: [{ rate: '2.00' }] } }] as unknown as ProductCatalog['items'];
    const at = productAtRateVersion({ items, rateVersions: [] } as unknown as ProductCatalog, raised);
    expect(at.items.map((item) => (item.rating.steps[0] as { rate: string }).rate)).toEqual(['3.80', '2.00']);
    expect(productAtRateVersion({ items } as unknown as ProductCatalog, shipped).items).toBe(items);
  });
});
