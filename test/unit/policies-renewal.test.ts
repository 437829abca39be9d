/** A renewal as data: its term's dates, its revision under the product's renewal rules, the premium change and the review threshold; the watch index's keys; where a payment goes. */
import { describe, expect, it } from 'vitest';
import { payingAccount } from '../../shared/billing/payments.js';
import type { ProductCatalog } from '../../shared/catalog/index.js';
import { renewalWatchIndex, renewalWatchQuery, unwatchedTermUpdate } from '../../shared/policies/keys.js';
import type { RevisionSnapshot, TermRecord } from '../../shared/policies/model.js';
import { needsReview, premiumChangePercent, renewalDraft, renewalTermDates } from '../../shared/policies/renewal.js';
import { liveTerms } from '../../shared/policies/terms.js';

const HO3 = 'ho3';
const term = { id: 't1', policyId: 'p1', effectiveDate: '2025-01-01', expirationDate: '2026-01-01', termType: '1 Year', renewalType: '1 Year', revisionIds: ['r0'], version: 3 } as unknown as TermRecord;

describe('the renewal term', () => {
  it('starts when the expiring term ends and lasts the renewal term type', () => {
    expect(renewalTermDates(term)).toEqual({ effectiveDate: '2026-01-01', expirationDate: '2027-01-01', termType: '1 Year', termLength: 12 });
    expect(renewalTermDates({ ...term, renewalType: '6 Months' })).toMatchObject({ expirationDate: '2026-07-01', termType: '6 Months', termLength: 6 });
    // A Custom term renews for a year.
    expect(renewalTermDates({ ...term, termType: 'Custom', renewalType: '' })).toMatchObject({ expirationDate: '2027-01-01', termType: '1 Year' });
  });
});

describe('the premium change', () => {
  it('is a percent to two decimals, and over the threshold only when strictly more', () => {
    expect(premiumChangePercent(82662, 82662)).toBe('0.00');
    expect(premiumChangePercent(100000, 110000)).toBe('10.00');
    expect(premiumChangePercent(82662, 95000)).toBe('14.93');
    expect(premiumChangePercent(100000, 96550)).toBe('-3.45');
    expect(needsReview(100000, 110000, '10')).toBe(false);
    expect(needsReview(100000, 110001, '10')).toBe(true);
    expect(needsReview(100000, 90000, '10')).toBe(false);
    expect(needsReview(0, 90000, '10')).toBe(false);
  });
});

describe('the renewal revision', () => {
  const item = (id: string, itemId: string, name: string) => ({ entity: 'LineItem', id, itemId, name, revisionId: 'r0', riskId: null, subLineInstanceId: 'sub-1' });
  const base = {
    header: { id: 'r0', policyId: 'p1', policyNumber: '10-2025-1', policyTypeId: HO3, policyTermId: 't1', termStart: '2025-01-01', termEnd: '2026-01-01', revisionState: 'committed', policyStatus: 'Active', commitDate: '2025-01-01', revisionDate: '2025-01-01', endorsement: { baseRevisionId: 'x' }, version: 9 },
    risks: [],
    subLines: [{ entity: 'SubLine', id: 'sub-1', subLineId: 'section-ii', category: 'policy', revisionId: 'r0', riskId: null }],
    items: [item('a', 'liability', 'Personal Liability'), item('b', 'retired', 'Retired Coverage')],
    mortgagees: [],
  } as unknown as RevisionSnapshot;
  const offered = (id: string, name: string, availability: string) => ({ id, name, subLineId: 'section-ii', category: 'policy', availability: { [HO3]: availability }, sortOrder: 1, allowMultiples: false, showInBuilder: true, description: name, type: 'coverage', rating: { steps: [] } });
  const product = { items: [offered('liability', 'Personal Liability', 'mandatory'), offered('water', 'Water Backup', 'mandatory')], subLines: [], forms: [] } as unknown as ProductCatalog;
  let counter = 0;
  const draft = renewalDraft(base, term, product, { termId: 't2', revisionId: 'r1', today: '2025-11-17', now: new Date('2025-11-17T12:00:00Z'), newId: () => `n${(counter += 1)}` });

  it('is the revision in force copied into the new term, open and Submitted until the move commits or holds it', () => {
    expect(draft.term).toMatchObject({ id: 't2', policyId: 'p1', effectiveDate: '2026-01-01', expirationDate: '2027-01-01', isRenewal: true, renewedFromTermId: 't1', revisionIds: ['r1'], version: 1 });
    expect(draft.snapshot.header).toMatchObject({ id: 'r1', policyTermId: 't2', termStart: '2026-01-01', termEnd: '2027-01-01', revisionDate: '2026-01-01', revisionState: 'open', policyStatus: 'Submitted', transactionType: 'renewal', description: 'Renewal', version: 1 });
    expect(draft.snapshot.header.endorsement).toBeUndefined();
  });

  it('drops items the product no longer offers and adds new mandatory ones', () => {
    expect(draft.itemsRemoved).toEqual(['Retired Coverage']);
    expect(draft.itemsAdded).toEqual(['Water Backup']);
    expect(draft.snapshot.items.map((entry) => [entry.itemId, entry.revisionId])).toEqual([['liability', 'r1'], ['water', 'r1']]);
  });
});

describe('the renewal watch', () => {
  it('keys a term by shard and end date, and reads a shard through a day', () => {
    const index = renewalWatchIndex('p1', 't1', '2026-01-01');
    expect(index.gsi1pk).toMatch(/^RENEWALWATCH#[0-7]$/);
    expect(index.gsi1sk).toBe('2026-01-01#p1#t1');
    expect(renewalWatchQuery('table', 3, '2026-02-15')).toEqual({
      TableName: 'table',
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :through',
      ExpressionAttributeValues: { ':pk': 'RENEWALWATCH#3', ':through': '2026-02-15#\uffff' },
    });
  });

  it('takes a term off the watch in the same versioned update that records its end', () => {
    const update = unwatchedTermUpdate('table', { policyId: 'p1', id: 't1', version: 3 }, { expiredOn: '2026-01-01' });
    expect(update).toMatchObject({ Key: { pk: 'POLICY#p1', sk: 'TERM#t1' }, ConditionExpression: '#version = :expected', ExpressionAttributeValues: { ':expected': 3, ':next': 4, ':a0': '2026-01-01' } });
    expect(update.UpdateExpression).toBe('SET #version = :next, #a0 = :a0 REMOVE gsi1pk, gsi1sk');
  });
});

describe('where a payment goes', () => {
  it('to the earliest account owing, else the latest', () => {
    const expiring = { effectiveDate: '2025-01-01', balanceCents: 10766, policyStatus: 'Active' };
    const renewal = { effectiveDate: '2026-01-01', balanceCents: 85162, policyStatus: 'Active' };
    expect(payingAccount([renewal, expiring])).toBe(expiring);
    expect(payingAccount([renewal, { ...expiring, balanceCents: 0 }])).toBe(renewal);
    expect(payingAccount([{ ...renewal, balanceCents: 0 }, { ...expiring, balanceCents: 0 }])).toEqual({ ...renewal, balanceCents: 0 });
  });
});

describe("a policy's live terms", () => {
  const first = { id: 't1', renewedFromTermId: null, renewal: null, expiredOn: null };
  const renewalOf = (state: 'held' | 'committed', extra = {}) => ({ ...first, renewal: { termId: 't2', revisionId: 'r2', state, decidedOn: '2025-11-17' }, ...extra });
  const made = { id: 't2', renewedFromTermId: 't1', renewal: null, expiredOn: null };

  it('are every term but a held renewal archived without coming into force, marked or (stored before the mark) known by its link', () => {
    expect(liveTerms([renewalOf('held'), made]).map((term) => term.id)).toEqual(['t1', 't2']);
    expect(liveTerms([renewalOf('committed'), made]).map((term) => term.id)).toEqual(['t1', 't2']);
    expect(liveTerms([first, { ...made, archivedOn: '2026-01-01' }]).map((term) => term.id)).toEqual(['t1']);
    // Expired with its renewal still held; let go by a Non-Renewal; replaced by reinstate_expired_policy's renewal.
    expect(liveTerms([renewalOf('held', { expiredOn: '2026-01-01' }), made]).map((term) => term.id)).toEqual(['t1']);
    expect(liveTerms([first, made]).map((term) => term.id)).toEqual(['t1']);
    const anew = { ...made, id: 't3' };
    expect(liveTerms([{ ...renewalOf('committed'), renewal: { termId: 't3', revisionId: 'r3', state: 'committed' as const, decidedOn: '2026-01-02' } }, made, anew]).map((term) => term.id)).toEqual(['t1', 't3']);
    // A renewal term whose expiring term is unknown here stays.
    expect(liveTerms([made]).map((term) => term.id)).toEqual(['t2']);
  });
});
