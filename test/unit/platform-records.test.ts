/**
 * Declared records (shared/platform/records.ts) build exactly the DynamoDB parameters a store sends:
 * keys from the record's own attributes, sparse index keys, the conditions of a create and a
 * versioned replace, and queries whose sort-key prefix stops at the first attribute not given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRecord, MissingKeyAttributeError, parseTemplate, recordsTable } from '../../shared/platform/records.js';

interface Thing {
  thingId: string;
  ownerId?: string;
  day: string;
  version: number;
  name: string;
}

const thing = defineRecord<Thing>({
  entity: 'Thing',
  key: { pk: 'THING#${thingId}', sk: 'THING' },
  indexes: { gsi1: { pk: 'OWNER#${ownerId}', sk: '${day}#${thingId}' } },
});
const listing = defineRecord<{ dimension: string; value: string; day: string; thingId: string }>({ entity: 'Listing', key: { pk: 'LIST#${dimension}#${value}', sk: '${day}#${thingId}' } });

describe('declared records', () => {
  const table = process.env.TABLE_NAME;
  beforeAll(() => {
    process.env.TABLE_NAME = 'declared-records-test';
  });
  afterAll(() => {
    if (table === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = table;
  });

  it('split a template into its text and its attributes', () => {
    expect(parseTemplate('LIST#${dimension}#${value}').attributes).toEqual(['dimension', 'value']);
  });

  it('build the key from the record and refuse one lacking a key attribute', () => {
    expect(thing.key({ thingId: 't1' })).toEqual({ pk: 'THING#t1', sk: 'THING' });
    expect(() => thing.key({})).toThrow(MissingKeyAttributeError);
  });

  it('write the item with its index keys only when it has their attributes (a sparse index)', () => {
    expect(thing.item({ thingId: 't1', ownerId: 'o1', day: '2026-12-07', version: 1, name: 'A' })).toEqual({
      pk: 'THING#t1', sk: 'THING', gsi1pk: 'OWNER#o1', gsi1sk: '2026-12-07#t1', entity: 'Thing', thingId: 't1', ownerId: 'o1', day: '2026-12-07', version: 1, name: 'A',
    });
    expect(thing.item({ thingId: 't2', day: '2026-12-07', version: 1, name: 'B' })).not.toHaveProperty('gsi1pk');
  });

  it('read an item back without its storage attributes', () => {
    const stored = thing.item({ thingId: 't1', ownerId: 'o1', day: '2026-12-07', version: 1, name: 'A' });
    expect(thing.parse(stored)).toEqual({ thingId: 't1', ownerId: 'o1', day: '2026-12-07', version: 1, name: 'A' });
    expect(thing.is(stored)).toBe(true);
  });

  it('create only where none exists, and replace at the version read', () => {
    const record = { thingId: 't1', day: '2026-12-07', version: 3, name: 'A' };
    expect(thing.create(record).Put).toMatchObject({ ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': 'pk' } });
    expect(thing.replace(record, 3).Put).toMatchObject({ Item: { version: 4 }, ConditionExpression: '#version = :readVersion', ExpressionAttributeValues: { ':readVersion': 3 } });
  });

  it('query a partition with the sort key prefix up to the first attribute not given, and a range of it', () => {
    expect(listing.query({ dimension: 'status', value: 'open' }, { newestFirst: true })).toEqual({
      KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'pk' }, ExpressionAttributeValues: { ':pk': 'LIST#status#open' }, ScanIndexForward: false,
    });
    expect(listing.query({ dimension: 'status', value: 'open', day: '2026-12-07' })).toMatchObject({ KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)', ExpressionAttributeValues: { ':sk': '2026-12-07#' } });
    expect(listing.query({ dimension: 'status', value: 'open' }, { between: { attribute: 'day', from: '2026-01-01', to: '2026-12-31' } })).toMatchObject({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to', ExpressionAttributeValues: { ':from': '2026-01-01#', ':to': '2026-12-31#\uffff' },
    });
    expect(thing.query({ ownerId: 'o1' }, { index: 'gsi1', consistent: true })).toEqual({
      IndexName: 'gsi1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'gsi1pk' }, ExpressionAttributeValues: { ':pk': 'OWNER#o1' },
    });
  });

  it("answer their rows of the data model's table", () => {
    expect(recordsTable([thing as never], () => 'A thing of an owner')).toContain('| Thing | `THING#${thingId}` | `THING` | gsi1: `OWNER#${ownerId}` / `${day}#${thingId}` | A thing of an owner |');
  });
});
