/** A revision as it is after a change was written, for answers that echo it without reading it again. No I/O. */
import type { RevisionChange, RevisionPart, RevisionRecord, RevisionSnapshot } from './model.js';

export function snapshotAfter(snapshot: RevisionSnapshot, change: RevisionChange): RevisionSnapshot {
  const keyOf = (part: RevisionPart) => `${part.entity}#${part.id}`;
  const written = new Map([...(change.replace ?? []), ...(change.create ?? [])].map((part) => [keyOf(part), part]));
  const removed = new Set((change.remove ?? []).map(keyOf));
  const merge = <T extends RevisionPart>(list: readonly T[], entity: T['entity']): T[] => {
    const kept = list.filter((part) => !removed.has(keyOf(part))).map((part) => (written.get(keyOf(part)) as T | undefined) ?? part);
    const added = [...written.values()].filter((part): part is T => part.entity === entity && !list.some((existing) => existing.id === part.id));
    return [...kept, ...added];
  };
  return {
    header: { ...snapshot.header, ...(change.header ?? {}), version: snapshot.header.version + 1 } as RevisionRecord,
    risks: merge(snapshot.risks, 'Risk'),
    subLines: merge(snapshot.subLines, 'SubLine'),
    items: merge(snapshot.items, 'LineItem'),
    mortgagees: merge(snapshot.mortgagees, 'Mortgagee'),
  };
}
