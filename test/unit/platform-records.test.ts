/**
 * Declared records (shared/platform/records.ts) build exactly the DynamoDB parameters a store sends:
 * keys from the record's own attributes, sparse index keys, the conditions of a create and a
 * versioned replace, and queries whose sort-key prefix stops at the first attribute not given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRecord, narrowed, parseTemplate, recordsTable } from '../../shared/platform/records.js';

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
    expect(parseTemplate('LIST#${dimension}#${value}')).toEqual(['LIST#', 'dimension', '#', 'value', '']);
  });

  it('build the key from the record and refuse one lacking a key attribute', () => {
    expect(thing.key({ thingId: 't1' })).toEqual({ pk: 'THING#t1', sk: 'THING' });
    expect(() => thing.key({})).toThrow(/a key needs/);
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
    expect(thing.replace(record, 3).Put).toMatchObject({ Item: { version: 4 }, ConditionExpression: '#version = :version', ExpressionAttributeValues: { ':version': 3 } });
  });

  it('query a partition with the sort key prefix up to the first attribute not given, and a range of it', () => {
    expect(listing.query({ dimension: 'status', value: 'open' }, { newestFirst: true })).toEqual({
      KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'pk' }, ExpressionAttributeValues: { ':pk': 'LIST#status#open' }, ScanIndexForward: false,
    });
    expect(listing.query({ dimension: 'status', value: 'open', day: '2026-12-07' })).toMatchObject({ KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)', ExpressionAttributeValues: { ':sk': '2026-12-07#' } });
    expect(thing.query({ ownerId: 'o1' }, { index: 'gsi1', consistent: true })).toEqual({
      IndexName: 'gsi1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'gsi1pk' }, ExpressionAttributeValues: { ':pk': 'OWNER#o1' },
    });
  });

  it('fill a key part computed from the record, never storing it, unless the part is given by its own name', () => {
    const login = defineRecord<{ username: string; shardOf: string }>({
      entity: 'Login',
      key: { pk: 'LOGIN#${folded}', sk: 'LOGIN' },
      indexes: { gsi2: { pk: 'LOGINS#${shard}', sk: '${folded}' } },
      computed: { folded: ({ username }) => (username === undefined ? undefined : String(username).trim().toLowerCase()), shard: ({ shardOf }) => (shardOf === undefined ? undefined : String(shardOf).length % 4) },
    });
    expect(login.item({ username: ' Ann ', shardOf: 'abc' })).toEqual({ pk: 'LOGIN#ann', sk: 'LOGIN', gsi2pk: 'LOGINS#3', gsi2sk: 'ann', entity: 'Login', username: ' Ann ', shardOf: 'abc' });
    expect(login.query({ shard: 0 }, { index: 'gsi2' }).ExpressionAttributeValues).toEqual({ ':pk': 'LOGINS#0' });
    expect(() => login.key({})).toThrow(/a key needs/);
  });

  it('locate a record by values it does not carry, without storing them', () => {
    expect(thing.item({ day: '2026-12-07', version: 1, name: 'A' } as Thing, { thingId: 't9' })).toEqual({ pk: 'THING#t9', sk: 'THING', entity: 'Thing', day: '2026-12-07', version: 1, name: 'A' });
    expect(thing.put({ day: '2026-12-07', version: 1, name: 'A' } as Thing, { thingId: 't9' }).Put?.Item).not.toHaveProperty('thingId');
  });

  it('remove a record unguarded, or only where it stands', () => {
    expect(thing.remove({ thingId: 't1' })).toEqual({ Delete: { TableName: 'declared-records-test', Key: { pk: 'THING#t1', sk: 'THING' } } });
    expect(thing.remove({ thingId: 't1' }, { exists: true }).Delete).toMatchObject({ ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: { '#pk': 'pk' } });
  });

  it('compare the sort key with bounds filled from the query and the bound, filter and project what it reads', () => {
    expect(listing.query({ dimension: 'status', value: 'open' }, { sort: { gt: { day: '2026-12-07', thingId: 't1' } } })).toEqual({
      KeyConditionExpression: '#pk = :pk AND #sk > :sk', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' }, ExpressionAttributeValues: { ':pk': 'LIST#status#open', ':sk': '2026-12-07#t1' },
    });
    expect(listing.query({ dimension: 'status', value: 'open' }, { sort: { lte: { day: '2026-12-07', thingId: '~' } } }).ExpressionAttributeValues).toEqual({ ':pk': 'LIST#status#open', ':sk': '2026-12-07#~' });
    expect(listing.query({ dimension: 'status', value: 'open' }, { sort: { between: [{ day: '2026-01-01' }, { day: '2026-12-31', thingId: '~' }] } })).toMatchObject({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to', ExpressionAttributeValues: { ':from': '2026-01-01#', ':to': '2026-12-31#~' },
    });
    expect(narrowed(thing.query({ ownerId: 'o1' }, { index: 'gsi1' }), { filter: { expression: '#name = :name', names: { '#name': 'name' }, values: { ':name': 'A' } }, project: ['pk', 'name'] })).toEqual({
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk',
      FilterExpression: '#name = :name',
      ProjectionExpression: '#p_pk, #p_name',
      ExpressionAttributeNames: { '#pk': 'gsi1pk', '#name': 'name', '#p_pk': 'pk', '#p_name': 'name' },
      ExpressionAttributeValues: { ':pk': 'OWNER#o1', ':name': 'A' },
    });
  });

  it('carry the entity under another attribute, or none, when told', () => {
    const tagged = defineRecord<{ id: string }>({ entity: 'VERSION', entityAttribute: 'kind', key: { pk: 'VERSIONS', sk: '${id}' } });
    const untagged = defineRecord<{ kind: string; id: string }>({ entity: 'Entry', entityAttribute: false, key: { pk: 'ENTRIES', sk: '${kind}#${id}' } });
    expect(tagged.item({ id: 'v1' })).toEqual({ pk: 'VERSIONS', sk: 'v1', kind: 'VERSION', id: 'v1' });
    expect(tagged.parse({ pk: 'VERSIONS', sk: 'v1', kind: 'VERSION', id: 'v1' })).toEqual({ id: 'v1' });
    expect(untagged.item({ kind: 'ROLE', id: 'r1' })).toEqual({ pk: 'ENTRIES', sk: 'ROLE#r1', kind: 'ROLE', id: 'r1' });
    expect(untagged.is({ kind: 'ROLE' })).toBe(false);
    expect(recordsTable([tagged as never, untagged as never], () => 'x')).toContain('| VERSION (its `kind`) |');
  });

  it("answer their rows of the data model's table", () => {
    expect(recordsTable([thing as never], () => 'A thing of an owner')).toContain('| Thing | `THING#${thingId}` | `THING` | gsi1: `OWNER#${ownerId}` / `${day}#${thingId}` | A thing of an owner |');
  });
});
