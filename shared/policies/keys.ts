/**
 * Keys of the policies area (see docs/data-model.md, Policies). A policy's own
 * partition holds the policy and its terms; each revision has a partition of its
 * own holding everything that a change of the revision touches (risks, sub lines,
 * line items, mortgagees), so that one Query reads a revision whole and one
 * transaction, guarded by the revision's version, changes it.
 */
import { stableShard } from '../platform/shards.js';
import { holdsHeaderDefault } from './revision-layout.js';

export type Key = { pk: string; sk: string };

export const policyKey = (policyId: string): Key => ({ pk: `POLICY#${policyId}`, sk: 'POLICY' });
export const termKey = (policyId: string, termId: string): Key => ({ pk: `POLICY#${policyId}`, sk: `TERM#${termId}` });
/** Uniqueness of a policy number, and the lookup of a policy by its number. */
export const policyNumberKey = (policyNumber: string): Key => ({ pk: `POLICYNUMBER#${policyNumber}`, sk: 'POLICYNUMBER' });
/** The counter of one (prefix, year) sequence of policy numbers. */
export const policyNumberCounterKey = (prefix: string, year: number): Key => ({ pk: 'COUNTER#POLICYNUMBER', sk: `${prefix}-${year}` });

export const revisionKey = (revisionId: string): Key => ({ pk: `REVISION#${revisionId}`, sk: 'REVISION' });
/** The sort key prefix of each kind of a revision's part. */
const PART_PLACES = { Risk: 'RISK', SubLine: 'SUBLINE', LineItem: 'ITEM', Mortgagee: 'MORTGAGEE' } as const;
/** A part's own item (a revision stored an item a part), and its place in a parts record. */
export const partKey = (part: { entity: keyof typeof PART_PLACES; revisionId: string; id: string }): Key => ({ pk: `REVISION#${part.revisionId}`, sk: `${PART_PLACES[part.entity]}#${part.id}` });
export const riskKey = (revisionId: string, riskId: string): Key => partKey({ entity: 'Risk', revisionId, id: riskId });
export const subLineKey = (revisionId: string, subLineInstanceId: string): Key => partKey({ entity: 'SubLine', revisionId, id: subLineInstanceId });
export const lineItemKey = (revisionId: string, lineItemId: string): Key => partKey({ entity: 'LineItem', revisionId, id: lineItemId });
/** The one record holding every part of a revision written in the one-record layout (parts-store.ts). */
export const partsRecordKey = (revisionId: string): Key => ({ pk: `REVISION#${revisionId}`, sk: 'PARTS' });
/** A mortgagee's id is its contact reference. */
export const mortgageeKey = (revisionId: string, reference: string): Key => partKey({ entity: 'Mortgagee', revisionId, id: reference });

/** Finds the revision of a risk, sub line instance or mortgagee from its id alone. */
export const locatorKey = (id: string): Key => ({ pk: `LOCATOR#${id}`, sk: 'LOCATOR' });

/** Query parameters that read a policy's own partition (the policy and its terms). */
export function policyPartitionQuery(tableName: string, policyId: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `POLICY#${policyId}` },
    ConsistentRead: true,
  };
}

/** Query parameters that read a whole revision: its header, risks, sub lines, items, mortgagees. */
export function revisionPartitionQuery(tableName: string, revisionId: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `REVISION#${revisionId}` },
    ConsistentRead: true,
  };
}

/** Atomic allocation of the next number of a sequence: ADD answers the new value. */
export function allocatePolicyNumberUpdate(tableName: string, prefix: string, year: number) {
  return {
    TableName: tableName,
    Key: policyNumberCounterKey(prefix, year),
    UpdateExpression: 'ADD lastNumber :one SET entity = :entity',
    ExpressionAttributeValues: { ':one': 1, ':entity': 'PolicyNumberCounter' },
    ReturnValues: 'UPDATED_NEW' as const,
  };
}

/**
 * The guard of every change of a revision: the version read must still be current
 * and the revision must still be open. `set` are further header attributes to write;
 * one set to the value a header reads when it is absent is removed instead (the stored
 * header stays small: revision-layout.ts).
 */
export function guardedRevisionUpdate(tableName: string, revisionId: string, expectedVersion: number, set: Record<string, unknown> = {}) {
  const removed = Object.keys(set).filter((attribute) => holdsHeaderDefault(attribute, set[attribute]));
  const kept = Object.fromEntries(Object.entries(set).filter(([attribute]) => !removed.includes(attribute)));
  const update = versionedUpdate(tableName, revisionKey(revisionId), expectedVersion, kept);
  const removedNames = Object.fromEntries(removed.map((attribute, index) => [`#r${index}`, attribute]));
  return {
    ...update,
    UpdateExpression: removed.length ? `${update.UpdateExpression} REMOVE ${Object.keys(removedNames).join(', ')}` : update.UpdateExpression,
    ConditionExpression: `${update.ConditionExpression} AND #state = :open`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...removedNames, '#state': 'revisionState' },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':open': 'open' },
  };
}

/** A plain versioned update of a record of the policy partition (policy or term). */
export function versionedUpdate(tableName: string, key: Key, expectedVersion: number, set: Record<string, unknown>) {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':expected': expectedVersion, ':next': expectedVersion + 1 };
  const assignments = ['#version = :next'];
  Object.entries(set).forEach(([attribute, value], index) => {
    names[`#a${index}`] = attribute;
    values[`:a${index}`] = value;
    assignments.push(`#a${index} = :a${index}`);
  });
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: `SET ${assignments.join(', ')}`,
    ConditionExpression: '#version = :expected',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Completes the loss-analysis job a revision waits for, and only that one while it is still
 * requested: a second delivery of the job, or a job superseded by a newer request, fails
 * the condition and changes nothing. The version moves so that an editor holding the
 * revision notices the change.
 */
export function lossAnalysisResultUpdate(tableName: string, revisionId: string, jobId: string, completed: { completedAt: string; result: unknown }) {
  return {
    TableName: tableName,
    Key: revisionKey(revisionId),
    UpdateExpression: 'SET #uw.#la.#status = :completed, #uw.#la.#completedAt = :completedAt, #uw.#la.#result = :result ADD #version :one',
    ConditionExpression: '#uw.#la.#jobId = :jobId AND #uw.#la.#status = :requested',
    ExpressionAttributeNames: {
      '#uw': 'underwriting',
      '#la': 'lossAnalysis',
      '#status': 'status',
      '#completedAt': 'completedAt',
      '#result': 'result',
      '#jobId': 'jobId',
      '#version': 'version',
    },
    ExpressionAttributeValues: { ':completed': 'completed', ':requested': 'requested', ':completedAt': completed.completedAt, ':result': completed.result, ':jobId': jobId, ':one': 1 },
  };
}

/** The terms the nightly renewal run watches are spread over this many index partitions. */
export const RENEWAL_WATCH_SHARDS = 8;

/**
 * Index attributes of a term the nightly renewal run must still decide (renew it, put its
 * renewal in force, or mark it expired), sorted by the day it ends. Sparse: a term leaves the
 * index once its end is decided, so a night reads the terms due, not the book.
 */
export function renewalWatchIndex(policyId: string, termId: string, expirationDate: string) {
  return { gsi1pk: `RENEWALWATCH#${stableShard(policyId, RENEWAL_WATCH_SHARDS)}`, gsi1sk: `${expirationDate}#${policyId}#${termId}` };
}

/** Query parameters of one shard of the watched terms ending on or before `throughDate`. */
export function renewalWatchQuery(tableName: string, shard: number, throughDate: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :through',
    ExpressionAttributeValues: { ':pk': `RENEWALWATCH#${shard}`, ':through': `${throughDate}#\uffff` },
  };
}

/** A versioned update of a term that also takes it off the renewal watch. */
export function unwatchedTermUpdate(tableName: string, term: { policyId: string; id: string; version: number }, set: Record<string, unknown>) {
  const update = versionedUpdate(tableName, termKey(term.policyId, term.id), term.version, set);
  return { ...update, UpdateExpression: `${update.UpdateExpression} REMOVE gsi1pk, gsi1sk` };
}

/** A versioned update of a term that puts it on the renewal watch (or moves its date there). */
export function watchedTermUpdate(tableName: string, term: { policyId: string; id: string; version: number; expirationDate: string }, set: Record<string, unknown>) {
  return versionedUpdate(tableName, termKey(term.policyId, term.id), term.version, { ...set, ...renewalWatchIndex(term.policyId, term.id, term.expirationDate) });
}
