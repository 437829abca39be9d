/**
 * The adjuster a claim is assigned to by the carrier's rules of peril and state and by load
 * (shared/claims/assignment-rules.ts), and the caseload listing that load is counted from.
 */
import { describe, expect, it } from 'vitest';
import { assignmentPool, leastLoaded } from '../../shared/claims/assignment-rules.js';
import { listingsOf } from '../../shared/claims/rules.js';

describe('assigning a claim', () => {
  const rules = {
    role: 'Claims Adjuster',
    rules: [
      { perils: ['LIA', 'MED'], role: 'Claims Manager' },
      { states: ['FL'], perils: ['WND'], adjusters: ['cat-team-1', 'cat-team-2'] },
      { states: ['FL'], role: 'Claims Adjuster' },
    ],
  };

  it('takes the first rule holding the peril and the state, else the default role', () => {
    expect(assignmentPool(rules, { perilCode: 'LIA', state: 'NY' })).toEqual({ rule: 0, role: 'Claims Manager' });
    expect(assignmentPool(rules, { perilCode: 'WND', state: 'FL' })).toEqual({ rule: 1, adjusters: ['cat-team-1', 'cat-team-2'] });
    expect(assignmentPool(rules, { perilCode: 'WTR', state: 'fl' })).toEqual({ rule: 2, role: 'Claims Adjuster' });
    expect(assignmentPool(rules, { perilCode: 'WND', state: 'NY' })).toEqual({ rule: null, role: 'Claims Adjuster' });
    expect(assignmentPool(undefined, { perilCode: 'WND', state: 'NY' })).toEqual({ rule: null, role: 'Claims Adjuster' });
  });

  it('gives the claim to the fewest open claims, ties by name, then id', () => {
    expect(leastLoaded([{ contactId: 'b', name: 'Blake', openClaims: 3 }, { contactId: 'a', name: 'Avery', openClaims: 4 }])?.name).toBe('Blake');
    expect(leastLoaded([{ contactId: 'z', name: 'Riley', openClaims: 2 }, { contactId: 'y', name: 'avery', openClaims: 2 }])?.contactId).toBe('y');
    expect(leastLoaded([{ contactId: 'z', name: 'Sam', openClaims: 0 }, { contactId: 'y', name: 'Sam', openClaims: 0 }])?.contactId).toBe('y');
    expect(leastLoaded([])).toBeUndefined();
  });

  it("counts a claim in its adjuster's caseload while it is not closed", () => {
    const summary = { claimId: 'c', claimNumber: 'CL-2026-1', policyId: 'p', policyNumber: '10-2026-1', agencyId: null, contactIds: [], insuredName: 'Pat Example', lossDate: '2026-03-02', reportedDate: '2026-03-04', perilCode: 'WTR', state: 'NY', adjusterContactId: 'adj', catastropheId: null, termId: 't' };
    const caseload = (status: 'open' | 'closed' | 'reopened') => listingsOf({ ...summary, status }, []).filter((listing) => listing.dimension === 'caseload');
    expect(caseload('open')).toEqual([{ dimension: 'caseload', value: 'adj' }]);
    expect(caseload('reopened')).toEqual([{ dimension: 'caseload', value: 'adj' }]);
    expect(caseload('closed')).toEqual([]);
  });
});
