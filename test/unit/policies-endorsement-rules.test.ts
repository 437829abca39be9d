/** The pure rules of an endorsement: pro-rata premium to the cent, the term's written premium, states, the out-of-sequence rebase, the re-spread. */
import { describe, expect, it } from 'vitest';
import {
  additionalPremiumOf,
  applyFieldChanges,
  changesToReapply,
  conflictsOf,
  fieldChanges,
  inForceOn,
  itemPremiumChanges,
  premiumChangeLayers,
  revisionPeriods,
  spreadOverInstallments,
  termPremium,
  totalOf,
  writtenByItem,
  writtenByItemFrom,
  type CoverageItem,
  type ItemAnnual,
} from '../../shared/policies/endorsement-rules.js';

const term = { effectiveDate: '2026-01-01', expirationDate: '2027-01-01' };
const item = (id: string, premiumCents: number, feeCents = 0, feeProRata = false): ItemAnnual => ({ id, name: id, premiumCents, feeCents, feeProRata });
/** The worked example's priced items (826.62 + 25.00 fee). */
const worked = [item('Dwelling', 866_25), item('Personal Liability', 35_00), item('Medical Payments', 12_00), item('Claims-Free Discount', -86_63), item('Policy Fee', 0, 25_00)];
/** Dwelling raised 250,000 -> 300,000: 1,039.50, and the discount follows to -103.95. */
const raised = worked.map((line) => (line.id === 'Dwelling' ? item('Dwelling', 1039_50) : line.id === 'Claims-Free Discount' ? item('Claims-Free Discount', -103_95) : line));

describe('pro-rata additional premium', () => {
  it('charges each item its annual difference for the days left (183 of 365), half-up to the cent', () => {
    const changes = itemPremiumChanges(worked, raised, term, '2026-07-02');
    expect(changes.find((change) => change.id === 'Dwelling')).toMatchObject({ oldAnnualPremiumCents: 866_25, newAnnualPremiumCents: 1039_50, additionalPremiumCents: 86_86 });
    expect(changes.find((change) => change.id === 'Claims-Free Discount')).toMatchObject({ additionalPremiumCents: -8_68 });
    expect(additionalPremiumOf(changes)).toBe(78_18);
    expect(changes.every((change) => change.additionalFeeCents === 0)).toBe(true);
  });

  it('returns premium for a coverage removed, and charges a fully earned fee whole', () => {
    const removed = itemPremiumChanges(worked, worked.filter((line) => line.id !== 'Medical Payments'), term, '2026-10-01');
    expect(removed.find((change) => change.id === 'Medical Payments')).toMatchObject({ newAnnualPremiumCents: 0, additionalPremiumCents: -3_02 });
    const fee = itemPremiumChanges(worked, [...worked, item('Inspection Fee', 0, 10_00)], term, '2026-10-01');
    expect(fee.find((change) => change.id === 'Inspection Fee')?.additionalFeeCents).toBe(10_00);
    const proRataFee = itemPremiumChanges(worked, [...worked, item('Service Fee', 0, 10_00, true)], term, '2026-07-02');
    expect(proRataFee.find((change) => change.id === 'Service Fee')?.additionalFeeCents).toBe(5_01);
  });
});

describe('a term over its committed revisions', () => {
  const versions = [
    { id: 'issued', revisionDate: '2026-01-01', committedAt: '1', items: worked },
    { id: 'raised', revisionDate: '2026-07-02', committedAt: '2', items: raised },
  ];

  it('writes the first revision whole and each change for its remaining days; earns day by day', () => {
    expect(termPremium(term, versions)).toEqual({ writtenPremiumCents: 826_62 + 78_18, writtenFeeCents: 25_00, earnedPremiumCents: 826_62 + 78_18 });
    // 182 days in, the change not yet in force: each item's 182/365 (431.94 + 17.45 + 5.98 - 43.20).
    expect(termPremium(term, versions, '2026-07-02').earnedPremiumCents).toBe(412_17);
  });

  it('finds the revision in force on a day and shows the replaced one superseded with its earlier period', () => {
    expect(inForceOn(versions, '2026-07-01')?.id).toBe('issued');
    expect(inForceOn(versions, '2026-07-02')?.id).toBe('raised');
    const periods = revisionPeriods(term, [
      { id: 'issued', revisionState: 'committed', revisionDate: '2026-01-01', committedAt: '1' },
      { id: 'raised', revisionState: 'committed', revisionDate: '2026-07-02', committedAt: '2' },
      { id: 'draft', revisionState: 'open', revisionDate: '2026-09-01', committedAt: '' },
    ]);
    expect(periods).toEqual([
      { id: 'issued', state: 'superseded', from: '2026-01-01', to: '2026-07-02' },
      { id: 'raised', state: 'committed', from: '2026-07-02', to: '2027-01-01' },
      { id: 'draft', state: 'open', from: null, to: null },
    ]);
  });
});

describe('out of sequence', () => {
  const cov = (id: string, limitCents: number | null, deductibleCents: number | null = null): CoverageItem => ({ id, name: id, limitCents, limitIsDefault: false, deductibleCents, manual: false, annualPremiumCents: null });
  const base = [cov('Dwelling', 250_000_00, 1000_00), cov('Water Backup', 5000_00)];

  it('carries an earlier change into a later revision that did not set the field', () => {
    const later = [cov('Dwelling', 250_000_00, 2500_00), cov('Water Backup', 5000_00)];
    const earlier = [cov('Dwelling', 300_000_00, 1000_00), cov('Water Backup', 5000_00)];
    const newChanges = fieldChanges(base, earlier);
    expect(newChanges).toEqual([{ key: 'Dwelling.limit', label: 'Dwelling limit', before: 250_000_00, after: 300_000_00 }]);
    const own = fieldChanges(base, later);
    expect(conflictsOf(newChanges, { revisionId: 'L', ownChanges: own })).toEqual([]);
    const reapplied = applyFieldChanges(later, changesToReapply(newChanges, { ownChanges: own }, new Map()), () => undefined);
    expect(reapplied.find((line) => line.id === 'Dwelling')).toMatchObject({ limitCents: 300_000_00, deductibleCents: 2500_00 });
  });

  it('names a field both set as a conflict, and applies the resolution', () => {
    const later = [cov('Dwelling', 275_000_00, 1000_00), cov('Water Backup', 5000_00)];
    const earlier = [cov('Dwelling', 300_000_00, 1000_00)];
    const newChanges = fieldChanges(base, earlier);
    expect(newChanges.map((change) => change.key).sort()).toEqual(['Dwelling.limit', 'Water Backup.present']);
    const own = fieldChanges(base, later);
    expect(conflictsOf(newChanges, { revisionId: 'L', ownChanges: own })).toEqual([
      { revisionId: 'L', field: 'Dwelling.limit', label: 'Dwelling limit', laterValue: 275_000_00, newValue: 300_000_00 },
    ]);
    const keep = applyFieldChanges(later, changesToReapply(newChanges, { ownChanges: own }, new Map([['Dwelling.limit', 'keep_later']])), () => undefined);
    expect(keep).toEqual([cov('Dwelling', 275_000_00, 1000_00)]);
    const take = applyFieldChanges(later, changesToReapply(newChanges, { ownChanges: own }, new Map([['Dwelling.limit', 'take_new']])), () => undefined);
    expect(take).toEqual([cov('Dwelling', 300_000_00, 1000_00)]);
  });
});

describe('billing the change', () => {
  it('spreads an additional premium over the unbilled installments, adding up exactly', () => {
    const shares = spreadOverInstallments(78_18, [
      { number: 3, billDate: '2026-07-22', dueDate: '2026-08-01', amountCents: 82_66 },
      { number: 4, billDate: '2026-08-22', dueDate: '2026-09-01', amountCents: 82_66 },
      { number: 5, billDate: '2026-09-21', dueDate: '2026-10-01', amountCents: 82_66 },
    ]);
    expect(shares.map((share) => share.shareCents)).toEqual([26_06, 26_06, 26_06]);
    expect(shares.map((share) => share.amountCents)).toEqual([108_72, 108_72, 108_72]);
    expect(spreadOverInstallments(100, [1, 2, 3].map((number) => ({ number, billDate: '', dueDate: '', amountCents: 0 }))).map((share) => share.shareCents)).toEqual([33, 33, 34]);
  });
});

describe('written premium from the revision in force', () => {
  it('adds the later changes to the stored written figures, agreeing with the whole chain', () => {
    const versions = [
      { id: 'issued', revisionDate: '2026-01-01', committedAt: '1', items: worked },
      { id: 'raised', revisionDate: '2026-07-02', committedAt: '2', items: raised },
    ];
    const whole = writtenByItem(term, versions);
    const start = writtenByItem(term, versions.slice(0, 1));
    const fromStored = writtenByItemFrom(term, start, versions);
    expect(fromStored).toEqual(whole);
    expect(totalOf(fromStored)).toEqual({ writtenPremiumCents: 826_62 + 78_18, writtenFeeCents: 25_00 });
  });
});

describe('the premium change by date (what the books earn from each date)', () => {
  const version = (id: string, revisionDate: string, items: readonly ItemAnnual[], committedAt = `${revisionDate}T12:00:00.000Z`) => ({ id, revisionDate, committedAt, items });
  const deductible = worked.map((line) => (line.id === 'Dwelling' ? item('Dwelling', 762_30) : line.id === 'Claims-Free Discount' ? item('Claims-Free Discount', -76_23) : line));
  const both = worked.map((line) => (line.id === 'Dwelling' ? item('Dwelling', 914_76) : line.id === 'Claims-Free Discount' ? item('Claims-Free Discount', -91_48) : line));

  it('is one layer from the endorsement\'s date in sequence', () => {
    const before = [version('issued', '2026-01-01', worked)];
    const after = [...before, version('raised', '2026-07-02', raised)];
    const layers = premiumChangeLayers(term, before, after);
    expect(layers).toEqual([{ from: '2026-07-02', cents: additionalPremiumOf(itemPremiumChanges(worked, raised, term, '2026-07-02')) }]);
  });

  it('out of sequence, adds the earlier change from its date and re-prices the later revision from its own, adding up to the change of the written premium', () => {
    const before = [version('issued', '2026-01-01', worked), version('deductible', '2026-09-01', deductible)];
    const after = [version('issued', '2026-01-01', worked), version('raised', '2026-05-01', raised, '2026-10-01T00:00:00.000Z'), version('deductible', '2026-09-01', both)];
    const layers = premiumChangeLayers(term, before, after);
    expect(layers.map((layer) => layer.from)).toEqual(['2026-05-01', '2026-09-01']);
    expect(layers[0].cents).toBe(additionalPremiumOf(itemPremiumChanges(worked, raised, term, '2026-05-01')));
    expect(layers[1].cents).toBe(additionalPremiumOf(itemPremiumChanges(raised, both, term, '2026-09-01')) - additionalPremiumOf(itemPremiumChanges(worked, deductible, term, '2026-09-01')));
    const writtenChange = totalOf(writtenByItem(term, after)).writtenPremiumCents - totalOf(writtenByItem(term, before)).writtenPremiumCents;
    expect(layers[0].cents + layers[1].cents).toBe(writtenChange);
  });
});

