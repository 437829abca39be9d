/**
 * The policies store: the only code that knows the keys of policies, terms,
 * revisions and what a revision holds. Every change of a revision is one
 * transaction guarded by the revision's version and open state.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { batchGetAll, isConditionalCheckFailure, queryAll, transactionCancellationReasons } from '../platform/dynamo.js';
import { BusinessRuleError, ConcurrentChangeError } from '../platform/errors.js';
import {
  allocatePolicyNumberUpdate,
  guardedRevisionUpdate,
  lineItemKey,
  locatorKey,
  mortgageeKey,
  policyKey,
  policyNumberCounterKey,
  policyNumberKey,
  policyPartitionQuery,
  revisionKey,
  revisionPartitionQuery,
  riskKey,
  subLineKey,
  termKey,
  versionedUpdate,
  type Key,
} from './keys.js';
import type {
  LineItemRecord,
  LocatorRecord,
  MortgageeRecord,
  PolicyRecord,
  RevisionRecord,
  RevisionSnapshot,
  RevisionState,
  RiskRecord,
  SubLineRecord,
  TermRecord,
} from './records.js';

/** A record stored in a revision's partition. */
export type RevisionPart = RiskRecord | SubLineRecord | LineItemRecord | MortgageeRecord;

const TRANSACTION_LIMIT = 100;

export function keyOfPart(part: RevisionPart): Key {
  switch (part.entity) {
    case 'Risk':
      return riskKey(part.revisionId, part.id);
    case 'SubLine':
      return subLineKey(part.revisionId, part.id);
    case 'LineItem':
      return lineItemKey(part.revisionId, part.id);
    case 'Mortgagee':
      return mortgageeKey(part.revisionId, part.id);
  }
}

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

// ---------------------------------------------------------------- numbering

export async function allocatePolicyNumberSequence(prefix: string, year: number): Promise<number> {
  const result = await documentClient().send(new UpdateCommand(allocatePolicyNumberUpdate(config.tableName(), prefix, year)));
  return Number(result.Attributes?.lastNumber);
}

/** The last number allocated in a sequence (0 before the first), without allocating. */
export async function lastPolicyNumberSequence(prefix: string, year: number): Promise<number> {
  const result = await documentClient().send(
    new GetCommand({ TableName: config.tableName(), Key: policyNumberCounterKey(prefix, year), ConsistentRead: true }),
  );
  return Number(result.Item?.lastNumber ?? 0);
}

export async function findPolicyIdByNumber(policyNumber: string): Promise<string | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: policyNumberKey(policyNumber), ConsistentRead: true }));
  return result.Item?.policyId as string | undefined;
}

// ---------------------------------------------------------------- creation

export interface NewPolicyBundle {
  policy: PolicyRecord;
  term: TermRecord;
  revision: RevisionRecord;
  parts: RevisionPart[];
  locators: LocatorRecord[];
  /** Writes other areas own that must land with the policy (the contacts' links to it). */
  linkedWrites?: Array<Record<string, unknown>>;
}

/** Writes a new policy whole, or nothing: the number's uniqueness item is the first condition. */
export async function createPolicy(bundle: NewPolicyBundle): Promise<void> {
  const table = config.tableName();
  const create = (Item: Record<string, unknown>) => ({ Put: { TableName: table, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
  const writes = [
    create({ ...policyNumberKey(bundle.policy.policyNumber), entity: 'PolicyNumber', policyNumber: bundle.policy.policyNumber, policyId: bundle.policy.id }),
    create({ ...policyKey(bundle.policy.id), ...bundle.policy }),
    create({ ...termKey(bundle.policy.id, bundle.term.id), ...bundle.term }),
    create({ ...revisionKey(bundle.revision.id), ...bundle.revision }),
    ...bundle.parts.map((part) => create({ ...keyOfPart(part), ...part })),
    ...bundle.locators.map((locator) => create({ ...locatorKey(locator.id), ...locator })),
    ...(bundle.linkedWrites ?? []),
  ];
  if (writes.length > TRANSACTION_LIMIT) throw new BusinessRuleError('The policy has too many parts to create at once');
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: writes }));
  } catch (error) {
    const reasons = transactionCancellationReasons(error);
    if (reasons?.[0] === 'ConditionalCheckFailed') throw new PolicyNumberTakenError(bundle.policy.policyNumber);
    if (reasons?.includes('TransactionConflict')) throw new ConcurrentChangeError('The policy');
    throw error;
  }
}

// ---------------------------------------------------------------- reads

export async function getPolicyWithTerms(policyId: string): Promise<{ policy: PolicyRecord; terms: TermRecord[] } | undefined> {
  const items = await queryAll(policyPartitionQuery(config.tableName(), policyId));
  const policy = items.find((item) => item.sk === 'POLICY') as PolicyRecord | undefined;
  if (!policy) return undefined;
  const terms = (items.filter((item) => String(item.sk).startsWith('TERM#')) as unknown as TermRecord[]).sort((a, b) =>
    a.effectiveDate.localeCompare(b.effectiveDate),
  );
  return { policy: strip(policy), terms: terms.map(strip) };
}

export async function getPolicy(policyId: string): Promise<PolicyRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: policyKey(policyId), ConsistentRead: true }));
  return result.Item ? strip(result.Item as PolicyRecord) : undefined;
}

/** Revision headers by id (order kept; unknown ids left out). */
export async function getRevisionHeaders(revisionIds: readonly string[]): Promise<RevisionRecord[]> {
  const items = await batchGetAll<RevisionRecord>(revisionIds.map(revisionKey), { consistentRead: true });
  const found = new Map(items.map((item) => [item.id, strip(item)]));
  return revisionIds.map((id) => found.get(id)).filter((revision): revision is RevisionRecord => !!revision);
}

/** A revision and everything it holds, read in one (paged) Query of its partition. */
export async function loadRevision(revisionId: string): Promise<RevisionSnapshot | undefined> {
  const snapshot: Omit<RevisionSnapshot, 'header'> & { header?: RevisionRecord } = { risks: [], subLines: [], items: [], mortgagees: [] };
  for (const raw of await queryAll(revisionPartitionQuery(config.tableName(), revisionId))) {
    const item = strip(raw as Record<string, unknown>);
    switch (raw.entity) {
      case 'Revision':
        snapshot.header = item as unknown as RevisionRecord;
        break;
      case 'Risk':
        snapshot.risks.push(item as unknown as RiskRecord);
        break;
      case 'SubLine':
        snapshot.subLines.push(item as unknown as SubLineRecord);
        break;
      case 'LineItem':
        snapshot.items.push(item as unknown as LineItemRecord);
        break;
      case 'Mortgagee':
        snapshot.mortgagees.push(item as unknown as MortgageeRecord);
        break;
    }
  }
  if (!snapshot.header) return undefined;
  snapshot.risks.sort((a, b) => a.sequence - b.sequence);
  return snapshot as RevisionSnapshot;
}

export async function findLocator(id: string): Promise<LocatorRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: locatorKey(id), ConsistentRead: true }));
  return result.Item ? strip(result.Item as LocatorRecord) : undefined;
}

// ---------------------------------------------------------------- changes

export interface RevisionChange {
  /** Header attributes to set along with the version. */
  header?: Partial<Omit<RevisionRecord, 'id' | 'version' | 'entity'>>;
  /** New records of the revision's partition. */
  create?: RevisionPart[];
  /** Existing records written anew. */
  replace?: RevisionPart[];
  remove?: RevisionPart[];
  locators?: LocatorRecord[];
  removeLocators?: string[];
  /** A versioned change of the revision's term, in the same transaction. */
  term?: { policyId: string; termId: string; expectedVersion: number; set: Partial<TermRecord> };
  policy?: { policyId: string; expectedVersion: number; set: Partial<PolicyRecord> };
}

/**
 * Applies a change to a revision read at `header.version`. Fails with
 * RevisionNotOpenError when the revision is no longer open, and with
 * ConcurrentChangeError when another request changed it since it was read.
 */
export async function changeRevision(header: RevisionRecord, change: RevisionChange): Promise<RevisionRecord> {
  const table = config.tableName();
  const set = { ...(change.header ?? {}), revisionDate: change.header?.revisionDate ?? header.revisionDate };
  const writes: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    { Update: guardedRevisionUpdate(table, header.id, header.version, set) },
    ...(change.create ?? []).map((part) => ({
      Put: { TableName: table, Item: { ...keyOfPart(part), ...part }, ConditionExpression: 'attribute_not_exists(pk)' },
    })),
    ...(change.replace ?? []).map((part) => ({
      Put: { TableName: table, Item: { ...keyOfPart(part), ...part }, ConditionExpression: 'attribute_exists(pk)' },
    })),
    ...(change.remove ?? []).map((part) => ({ Delete: { TableName: table, Key: keyOfPart(part) } })),
    ...(change.locators ?? []).map((locator) => ({
      Put: { TableName: table, Item: { ...locatorKey(locator.id), ...locator }, ConditionExpression: 'attribute_not_exists(pk)' },
    })),
    ...(change.removeLocators ?? []).map((id) => ({ Delete: { TableName: table, Key: locatorKey(id) } })),
    ...(change.term
      ? [{ Update: versionedUpdate(table, termKey(change.term.policyId, change.term.termId), change.term.expectedVersion, change.term.set) }]
      : []),
    ...(change.policy ? [{ Update: versionedUpdate(table, policyKey(change.policy.policyId), change.policy.expectedVersion, change.policy.set) }] : []),
  ];
  if (writes.length > TRANSACTION_LIMIT) {
    throw new BusinessRuleError(`The change touches ${writes.length} records; at most ${TRANSACTION_LIMIT} can change at once`);
  }
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: writes }));
  } catch (error) {
    const reasons = transactionCancellationReasons(error);
    if (!reasons) throw error;
    if (reasons[0] === 'ConditionalCheckFailed') {
      const current = await getRevisionHeaders([header.id]);
      const state = current[0]?.revisionState;
      if (state && state !== 'open') throw new RevisionNotOpenError(header.id, state);
    }
    throw new ConcurrentChangeError(`Revision ${header.id}`);
  }
  return { ...header, ...set, version: header.version + 1 } as RevisionRecord;
}

/** Overwrites the policy's last-visited wizard position (not revision content: no state guard). */
export async function setPolicyLastVisited(policy: PolicyRecord, lastVisited: PolicyRecord['lastVisited']): Promise<void> {
  try {
    await documentClient().send(new UpdateCommand(versionedUpdate(config.tableName(), policyKey(policy.id), policy.version, { lastVisited })));
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConcurrentChangeError(`Policy ${policy.id}`);
    throw error;
  }
}

/**
 * Moves a revision to another state. The lifecycle operations (issue, cancel) own
 * the rules of when; this is the storage step they and tests use.
 */
export async function setRevisionState(revisionId: string, state: RevisionState, extra: Partial<RevisionRecord> = {}): Promise<void> {
  const names: Record<string, string> = { '#state': 'revisionState', '#version': 'version' };
  const values: Record<string, unknown> = { ':state': state, ':one': 1 };
  const sets = ['#state = :state', '#version = #version + :one'];
  Object.entries(extra).forEach(([attribute, value], index) => {
    names[`#e${index}`] = attribute;
    values[`:e${index}`] = value;
    sets.push(`#e${index} = :e${index}`);
  });
  await documentClient().send(
    new UpdateCommand({
      TableName: config.tableName(),
      Key: revisionKey(revisionId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

// ---------------------------------------------------------------- helpers

/** Drops the storage-only attributes (keys, index keys). */
function strip<T extends object>(item: T): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, ...rest } = item as Record<string, unknown>;
  return rest as T;
}
