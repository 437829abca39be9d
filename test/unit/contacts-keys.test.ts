import { describe, expect, it } from 'vitest';
import {
  agencyScope,
  contactKey,
  contactPolicyLinkKey,
  contactPolicyLinksQuery,
  contactRoleKey,
  contactRolesQuery,
  contactsMigrationKey,
  listingCounterKey,
  listingIndexKey,
  listingItemKey,
  listingQuery,
  loginNameKey,
  nameWordItemKey,
  nameWordQuery,
  nameWordRoleIndexKey,
  nameWordRoleQuery,
} from '../../shared/contacts/keys.js';

const ID = '6a1f0c2e-1111-4222-8333-944455556666';

describe('contact keys', () => {
  it('keeps a contact and what it owns in one partition', () => {
    expect(contactKey(ID)).toEqual({ pk: `CONTACT#${ID}`, sk: 'PROFILE' });
    expect(contactRoleKey(ID, 'r1')).toEqual({ pk: `CONTACT#${ID}`, sk: 'ROLE#r1' });
    expect(contactRolesQuery(ID)).toEqual({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `CONTACT#${ID}`, ':prefix': 'ROLE#' },
    });
  });

  it('relates a contact to a policy under the contact', () => {
    expect(contactPolicyLinkKey(ID, 'p1')).toEqual({ pk: `CONTACT#${ID}`, sk: 'POLICYLINK#p1' });
    expect(contactPolicyLinksQuery(ID).ExpressionAttributeValues).toEqual({ ':pk': `CONTACT#${ID}`, ':prefix': 'POLICYLINK#' });
  });

  it('makes login names unique regardless of case', () => {
    expect(loginNameKey('  Dana.W ')).toEqual({ pk: 'LOGIN#dana.w', sk: 'LOGIN' });
  });

  it('indexes name words on gsi1 by role, searched by prefix', () => {
    expect(nameWordItemKey(ID, 'r1', 'smith')).toEqual({ pk: `CONTACT#${ID}`, sk: 'INDEX#WORD#r1#smith', gsi1pk: 'CWORD#r1', gsi1sk: `smith#${ID}` });
    expect(nameWordQuery('r1', 'smi')).toEqual({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CWORD#r1', ':prefix': 'smi' },
    });
  });

  it('indexes a name word for one role on gsi3, on the item that indexes it for every contact', () => {
    expect(nameWordRoleIndexKey(ID, 'r1', 'smith')).toEqual({ gsi3pk: 'CWORD#r1', gsi3sk: `smith#${ID}` });
    expect(nameWordRoleQuery('r1', 'smi')).toEqual({
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND begins_with(gsi3sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CWORD#r1', ':prefix': 'smi' },
    });
  });

  it('gives a listing entry the same gsi2 keys whether it rides on a name word item or is an item of its own', () => {
    expect(listingIndexKey(ID, 'r1', agencyScope('g1'), 'jane smith')).toEqual({ gsi2pk: 'CLIST#r1#AGENCY#g1', gsi2sk: `jane smith#${ID}` });
    expect(listingIndexKey(ID, 'r1', 'ALL', 'x'.repeat(500)).gsi2sk).toBe(`${'x'.repeat(200)}#${ID}`);
  });

  it('lists contacts on gsi2 by role and reach, in name order, with a counter per listing', () => {
    expect(listingItemKey(ID, 'ANY', agencyScope('g1'), 'jane smith')).toEqual({
      pk: `CONTACT#${ID}`,
      sk: 'INDEX#LIST#ANY#AGENCY#g1',
      gsi2pk: 'CLIST#ANY#AGENCY#g1',
      gsi2sk: `jane smith#${ID}`,
    });
    expect(listingItemKey(ID, 'r1', 'ALL', 'x'.repeat(500)).gsi2sk).toBe(`${'x'.repeat(200)}#${ID}`);
    expect(listingQuery('r1', 'ALL')).toEqual({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': 'CLIST#r1#ALL' } });
    expect(listingCounterKey('r1', 'ALL')).toEqual({ pk: 'CONTACTCOUNT#r1#ALL', sk: 'COUNT' });
  });

  it('records a finished migration of the contacts under its name', () => {
    expect(contactsMigrationKey('seal-personal-identifiers-v1')).toEqual({ pk: 'CONTACTMIGRATION#seal-personal-identifiers-v1', sk: 'DONE' });
  });
});
