/** The claims area's pure rules: the term covering a loss date, numbers, the duplicate window, catastrophes, the listings a claim is found under. */
import { describe, expect, it } from 'vitest';
import { catastropheOf, claimNumberOf, isPossibleDuplicate, listingsOf, nameWords, numberYear, termAtLoss } from '../../shared/claims/rules.js';
import type { CatastropheRecord, ClaimSummary } from '../../shared/claims/model.js';

const term = (id: string, effectiveDate: string, expirationDate: string, more: Record<string, unknown> = {}) => ({ id, effectiveDate, expirationDate, ...more });

describe('the term covering a loss date', () => {
  const terms = [term('t1', '2026-01-10', '2027-01-10'), term('t2', '2027-01-10', '2028-01-10')];

  it('is the term whose days hold it, the renewal from its first day', () => {
    expect(termAtLoss(terms, '2026-01-10', '2026-03-11')).toEqual({ term: terms[0] });
    expect(termAtLoss(terms, '2026-01-10', '2027-01-10')).toEqual({ term: terms[1] });
  });

  it('is none before inception, after the last term, from a cancellation on, and in a lapse, each saying why', () => {
    expect(termAtLoss(terms, '2026-01-10', '2026-01-09')).toEqual({ reason: "the loss date 2026-01-09 is before the policy's inception on 2026-01-10" });
    expect(termAtLoss(terms, '2026-01-10', '2028-02-01')).toEqual({ reason: 'the loss date 2028-02-01 is after the term that ended on 2028-01-10, and no later term was in force' });
    const cancelled = [term('t1', '2026-01-10', '2027-01-10', { cancellationStatus: 'cancelled', cancelDate: '2026-06-01' })];
    expect(termAtLoss(cancelled, '2026-01-10', '2026-05-31')).toEqual({ term: cancelled[0] });
    expect(termAtLoss(cancelled, '2026-01-10', '2026-06-01')).toEqual({ reason: 'the policy was cancelled effective 2026-06-01, before the loss date 2026-06-01' });
    const lapsed = [term('t1', '2026-01-10', '2027-01-10', { lapses: [{ from: '2026-06-01', to: '2026-06-15' }] })];
    expect(termAtLoss(lapsed, '2026-01-10', '2026-06-10')).toEqual({ reason: 'the loss date 2026-06-10 falls in a lapse of cover from 2026-06-01 to 2026-06-15' });
  });

  it('passes over a held renewal archived without coming into force', () => {
    const archived = [terms[0], term('t2', '2027-01-10', '2028-01-10', { archivedOn: '2027-01-10' })];
    expect('reason' in termAtLoss(archived, '2026-01-10', '2027-02-01')).toBe(true);
  });
});

describe('claim numbers', () => {
  it('are CL-<YYYY>-<n> from a counter of the report year when they restart yearly', () => {
    expect(claimNumberOf('CL', '2026', 1)).toBe('CL-2026-1');
    expect(numberYear({ claimNumber: { prefix: 'CL', restartsYearly: true } }, '2026-12-31')).toBe('2026');
    expect(numberYear({ claimNumber: { prefix: 'CL', restartsYearly: false } }, '2026-12-31')).toBe('ALL');
  });
});

describe('a possible duplicate', () => {
  it('is the same peril with loss dates within the window, either side', () => {
    expect(isPossibleDuplicate({ lossDate: '2026-03-01', perilCode: 'WTR' }, { lossDate: '2026-03-31', perilCode: 'WTR' }, 30)).toBe(true);
    expect(isPossibleDuplicate({ lossDate: '2026-03-01', perilCode: 'WTR' }, { lossDate: '2026-04-01', perilCode: 'WTR' }, 30)).toBe(false);
    expect(isPossibleDuplicate({ lossDate: '2026-03-01', perilCode: 'WTR' }, { lossDate: '2026-03-01', perilCode: 'FIR' }, 30)).toBe(false);
  });
});

describe('the catastrophe of a loss', () => {
  const storm: CatastropheRecord = { catastropheId: 'c1', title: 'Hurricane Ana', pcsNumber: '2601', states: ['FL'], counties: ['12086'], from: '2026-09-01', to: '2026-09-05', moratoriumId: null, declaredBy: 'a', declaredAt: '', version: 1 };
  it('holds the loss date and the property: its states, and its counties where it names any', () => {
    expect(catastropheOf([storm], { lossDate: '2026-09-03', state: 'FL', countyCode: '12086' })?.catastropheId).toBe('c1');
    expect(catastropheOf([storm], { lossDate: '2026-09-03', state: 'FL', countyCode: '12011' })).toBeUndefined();
    expect(catastropheOf([{ ...storm, counties: [] }], { lossDate: '2026-09-03', state: 'FL', countyCode: null })?.catastropheId).toBe('c1');
    expect(catastropheOf([storm], { lossDate: '2026-09-06', state: 'FL', countyCode: '12086' })).toBeUndefined();
  });
});

describe('the listings of a claim', () => {
  const summary: ClaimSummary = {
    claimId: 'k1', claimNumber: 'CL-2026-1', policyId: 'p1', policyNumber: '10-2026-1', agencyId: 'a1', contactIds: [], insuredName: 'Pat Example', lossDate: '2026-03-01',
    reportedDate: '2026-03-03', perilCode: 'WTR', status: 'reopened', state: 'NY', adjusterContactId: 'j1', catastropheId: null, termId: 't1',
  };
  it('are one per dimension value: a reopened claim lists as open, each word of the name, each claimant', () => {
    expect(listingsOf(summary, ['c1', 'c1'])).toEqual([
      { dimension: 'all', value: 'claims' }, { dimension: 'status', value: 'open' }, { dimension: 'peril', value: 'WTR' }, { dimension: 'state', value: 'NY' }, { dimension: 'policy', value: 'p1' },
      { dimension: 'adjuster', value: 'j1' }, { dimension: 'caseload', value: 'j1' }, { dimension: 'agency', value: 'a1' }, { dimension: 'claimant', value: 'c1' }, { dimension: 'name', value: 'pat' }, { dimension: 'name', value: 'example' },
    ]);
    expect(nameWords("O'Brien & Sons, LLC")).toEqual(['brien', 'sons', 'llc']);
  });
});
