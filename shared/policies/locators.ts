/** The locator a record of a revision's partition needs, derived from the record itself. No I/O. */
import type { LocatorRecord, RevisionPart } from './model.js';

/** Risks, sub line instances and mortgagees are found by id alone; line items are not. */
export function locatorOf(part: RevisionPart, policyId: string): LocatorRecord | undefined {
  const locator = (kind: LocatorRecord['kind'], riskId: string | null): LocatorRecord => ({ entity: 'Locator', id: part.id, kind, revisionId: part.revisionId, policyId, riskId });
  switch (part.entity) {
    case 'Risk':
      return locator('risk', part.id);
    case 'SubLine':
      return locator('subline', part.riskId);
    case 'Mortgagee':
      return locator('mortgagee', part.riskId);
    case 'LineItem':
      return undefined;
  }
}

export function locatorsOf(parts: readonly RevisionPart[], policyId: string): LocatorRecord[] {
  return parts.map((part) => locatorOf(part, policyId)).filter((locator): locator is LocatorRecord => !!locator);
}
