/**
 * Records for the fuzz to aim at (a contact, a policy with a property and a line item,
 * a URL override, an API key), and the values of their answers by field name, so that
 * derived bodies reach past "not found" into the code that validates and stores.
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import roles from '../../shared/catalog/carrier/roles.json' with { type: 'json' };
import { ITEM, POLICY_TYPE, SUB_LINE, UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { successData, type TestService } from '../support/service.js';
import { TABLE_KEYS } from '../../shared/platform/table.js';
import type { KnownValues } from './json-schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function buildKnownValues(service: TestService): Promise<KnownValues> {
  const answers = await fixtureAnswers(service);
  const byField = new Map<string, Set<unknown>>();
  const add = (field: string, value: unknown) => byField.set(field, (byField.get(field) ?? new Set()).add(value));
  for (const answer of answers) harvest(answer, add);
  const [agency, agent, policy, risk, added] = answers;
  const aliases: Record<string, unknown[]> = {
    contactId: [agent.id, agency.id],
    contact_id: [agent.id, agency.id],
    x_contact_reference: [agent.id, agency.id],
    agencyId: [agency.id],
    defaultAgency: [agency.id],
    roleId: roles.roles.map((role) => role.id),
    role_id: roles.roles.map((role) => role.id),
    role: roles.roles.map((role) => role.name),
    property_id: [risk.data.id],
    risk_id: [risk.data.id],
    from_risk_id: [risk.data.id],
    to_risk_id: [risk.data.id],
    property_sub_line_id: [added.data.added_items[0].sub_line_instance_id],
    sub_line_instance_id: [added.data.added_items[0].sub_line_instance_id],
    policy_number: [policy.data.policy_number],
    item_id: Object.values(ITEM),
    sub_line_id: Object.values(SUB_LINE),
    policy_type_id: Object.values(POLICY_TYPE),
    questionId: Object.values(UNDERWRITING_QUESTION),
  };
  for (const [field, values] of Object.entries(aliases)) for (const value of values) add(field, value);
  // A fuzzed storeRoles or create_api_key aimed at the caller itself could lock the rest of the run out.
  for (const values of byField.values()) values.delete(service.administratorContactId);
  const ids = [...new Set([...byField.values()].flatMap((values) => [...values]).filter((value): value is string => typeof value === 'string' && UUID.test(value)))];
  return { byField: new Map([...byField].map(([field, values]) => [field, [...values]])), ids };
}

async function fixtureAnswers(service: TestService): Promise<any[]> {
  const call = async (operation: string, body: Record<string, unknown>) => {
    const answer = await service.call(operation, body);
    successData(answer);
    return answer.body;
  };
  const agency = await call('/api/v1/contacts/storeNewContact', { role: 'Agency', content: { name: 'Fuzz Agency', type: 'organization' } });
  const agent = await call('/api/v1/contacts/storeNewContact', { role: 'Agent', content: { name: 'Fuzz Agent', type: 'individual', agencyId: agency.id } });
  const policy = await call('/api/v2/policies/create_policy', { inception_date: '2026-03-01' });
  const risk = await call('/api/v2/policies/create_risk', { revision_id: policy.data.revision_id });
  const added = await call('/api/v2/policies/add_line_item', { revision_id: policy.data.revision_id, item_id: ITEM.WATER_BACKUP });
  const revision = await call('/api/v2/policies/retrieve_revision_details', { revision_id: policy.data.revision_id });
  const override = await call('/api/v1/custom_ui/createURLOverride', { url: '/fuzz/fixture', override: 'https://example.com/fuzz' });
  const key = await call('/api/v2/auth/create_api_key', { contact_id: agent.id, description: 'fuzz fixture' });
  return [agency, agent, policy, risk, added, revision, override, key];
}

/** Every short string in an answer, under the name of the field that held it. */
function harvest(value: unknown, add: (field: string, value: unknown) => void, field = ''): void {
  if (typeof value === 'string' && value.length <= 200 && field) add(field, value);
  else if (Array.isArray(value)) for (const item of value) harvest(item, add, field);
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) harvest(item, add, key);
}

/** An OAuth access token for the Administrator, for operations that take no API key (roles bound to an OAuth grant). */
export async function administratorToken(service: TestService): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(service.oauthClient.clientId)}:${encodeURIComponent(service.oauthClient.clientSecret)}`).toString('base64');
  const response = await fetch(`${service.url}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
  });
  const token = ((await response.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`no OAuth token for the Administrator (status ${response.status})`);
  return token;
}

/** Every item of the table by its key, as comparable text. */
export type TableSnapshot = Map<string, string>;

/**
 * Reads the whole test table. A Scan is fine here: the table is this test file's own and
 * small, no request path uses one, and it sees every kind of record a rejected create
 * might have left or changed (a policy, a link, a consumed policy number), whatever its keys.
 */
export function tableReader(tableName: string): { snapshot(): Promise<TableSnapshot>; close(): void } {
  const client = new DynamoDBClient({});
  return {
    snapshot: async () => {
      const items: TableSnapshot = new Map();
      let startKey: Record<string, any> | undefined;
      do {
        const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey }));
        for (const item of page.Items ?? []) items.set(`${item[TABLE_KEYS.partition]?.S} ${item[TABLE_KEYS.sort]?.S}`, comparable(item));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return items;
    },
    close: () => client.destroy(),
  };
}

/**
 * An item as text, without the time an API key was last used: every authenticated call,
 * a rejected one included, may record that (once a minute), and it stores nothing the call asked for.
 */
function comparable(item: Record<string, unknown>): string {
  const { lastUsedAt: _lastUse, ...rest } = item;
  return JSON.stringify(Object.keys(rest).sort().map((name) => [name, rest[name]]));
}

export interface TableChange {
  added: number;
  removed: number;
  changed: number;
  /** The keys of a few of those items, for the report. */
  keys: string[];
}

export function tableChange(before: TableSnapshot, after: TableSnapshot): TableChange {
  const changed = [...before].filter(([key, item]) => after.has(key) && after.get(key) !== item).map(([key]) => key);
  const removed = [...before.keys()].filter((key) => !after.has(key));
  const added = [...after.keys()].filter((key) => !before.has(key));
  return { added: added.length, removed: removed.length, changed: changed.length, keys: [...changed, ...removed, ...added].slice(0, 3) };
}
