/**
 * Where a revision's parts (its properties, sub lines, line items and mortgagees) are stored.
 *
 * A revision written from 2026-11-29 on keeps them all in one record beside its header
 * (`REVISION#<id>` / `PARTS`, a map from each part's place to the part), and its header says so
 * (`partsInOneRecord`). A quote's eleven parts were eleven items of its transaction, a rating of
 * eight line items eight writes; each is now one. A revision written before keeps one item per
 * part and is read and changed as it was written: the layout is fixed when a revision is created,
 * so no revision ever has both. The locators (a property, sub line or mortgagee found by its id)
 * stay items of their own in both layouts. No I/O: the policies stores put these writes in their
 * transactions.
 */
import { config } from '../platform/config.js';
import { TransactionTooLargeError, type TransactionWrite } from '../platform/transactions.js';
import { lineItemKey, mortgageeKey, partsRecordKey, riskKey, subLineKey, type Key } from './keys.js';
import type { RevisionPart, RevisionRecord } from './model.js';

/**
 * At most this many parts written or removed by one change of a one-record revision: each is a
 * clause of one update expression, which DynamoDB caps at 4 KB (about 16 characters a clause).
 */
export const PARTS_CHANGED_AT_ONCE = 200;

/** The most a parts record is let hold (DynamoDB's item limit is 400 KB, names and keys included). */
export const PARTS_RECORD_BYTES = 360 * 1024;

/** The layout a revision's header records, and what a new revision is given. */
export type PartsLayout = Pick<RevisionRecord, 'id' | 'partsInOneRecord'>;

/** The item of a part stored on its own (a revision written before the one-record layout). */
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

/** A part's place in the one record: its item's sort key, so both layouts list parts in the same order. */
export const placeOfPart = (part: RevisionPart): string => keyOfPart(part).sk;

/** The parts record of a new revision, whole (a revision without parts has an empty one, ready for its first). */
export function partsRecordOf(revisionId: string, parts: readonly RevisionPart[]): Record<string, unknown> {
  // DynamoDB holds at most 400 KB an item; a revision that large (some 450 parts) is refused whole rather than half stored.
  const size = Buffer.byteLength(JSON.stringify(parts));
  if (size > PARTS_RECORD_BYTES) throw new TransactionTooLargeError(parts.length, `The revision's ${parts.length} parts take ${Math.ceil(size / 1024)} KB; at most ${PARTS_RECORD_BYTES / 1024} KB are stored together`);
  return { ...partsRecordKey(revisionId), entity: 'RevisionParts', revisionId, parts: Object.fromEntries(parts.map((part) => [placeOfPart(part), part])) };
}

/** The writes that store the parts of a new revision, in the layout every new revision takes. */
export function newRevisionPartsWrites(revisionId: string, parts: readonly RevisionPart[]): TransactionWrite[] {
  return [{ Put: { TableName: config.tableName(), Item: partsRecordOf(revisionId, parts), ConditionExpression: 'attribute_not_exists(pk)' } }];
}

/** What a change does to a revision's parts. */
export interface PartsChange {
  /** New parts (one-by-one layout: refused if present). */
  create?: readonly RevisionPart[];
  /** Parts written anew that must exist (one-by-one layout: refused if absent). */
  replace?: readonly RevisionPart[];
  /** Parts written whatever is stored. */
  put?: readonly RevisionPart[];
  remove?: readonly RevisionPart[];
}

/**
 * The writes of a change of an existing revision's parts, in the revision's own layout. One-record:
 * a single update of the parts record (nothing when nothing changes); each part's presence is
 * vouched for by the revision's version, which every change guards in the same transaction.
 * One-by-one: an item per part, each with its condition, as such revisions were always written.
 */
export function partsChangeWrites(revision: PartsLayout, change: PartsChange): TransactionWrite[] {
  const table = config.tableName();
  const written = [...(change.create ?? []), ...(change.replace ?? []), ...(change.put ?? [])];
  const removed = change.remove ?? [];
  if (!revision.partsInOneRecord) {
    const put = (part: RevisionPart, condition?: string) => ({ Put: { TableName: table, Item: { ...keyOfPart(part), ...part }, ...(condition ? { ConditionExpression: condition } : {}) } });
    return [
      ...(change.create ?? []).map((part) => put(part, 'attribute_not_exists(pk)')),
      ...(change.replace ?? []).map((part) => put(part, 'attribute_exists(pk)')),
      ...(change.put ?? []).map((part) => put(part)),
      ...removed.map((part) => ({ Delete: { TableName: table, Key: keyOfPart(part) } })),
    ];
  }
  if (written.length + removed.length === 0) return [];
  if (written.length + removed.length > PARTS_CHANGED_AT_ONCE) {
    throw new TransactionTooLargeError(written.length + removed.length, `The change touches ${written.length + removed.length} parts of the revision; at most ${PARTS_CHANGED_AT_ONCE} can change at once`);
  }
  const names: Record<string, string> = { '#parts': 'parts' };
  const values: Record<string, unknown> = {};
  // A part written twice in one change (created, then replaced) is written once, as it last stands.
  const latest = new Map(written.map((part) => [placeOfPart(part), part]));
  const sets = [...latest].map(([place, part], index) => {
    names[`#w${index}`] = place;
    values[`:w${index}`] = part;
    return `#parts.#w${index} = :w${index}`;
  });
  const removes = [...new Set(removed.map(placeOfPart))]
    .filter((place) => !latest.has(place))
    .map((place, index) => {
      names[`#r${index}`] = place;
      return `#parts.#r${index}`;
    });
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return [
    {
      Update: {
        TableName: table,
        Key: partsRecordKey(revision.id),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ...(sets.length ? { ExpressionAttributeValues: values } : {}),
      },
    },
  ];
}

/** The writes that delete every part of a revision (its locators are the caller's). */
export function partsRemovalWrites(revision: PartsLayout, parts: readonly RevisionPart[]): TransactionWrite[] {
  if (revision.partsInOneRecord) return [{ Delete: { TableName: config.tableName(), Key: partsRecordKey(revision.id) } }];
  return parts.map((part) => ({ Delete: { TableName: config.tableName(), Key: keyOfPart(part) } }));
}

/**
 * One property's attributes set in place, in any state of its revision (no version guard: the
 * inspection date is a note on the property, not a change of the insurance); refused when the
 * property is no longer there.
 */
export function riskAttributesUpdate(revision: PartsLayout, riskId: string, set: Record<string, unknown>): TransactionWrite {
  const table = config.tableName();
  const assignments = Object.keys(set).map((attribute, index) => [attribute, index] as const);
  const values = Object.fromEntries(assignments.map(([attribute, index]) => [`:a${index}`, set[attribute]]));
  const attributeNames = Object.fromEntries(assignments.map(([attribute, index]) => [`#a${index}`, attribute]));
  if (!revision.partsInOneRecord) {
    return {
      Update: {
        TableName: table,
        Key: riskKey(revision.id, riskId),
        UpdateExpression: `SET ${assignments.map(([, index]) => `#a${index} = :a${index}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: attributeNames,
        ExpressionAttributeValues: values,
      },
    };
  }
  return {
    Update: {
      TableName: table,
      Key: partsRecordKey(revision.id),
      UpdateExpression: `SET ${assignments.map(([, index]) => `#parts.#risk.#a${index} = :a${index}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(#parts.#risk)',
      ExpressionAttributeNames: { '#parts': 'parts', '#risk': riskKey(revision.id, riskId).sk, ...attributeNames },
      ExpressionAttributeValues: values,
    },
  };
}

/** The parts a parts record holds, in their places' order (the order the one-by-one layout's query reads them in). */
export function partsInRecord(record: { parts?: Record<string, RevisionPart> }): RevisionPart[] {
  return Object.entries(record.parts ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, part]) => part);
}
