/**
 * The compact revision header (shared/policies/revision-layout.ts): a header stored without its
 * attributes at their starting value, and a header written whole before that layout, answer the
 * same to every read, and both take changes under the same guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { revisionKey } from '../../shared/policies/keys.js';
import { holdsHeaderDefault, REVISION_HEADER_DEFAULTS } from '../../shared/policies/revision-layout.js';
import { getRevisionHeaders } from '../../shared/policies/store.js';
import { itemSize } from '../support/item-size.js';
import { startTestService, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const WATER_BACKUP = '52f30227-604e-4559-9a60-544998a62893';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const storedHeader = async (revisionId: string) =>
  (await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: revisionKey(revisionId), ConsistentRead: true }))).Item!;

async function policyWithItem() {
  const created = await service.call(`${P}/create_policy`, {});
  const revisionId = created.body.data.revision_id as string;
  const risk = await service.call(`${P}/create_risk`, { revision_id: revisionId });
  const added = await service.call(`${P}/add_line_item`, { revision_id: revisionId, item_id: WATER_BACKUP });
  return { policyNumber: created.body.data.policy_number as string, revisionId, propertyId: risk.body.data.id as string, itemId: added.body.data.added_items[0].id as string };
}

describe('the revision header as stored', () => {
  it('leaves out what holds its starting value, and stays under 1 KB for a new policy', async () => {
    const { revisionId } = await policyWithItem();
    const stored = await storedHeader(revisionId);
    const [header] = await getRevisionHeaders([revisionId]);
    expect(header).toMatchObject({ cancelDate: null, commitDate: null, underwritingOptions: [], creditReportPermissions: {} });
    const atDefault = Object.keys(REVISION_HEADER_DEFAULTS).filter((attribute) => holdsHeaderDefault(attribute, (header as unknown as Record<string, unknown>)[attribute]));
    expect(atDefault).toContain('cancelDate');
    for (const attribute of atDefault) expect(stored).not.toHaveProperty(attribute);
    // What DynamoDB bills the guarded update of every edit by: one write unit while under 1 KB.
    const raw = await new DynamoDBClient({}).send(new GetItemCommand({ TableName: config.tableName(), Key: { pk: { S: `REVISION#${revisionId}` }, sk: { S: 'REVISION' } }, ConsistentRead: true }));
    expect(itemSize(raw.Item!)).toBeLessThan(1024);
  });

  it('a header written whole before the layout reads the same, and takes an edit under its version', async () => {
    const { revisionId, propertyId, itemId } = await policyWithItem();
    const details = async () => (await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).body.data;
    const answered = await details();
    const [header] = await getRevisionHeaders([revisionId]);
    // Rewrite the header as the earlier layout wrote it: every attribute, defaults included.
    const before = await storedHeader(revisionId);
    await documentClient().send(new PutCommand({ TableName: config.tableName(), Item: { ...REVISION_HEADER_DEFAULTS, ...before } }));
    expect(await storedHeader(revisionId)).toHaveProperty('dateArchived', null);
    expect(await details()).toEqual(answered);
    expect(await getRevisionHeaders([revisionId])).toEqual([header]);

    const edit = await service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: itemId, limit: 25000 }] });
    expect(edit.body.success, JSON.stringify(edit.body.messages)).toBe(true);
    expect((await storedHeader(revisionId)).version).toBe(header.version + 1);
    expect(await getRevisionHeaders([revisionId])).toEqual([{ ...header, version: header.version + 1 }]);
  });
});
