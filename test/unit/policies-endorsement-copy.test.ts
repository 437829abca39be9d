/** An endorsement's open copy: new ids where locators need them, one id per coverage across the term, properties followed by lineage. */
import { describe, expect, it } from 'vitest';
import { endorsementCopy, placeItem } from '../../shared/policies/endorsement-copy.js';
import type { LineItemRecord, RevisionSnapshot } from '../../shared/policies/model.js';

const base = {
  header: { id: 'r0', revisionState: 'committed', commitDate: '2026-01-01', revisionDate: '2026-01-01', description: '', version: 7 },
  risks: [{ entity: 'Risk', id: 'risk-1', revisionId: 'r0', name: 'Property #1' }],
  subLines: [{ entity: 'SubLine', id: 'sub-1', revisionId: 'r0', riskId: 'risk-1' }, { entity: 'SubLine', id: 'sub-2', revisionId: 'r0', riskId: null }],
  items: [
    { entity: 'LineItem', id: 'dwelling', revisionId: 'r0', riskId: 'risk-1', subLineInstanceId: 'sub-1' },
    { entity: 'LineItem', id: 'liability', revisionId: 'r0', riskId: null, subLineInstanceId: 'sub-2' },
  ],
  mortgagees: [{ entity: 'Mortgagee', id: 'ref-1', revisionId: 'r0', riskId: 'risk-1', contactId: 'bank' }],
} as unknown as RevisionSnapshot;

let counter = 0;
const copy = endorsementCopy(base, { revisionId: 'r1', revisionDate: '2026-06-01', today: '2026-05-20', newId: () => `new-${(counter += 1)}` });

describe('endorsementCopy', () => {
  it('opens a revision dated on the change, remembering what it was copied from', () => {
    expect(copy.header).toMatchObject({ id: 'r1', revisionState: 'open', commitDate: null, revisionDate: '2026-06-01', createDate: '2026-05-20', description: 'Endorsement', endorsement: { baseRevisionId: 'r0' }, version: 1 });
  });

  it('gives properties, sub lines and mortgagees new ids (their locators are global) with their lineage; items keep theirs', () => {
    const [risk] = copy.risks;
    expect(risk).toMatchObject({ revisionId: 'r1', lineageId: 'risk-1' });
    expect(risk.id).not.toBe('risk-1');
    expect(copy.subLines.map((subLine) => [subLine.lineageId, subLine.riskId])).toEqual([['sub-1', risk.id], ['sub-2', null]]);
    expect(copy.items.map((item) => [item.id, item.revisionId, item.riskId, item.subLineInstanceId])).toEqual([
      ['dwelling', 'r1', risk.id, copy.subLines[0].id],
      ['liability', 'r1', null, copy.subLines[1].id],
    ]);
    expect(copy.mortgagees[0]).toMatchObject({ revisionId: 'r1', riskId: risk.id, contactId: 'bank' });
    expect(copy.mortgagees[0].id).not.toBe('ref-1');
  });

  it('copies a rewrite\'s committed revision as an endorsement, not as another rewrite (issue would route it to the rewrite move)', () => {
    const rewritten = { ...base, header: { ...base.header, rewrite: { rewriteType: 'remainder_of_term', baseRevisionId: 'r-1', fromTermId: 't0', effectiveDate: '2026-04-11', expirationDate: '2027-01-01' } } } as unknown as RevisionSnapshot;
    const endorsement = endorsementCopy(rewritten, { revisionId: 'r2', revisionDate: '2026-06-01', today: '2026-05-20', newId: () => `new-${(counter += 1)}` });
    expect(endorsement.header.rewrite).toBeUndefined();
    expect(endorsement.header.endorsement).toEqual({ baseRevisionId: 'r0' });
  });

  it('is nobody\'s commit: who committed the revision it copies stays on that revision', () => {
    const committed = { ...base, header: { ...base.header, committed: { at: '2026-01-01T10:00:00.000Z', by: 'underwriter-1' } } } as unknown as RevisionSnapshot;
    const open = endorsementCopy(committed, { revisionId: 'r3', revisionDate: '2026-06-01', today: '2026-05-20', newId: () => `new-${(counter += 1)}` });
    expect(open.header.committed).toBeUndefined();
  });

  it('places an item of one revision onto the same property of another, or nowhere when it is gone', () => {
    const added = { entity: 'LineItem', id: 'water', revisionId: 'r1', riskId: copy.risks[0].id, subLineInstanceId: copy.subLines[0].id } as unknown as LineItemRecord;
    expect(placeItem(added, copy, base)).toMatchObject({ id: 'water', revisionId: 'r0', riskId: 'risk-1', subLineInstanceId: 'sub-1' });
    expect(placeItem(added, copy, { ...base, risks: [] })).toBeUndefined();
  });
});
