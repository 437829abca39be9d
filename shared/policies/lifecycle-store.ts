/**
 * The policies area's part of the lifecycle moves (bind, issue): the guarded writes that
 * move a revision and its policy, handed to the lifecycle area to run in one transaction
 * with what other areas contribute. Key literals stay in keys.ts.
 */
import { config } from '../platform/config.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { guardedRevisionUpdate, locatorKey, policyKey, policyNumberKey, renewalWatchIndex, revisionKey, termKey, versionedUpdate, watchedTermUpdate } from './keys.js';
import { policyLinkOf } from '../contacts/index.js';
import { locatorsOf } from './locators.js';
import { contactRoles } from './new-policy.js';
import type { LineItemRecord, PolicyRecord, RevisionCommit, RevisionPart, RevisionRating, RevisionRecord, TermRecord } from './model.js';
import { partsChangeWrites } from './parts-store.js';
import { indexedFacts, indexWith } from './term-revisions.js';
import { storedRevisionHeader } from './revision-layout.js';
import { heldRenewalArchiveWrites, watchWriteAtIssue, type ArchivedHeldRenewal } from './renewal-store.js';

/** Submits an open, unsubmitted revision (bind). */
function bindWrite(header: RevisionRecord, boundAt: string, rating?: RevisionRating) {
  return { Update: withStatusGuard(guardedRevisionUpdate(config.tableName(), header.id, header.version, { ...rating?.set, policyStatus: 'Submitted', boundAt }), 'Unsubmitted') };
}

/**
 * Bind's writes: the revision submitted (the search record follows through search's contribution
 * to the move), with its rating when the move rated it (a quote an edit left unrated).
 */
export function bindWrites(header: RevisionRecord, boundAt: string, rating?: RevisionRating) {
  return [bindWrite(header, boundAt, rating), ...partsChangeWrites(header, { put: rating?.items })];
}

/** Commits a submitted revision and makes its policy active (issue); its term goes on the renewal watch. */
export function issueWrites(header: RevisionRecord, policy: PolicyRecord, commit: Pick<RevisionRecord, 'commitDate' | 'committed'>, commission?: Pick<RevisionRecord, 'commissionRate' | 'overrideCommission'>, rating?: RevisionRating) {
  const table = config.tableName();
  return [
    watchWriteAtIssue({ policyId: policy.id, id: header.policyTermId, expirationDate: header.termEnd }),
    // The commission rate the agency earns on the term (its schedule's, or issue's override), recorded on the revision as the vendor's fields.
    { Update: withStatusGuard(guardedRevisionUpdate(table, header.id, header.version, { ...rating?.set, revisionState: 'committed', policyStatus: 'Active', ...commit, ...(commission ?? {}) }), 'Submitted') },
    ...partsChangeWrites(header, { put: rating?.items }),
    { Update: versionedUpdate(table, policyKey(policy.id), policy.version, { active: true, submitBound: true }) },
  ];
}

function withStatusGuard<T extends { ConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> }>(update: T, status: string): T {
  return {
    ...update,
    ConditionExpression: `${update.ConditionExpression} AND #status = :status`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#status': 'policyStatus' },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':status': status },
  };
}

/** What a cancellation changes in the policies area (cancel_policy, the nightly non-payment job). */
export interface CancellationMove {
  term: TermRecord;
  /** The committed revision in force: it shows the cancellation from now on. */
  base: RevisionRecord;
  /** The term's other committed revisions: those after the cancel date carry it too. */
  others: readonly RevisionRecord[];
  outcome: 'pending' | 'cancelled';
  cancelDate: string;
  reasonId: string;
  /** The move's decision date: the commit date of the revision it adds, and who decided it when. */
  decisionDate: string;
  committed: RevisionCommit;
  /** Id of the revision carrying the cancellation's reason and date (immediate cancellation only). */
  newRevisionId: string;
  /** A renewal term cancelled with the term it renews: that term's id, kept on the renewal so that reinstating the term reinstates it. */
  withTermId?: string;
  /** The term's renewal held for review, archived with the cancellation: it could never be committed now. */
  heldRenewal?: ArchivedHeldRenewal & { archivedAt: string };
}

/**
 * The guarded writes of a cancellation. Pending: the term records it (the one place a pending
 * cancellation lives, whoever set it). Immediate: a committed
 * revision carrying reason and date is added to the term, the revision in force and every
 * later committed revision take the cancel date, the one in force shows Cancelled.
 */
export function cancellationWrites(move: CancellationMove): TransactionWrite[] {
  const table = config.tableName();
  const { term, base } = move;
  if (move.outcome === 'pending') {
    return [
      { Update: versionedUpdate(table, termKey(term.policyId, term.id), term.version, { cancellationStatus: 'pending', cancelPendingDate: move.cancelDate, cancelReasonId: move.reasonId }) },
    ];
  }
  // The cancellation's revision holds no parts of its own (nor a parts record).
  const { partsInOneRecord: _layout, ...withoutParts } = base;
  const revision: RevisionRecord = {
    ...withoutParts,
    id: move.newRevisionId,
    revisionState: 'committed',
    policyStatus: 'Cancelled',
    policyStatusReasonId: move.reasonId,
    cancelDate: move.cancelDate,
    commitDate: move.decisionDate,
    committed: move.committed,
    createDate: move.decisionDate,
    revisionDate: move.cancelDate,
    description: 'Cancellation',
    version: 1,
  };
  const later = move.others.filter((other) => other.id !== base.id && other.revisionState === 'committed' && other.revisionDate > move.cancelDate);
  const held = move.heldRenewal ? heldRenewalArchiveWrites(move.heldRenewal, move.decisionDate, move.heldRenewal.archivedAt) : undefined;
  return [
    { Put: { TableName: table, Item: { ...revisionKey(revision.id), ...storedRevisionHeader(revision) }, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Update: versionedUpdate(table, termKey(term.policyId, term.id), term.version, {
        revisionIds: [...term.revisionIds, revision.id],
        cancellationRevisionId: revision.id,
        cancellationStatus: 'cancelled',
        cancelPendingDate: null,
        cancelDate: move.cancelDate,
        cancelReasonId: move.reasonId,
        ...(move.withTermId ? { cancelledWithTermId: move.withTermId } : {}),
        ...(held ? { renewal: null } : {}),
      }),
    },
    { Update: versionedUpdate(table, revisionKey(base.id), base.version, { policyStatus: 'Cancelled', cancelDate: move.cancelDate, policyStatusReasonId: move.reasonId }) },
    ...later.map((other) => ({ Update: versionedUpdate(table, revisionKey(other.id), other.version, { cancelDate: move.cancelDate }) })),
    ...(held ?? []),
  ];
}

/** A pending cancellation withdrawn: the term no longer shows it. */
export function rescissionWrites(term: TermRecord): TransactionWrite[] {
  return [{ Update: versionedUpdate(config.tableName(), termKey(term.policyId, term.id), term.version, { cancellationStatus: null, cancelPendingDate: null, cancelReasonId: null }) }];
}

/** What a reinstatement changes in the policies area (reinstate_policy). */
export interface ReinstatementMove {
  term: TermRecord;
  /** The revision the cancellation added (it is archived: the policy reads as never cancelled). */
  cancellation: RevisionRecord | undefined;
  /** The committed revisions the cancellation marked with its date (the one in force shows Cancelled). */
  marked: readonly RevisionRecord[];
  /** With lapse: the days without cover, kept on the term. */
  lapse: { from: string; to: string } | null;
  archivedAt: string;
}

/**
 * The guarded writes of a reinstatement: the term is no longer cancelled (and is watched by the
 * renewal run again: a renewal term reinstated with its term for its own renewal, the term it
 * renews to put it in force on its first day), the cancellation's revision is archived, the
 * revisions it marked are in force again.
 */
export function reinstatementWrites(move: ReinstatementMove): TransactionWrite[] {
  const table = config.tableName();
  const { term } = move;
  return [
    {
      Update: watchedTermUpdate(table, term, {
        cancellationStatus: null,
        cancelPendingDate: null,
        cancelDate: null,
        cancelReasonId: null,
        cancellationRevisionId: null,
        ...(term.cancelledWithTermId ? { cancelledWithTermId: null } : {}),
        ...(move.lapse ? { lapses: [...(term.lapses ?? []), move.lapse] } : {}),
      }),
    },
    ...(move.cancellation ? [{ Update: versionedUpdate(table, revisionKey(move.cancellation.id), move.cancellation.version, { revisionState: 'archived', dateArchived: move.archivedAt }) }] : []),
    ...move.marked.map((revision) => ({
      Update: versionedUpdate(table, revisionKey(revision.id), revision.version, {
        cancelDate: null,
        ...(revision.policyStatus === 'Cancelled' ? { policyStatus: 'Active', policyStatusReasonId: null } : {}),
      }),
    })),
  ];
}

/** A rewrite issued: the new term (on the renewal watch), its rewrite revision committed onto it, the policy moved to it. */
export interface RewriteCommit {
  policy: PolicyRecord;
  /** The new term, listing the rewrite revision. */
  term: TermRecord;
  header: RevisionRecord;
  set: Partial<RevisionRecord>;
  items: readonly LineItemRecord[];
  /** An expired term the rewrite brings back with a gap (nothing to cancel): the rewrite revision leaves its list. */
  leftTerm?: TermRecord;
  /**
   * A rewrite to a new account: the new policy (its own number, its term and the revision moved
   * to it) and the revision's other parts under it (its contacts are linked to it); the old
   * policy then records what it became instead of moving to the new term.
   */
  newPolicy?: { record: PolicyRecord; parts: readonly RevisionPart[] };
}

/**
 * The policies area's writes of a rewrite, beside the old term's cancellation (cancellationWrites,
 * given the old term without the rewrite revision in its list): the rewrite revision, opened on
 * the old term, leaves it for the new one, committed with its written figures, under its version.
 */
export function rewriteCommitWrites(commit: RewriteCommit): TransactionWrite[] {
  const table = config.tableName();
  const { policy, term, header, set, newPolicy, leftTerm } = commit;
  const committed = { ...header, ...set } as RevisionRecord;
  const termItem = { ...termKey(term.policyId, term.id), ...term, revisionIndex: indexWith(term, header.id, indexedFacts(committed)), ...renewalWatchIndex(term.policyId, term.id, term.expirationDate) };
  const created = (Item: Record<string, unknown>) => ({ Put: { TableName: table, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
  return [
    // A new number's uniqueness item first: reason 0 of a refused transaction is the number taken meanwhile.
    ...(newPolicy ? [created({ ...policyNumberKey(newPolicy.record.policyNumber), entity: 'PolicyNumber', policyNumber: newPolicy.record.policyNumber, policyId: newPolicy.record.id }), created({ ...policyKey(newPolicy.record.id), ...newPolicy.record })] : []),
    created(termItem),
    { Update: guardedRevisionUpdate(table, header.id, header.version, set) },
    // The rewrite revision's items with their written figures and, to a new account, its parts under the new policy: one write of its parts.
    ...partsChangeWrites(header, { put: [...commit.items, ...(newPolicy?.parts ?? [])] }),
    ...(newPolicy
      ? [
          ...locatorsOf(newPolicy.parts, newPolicy.record.id).map((locator) => ({ Put: { TableName: table, Item: { ...locatorKey(locator.id), ...locator } } })),
          ...contactRoles(newPolicy.record.contacts).map(({ contactId, roleId }) =>
            policyLinkOf(contactId, { policyId: newPolicy.record.id, policyNumber: newPolicy.record.policyNumber, revisionId: header.id, roleId }, newPolicy.record.dateAdded),
          ),
          { Update: versionedUpdate(table, policyKey(policy.id), policy.version, { rewritten: true, rewrittenTo: { policyId: newPolicy.record.id, policyNumber: newPolicy.record.policyNumber, termId: term.id } }) },
        ]
      : // The policy takes the rewrite's policy type with its term (a rewrite may change it).
        [{ Update: versionedUpdate(table, policyKey(policy.id), policy.version, { activeTermId: term.id, activeRevisionId: header.id, policyTypeId: committed.policyTypeId }) }]),
    ...(leftTerm ? [{ Update: versionedUpdate(table, termKey(leftTerm.policyId, leftTerm.id), leftTerm.version, { revisionIds: leftTerm.revisionIds.filter((id) => id !== header.id) }) }] : []),
  ];
}

/**
 * The reversed endorsement marked with the revision that reverses it, once: two reversals of the
 * same change sent at once cannot both commit (the second's transaction fails on this condition).
 */
export function reversalMarkWrites(reversedRevisionId: string, reversingRevisionId: string): TransactionWrite[] {
  return [
    {
      Update: {
        TableName: config.tableName(),
        Key: revisionKey(reversedRevisionId),
        UpdateExpression: 'SET #reversedBy = :by',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#reversedBy)',
        ExpressionAttributeNames: { '#reversedBy': 'reversedByRevisionId' },
        ExpressionAttributeValues: { ':by': reversingRevisionId },
      },
    },
  ];
}
