import { describe, expect, it } from 'vitest';
import { compareRevisions, comparisonLines } from '../../shared/comparison/diff.js';
import type { LineItemRecord, RevisionSnapshot, RiskRecord } from '../../shared/policies/index.js';

const TERM = { policyTermId: 't1', termStart: '2026-01-01', termEnd: '2027-01-01' };

function item(id: string, name: string, riskId: string | null, figures: { limit?: number | null; deductible?: number | null; premium: number }): LineItemRecord {
  return { id, itemId: `catalog-${name}`, name, riskId, limitCents: figures.limit ?? null, deductibleCents: figures.deductible ?? null, annualPremiumCents: figures.premium, persistStatus: 'normal' } as LineItemRecord;
}

function risk(id: string, fields: Partial<RiskRecord> = {}): RiskRecord {
  return { id, name: 'Property #1', address_line1: '7 Change Street', address_city: 'New York', address_state: 'NY', address_zip: '10001', county: null, latitude: null, longitude: null, questions: { q1: 'Frame' }, ...fields } as RiskRecord;
}

function revision(id: string, facts: { date: string; items: LineItemRecord[]; risks?: RiskRecord[]; namedInsureds?: string[]; answer?: string; policyType?: string; rate?: string; term?: Partial<typeof TERM> }): RevisionSnapshot {
  return {
    header: {
      id, ...TERM, ...facts.term, revisionDate: facts.date, policyTypeId: facts.policyType ?? 'ho3', rateVersion: facts.rate ? { id: facts.rate, name: facts.rate } : undefined,
      contacts: { creatorId: 'c', agentId: null, agencyId: null, namedInsuredIds: facts.namedInsureds ?? ['pat'], additionalInterestIds: [] },
      underwritingQuestions: [{ questionId: 'losses', yesNoAnswer: facts.answer ?? 'no', explanation: '' }], underwritingOptions: [],
    },
    risks: facts.risks ?? [risk('r1')], subLines: [], mortgagees: [], items: facts.items,
  } as unknown as RevisionSnapshot;
}

const base = revision('a', { date: '2026-01-01', items: [item('i1', 'Dwelling', 'r1', { limit: 25000000, deductible: 100000, premium: 86625 }), item('i2', 'Claims-Free Discount', null, { premium: -8663 })] });

describe('compareRevisions', () => {
  it("lists an endorsement's limit change and prices it per item and in total for the rest of the term, half-up", () => {
    const endorsed = revision('b', { date: '2026-04-11', risks: [risk('r2', { lineageId: 'r1' })], items: [item('i1', 'Dwelling', 'r2', { limit: 30000000, deductible: 100000, premium: 103950 }), item('i2', 'Claims-Free Discount', null, { premium: -10395 })] });
    const comparison = compareRevisions(base, endorsed);
    expect(comparison.items).toEqual({
      added: [], removed: [],
      changed: [
        { name: 'Dwelling', property: 'Property #1', changes: [{ field: 'limit', from: '250000.00', to: '300000.00' }, { field: 'annual premium', from: '866.25', to: '1039.50' }] },
        { name: 'Claims-Free Discount', property: null, changes: [{ field: 'annual premium', from: '-86.63', to: '-103.95' }] },
      ],
    });
    expect(comparison.properties).toEqual({ added: [], removed: [], changed: [] });
    expect(comparison.premium.items.map((change) => [change.name, change.annualChangeCents, change.termChangeCents])).toEqual([['Dwelling', 17325, 12578], ['Claims-Free Discount', -1732, -1257]]);
    expect(comparison.premium).toMatchObject({ fromAnnualCents: 77962, toAnnualCents: 93555, annualChangeCents: 15593, termChangeCents: 11321, termChangeFrom: '2026-04-11' });
    expect(comparisonLines(comparison)).toEqual([
      'Dwelling (Property #1) limit: 250,000.00 → 300,000.00',
      'Dwelling (Property #1) annual premium: 866.25 → 1,039.50',
      'Claims-Free Discount annual premium: -86.63 → -103.95',
      'Premium of Dwelling (Property #1): 866.25 → 1,039.50 a year (+173.25), +125.78 for the rest of the term',
      'Premium of Claims-Free Discount: -86.63 → -103.95 a year (−17.32), −12.57 for the rest of the term',
      'Total premium: 779.62 → 935.55 a year (+155.93), +113.21 for the rest of the term from 2026-04-11',
    ]);
  });

  it('lists items added and removed, answers, a moved property, contacts by role, policy type and rate version; across terms no rest-of-term figure', () => {
    const renewed = revision('c', {
      date: '2027-01-01', term: { policyTermId: 't2', termStart: '2027-01-01', termEnd: '2028-01-01' }, policyType: 'ho5', rate: '2027', answer: 'yes', namedInsureds: ['pat', 'sam'],
      risks: [risk('r9', { lineageId: 'r1', address_line1: '9 New Road', questions: { q1: 'Masonry' } })],
      items: [item('x1', 'Dwelling', 'r9', { limit: 25000000, deductible: 100000, premium: 86625 }), item('x3', 'Water Backup', 'r9', { limit: 1000000, premium: 5000 })],
    });
    const comparison = compareRevisions(base, renewed, { contact: (id) => ({ pat: 'Pat Example', sam: 'Sam Example' })[id], question: (id) => ({ losses: 'Losses in the past 3 years', q1: 'Construction Type' })[id], policyType: (id) => id.toUpperCase() });
    expect(comparison.items.added).toEqual([{ name: 'Water Backup', property: 'Property #1', limitCents: 1000000, deductibleCents: null, annualPremiumCents: 5000 }]);
    expect(comparison.items.removed).toEqual([{ name: 'Claims-Free Discount', property: null, limitCents: null, deductibleCents: null, annualPremiumCents: -8663 }]);
    expect(comparison.items.changed).toEqual([]);
    expect(comparison.answers).toEqual([{ field: 'Losses in the past 3 years', from: 'no', to: 'yes' }]);
    expect(comparison.properties.changed).toEqual([{ name: 'Property #1', changes: [{ field: 'address_line1', from: '7 Change Street', to: '9 New Road' }, { field: 'Construction Type', from: 'Frame', to: 'Masonry' }] }]);
    expect(comparison.contacts).toEqual([{ role: 'Named Insured', added: ['Sam Example'], removed: [] }]);
    expect(comparison.policyType).toEqual({ field: 'policy type', from: 'HO3', to: 'HO5' });
    expect(comparison.rateVersion).toEqual({ field: 'rate version', from: null, to: '2027' });
    expect(comparison.termDates).toEqual([{ field: 'term start', from: '2026-01-01', to: '2027-01-01' }, { field: 'term end', from: '2027-01-01', to: '2028-01-01' }]);
    expect(comparison.premium).toMatchObject({ annualChangeCents: 8663 + 5000, termChangeCents: null, termChangeFrom: null });
    expect(comparison.premium.items.every((change) => change.termChangeCents === null)).toBe(true);
    const lines = comparisonLines(comparison);
    expect(lines).toContain('Item added: Water Backup (Property #1): limit 10,000.00, deductible none, annual premium 50.00');
    expect(lines).toContain('Named Insured added: Sam Example');
    expect(lines.at(-1)).toBe('Total premium: 779.62 → 916.25 a year (+136.63)');
  });

  it('finds no difference between a revision and itself', () => {
    const comparison = compareRevisions(base, base);
    expect(comparison.items).toEqual({ added: [], removed: [], changed: [] });
    expect(comparison.premium).toMatchObject({ items: [], annualChangeCents: 0, termChangeCents: 0 });
  });
});
