/**
 * A revision's parts in one record (shared/policies/parts-store.ts): a quote is stored as its
 * header and one record of parts, edited in place; a revision stored before that layout (an item
 * a part) reads the same, takes edits in its own layout, and its endorsement is made in the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { partKey, partsRecordKey, revisionKey } from '../../shared/policies/keys.js';
import { partsInRecord } from '../../shared/policies/parts-store.js';
import type { RevisionPart } from '../../shared/policies/model.js';
import { itemSize } from '../support/item-size.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const WATER_BACKUP = '52f30227-604e-4559-9a60-544998a62893';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const partition = async (revisionId: string) =>
  ((await documentClient().send(new QueryCommand({ TableName: config.tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': revisionKey(revisionId).pk }, ConsistentRead: true }))).Items ?? []) as Array<Record<string, any>>;
const sortKeys = async (revisionId: string) => (await partition(revisionId)).map((item) => item.sk as string);
const details = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
const itemNamed = (revision: Record<string, any>, name: string) => (revision.items as Array<Record<string, any>>).find((item) => item.name === name)!;

/** Stores a revision as revisions were stored before the one-record layout: an item a part, no `partsInOneRecord`. */
async function storeOneItemAPart(revisionId: string): Promise<void> {
  const table = config.tableName();
  const record = (await documentClient().send(new GetCommand({ TableName: table, Key: partsRecordKey(revisionId), ConsistentRead: true }))).Item!;
  for (const part of partsInRecord(record as { parts: Record<string, RevisionPart> })) {
    await documentClient().send(new PutCommand({ TableName: table, Item: { ...partKey(part), ...part } }));
  }
  await documentClient().send(new DeleteCommand({ TableName: table, Key: partsRecordKey(revisionId) }));
  await documentClient().send(new UpdateCommand({ TableName: table, Key: revisionKey(revisionId), UpdateExpression: 'REMOVE partsInOneRecord' }));
}

describe('a revision with its parts in one record', () => {
  it('a quote is its header and one record of parts, and an edit changes that record in place', async () => {
    const issued = await issueWorkedExample(service, 'Parts Together');
    expect(await sortKeys(issued.revisionId)).toEqual(['PARTS', 'REVISION']);
    const revision = await details(issued.revisionId);
    expect(revision.items).toHaveLength(8);
    expect(itemNamed(revision, 'Dwelling')).toMatchObject({ limit: 250000, annual_premium: 866.25 });

    // An endorsement is made in the same layout; its edits touch the record, never a new item.
    const { revision_id: endorsementId } = ok(await service.call(`${P}/new_revision`, { policy_id: issued.policyId, revision_date: addDays(todayIso(), 30) }));
    const opened = await details(endorsementId);
    ok(await service.call(`${P}/update_rating_information`, { revision_id: endorsementId, items: [{ id: itemNamed(opened, 'Dwelling').id, limit: 300000 }] }));
    const added = ok(await service.call(`${P}/add_line_item`, { revision_id: endorsementId, item_id: WATER_BACKUP }));
    expect(await sortKeys(endorsementId)).toEqual(['PARTS', 'REVISION']);
    ok(await service.call(`${P}/rate_revision`, { revision_id: endorsementId }));
    const rated = await details(endorsementId);
    expect(itemNamed(rated, 'Dwelling')).toMatchObject({ limit: 300000, annual_premium: 1039.5 });
    expect(rated.items.map((item: { id: string }) => item.id)).toContain(added.added_items[0].id);
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: issued.policyId, revision_id: endorsementId } }));
    expect(await sortKeys(endorsementId)).toEqual(['PARTS', 'REVISION']);
    // The revision in force before the change is as it was.
    expect(itemNamed(await details(issued.revisionId), 'Dwelling')).toMatchObject({ limit: 250000, annual_premium: 866.25 });
  });
});

describe('a parts record at the size a record can hold', () => {
  it('refuses a change that would take it past 400 KB, naming why, and stores nothing', async () => {
    const created = ok(await service.call(`${P}/create_policy`, {}));
    const revisionId = created.revision_id as string;
    ok(await service.call(`${P}/create_risk`, { revision_id: revisionId }));
    const before = await details(revisionId);
    // What a revision of some 450 parts would weigh, stood in for by one attribute the reader ignores.
    const stored = (await new DynamoDBClient({}).send(new GetItemCommand({ TableName: config.tableName(), Key: { pk: { S: `REVISION#${revisionId}` }, sk: { S: 'PARTS' } }, ConsistentRead: true }))).Item!;
    const room = 400 * 1024 - itemSize(stored) - 'ballast'.length - 300;
    await documentClient().send(new UpdateCommand({ TableName: config.tableName(), Key: partsRecordKey(revisionId), UpdateExpression: 'SET ballast = :ballast', ExpressionAttributeValues: { ':ballast': 'x'.repeat(room) } }));
    const refused = await service.call(`${P}/add_line_item`, { revision_id: revisionId, item_id: WATER_BACKUP });
    expect(refused.status).toBeLessThan(500);
    expect(refused.body).toMatchObject({ success: false, messages: [expect.stringContaining('a record would pass the 400 KB it can hold')] });
    expect(await details(revisionId)).toEqual(before);
  });
});

describe('a revision stored an item a part, before the one-record layout', () => {
  it('reads the same, takes edits as items of its own, and its endorsement is made with its parts in one record', async () => {
    const issued = await issueWorkedExample(service, 'Parts Apart');
    const answered = await details(issued.revisionId);
    await storeOneItemAPart(issued.revisionId);
    expect(await sortKeys(issued.revisionId)).not.toContain('PARTS');
    expect((await sortKeys(issued.revisionId)).filter((sk) => sk.startsWith('ITEM#'))).toHaveLength(8);
    expect(await details(issued.revisionId)).toEqual(answered);

    // A change of its structure (a new endorsement copies it, then edits the copy) and the copy's commit.
    const { revision_id: endorsementId } = ok(await service.call(`${P}/new_revision`, { policy_id: issued.policyId, revision_date: addDays(todayIso(), 30) }));
    expect(await sortKeys(endorsementId)).toEqual(['PARTS', 'REVISION']);
    const opened = await details(endorsementId);
    expect(opened.items).toHaveLength(8);
    ok(await service.call(`${P}/update_rating_information`, { revision_id: endorsementId, items: [{ id: itemNamed(opened, 'Dwelling').id, limit: 300000 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: endorsementId }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: issued.policyId, revision_id: endorsementId } }));
    expect(itemNamed(await details(endorsementId), 'Dwelling')).toMatchObject({ limit: 300000, annual_premium: 1039.5 });
    // The old revision kept its layout and its figures.
    expect(await sortKeys(issued.revisionId)).not.toContain('PARTS');
    expect(await details(issued.revisionId)).toEqual(answered);
  });

  it('an open quote stored an item a part takes edits and removals as items, under its version', async () => {
    const created = ok(await service.call(`${P}/create_policy`, {}));
    const revisionId = created.revision_id as string;
    const risk = ok(await service.call(`${P}/create_risk`, { revision_id: revisionId }));
    await storeOneItemAPart(revisionId);
    const added = ok(await service.call(`${P}/add_line_item`, { revision_id: revisionId, item_id: WATER_BACKUP }));
    const itemId = added.added_items[0].id as string;
    expect(await sortKeys(revisionId)).toContain(`ITEM#${itemId}`);
    expect(await sortKeys(revisionId)).not.toContain('PARTS');
    ok(await service.call(`${P}/update_rating_information`, { property_id: risk.id, items: [{ id: itemId, limit: 25000 }] }));
    expect(itemNamed(await details(revisionId), 'Water Backup')).toMatchObject({ limit: 25000 });
    ok(await service.call(`${P}/remove_line_item`, { revision_id: revisionId, line_item_id: itemId }));
    expect(await sortKeys(revisionId)).not.toContain(`ITEM#${itemId}`);
  });
});
