/**
 * Contacts stored before a name word and the listings shared index items (one item per
 * role and word, one per listing) stay found, listed and counted, and a change of such a
 * contact leaves exactly the items of the present layout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { getContact } from '../../shared/contacts/store.js';
import { listingItemKey, nameWordItemKey } from '../../shared/contacts/keys.js';
import { startTestService, type TestService } from '../support/service.js';

const MORTGAGEE = '069ad0ce-bb95-41c0-baf9-b9d58afc92cb';
const VENDOR = 'a0b415a3-fb1b-4f12-aa37-974480d19964';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

async function indexItemsOf(contactId: string): Promise<Array<Record<string, unknown>>> {
  const answer = await documentClient().send(
    new QueryCommand({
      TableName: config.tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `CONTACT#${contactId}`, ':prefix': 'INDEX#' },
      ConsistentRead: true,
    }),
  );
  return answer.Items ?? [];
}

/** Rewrites a contact's index items as they were stored before the shared items. */
async function storeInSeparateLayout(contactId: string, name: string, roleIds: string[]) {
  for (const item of await indexItemsOf(contactId)) {
    await documentClient().send(new DeleteCommand({ TableName: config.tableName(), Key: { pk: item.pk, sk: item.sk } }));
  }
  const words = name.toLowerCase().split(' ');
  const sorted = words.join(' ');
  for (const roleKey of ['ANY', ...roleIds]) {
    for (const word of words) {
      await documentClient().send(
        new PutCommand({
          TableName: config.tableName(),
          Item: { ...nameWordItemKey(contactId, roleKey, word), entity: 'ContactNameWord', contactId, type: 'individual', sortName: sorted, words, agencyIds: [] },
        }),
      );
    }
    await documentClient().send(
      new PutCommand({ TableName: config.tableName(), Item: { ...listingItemKey(contactId, roleKey, 'ALL', sorted), entity: 'ContactListing', contactId } }),
    );
  }
}

const lookupIds = async (name: string, role: string) =>
  ((await service.call('/api/v1/contacts/lookupContactByName', { name, role, role_type: 'individual' })).body.data as Array<{ id: string }>).map((c) => c.id);

const listed = async (filter: string, searchString = '') => {
  const answer = await service.call('/api/v1/contacts/retrieveContactList', { searchString, filter, currentPage: '1', pageSize: '10000' });
  expect(answer.body.success).toBe(true);
  return answer.body as { maxRecords: number; records: Array<{ id?: string; details: { name: string } }> };
};

describe('contacts stored in the separate-item layout', () => {
  let contactId: string;
  let mortgageesBefore: number;

  beforeAll(async () => {
    mortgageesBefore = (await listed('Mortgagee')).maxRecords;
    const answer = await service.call('/api/v1/contacts/storeNewContact', { role: 'Mortgagee', content: { name: 'Odette Oldlayout', type: 'individual' } });
    expect(answer.body.success).toBe(true);
    contactId = answer.body.id;
    await storeInSeparateLayout(contactId, 'Odette Oldlayout', [MORTGAGEE]);
  });

  it('are found by a name word within their role and for every role, listed and counted', async () => {
    expect(await lookupIds('oldlay', 'Mortgagee')).toEqual([contactId]);
    const search = await listed('Mortgagee', 'odette oldlayout');
    expect(search.records.map((r) => r.details.name)).toEqual(['Odette Oldlayout']);
    expect((await listed('all', 'oldlayout')).records.map((r) => r.details.name)).toEqual(['Odette Oldlayout']);
    const mortgagees = await listed('Mortgagee');
    expect(mortgagees.maxRecords).toBe(mortgageesBefore + 1);
    expect(mortgagees.records.map((r) => r.details.name)).toContain('Odette Oldlayout');
  });

  it('leave only the present layout once a role is added, still found, listed and counted under each role', async () => {
    const vendorsBefore = (await listed('Vendor')).maxRecords;
    const answer = await service.call('/api/v1/contacts/storeRoles', { contactId, roleId: VENDOR });
    expect(answer.body.success).toBe(true);
    expect((await getContact(contactId))?.roleIds).toEqual([MORTGAGEE, VENDOR]);

    const items = await indexItemsOf(contactId);
    expect(items.map((item) => item.sk).sort()).toEqual([
      'INDEX#WORD#ANY#odette',
      'INDEX#WORD#ANY#oldlayout',
      `INDEX#WORD#${VENDOR}#odette`,
      `INDEX#WORD#${VENDOR}#oldlayout`,
    ]);
    expect(items.filter((item) => item.gsi3pk).map((item) => item.gsi3pk)).toEqual([`CWORD#${MORTGAGEE}`, `CWORD#${MORTGAGEE}`]);
    expect(items.filter((item) => item.gsi2pk).map((item) => item.gsi2pk).sort()).toEqual(['CLIST#ANY#ALL', `CLIST#${MORTGAGEE}#ALL`, `CLIST#${VENDOR}#ALL`].sort());

    expect(await lookupIds('oldlay', 'Mortgagee')).toEqual([contactId]);
    expect(await lookupIds('odet', 'Vendor')).toEqual([contactId]);
    expect((await listed('all', 'oldlayout')).records.map((r) => r.details.name)).toEqual(['Odette Oldlayout']);
    const mortgagees = await listed('Mortgagee');
    expect(mortgagees.maxRecords).toBe(mortgageesBefore + 1);
    expect(mortgagees.records.filter((r) => r.details.name === 'Odette Oldlayout')).toHaveLength(1);
    const vendors = await listed('Vendor');
    expect(vendors.maxRecords).toBe(vendorsBefore + 1);
    expect(vendors.records.filter((r) => r.details.name === 'Odette Oldlayout')).toHaveLength(1);
  });

  it('finds a contact of the present layout and one of the separate layout under the same role, in name order', async () => {
    const fresh = await service.call('/api/v1/contacts/storeNewContact', { role: 'Mortgagee', content: { name: 'Oscar Oldlayout', type: 'individual' } });
    expect(fresh.body.success).toBe(true);
    const search = await listed('Mortgagee', 'oldlayout');
    expect(search.records.map((r) => r.details.name)).toEqual(['Odette Oldlayout', 'Oscar Oldlayout']);
    expect(search.maxRecords).toBe(2);
  });
});
