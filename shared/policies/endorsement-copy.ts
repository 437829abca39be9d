/**
 * An endorsement's open revision as a copy of the revision in force on its date, and the
 * mapping of one revision's properties onto another's. Risks, sub line instances and
 * mortgagees are found by id alone (their locators), so the copy gives them new ids and
 * remembers the property they continue (`lineageId`); line items keep their ids, which
 * live inside the revision's own partition, so one coverage has one id across a term. No I/O.
 */
import type { LineItemRecord, RevisionRecord, RevisionSnapshot, RiskRecord, SubLineRecord } from './model.js';

export interface CopyFacts {
  revisionId: string;
  revisionDate: string;
  today: string;
  newId: () => string;
}

const lineageOf = (part: { id: string; lineageId?: string }) => part.lineageId ?? part.id;

export function endorsementCopy(base: RevisionSnapshot, facts: CopyFacts): RevisionSnapshot {
  const riskIds = new Map(base.risks.map((risk) => [risk.id, facts.newId()]));
  const subLineIds = new Map(base.subLines.map((subLine) => [subLine.id, facts.newId()]));
  const risk = (id: string | null) => (id === null ? null : (riskIds.get(id) ?? id));
  // A copy of a rewrite's revision (an endorsement or renewal of the rewritten term) is no rewrite itself: issue would route it to the rewrite move; nor was it committed by whoever committed its base.
  const { rewrite: _rewrite, committed: _committed, ...copied } = base.header;
  const header: RevisionRecord = {
    ...copied,
    id: facts.revisionId,
    revisionState: 'open',
    commitDate: null,
    createDate: facts.today,
    revisionDate: facts.revisionDate,
    dateArchived: null,
    description: 'Endorsement',
    endorsement: { baseRevisionId: base.header.id },
    partsInOneRecord: true,
    version: 1,
  };
  return {
    header,
    risks: base.risks.map((part) => ({ ...part, id: riskIds.get(part.id)!, revisionId: header.id, lineageId: lineageOf(part) })),
    subLines: base.subLines.map((part) => ({ ...part, id: subLineIds.get(part.id)!, revisionId: header.id, riskId: risk(part.riskId), lineageId: lineageOf(part) })),
    items: base.items.map((part) => ({
      ...part,
      revisionId: header.id,
      riskId: risk(part.riskId),
      subLineInstanceId: part.subLineInstanceId === null ? null : (subLineIds.get(part.subLineInstanceId) ?? part.subLineInstanceId),
    })),
    mortgagees: base.mortgagees.map((part) => ({ ...part, id: facts.newId(), revisionId: header.id, riskId: risk(part.riskId)! })),
  };
}

/**
 * Places an item of one revision into another: onto the property and sub line instance of the
 * same lineage there. Undefined when the other revision no longer has that property.
 */
export function placeItem(item: LineItemRecord, from: Pick<RevisionSnapshot, 'risks' | 'subLines'>, into: Pick<RevisionSnapshot, 'header' | 'risks' | 'subLines'>): LineItemRecord | undefined {
  const find = <T extends RiskRecord | SubLineRecord>(list: readonly T[], id: string | null, target: readonly T[]): string | null | undefined => {
    if (id === null) return null;
    const source = list.find((part) => part.id === id);
    if (!source) return undefined;
    return target.find((part) => lineageOf(part) === lineageOf(source))?.id;
  };
  const riskId = find(from.risks, item.riskId, into.risks);
  const subLineInstanceId = find(from.subLines, item.subLineInstanceId, into.subLines);
  if (riskId === undefined || subLineInstanceId === undefined) return undefined;
  return { ...item, revisionId: into.header.id, riskId, subLineInstanceId };
}
