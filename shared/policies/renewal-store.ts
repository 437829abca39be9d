/**
 * The policies area's part of the renewal moves (renew, put a renewal in force, expire,
 * decide a term's renewal status, reinstate an expired policy): guarded writes handed to the
 * lifecycle to run in one transaction with what other areas contribute, and the read of the
 * terms the nightly renewal run watches. A transaction may touch an item once, so each
 * function answers ONE update of the expiring term, composed from what the move decided.
 */
import { config } from '../platform/config.js';
import { queryPages } from '../platform/dynamo.js';
import { runTransaction, type TransactionWrite } from '../platform/transactions.js';
import {
  guardedRevisionUpdate,
  locatorKey,
  policyKey,
  RENEWAL_WATCH_SHARDS,
  renewalWatchIndex,
  renewalWatchQuery,
  revisionKey,
  termKey,
  unwatchedTermUpdate,
  versionedUpdate,
  watchedTermUpdate,
} from './keys.js';
import { locatorsOf } from './locators.js';
import type { LineItemRecord, PolicyRecord, RevisionRecord, RevisionSnapshot, TermRecord, TermRenewal } from './model.js';
import { newRevisionPartsWrites, partsChangeWrites } from './parts-store.js';
import { storedRevisionHeader } from './revision-layout.js';
import { indexedFacts, indexWith } from './term-revisions.js';

const table = () => config.tableName();
type Write = TransactionWrite;

/** A term the nightly renewal run must decide, as its watch index lists it. */
export interface WatchedTerm {
  policyId: string;
  termId: string;
  expirationDate: string;
}

/** The watched terms ending on or before `throughDate`, page by page, every shard. */
export async function* watchedTermPages(throughDate: string): AsyncGenerator<WatchedTerm[]> {
  for (let shard = 0; shard < RENEWAL_WATCH_SHARDS; shard += 1) {
    for await (const page of queryPages<{ gsi1sk: string }>(renewalWatchQuery(table(), shard, throughDate))) {
      yield page.items.map((item) => {
        const [expirationDate, policyId, termId] = item.gsi1sk.split('#');
        return { policyId, termId, expirationDate };
      });
    }
  }
}

/** An issued term goes on the renewal watch (issue's writes carry it). */
export function watchWriteAtIssue(term: Pick<TermRecord, 'policyId' | 'id' | 'expirationDate'>): Write {
  const attributes = renewalWatchIndex(term.policyId, term.id, term.expirationDate);
  return {
    Update: {
      TableName: table(),
      Key: termKey(term.policyId, term.id),
      UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':pk': attributes.gsi1pk, ':sk': attributes.gsi1sk },
    },
  };
}

function putOnce(item: Record<string, unknown>): Write {
  return { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * The writes of a whole new revision (an endorsement's open copy, a renewal's): its header, its
 * parts in one record and their locators, each new. Every copy is made in the one-record layout
 * (endorsement-copy.ts says so on the copy too), whatever its base's.
 */
export function newRevisionWrites(snapshot: RevisionSnapshot): Write[] {
  const parts = [...snapshot.risks, ...snapshot.subLines, ...snapshot.items, ...snapshot.mortgagees];
  return [
    putOnce({ ...revisionKey(snapshot.header.id), ...storedRevisionHeader({ ...snapshot.header, partsInOneRecord: true }) }),
    ...newRevisionPartsWrites(snapshot.header.id, parts),
    ...locatorsOf(parts, snapshot.header.policyId).map((locator) => putOnce({ ...locatorKey(locator.id), ...locator })),
  ];
}

/** What becomes of the expiring term in the same transaction as its renewal. */
export interface ExpiringTermChange {
  term: TermRecord;
  renewal: TermRenewal;
  /** The renewal is in force at once (reinstate_expired_policy, a run after the term ended): the term leaves the watch. */
  inForce: boolean;
  /** The term had been marked expired (reinstate_expired_policy): that is undone. */
  unexpire?: { inForceRevision: RevisionRecord };
}

/**
 * A renewal made: the new term (on the watch when committed), its revision whole, and the
 * expiring term pointing at it. Committed and in force at once, the policy moves to it too.
 */
export function renewalWrites(input: { policy: PolicyRecord; expiring: ExpiringTermChange; term: TermRecord; snapshot: RevisionSnapshot }): Write[] {
  const { policy, expiring, term, snapshot } = input;
  const committed = snapshot.header.revisionState === 'committed';
  const termItem = { ...termKey(term.policyId, term.id), ...term, ...(committed ? renewalWatchIndex(term.policyId, term.id, term.expirationDate) : {}) };
  const expiringSet: Record<string, unknown> = { renewal: expiring.renewal, ...(expiring.unexpire ? { expiredOn: null } : {}) };
  const writes: Write[] = [
    putOnce(termItem),
    ...newRevisionWrites(snapshot),
    { Update: expiringTermUpdate(expiring, expiringSet) },
  ];
  if (expiring.unexpire) {
    const revision = expiring.unexpire.inForceRevision;
    writes.push({ Update: versionedUpdate(table(), revisionKey(revision.id), revision.version, { policyStatus: 'Active' }) });
  }
  if (expiring.inForce) writes.push(inForceWrite(policy, term, snapshot.header.id));
  return writes;
}

/**
 * The expiring term's one update: off the watch once its renewal is in force; back on it when an
 * expired term is renewed ahead of its end (its renewal must still be put in force on that day).
 */
function expiringTermUpdate(expiring: ExpiringTermChange, set: Record<string, unknown>) {
  if (expiring.inForce) return unwatchedTermUpdate(table(), expiring.term, set);
  if (expiring.unexpire) return watchedTermUpdate(table(), expiring.term, set);
  return versionedUpdate(table(), termKey(expiring.term.policyId, expiring.term.id), expiring.term.version, set);
}

/**
 * The policy moves to its renewal term: its active term and revision (its search record follows
 * through search's contribution). A renewal term cancelled on its own (flat, from its first day)
 * is moved to as it is.
 */
function inForceWrite(policy: PolicyRecord, term: Pick<TermRecord, 'id'>, revisionId: string): Write {
  return { Update: versionedUpdate(table(), policyKey(policy.id), policy.version, { activeTermId: term.id, activeRevisionId: revisionId }) };
}

/**
 * A held renewal committed once an underwriter moved it on: re-rated as it now stands (it
 * was open to changes while held), committed, put on the watch; the expiring term notes it.
 */
export function heldRenewalCommitWrites(input: {
  expiring: TermRecord;
  term: TermRecord;
  header: RevisionRecord;
  set: Partial<RevisionRecord>;
  items: readonly LineItemRecord[];
  decidedOn: string;
}): Write[] {
  const { expiring, term, header, set } = input;
  const committed = { ...header, ...set } as RevisionRecord;
  return [
    { Update: guardedRevisionUpdate(table(), header.id, header.version, set) },
    ...partsChangeWrites(header, { put: input.items }),
    { Update: watchedTermUpdate(table(), term, { revisionIndex: indexWith(term, header.id, indexedFacts(committed)) }) },
    { Update: versionedUpdate(table(), termKey(expiring.policyId, expiring.id), expiring.version, { renewal: { ...expiring.renewal!, state: 'committed', decidedOn: input.decidedOn } }) },
  ];
}

/** The renewal's term has begun: the policy's active term becomes it; the expiring term leaves the watch. */
export function renewalInForceWrites(input: { policy: PolicyRecord; expiring: TermRecord; term: TermRecord; activeRevisionId: string }): Write[] {
  const { policy, expiring, term } = input;
  return [
    { Update: unwatchedTermUpdate(table(), expiring, { renewal: { ...expiring.renewal!, inForce: true } }) },
    inForceWrite(policy, term, input.activeRevisionId),
  ];
}

/** A renewal held for review, archived without ever coming into force: its open revision and its term. */
export interface ArchivedHeldRenewal {
  revision: RevisionRecord;
  term: TermRecord;
  /** The review state of the policy's revision in force: what search shows again once the held renewal's is gone (the move's facts carry it). */
  reviewStateInForce: string;
}

/**
 * A held renewal archived (its expiring term ended, was non-renewed or cancelled while it waited
 * for an underwriter): its revision archived, its term marked archived and off the watch, so that it
 * reads as no term of the policy (terms.ts, liveTerms).
 */
export function heldRenewalArchiveWrites(held: ArchivedHeldRenewal, on: string, archivedAt: string): Write[] {
  return [
    { Update: guardedRevisionUpdate(table(), held.revision.id, held.revision.version, { revisionState: 'archived', dateArchived: archivedAt }) },
    { Update: unwatchedTermUpdate(table(), held.term, { archivedOn: on }) },
  ];
}

/**
 * A term ended without a committed renewal: it is Expired (the revision in force shows it), off the watch; a renewal still held for review is archived with it and the
 * term no longer names it as its renewal.
 */
export function expiryWrites(input: { term: TermRecord; inForceRevision: RevisionRecord; heldRenewal?: ArchivedHeldRenewal; on: string; archivedAt: string }): Write[] {
  const { term, inForceRevision } = input;
  const held = input.heldRenewal ? heldRenewalArchiveWrites(input.heldRenewal, input.on, input.archivedAt) : undefined;
  return [
    { Update: unwatchedTermUpdate(table(), term, { expiredOn: input.on, ...(held ? { renewal: null } : {}) }) },
    { Update: versionedUpdate(table(), revisionKey(inForceRevision.id), inForceRevision.version, { policyStatus: 'Expired' }) },
    ...(held ?? []),
  ];
}

/** A cancelled term whose end has passed leaves the watch: nothing more is decided of it (guarded by the term's version). */
export async function stopWatchingTerm(term: TermRecord, policyNumber: string): Promise<void> {
  await runTransaction([{ Update: unwatchedTermUpdate(table(), term, {}) }], { label: `Policy ${policyNumber}` });
}

/** store_renewal_status: the term's renewal decision (a held renewal declined with a Non-Renewal is archived, as at expiry). */
export function renewalStatusWrites(input: {
  term: TermRecord;
  status: 'Renew' | 'Non-Renewal';
  reasonId: string | null;
  description: string;
  archiveHeld?: ArchivedHeldRenewal;
  on: string;
  archivedAt: string;
}): Write[] {
  const { term } = input;
  const held = input.archiveHeld ? heldRenewalArchiveWrites(input.archiveHeld, input.on, input.archivedAt) : undefined;
  return [
    {
      Update: versionedUpdate(table(), termKey(term.policyId, term.id), term.version, {
        renewalStatus: input.status,
        renewalStatusReasonId: input.reasonId,
        renewalStatusDescription: input.description,
        ...(held ? { renewal: null } : {}),
      }),
    },
    ...(held ?? []),
  ];
}

/**
 * A renewal revision rewritten by an endorsement of the term it renews (the change carried into
 * the next year, re-rated): its totals and items, guarded at the version read and in the state
 * read (committed, or open while held for review).
 */
export function renewalRevisionRewriteWrites(rewrite: { header: RevisionRecord; set: Partial<RevisionRecord>; items: readonly LineItemRecord[]; storedItems: readonly LineItemRecord[] }): Write[] {
  const { header } = rewrite;
  const update = versionedUpdate(table(), revisionKey(header.id), header.version, rewrite.set);
  const kept = new Set(rewrite.items.map((item) => item.id));
  return [
    {
      Update: {
        ...update,
        ConditionExpression: `${update.ConditionExpression} AND #state = :state`,
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#state': 'revisionState' },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':state': header.revisionState },
      },
    },
    ...partsChangeWrites(header, { put: rewrite.items, remove: rewrite.storedItems.filter((item) => !kept.has(item.id)) }),
  ];
}
