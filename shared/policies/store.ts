/**
 * The policies store: the only code that knows the keys of policies, terms,
 * revisions and what a revision holds. It derives the items that only serve
 * lookups (a policy number's uniqueness item, the locators of risks, sub lines
 * and mortgagees) from the records it writes and removes. Every change of a
 * revision is one transaction guarded by the revision's version and open state.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { assertTimeToCommit, readableBesideCaller } from '../platform/invocation.js';
import { batchGetAll, isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import { runTransaction, TRANSACTION_ITEM_LIMIT, TransactionTooLargeError, withoutStorageKeys, type TransactionWrite } from '../platform/transactions.js';
import { BusinessRuleError, ConcurrentChangeError } from '../platform/errors.js';
import {
  allocatePolicyNumberUpdate,
  guardedRevisionUpdate,
  lossAnalysisResultUpdate,
  locatorKey,
  policyKey,
  policyNumberCounterKey,
  policyNumberKey,
  policyPartitionQuery,
  revisionKey,
  revisionPartitionQuery,
  termKey,
  versionedUpdate,
  type Key,
} from './keys.js';
import { locatorsOf } from './locators.js';
import { newRevisionPartsWrites, partsChangeWrites, partsInRecord, riskAttributesUpdate, type PartsLayout } from './parts-store.js';
import { revisionHeaderFromStored, storedRevisionHeader } from './revision-layout.js';
import { liveTerms } from './terms.js';
import { searchRecordOfNewPolicy, type SearchablePolicy } from '../search/index.js';
import type {
  LocatorRecord,
  NewPolicyBundle,
  NumberSequence,
  PolicyRecord,
  RevisionChange,
  RevisionPart,
  RevisionRecord,
  RevisionSnapshot,
  RetiredQuote,
  RiskRecord,
  TermRecord,
} from './model.js';

const table = () => config.tableName();

/** A policy number already taken (by another policy, or a manual number). */
export class PolicyNumberTakenError extends BusinessRuleError {
  constructor(policyNumber: string) {
    super(`policy_number: policy number ${policyNumber} already exists`, { exists: true });
    this.name = 'PolicyNumberTakenError';
  }
}

/** A change asked of a revision that is no longer open. */
export class RevisionNotOpenError extends BusinessRuleError {
  constructor(revisionId: string, state: string) {
    super(`Revision ${revisionId} is ${state}; only an open revision can be changed`);
    this.name = 'RevisionNotOpenError';
  }
}

/** A write another area handed to a revision change was refused by its condition: nothing changed. */
export class HandedWriteRefusedError extends BusinessRuleError {
  constructor(revisionId: string) {
    super(`Revision ${revisionId} was not changed: a record another area writes with the change was refused`);
    this.name = 'HandedWriteRefusedError';
  }
}

// ---------------------------------------------------------------- numbering

/** Takes the next place of a sequence, atomically: ADD answers the new value. */
export async function allocatePolicyNumberSequence(sequence: NumberSequence): Promise<number> {
  // A number taken is never given back: not taken when the create could not be saved in time.
  assertTimeToCommit();
  const result = await documentClient().send(new UpdateCommand(allocatePolicyNumberUpdate(table(), sequence.prefix, sequence.year)));
  return Number(result.Attributes?.lastNumber);
}

/** The last place allocated in a sequence (0 before the first), without allocating. */
export async function lastPolicyNumberSequence(sequence: NumberSequence): Promise<number> {
  const result = await documentClient().send(
    new GetCommand({ TableName: table(), Key: policyNumberCounterKey(sequence.prefix, sequence.year), ConsistentRead: true }),
  );
  return Number(result.Item?.lastNumber ?? 0);
}

const policyIdByNumber = readableBesideCaller('POLICYNUMBER#', async (policyNumber: string): Promise<string | undefined> => {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: policyNumberKey(policyNumber), ConsistentRead: true }));
  return result.Item?.policyId as string | undefined;
});

export const findPolicyIdByNumber = policyIdByNumber.read;

/** The number's lookup begun beside the caller's authentication (an operation's beginWithCaller), for a number the request names. */
export const policyNumberLookupBegun = policyIdByNumber.begin;

export async function isPolicyNumberTaken(policyNumber: string): Promise<boolean> {
  return (await findPolicyIdByNumber(policyNumber)) !== undefined;
}

// ---------------------------------------------------------------- creation

const createPut = (Item: Record<string, unknown>) => ({ Put: { TableName: table(), Item, ConditionExpression: 'attribute_not_exists(pk)' } });

/** What the search index is told of a new policy, beyond its records: names and the policy type's name. */
export interface NewPolicyIndexFacts {
  namedInsuredNames: string[];
  policyTypeName: string;
}

/** The search area's view of a policy, from its records. */
export function searchableOf(policy: PolicyRecord, term: Pick<TermRecord, 'effectiveDate' | 'expirationDate'>, revision: RevisionRecord, facts: NewPolicyIndexFacts): SearchablePolicy {
  return {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    status: revision.policyStatus,
    revisionState: revision.revisionState,
    reviewState: revision.underwriting?.reviewState ?? 'NOT_STARTED',
    policyTypeId: revision.policyTypeId,
    policyTypeName: facts.policyTypeName,
    flag: policy.flag,
    effectiveDate: term.effectiveDate,
    expirationDate: term.expirationDate,
    dateAdded: policy.dateAdded,
    namedInsuredNames: facts.namedInsuredNames,
    agencyId: policy.agencyId,
    contactIds: policy.contactIds,
    activeRevisionId: policy.activeRevisionId,
  };
}

/** The writes of a new policy; the number's uniqueness item comes first, so its failure is reason 0. */
function newPolicyWrites(bundle: NewPolicyBundle, facts: NewPolicyIndexFacts): TransactionWrite[] {
  const { policy, term, revision, parts } = bundle;
  return [
    createPut({ ...policyNumberKey(policy.policyNumber), entity: 'PolicyNumber', policyNumber: policy.policyNumber, policyId: policy.id }),
    createPut({ ...policyKey(policy.id), ...policy }),
    createPut({ ...termKey(policy.id, term.id), ...term }),
    createPut({ ...revisionKey(revision.id), ...storedRevisionHeader(revision) }),
    ...newRevisionPartsWrites(revision.id, parts),
    ...locatorsOf(parts, policy.id).map((locator) => createPut({ ...locatorKey(locator.id), ...locator })),
    ...bundle.contactLinks,
    // The search index is written with the policy: a new policy is found by the next search.
    ...searchRecordOfNewPolicy(searchableOf(policy, term, revision, facts)),
    ...(bundle.handedWrites ?? []),
  ];
}

/** Refuses a policy too large for one transaction; its size does not depend on its number (names not yet known count as none). */
export function assertNewPolicyFits(bundle: NewPolicyBundle, namedInsuredNames: string[] = bundle.namedInsuredNames ?? []): void {
  const count = newPolicyWrites(bundle, { namedInsuredNames, policyTypeName: '' }).length;
  if (count > TRANSACTION_ITEM_LIMIT) throw new TransactionTooLargeError(count, 'The policy has too many parts to create at once');
}

/** Writes a new policy whole, with its search index items, or nothing. */
export async function createPolicy(bundle: NewPolicyBundle, facts: NewPolicyIndexFacts): Promise<void> {
  assertNewPolicyFits(bundle, facts.namedInsuredNames);
  await runTransaction(newPolicyWrites(bundle, facts), {
    label: 'The policy',
    // Reason 0 is the number's uniqueness item; another failed guard is a handed write's (the quote a requote retires changed meanwhile).
    onConditionFailed: (failure) => (failure.index === 0 ? new PolicyNumberTakenError(bundle.policy.policyNumber) : new ConcurrentChangeError('The policy')),
  });
}

// ---------------------------------------------------------------- reads

async function readPolicyWithTerms(policyId: string): Promise<{ policy: PolicyRecord; terms: TermRecord[] } | undefined> {
  const items = (await queryAll(policyPartitionQuery(table(), policyId))).map((item) => strip(item as Record<string, unknown>));
  const policy = items.find((item) => item.entity === 'Policy') as unknown as PolicyRecord | undefined;
  if (!policy) return undefined;
  // A held renewal archived without coming into force is no term of the policy (terms.ts, liveTerms).
  const terms = liveTerms(items.filter((item) => item.entity === 'PolicyTerm') as unknown as TermRecord[]).sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
  return { policy, terms };
}

export async function getPolicy(policyId: string): Promise<PolicyRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: policyKey(policyId), ConsistentRead: true }));
  return result.Item ? strip(result.Item as PolicyRecord) : undefined;
}

/** Revision headers by id (order kept; unknown ids left out). */
export async function getRevisionHeaders(revisionIds: readonly string[]): Promise<RevisionRecord[]> {
  const items = await batchGetAll<RevisionRecord>(revisionIds.map(revisionKey), { consistentRead: true });
  const found = new Map(items.map((item) => [item.id, revisionHeaderFromStored(strip(item))]));
  return revisionIds.map((id) => found.get(id)).filter((revision): revision is RevisionRecord => !!revision);
}

/** The policy's partition: its record and its terms. */
const policyWithTerms = readableBesideCaller('POLICY#', readPolicyWithTerms);
export const getPolicyWithTerms = policyWithTerms.read;
/** The policy's partition, as a move naming the policy reads it first, begun beside the caller's authentication (beginWithCaller). */
export const policyBegun = policyWithTerms.begin;

/** A revision and everything it holds, read in one (paged) Query of its partition. */
const revisionWhole = readableBesideCaller('REVISION#', readRevision);
export const loadRevision = revisionWhole.read;
/** A revision whole, begun likewise. */
export const revisionBegun = revisionWhole.begin;

async function readRevision(revisionId: string): Promise<RevisionSnapshot | undefined> {
  const snapshot: Omit<RevisionSnapshot, 'header'> & { header?: RevisionRecord } = { risks: [], subLines: [], items: [], mortgagees: [] };
  // A part in its place, whichever layout it was stored in (an item of its own, or the parts record).
  const place = (part: RevisionPart) => {
    switch (part.entity) {
      case 'Risk':
        return snapshot.risks.push(part);
      case 'SubLine':
        return snapshot.subLines.push(part);
      case 'LineItem':
        return snapshot.items.push(part);
      case 'Mortgagee':
        return snapshot.mortgagees.push(part);
    }
  };
  for (const raw of await queryAll(revisionPartitionQuery(table(), revisionId))) {
    const item = strip(raw as Record<string, unknown>);
    if (raw.entity === 'Revision') snapshot.header = revisionHeaderFromStored(item) as unknown as RevisionRecord;
    else if (raw.entity === 'RevisionParts') partsInRecord(item as { parts?: Record<string, RevisionPart> }).forEach(place);
    else place(item as unknown as RevisionPart);
  }
  if (!snapshot.header) return undefined;
  snapshot.risks.sort((a, b) => a.sequence - b.sequence);
  return snapshot as RevisionSnapshot;
}

export async function findLocator(id: string): Promise<LocatorRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: locatorKey(id), ConsistentRead: true }));
  return result.Item ? strip(result.Item as LocatorRecord) : undefined;
}

// ---------------------------------------------------------------- changes

/** The writes of a revision change: the guarded header first, then its parts, their locators and the handed writes. */
function revisionChangeWrites(header: RevisionRecord, change: RevisionChange, set: Record<string, unknown>): TransactionWrite[] {
  const created = change.create ?? [];
  const removed = change.remove ?? [];
  return [
    { Update: guardedRevisionUpdate(table(), header.id, header.version, set) },
    ...partsChangeWrites(header, { put: [...created, ...(change.replace ?? [])], remove: removed }),
    ...locatorsOf(created, header.policyId).map((locator) => createPut({ ...locatorKey(locator.id), ...locator })),
    ...locatorsOf(removed, header.policyId).map((locator) => ({ Delete: { TableName: table(), Key: locatorKey(locator.id) } })),
    ...(change.term ? [{ Update: versionedUpdate(table(), termKey(change.term.policyId, change.term.termId), change.term.expectedVersion, change.term.set) }] : []),
    ...(change.policy ? [{ Update: versionedUpdate(table(), policyKey(change.policy.policyId), change.policy.expectedVersion, change.policy.set) }] : []),
    ...(change.handedWrites ?? []),
  ];
}

/**
 * Applies a change to a revision read at `header.version`. Fails with
 * RevisionNotOpenError when the revision is no longer open, and with
 * ConcurrentChangeError when another request changed it since it was read.
 */
export async function changeRevision(header: RevisionRecord, change: RevisionChange): Promise<RevisionRecord> {
  const set = { ...(change.header ?? {}), revisionDate: change.header?.revisionDate ?? header.revisionDate };
  const writes = revisionChangeWrites(header, change, set);
  const handedFrom = writes.length - (change.handedWrites?.length ?? 0);
  await runTransaction(writes, {
    label: `Revision ${header.id}`,
    tooLarge: (count) => new TransactionTooLargeError(count, `The change touches ${count} records; at most ${TRANSACTION_ITEM_LIMIT} can change at once`),
    onConditionFailed: async (failure) => {
      if (failure.indexes.some((index) => index >= handedFrom)) return new HandedWriteRefusedError(header.id);
      if (failure.index === 0) {
        const state = (await getRevisionHeaders([header.id]))[0]?.revisionState;
        if (state && state !== 'open') return new RevisionNotOpenError(header.id, state);
      }
      return undefined;
    },
  });
  return { ...header, ...set, version: header.version + 1 } as RevisionRecord;
}

/** Overwrites the policy's last-visited wizard position (not revision content: no state guard). */
export async function setPolicyLastVisited(policy: PolicyRecord, lastVisited: PolicyRecord['lastVisited']): Promise<void> {
  try {
    await documentClient().send(new UpdateCommand(versionedUpdate(table(), policyKey(policy.id), policy.version, { lastVisited })));
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConcurrentChangeError(`Policy ${policy.id}`);
    throw error;
  }
}

// ---------------------------------------------------------------- requote

/**
 * The writes that retire an unissued quote in the transaction that creates its replacement:
 * its number's lookup item goes (the old number no longer finds anything), the policy and
 * its open revision are marked retired (the revision archived) under their versions, and
 * the contacts' links to it go. A change of the old quote since it was read fails the whole
 * transaction: never neither quote, never both.
 */
export function quoteRetirement(policy: PolicyRecord, header: RevisionRecord, retired: RetiredQuote): TransactionWrite[] {
  const tableName = table();
  return [
    {
      Delete: {
        TableName: tableName,
        Key: policyNumberKey(policy.policyNumber),
        ConditionExpression: 'policyId = :policyId',
        ExpressionAttributeValues: { ':policyId': policy.id },
      },
    },
    { Update: versionedUpdate(tableName, policyKey(policy.id), policy.version, { retired, active: false }) },
    { Update: guardedRevisionUpdate(tableName, header.id, header.version, { retired, revisionState: 'archived', dateArchived: retired.at.slice(0, 19).replace('T', ' ') }) },
  ];
}

// ---------------------------------------------------------------- loss analysis

/**
 * Records the result of a loss-analysis job on its revision, once: only while the revision
 * still waits for that very job. Answers false when it was recorded already (a message
 * delivered twice) or a newer request superseded the job.
 */
export async function recordLossAnalysisResult(revisionId: string, jobId: string, completed: { completedAt: string; result: unknown }): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand(lossAnalysisResultUpdate(table(), revisionId, jobId, completed)));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

// ---------------------------------------------------------------- helpers

/** Drops the storage-only attributes (keys, index keys); a policy record keeps its entity tag. */
const strip = <T extends object>(item: T): T => withoutStorageKeys<T>(item as Record<string, unknown>, { keepEntity: true });

// ---------------------------------------------------------------- policy groups

/** A condition, for another area's transaction, that no policy of ours carries this number. */
export function policyNumberFreeCheck(policyNumber: string): TransactionWrite {
  return { ConditionCheck: { TableName: table(), Key: policyNumberKey(policyNumber), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * The write that puts a policy in a group (or out of every group: `null`), guarded by the
 * version read, for the policy-groups area to put in its own transaction.
 */
export function policyGroupChange(policy: Pick<PolicyRecord, 'id' | 'version'>, policyGroupId: string | null): TransactionWrite {
  return { Update: versionedUpdate(table(), policyKey(policy.id), policy.version, { policyGroupId }) };
}

/**
 * Records that an inspection of a property was requested (`inspection_requested_date`), in
 * any state of its revision: an inspection is often ordered after issue, and the date is a
 * note on the property rather than a change of the insurance. Writes handed by another area
 * (the inspection request itself) land in the same transaction.
 */
export async function setRiskInspectionRequested(revision: PartsLayout, risk: Pick<RiskRecord, 'id'>, requestedDate: string, handedWrites: TransactionWrite[] = []): Promise<void> {
  await runTransaction([riskAttributesUpdate(revision, risk.id, { inspection_requested_date: requestedDate }), ...handedWrites], { label: `Property ${risk.id}` });
}
