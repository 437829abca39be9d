import { describe, expect, it } from 'vitest';
import type { Moratorium } from '../../shared/moratoriums/model.js';
import { coverageIncreases, declaredArea, inForceAt, moratoriumsOver, quoteBeforeMoratorium } from '../../shared/moratoriums/rules.js';

const NOW = new Date('2026-09-01T12:00:00Z');
const moratorium = (overrides: Partial<Moratorium> = {}): Moratorium => ({
  moratoriumId: overrides.name ?? 'm', name: 'Hurricane', kind: 'underwriting', states: [], counties: ['12086'], zips: [], products: [], blocks: ['new_business'],
  startsAt: '2026-09-01T00:00:00.000Z', endsAt: null, declaredBy: 'uw', declaredAt: '2026-09-01T00:00:00.000Z', liftedAt: null, liftedBy: null, version: 1, ...overrides,
});
const miami = { locations: [{ state: 'FL', counties: ['12086'], zip: '33101' }], policyTypeName: 'Homeowner - HO3' };
const broward = { locations: [{ state: 'FL', counties: ['12011'], zip: '33301' }], policyTypeName: 'Homeowner - HO3' };
const AT = '2026-09-02T00:00:00.000Z';

describe('a declaration', () => {
  it('names every offending field: bad FIPS, unknown state, ends before starts, empty blocks', () => {
    expect(() => declaredArea({ name: 'Storm', kind: 'underwriting', states: ['ZZ'], counties: ['1208', '99001'], blocks: [], startsAt: '2026-09-05', endsAt: '2026-09-04' }, NOW)).toThrow(
      expect.objectContaining({
        messages: [
          'states.0: ZZ is not a US state code',
          'counties.0: must be a 5-digit county FIPS code (e.g. 12086)',
          'counties.1: 99001 starts with no state\'s FIPS code',
          'blocks: name at least one of new_business, coverage_increase, reinstatement, cancellation, non_renewal',
          'ends_at: 2026-09-04T00:00:00.000Z is not after starts_at 2026-09-05T00:00:00.000Z',
        ],
      }),
    );
  });

  it('starts now and covers every product unless told', () => {
    expect(declaredArea({ name: ' Milton ', kind: 'regulatory', counties: ['12086'], blocks: ['new_business', 'new_business'] }, NOW)).toEqual({
      name: 'Milton', kind: 'regulatory', states: [], counties: ['12086'], zips: [], products: [], blocks: ['new_business'], startsAt: NOW.toISOString(), endsAt: null,
    });
  });
});

describe('the matcher', () => {
  it('reaches a property in a county, state or ZIP of the area, for a product it covers, while in force', () => {
    expect(moratoriumsOver([moratorium()], miami, 'new_business', AT)).toHaveLength(1);
    expect(moratoriumsOver([moratorium()], broward, 'new_business', AT)).toEqual([]);
    expect(moratoriumsOver([moratorium({ counties: [], states: ['FL'] })], broward, 'new_business', AT)).toHaveLength(1);
    expect(moratoriumsOver([moratorium({ counties: [], zips: ['33301'] })], broward, 'new_business', AT)).toHaveLength(1);
    expect(moratoriumsOver([moratorium({ products: ['Dwelling Fire - DP3'] })], miami, 'new_business', AT)).toEqual([]);
    expect(moratoriumsOver([moratorium()], miami, 'coverage_increase', AT)).toEqual([]);
    expect(moratoriumsOver([moratorium()], miami, 'new_business', '2026-08-31T23:59:59.000Z')).toEqual([]);
    expect(moratoriumsOver([moratorium({ endsAt: '2026-09-02T00:00:00.000Z' })], miami, 'new_business', AT)).toEqual([]);
  });

  it('narrows by each dimension given (states, then counties, then ZIPs), any value within one (issue 44)', () => {
    const miamiDade = moratorium({ states: ['FL'], counties: ['12086'] });
    expect(moratoriumsOver([miamiDade], miami, 'new_business', AT)).toHaveLength(1);
    expect(moratoriumsOver([miamiDade], broward, 'new_business', AT)).toEqual([]);
    const twoCounties = moratorium({ states: ['FL'], counties: ['12086', '12011'] });
    expect(moratoriumsOver([twoCounties], broward, 'new_business', AT)).toHaveLength(1);
    const oneZip = moratorium({ states: ['FL'], counties: ['12086', '12011'], zips: ['33101'] });
    expect(moratoriumsOver([oneZip], miami, 'new_business', AT)).toHaveLength(1);
    expect(moratoriumsOver([oneZip], broward, 'new_business', AT)).toEqual([]);
    expect(moratoriumsOver([moratorium({ states: ['GA'], counties: [] })], miami, 'new_business', AT)).toEqual([]);
    // A property whose state is not recorded is in the state of its county.
    expect(moratoriumsOver([miamiDade], { ...miami, locations: [{ state: null, counties: ['12086'], zip: null }] }, 'new_business', AT)).toHaveLength(1);
  });

  it('refuses a declared county outside the states named', () => {
    expect(() => declaredArea({ name: 'Storm', kind: 'underwriting', states: ['fl'], counties: ['12086', '13051'], blocks: ['new_business'] }, NOW)).toThrow(
      expect.objectContaining({ messages: ['counties.1: 13051 is in none of the states named (FL)'] }),
    );
  });

  it('applies every overlapping moratorium; lifting one leaves the others', () => {
    const first = moratorium({ name: 'First' });
    const second = moratorium({ name: 'Second', counties: [], states: ['FL'] });
    expect(moratoriumsOver([first, second], miami, 'new_business', AT).map((m) => m.name)).toEqual(['First', 'Second']);
    const lifted = { ...first, liftedAt: '2026-09-01T18:00:00.000Z' };
    expect(moratoriumsOver([lifted, second], miami, 'new_business', AT).map((m) => m.name)).toEqual(['Second']);
    expect(inForceAt(lifted, '2026-09-01T17:00:00.000Z')).toBe(true);
  });
});

describe('a quote submitted before the moratorium', () => {
  it('may bind when effective at least the grace days after its first day', () => {
    const before = '2026-08-30T10:00:00.000Z';
    expect(quoteBeforeMoratorium(moratorium(), { createdAt: before, effectiveDate: '2026-09-11' }, 10)).toBe(true);
    expect(quoteBeforeMoratorium(moratorium(), { createdAt: before, effectiveDate: '2026-09-10' }, 10)).toBe(false);
    expect(quoteBeforeMoratorium(moratorium(), { createdAt: '2026-09-01T01:00:00.000Z', effectiveDate: '2026-12-01' }, 10)).toBe(false);
  });
});

describe('a coverage increase', () => {
  it('is a higher limit, a lower deductible or an added coverage; decreases are not', () => {
    const before = [{ key: 'Dwelling', limitCents: 25_000_000, deductibleCents: 100_000 }];
    expect(coverageIncreases(before, [{ key: 'Dwelling', limitCents: 30_000_000, deductibleCents: 100_000 }])).toEqual(['raises the limit of Dwelling']);
    expect(coverageIncreases(before, [{ key: 'Dwelling', limitCents: 25_000_000, deductibleCents: 50_000 }])).toEqual(['lowers the deductible of Dwelling']);
    expect(coverageIncreases(before, [...before, { key: 'Water Backup', limitCents: 500_000, deductibleCents: null }])).toEqual(['adds Water Backup']);
    expect(coverageIncreases(before, [{ key: 'Dwelling', limitCents: 20_000_000, deductibleCents: 250_000 }])).toEqual([]);
    expect(coverageIncreases(before, [])).toEqual([]);
  });
});
