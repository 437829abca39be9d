/**
 * The writes of a revision's parts (shared/policies/parts-store.ts), on the exact DynamoDB
 * parameters they produce: one record of parts for a revision created in that layout, an item a
 * part for a revision created before it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { partsRecordKey } from '../../shared/policies/keys.js';
import type { LineItemRecord, RevisionPart, RiskRecord } from '../../shared/policies/model.js';
import {
  PARTS_CHANGED_AT_ONCE,
  newRevisionPartsWrites,
  partsChangeWrites,
  partsInRecord,
  partsRecordOf,
  partsRemovalWrites,
  riskAttributesUpdate,
} from '../../shared/policies/parts-store.js';
import { TransactionTooLargeError } from '../../shared/platform/transactions.js';

beforeAll(() => {
  process.env.TABLE_NAME = 'T';
});

const risk = { entity: 'Risk', id: 'risk-1', revisionId: 'rev', sequence: 1 } as unknown as RiskRecord;
const item = (id: string, premiumCents = 100) => ({ entity: 'LineItem', id, revisionId: 'rev', riskId: 'risk-1', premiumCents }) as unknown as LineItemRecord;
const oneRecord = { id: 'rev', partsInOneRecord: true };
const oneByOne = { id: 'rev' };

describe('a revision created with its parts in one record', () => {
  it('is written whole as one new record, each part at the place its own item would have', () => {
    expect(partsRecordKey('rev')).toEqual({ pk: 'REVISION#rev', sk: 'PARTS' });
    expect(newRevisionPartsWrites('rev', [risk, item('i-1')])).toEqual([
      {
        Put: {
          TableName: 'T',
          Item: { pk: 'REVISION#rev', sk: 'PARTS', entity: 'RevisionParts', revisionId: 'rev', parts: { 'RISK#risk-1': risk, 'ITEM#i-1': item('i-1') } },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  });

  it('takes a change as one update of the places it touches, a part given twice written once as it last stands', () => {
    const writes = partsChangeWrites(oneRecord, { put: [item('i-2'), item('i-1', 250), item('i-2', 300)], remove: [item('i-3'), item('i-1')] });
    expect(writes).toEqual([
      {
        Update: {
          TableName: 'T',
          Key: { pk: 'REVISION#rev', sk: 'PARTS' },
          UpdateExpression: 'SET #parts.#w0 = :w0, #parts.#w1 = :w1 REMOVE #parts.#r0',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#parts': 'parts', '#w0': 'ITEM#i-2', '#w1': 'ITEM#i-1', '#r0': 'ITEM#i-3' },
          ExpressionAttributeValues: { ':w0': item('i-2', 300), ':w1': item('i-1', 250) },
        },
      },
    ]);
  });

  it('writes nothing for a change of no part, and a removal alone carries no values', () => {
    expect(partsChangeWrites(oneRecord, {})).toEqual([]);
    expect(partsChangeWrites(oneRecord, { remove: [item('i-1')] })[0]).toEqual({
      Update: { TableName: 'T', Key: { pk: 'REVISION#rev', sk: 'PARTS' }, UpdateExpression: 'REMOVE #parts.#r0', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeNames: { '#parts': 'parts', '#r0': 'ITEM#i-1' } },
    });
  });

  it('refuses, by name, more parts changed at once than one update expression holds', () => {
    const many = Array.from({ length: PARTS_CHANGED_AT_ONCE + 1 }, (_, index) => item(`i-${index}`));
    expect(() => partsChangeWrites(oneRecord, { put: many })).toThrow(TransactionTooLargeError);
    expect(() => partsChangeWrites(oneRecord, { put: many })).toThrow(/201 parts; at most 200 change at once/);
  });

  it('is deleted as one record, and a property attribute is set in place while the property is there', () => {
    expect(partsRemovalWrites(oneRecord, [risk, item('i-1')])).toEqual([{ Delete: { TableName: 'T', Key: { pk: 'REVISION#rev', sk: 'PARTS' } } }]);
    expect(riskAttributesUpdate(oneRecord, 'risk-1', { inspection_requested_date: '2026-03-01' })).toEqual({
      Update: {
        TableName: 'T',
        Key: { pk: 'REVISION#rev', sk: 'PARTS' },
        UpdateExpression: 'SET #parts.#risk.#a0 = :a0',
        ConditionExpression: 'attribute_exists(#parts.#risk)',
        ExpressionAttributeNames: { '#parts': 'parts', '#risk': 'RISK#risk-1', '#a0': 'inspection_requested_date' },
        ExpressionAttributeValues: { ':a0': '2026-03-01' },
      },
    });
  });

  it('reads back in the order the one-by-one layout lists parts (by their items\' sort keys)', () => {
    const record = { parts: { 'SUBLINE#b': { id: 'b' }, 'ITEM#z': { id: 'z' }, 'RISK#a': { id: 'a' }, 'ITEM#B': { id: 'B' } } } as unknown as { parts: Record<string, RevisionPart> };
    expect(partsInRecord(record).map((part) => part.id)).toEqual(['B', 'z', 'a', 'b']);
  });
});

describe('a revision created before, with an item a part', () => {
  it('keeps writing an item a part, as it was always written', () => {
    expect(partsChangeWrites(oneByOne, { put: [item('i-2'), risk], remove: [item('i-3')] })).toEqual([
      { Put: { TableName: 'T', Item: { pk: 'REVISION#rev', sk: 'ITEM#i-2', ...item('i-2') } } },
      { Put: { TableName: 'T', Item: { pk: 'REVISION#rev', sk: 'RISK#risk-1', ...risk } } },
      { Delete: { TableName: 'T', Key: { pk: 'REVISION#rev', sk: 'ITEM#i-3' } } },
    ]);
    expect(partsRemovalWrites(oneByOne, [risk])).toEqual([{ Delete: { TableName: 'T', Key: { pk: 'REVISION#rev', sk: 'RISK#risk-1' } } }]);
    expect(riskAttributesUpdate(oneByOne, 'risk-1', { inspection_requested_date: '2026-03-01' })).toEqual({
      Update: {
        TableName: 'T',
        Key: { pk: 'REVISION#rev', sk: 'RISK#risk-1' },
        UpdateExpression: 'SET #a0 = :a0',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#a0': 'inspection_requested_date' },
        ExpressionAttributeValues: { ':a0': '2026-03-01' },
      },
    });
  });
});
