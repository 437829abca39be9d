import { describe, expect, it } from 'vitest';
import { bandOf, bookFigures, changePercent, impactCsv, impactReport, largestChanges, movedMostBy, type PolicyImpact } from '../../shared/products/impact-report.js';
import { capShares } from '../../shared/rating/engine.js';

const policy = (policyNumber: string, before: number, after: number, extra: Partial<PolicyImpact> = {}): PolicyImpact => ({
  policyNumber,
  state: 'FL',
  territory: 'Broward',
  before: { premiumCents: before, uncappedPremiumCents: before, feeCents: 2500, chargeCents: 200, rateVersion: 'old' },
  after: { premiumCents: after, uncappedPremiumCents: after, feeCents: 2600, chargeCents: 300, rateVersion: 'new' },
  movedMostBy: null,
  ...extra,
});

describe('the bands of change', () => {
  it('puts each change in its band, each band holding its lower bound, compared exactly', () => {
    expect(bandOf(100_00, 89_99)).toBe('below -10%');
    expect(bandOf(100_00, 90_00)).toBe('-10% to -5%');
    expect(bandOf(100_00, 95_00)).toBe('-5% to 0%');
    expect(bandOf(100_00, 99_99)).toBe('-5% to 0%');
    expect(bandOf(100_00, 100_00)).toBe('0% to 5%');
    expect(bandOf(100_00, 104_99)).toBe('0% to 5%');
    expect(bandOf(100_00, 105_00)).toBe('5% to 10%');
    expect(bandOf(100_00, 110_00)).toBe('10% to 25%');
    expect(bandOf(100_00, 124_99)).toBe('10% to 25%');
    expect(bandOf(100_00, 125_00)).toBe('above 25%');
    // A third of a cent either way is not rounded into the next band.
    expect(bandOf(3, 4)).toBe('above 25%');
    expect(bandOf(0, 0)).toBe('0% to 5%');
    expect(bandOf(0, 1)).toBe('above 25%');
  });

  it('writes a change in percent to two decimals', () => {
    expect(changePercent(1543_88, 1621_07)).toBe('5.00');
    expect(changePercent(100_00, 96_50)).toBe('-3.50');
    expect(changePercent(0, 10)).toBe('0.00');
  });
});

describe('the report', () => {
  const book = [policy('10-1', 100_00, 130_00), policy('10-2', 100_00, 104_00), policy('10-3', 200_00, 180_00, { state: 'NY', territory: 'none' }), policy('10-4', 100_00, 115_00, { after: { premiumCents: 115_00, uncappedPremiumCents: 140_00, feeCents: 2600, chargeCents: 300, rateVersion: 'new' } })];

  it('adds up counts, premiums, fees and surcharges apart, and what the cap held back', () => {
    const figures = bookFigures(book);
    expect(figures).toMatchObject({ policies: 4, premium_before: 500, premium_after: 529, change: 29, change_percent: '5.80', premium_after_uncapped: 554, fees_before: 100, fees_after: 104, surcharges_before: 8, surcharges_after: 12, capped_policies: 1, capped_by: 25 });
    // 200 to 180 is exactly −10%: in "-10% to -5%", which holds its lower bound.
    expect(figures.bands.map((band) => [band.band, band.policies, band.change])).toEqual([
      ['below -10%', 0, 0], ['-10% to -5%', 1, -20], ['-5% to 0%', 0, 0], ['0% to 5%', 1, 4], ['5% to 10%', 0, 0], ['10% to 25%', 1, 15], ['above 25%', 1, 30],
    ]);
    expect(figures.bands_uncapped.find((band) => band.band === 'above 25%')!.policies).toBe(2);
  });

  it('groups by state and territory, and lists the largest changes either way, largest first', () => {
    const report = impactReport(book);
    expect(Object.keys(report.by_state)).toEqual(['FL', 'NY']);
    expect(report.by_territory['FL Broward'].policies).toBe(3);
    expect(report.largest_changes.map((change) => change.policy_number)).toEqual(['10-1', '10-3', '10-4', '10-2']);
    expect(report.largest_changes[2]).toMatchObject({ capped: true, premium_after: 115, premium_after_uncapped: 140 });
    expect(largestChanges(book, 1)).toHaveLength(1);
  });

  it('writes one CSV line a policy', () => {
    const csv = impactCsv(book).trim().split('\n');
    expect(csv).toHaveLength(5);
    expect(csv[1]).toBe('10-1,FL,Broward,100.00,130.00,130.00,30.00,30.00,above 25%,25.00,26.00,2.00,3.00,old,new,');
  });
});

describe('the step that moved a policy most', () => {
  const trace = (base: number, territory: number) => [{ id: 'd', name: 'Dwelling', ratingDetails: [{ name: 'Base Rate', runningTotalCents: base }, { name: 'Territory', runningTotalCents: territory }] }];
  it('is the step whose part of the premium changed most', () => {
    expect(movedMostBy(trace(1000_00, 1600_00), trace(1071_43, 1714_29))).toBe('Dwelling: Base Rate');
    expect(movedMostBy(trace(1000_00, 1600_00), trace(1071_43, 1821_43))).toBe('Dwelling: Territory');
    expect(movedMostBy(trace(1000_00, 1600_00), trace(1000_00, 1600_00))).toBeNull();
  });
});

describe('a renewal cap shared over the items', () => {
  it('splits the excess in proportion, exact to the cent', () => {
    expect(capShares([100_00, 50_00, 50_00], 10_01)).toEqual([5_01, 2_50, 2_50]);
    expect(capShares([1, 1, 1], 2)).toEqual([1, 1, 0]);
    expect(capShares([0, 0], 5)).toEqual([0, 0]);
  });
});
