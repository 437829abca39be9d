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
import { partKey, partsRecordKey, riskKey } from './keys.js';
import type { RevisionPart, RevisionRecord } from './model.js';

/**
 * At most this many parts written or removed by one change of a one-record revision: each is a
 * clause of one update expression, which DynamoDB caps at 4 KB (about 16 characters a clause).
 */
export const PARTS_CHANGED_AT_ONCE = 200;

/** The layout a revision's header records, and what a new revision is given. */
export type PartsLayout = Pick<RevisionRecord, 'id' | 'partsInOneRecord'>;

/** A part's place in the one record: the sort key of its own item (partKey, the one-by-one layout's), so both layouts list parts in the same order. */
export const placeOfPart = (part: RevisionPart): string => partKey(part).sk;

/**
 * The parts record of a new revision, whole (a revision without parts has an empty one, ready for
 * its first). One past DynamoDB's 400 KB an item (some 450 parts) is refused whole by the
 * transaction runner (RecordTooLargeError), as is a change that would take it there.
 */
export function partsRecordOf(revisionId: string, parts: readonly RevisionPart[]): Record<string, unknown> {
  return { ...partsRecordKey(revisionId), entity: 'RevisionParts', revisionId, parts: Object.fromEntries(parts.map((part) => [placeOfPart(part), part])) };
}

/** The writes that store the parts of a new revision, in the layout every new revision takes. */
export function newRevisionPartsWrites(revisionId: string, parts: readonly RevisionPart[]): TransactionWrite[] {
  return [{ Put: { TableName: config.tableName(), Item: partsRecordOf(revisionId, parts), ConditionExpression: 'attribute_not_exists(pk)' } }];
}

/** What a change does to a revision's parts: parts written (new or anew) and parts removed. */
export interface PartsChange {
  put?: readonly RevisionPart[];
  remove?: readonly RevisionPart[];
}

/**
 * The writes of a change of an existing revision's parts, in the revision's own layout: one
 * update of the parts record (nothing when no part changes; the record must exist), or an item a
 * part. No part carries a condition of its own: every change guards the revision's version in the
 * same transaction, which vouches for what the parts were when read.
 */
export function partsChangeWrites(revision: PartsLayout, change: PartsChange): TransactionWrite[] {
  const TableName = config.tableName();
  const removed = change.remove ?? [];
  if (!revision.partsInOneRecord) {
    return [...(change.put ?? []).map((part) => ({ Put: { TableName, Item: { ...partKey(part), ...part } } })), ...removed.map((part) => ({ Delete: { TableName, Key: partKey(part) } }))];
  }
  // A part given twice is written once, as it last stands; one both written and removed is written.
  const written = new Map((change.put ?? []).map((part) => [placeOfPart(part), part]));
  const gone = [...new Set(removed.map(placeOfPart))].filter((place) => !written.has(place));
  const count = written.size + gone.length;
  if (count === 0) return [];
  if (count > PARTS_CHANGED_AT_ONCE) throw new TransactionTooLargeError(count, `The change touches ${count} parts; at most ${PARTS_CHANGED_AT_ONCE} change at once`);
  const names: Record<string, string> = { '#parts': 'parts' };
  const values: Record<string, unknown> = {};
  const sets = [...written].map(([place, part], index) => {
    names[`#w${index}`] = place;
    values[`:w${index}`] = part;
    return `#parts.#w${index} = :w${index}`;
  });
  const removes = gone.map((place, index) => {
    names[`#r${index}`] = place;
    return `#parts.#r${index}`;
  });
  return [
    {
      Update: {
        TableName,
        Key: partsRecordKey(revision.id),
        UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
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
  return partsChangeWrites(revision, { remove: parts });
}

/**
 * One property's attributes set in place, in any state of its revision (no version guard: the
 * inspection date is a note on the property, not a change of the insurance); refused when the
 * property is no longer there: its own item, or its place in the parts record.
 */
export function riskAttributesUpdate(revision: PartsLayout, riskId: string, set: Record<string, unknown>): TransactionWrite {
  const inRecord = revision.partsInOneRecord;
  const attributes = Object.keys(set);
  return {
    Update: {
      TableName: config.tableName(),
      Key: inRecord ? partsRecordKey(revision.id) : riskKey(revision.id, riskId),
      UpdateExpression: `SET ${attributes.map((_, index) => `${inRecord ? '#parts.#risk.' : ''}#a${index} = :a${index}`).join(', ')}`,
      ConditionExpression: inRecord ? 'attribute_exists(#parts.#risk)' : 'attribute_exists(pk)',
      ExpressionAttributeNames: {
        ...(inRecord ? { '#parts': 'parts', '#risk': riskKey(revision.id, riskId).sk } : {}),
        ...Object.fromEntries(attributes.map((attribute, index) => [`#a${index}`, attribute])),
      },
      ExpressionAttributeValues: Object.fromEntries(attributes.map((attribute, index) => [`:a${index}`, set[attribute]])),
    },
  };
}

/** The parts a parts record holds, in their places' order (the order the one-by-one layout's query reads them in). */
export function partsInRecord(record: { parts?: Record<string, RevisionPart> }): RevisionPart[] {
  const parts = record.parts ?? {};
  // The default sort compares UTF-16 code units: the byte order of these ASCII keys, as DynamoDB sorts them.
  return Object.keys(parts).sort().map((place) => parts[place]);
}
