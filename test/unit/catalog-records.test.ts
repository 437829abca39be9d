/**
 * The catalog's declared records (shared/catalog/records.ts) store what the catalog always stored:
 * one partition `CATALOG` keyed by kind (and id), each record carrying `kind` and `catalogVersion`
 * and no `entity`; product versions apart, tagged by `kind`.
 */
import { describe, expect, it } from 'vitest';
import { catalogKey, catalogRecord } from '../../shared/catalog/package-record-store.js';
import { catalogEntryRecord, productVersionRecord } from '../../shared/catalog/records.js';

describe('catalog records', () => {
  it('key a kind with one record by the kind, a kind with many by kind and id', () => {
    expect(catalogKey('CARRIER')).toEqual({ pk: 'CATALOG', sk: 'CARRIER' });
    expect(catalogKey('ROLE', 'r1')).toEqual({ pk: 'CATALOG', sk: 'ROLE#r1' });
    expect(catalogRecord('CARRIER', undefined, '2026-01', { nsfFee: '25.00' })).toEqual({ pk: 'CATALOG', sk: 'CARRIER', kind: 'CARRIER', catalogVersion: '2026-01', nsfFee: '25.00' });
    expect(catalogRecord('FILING', 'FL', '2026-01', { state: 'FL' })).toEqual({ pk: 'CATALOG', sk: 'FILING#FL', kind: 'FILING', catalogVersion: '2026-01', state: 'FL' });
  });

  it('read a kind by its prefix, and the whole partition without a sort condition', () => {
    expect(catalogEntryRecord.query({ kind: 'ROLE' })).toEqual({
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' }, ExpressionAttributeValues: { ':pk': 'CATALOG', ':sk': 'ROLE#' },
    });
    expect(catalogEntryRecord.query({})).toEqual({ KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'pk' }, ExpressionAttributeValues: { ':pk': 'CATALOG' } });
  });

  it('tag a product version by its kind, and read it back without it', () => {
    const version = { versionId: 'v1', lineId: 'l', lineName: 'L', document: '{}', effectiveDates: { newBusiness: '2026-01-01', renewal: '2026-01-01' }, rateVersionIds: [], status: 'published' as const, changeHistory: [], publishedAt: '2026-01-01T00:00:00Z' };
    const item = productVersionRecord.item(version);
    expect(item).toEqual({ pk: 'PRODUCTVERSION', sk: 'v1', kind: 'PRODUCTVERSION', ...version });
    expect(productVersionRecord.is(item)).toBe(true);
    expect(productVersionRecord.parse(item)).toEqual(version);
  });
});
