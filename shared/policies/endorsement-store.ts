/**
 * The policies area's part of an endorsement: the writes that open a revision on an issued
 * policy, discard it, and commit it (with the later revisions an out-of-sequence endorsement
 * is slipped under). Only this area knows these keys; the lifecycle runs the commit writes
 * in one transaction with what other areas contribute.
 */
import { config } from '../platform/config.js';
import { runTransaction, type TransactionWrite } from '../platform/transactions.js';
import { guardedRevisionUpdate, locatorKey, policyKey, revisionKey, termKey, versionedUpdate } from './keys.js';
import { locatorsOf } from './locators.js';
import type { LineItemRecord, PolicyRecord, RevisionRecord, RevisionSnapshot, TermRecord } from './model.js';
import { partsChangeWrites, partsRemovalWrites } from './parts-store.js';
import { newRevisionWrites } from './renewal-store.js';
import { indexedFacts, indexWith } from './term-revisions.js';

const table = () => config.tableName();
type Write = TransactionWrite;

const run = (writes: Write[], label: string) => runTransaction(writes, { label });

/** Writes an open endorsement whole (header, parts, their locators) and lists it on its term. */
export async function createOpenRevision(copy: RevisionSnapshot, term: TermRecord): Promise<void> {
  await run(
    [
      ...newRevisionWrites(copy),
      {
        Update: versionedUpdate(table(), termKey(term.policyId, term.id), term.version, {
          revisionIds: [...term.revisionIds, copy.header.id],
          revisionIndex: indexWith(term, copy.header.id, indexedFacts(copy.header, '')),
        }),
      },
    ],
    `Policy term ${term.id}`,
  );
}

/**
 * Discards an open endorsement: `archive` keeps it, archived; `delete` removes it and its
 * parts and takes it off its term. Guarded by the version read and the open state.
 */
export async function discardOpenRevision(snapshot: RevisionSnapshot, term: TermRecord, action: 'delete' | 'archive', at: Date): Promise<void> {
  const { header } = snapshot;
  if (action === 'archive') {
    await run(
      [
        { Update: guardedRevisionUpdate(table(), header.id, header.version, { revisionState: 'archived', dateArchived: at.toISOString().slice(0, 19).replace('T', ' ') }) },
        { Update: versionedUpdate(table(), termKey(term.policyId, term.id), term.version, { revisionIndex: indexWith(term, header.id, { ...indexedFacts(header, ''), revisionState: 'archived' }) }) },
      ],
      `Revision ${header.id}`,
    );
    return;
  }
  const parts = [...snapshot.risks, ...snapshot.subLines, ...snapshot.items, ...snapshot.mortgagees];
  const guard = guardedRevisionUpdate(table(), header.id, header.version);
  await run(
    [
      { Delete: { TableName: table(), Key: revisionKey(header.id), ConditionExpression: guard.ConditionExpression, ExpressionAttributeNames: { '#version': 'version', '#state': 'revisionState' }, ExpressionAttributeValues: { ':expected': header.version, ':open': 'open' } } },
      ...partsRemovalWrites(header, parts),
      ...locatorsOf(parts, header.policyId).map((locator) => ({ Delete: { TableName: table(), Key: locatorKey(locator.id) } })),
      {
        Update: versionedUpdate(table(), termKey(term.policyId, term.id), term.version, {
          revisionIds: term.revisionIds.filter((id) => id !== header.id),
          revisionIndex: indexWith(term, header.id, undefined),
        }),
      },
    ],
    `Revision ${header.id}`,
  );
}

/** A committed revision rewritten by the commit: its header attributes and its items as they now stand. */
export interface RevisionRewrite {
  header: RevisionRecord;
  set: Partial<RevisionRecord>;
  /** The items it holds after the commit; the stored ones not among them are removed. */
  items: readonly LineItemRecord[];
  storedItems: readonly LineItemRecord[];
}

export interface EndorsementCommit {
  policy: PolicyRecord;
  term: TermRecord;
  /** The endorsement itself (open until this commit). */
  endorsement: RevisionRewrite;
  /** Later committed revisions it is slipped under (out of sequence). */
  reapplied: readonly RevisionRewrite[];
  activeRevisionId: string;
}

function itemWrites(rewrite: RevisionRewrite): Write[] {
  const kept = new Set(rewrite.items.map((item) => item.id));
  return partsChangeWrites(rewrite.header, { put: rewrite.items, remove: rewrite.storedItems.filter((item) => !kept.has(item.id)) });
}

/**
 * The policies area's writes of an endorsement's commit. The endorsement is guarded open at the
 * version read; each revision re-applied is guarded committed at its version; the term's version
 * moves with every commit, so of two endorsements of one term issued at once exactly one lands.
 */
export function endorsementCommitWrites(commit: EndorsementCommit): Write[] {
  const { endorsement } = commit;
  const committedGuard = (header: RevisionRecord, set: Partial<RevisionRecord>) => {
    const update = versionedUpdate(table(), revisionKey(header.id), header.version, set);
    return {
      ...update,
      ConditionExpression: `${update.ConditionExpression} AND #state = :committed`,
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#state': 'revisionState' },
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':committed': 'committed' },
    };
  };
  return [
    { Update: guardedRevisionUpdate(table(), endorsement.header.id, endorsement.header.version, endorsement.set) },
    ...itemWrites(endorsement),
    ...commit.reapplied.flatMap((rewrite) => [{ Update: committedGuard(rewrite.header, rewrite.set) }, ...itemWrites(rewrite)]),
    {
      Update: versionedUpdate(table(), termKey(commit.term.policyId, commit.term.id), commit.term.version, {
        lastEndorsementId: endorsement.header.id,
        revisionIndex: indexWith(commit.term, endorsement.header.id, indexedFacts({ ...endorsement.header, ...endorsement.set } as RevisionRecord)),
      }),
    },
    { Update: versionedUpdate(table(), policyKey(commit.policy.id), commit.policy.version, { activeRevisionId: commit.activeRevisionId }) },
  ];
}
