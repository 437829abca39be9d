import { describe, expect, it } from 'vitest';
import { guardedRevisionUpdate } from '../../shared/policies/keys.js';
import type { RevisionRecord } from '../../shared/policies/model.js';
import { holdsHeaderDefault, revisionHeaderFromStored, storedRevisionHeader } from '../../shared/policies/revision-layout.js';

/** A header as a new quote's revision carries it (the attributes that matter here). */
const header: Partial<RevisionRecord> = {
  entity: 'Revision',
  id: 'rev-1',
  policyId: 'pol-1',
  agencyId: null,
  revisionState: 'open',
  policyStatus: 'Unsubmitted',
  policyStatusReasonId: null,
  cancelDate: null,
  commitDate: null,
  underwritingContactedDate: null,
  dateArchived: null,
  builderPending: false,
  grantMortgageeExtension: false,
  overrideCommission: false,
  printDec: true,
  underwritingContacted: false,
  underwritingQuestions: [{ questionId: 'q', yesNoAnswer: 'no', explanation: '' }],
  underwritingOptions: [],
  creditReportPermissions: {},
  annualPremiumCents: 0,
  version: 3,
};

describe('the stored revision header', () => {
  it('leaves out the attributes that hold the value a header reads when they are absent', () => {
    expect(storedRevisionHeader(header)).toEqual({
      entity: 'Revision',
      id: 'rev-1',
      policyId: 'pol-1',
      revisionState: 'open',
      policyStatus: 'Unsubmitted',
      printDec: true,
      underwritingQuestions: [{ questionId: 'q', yesNoAnswer: 'no', explanation: '' }],
      annualPremiumCents: 0,
      version: 3,
    });
  });

  it('keeps what differs from the default: dates, flags on, options, an agency', () => {
    const changed: Partial<RevisionRecord> = { ...header, agencyId: 'ag-1', commitDate: '2026-03-01', builderPending: true, underwritingOptions: [{ optionId: 'o', answer: 1 }], creditReportPermissions: { granted: true } };
    expect(storedRevisionHeader(changed)).toMatchObject({ agencyId: 'ag-1', commitDate: '2026-03-01', builderPending: true, underwritingOptions: [{ optionId: 'o', answer: 1 }], creditReportPermissions: { granted: true } });
  });

  it('reads a compact header and a header written whole before it the same', () => {
    expect(revisionHeaderFromStored(storedRevisionHeader(header))).toEqual(header);
    expect(revisionHeaderFromStored(header)).toEqual(header);
  });

  it('gives each read header lists and maps of its own', () => {
    const first = revisionHeaderFromStored({ id: 'a' }) as unknown as { underwritingOptions: unknown[] };
    first.underwritingOptions.push('x');
    expect((revisionHeaderFromStored({ id: 'b' }) as unknown as { underwritingOptions: unknown[] }).underwritingOptions).toEqual([]);
  });

  it('knows no default for the attributes a header always stores', () => {
    expect(holdsHeaderDefault('annualPremiumCents', 0)).toBe(false);
    expect(holdsHeaderDefault('printDec', false)).toBe(false);
    expect(holdsHeaderDefault('underwritingOptions', [{}])).toBe(false);
    expect(holdsHeaderDefault('creditReportPermissions', [])).toBe(false);
  });
});

describe('a guarded revision change', () => {
  it('removes a header attribute set back to its default instead of storing it, under the same guard', () => {
    expect(guardedRevisionUpdate('table', 'r', 4, { annualPremiumCents: 0, builderPending: false, dateArchived: null })).toEqual({
      TableName: 'table',
      Key: { pk: 'REVISION#r', sk: 'REVISION' },
      UpdateExpression: 'SET #version = :next, #a0 = :a0 REMOVE #r0, #r1',
      ConditionExpression: '#version = :expected AND #state = :open',
      ExpressionAttributeNames: { '#version': 'version', '#a0': 'annualPremiumCents', '#r0': 'builderPending', '#r1': 'dateArchived', '#state': 'revisionState' },
      ExpressionAttributeValues: { ':expected': 4, ':next': 5, ':a0': 0, ':open': 'open' },
    });
  });

  it('sets a value other than the default as before', () => {
    expect(guardedRevisionUpdate('table', 'r', 4, { builderPending: true }).UpdateExpression).toBe('SET #version = :next, #a0 = :a0');
  });
});
