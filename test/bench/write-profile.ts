/**
 * Which items a call writes, how large each is and which indexes copy it: the write units
 * DynamoDB bills for it, item by item. Runs the quote edits of the policies scenario, the
 * worked-example quote, its bind and its issue through one local service and prints, for every
 * write request, each item's key, its condition (a transaction's items each carry one or none), its size (DynamoDB's rule: attribute names and values, 1 write unit per started
 * KB), the index keys it carries and the consumed capacity DynamoDB Local reports with
 * ReturnConsumedCapacity INDEXES.
 *
 *   npx tsx test/bench/write-profile.ts
 */
import { DynamoDBClient, GetItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { newToken } from '../../shared/auth/secrets.js';
import { attributeValueSize, itemSize } from '../support/item-size.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const { onClientCreated } = await import('../../shared/platform/clients.js');
const { startLocalService } = await import('../../infra/local/service.js');

type Write = { kind: string; key: Record<string, AttributeValue>; size?: number; indexes: string[]; text: string };
type Logged = { command: string; writes: Write[]; consumed: unknown; transactional: boolean };
const log: Logged[] = [];
let recording = false;

const indexesOf = (item: Record<string, AttributeValue>) => ['gsi1pk', 'gsi2pk', 'gsi3pk'].filter((attribute) => item[attribute]).map((attribute) => attribute.slice(0, 4));
const describe = (kind: string, body: { Item?: Record<string, AttributeValue>; Key?: Record<string, AttributeValue>; UpdateExpression?: string; ConditionExpression?: string }): Write => {
  const item = body.Item;
  const key = item ?? body.Key ?? {};
  const name = `${key.pk?.S}|${key.sk?.S}${body.ConditionExpression ? ` [if ${body.ConditionExpression}]` : ''}`;
  if (!item) return { kind, key: { pk: key.pk, sk: key.sk }, indexes: [], text: `${kind.padEnd(14)} ${name}${body.UpdateExpression ? `  ${body.UpdateExpression.slice(0, 60)}` : ''}` };
  const indexes = indexesOf(item);
  const detail = process.env.WRITE_PROFILE_ATTRIBUTES && name.endsWith('|REVISION')
    ? `\n      ${Object.entries(item).map(([attribute, value]) => `${attribute} ${Buffer.byteLength(attribute) + attributeValueSize(value)} ${JSON.stringify(value)}`).join('\n      ')}`
    : '';
  return { kind, key: { pk: key.pk, sk: key.sk }, size: itemSize(item), indexes, text: `${kind.padEnd(14)} ${name}  ${itemSize(item)} B${indexes.length ? `  indexes ${indexes.join(',')}` : ''}${detail}` };
};

/**
 * What AWS bills a write: 1 unit per started KB of the item (an update: of the item after it,
 * read back here, which is at least its size before for these calls), the same again for each
 * index that holds the item, all doubled in a transaction. A Delete or ConditionCheck is billed
 * on the item's size too; they are counted at 1 KB here. DynamoDB Local reports a transaction of
 * several writes of one kind as one write, so its figure is lower.
 */
async function billedUnits(entry: Logged): Promise<number> {
  let units = 0;
  for (const write of entry.writes) {
    let size = write.size;
    let indexes = write.indexes;
    if (size === undefined && write.kind.startsWith('Update')) {
      const stored = (await rawClient.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: write.key as Record<string, AttributeValue> }))).Item;
      size = stored ? itemSize(stored) : 1;
      indexes = stored ? indexesOf(stored) : [];
      write.text += `  (${size} B after${indexes.length ? `, indexes ${indexes.join(',')}` : ''})`;
    }
    const perCopy = Math.max(1, Math.ceil((size ?? 1) / 1024));
    units += perCopy * (1 + indexes.length);
  }
  return entry.transactional ? units * 2 : units;
}

onClientCreated((client) => {
  if (!(client instanceof DynamoDBClient)) return;
  client.middlewareStack.add(
    (next) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
      return next(args);
    },
    { step: 'initialize', name: 'writeProfileCapacity', priority: 'low' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const command = String(context.commandName ?? '');
      if (recording && /Put|Update|Delete|Write/.test(command)) {
        const input = args.input as Record<string, unknown> & { TransactItems?: Array<Record<string, Record<string, never>>> };
        const writes = input.TransactItems
          ? input.TransactItems.map((entry) => {
              const [kind, body] = Object.entries(entry)[0];
              return describe(kind, body);
            })
          : [describe(command.replace('Command', ''), input as never)];
        log.push({ command, writes, consumed: (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity, transactional: !!input.TransactItems });
      }
      return result;
    },
    { step: 'build', name: 'writeProfileLog' },
  );
});

const administratorApiKey = newToken('ias');
const service = await startLocalService({ port: 0, administratorApiKey, consumers: false });
const rawClient = new DynamoDBClient({});
const post = async (path: string, body: Record<string, unknown>) => {
  const response = await fetch(`${service.url}/api/v2/policies/${path}`, { method: 'POST', body: JSON.stringify({ api_key: administratorApiKey, ...body }) });
  const answer = (await response.json()) as { success: boolean; data: Record<string, any> };
  if (!answer.success) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer.data;
};
const profiled = async (name: string, path: string, body: Record<string, unknown>) => {
  log.length = 0;
  recording = true;
  const data = await post(path, body);
  recording = false;
  console.log(`\n== ${name}`);
  let total = 0;
  for (const entry of log) {
    const billed = await billedUnits(entry);
    total += billed;
    console.log(`  ${entry.command}: ${entry.writes.length} writes, AWS bills ${billed} WCU`);
    for (const write of entry.writes) console.log(`    ${write.text}`);
    console.log(`    DynamoDB Local reports ${JSON.stringify(entry.consumed)}`);
  }
  console.log(`  ${name}: AWS bills ${total} WCU in all`);
  return data;
};

try {
  const WATER_BACKUP = '52f30227-604e-4559-9a60-544998a62893';
  const created = await profiled('create_policy', 'create_policy', { inception_date: '2026-03-01' });
  const risk = await profiled('create_risk', 'create_risk', { revision_id: created.revision_id });
  await profiled('update_property_location', 'update_property_location', { location: { id: risk.id, address_line1: '1 Main Street', address_zip: '90210' } });
  const added = await profiled('add_line_item', 'add_line_item', { revision_id: created.revision_id, item_id: WATER_BACKUP });
  await profiled('update_rating_information', 'update_rating_information', { property_id: risk.id, items: [{ id: added.added_items[0].id, limit: 25000 }] });
  const { workedExample } = await import('./scenarios/quoting.js');
  const quote = await profiled('create_quote_extended', 'create_quote_extended', workedExample(0));
  // A quote's own edit: its header carries a named insured, the STP result and the rate version.
  const policy = await post('retrieve_policy', { policy_number: quote.quote_number });
  const revision = await post('retrieve_revision_details', { revision_id: policy.active_revision.id });
  const liability = (revision.items as Array<{ id: string; name: string }>).find((item) => item.name === 'Personal Liability')!;
  await profiled('update_rating_information on the quote', 'update_rating_information', { revision_id: revision.id, items: [{ id: liability.id, limit: 500000 }] });
  // The new policy's next moves (move-profile.ts times them): a month's first postings also mark the month (BOOKS#CLOSE|MONTH#), later issues do not.
  await profiled('bind', 'bind', { bind_info: { policy_id: quote.policy_id } });
  await profiled('issue', 'issue', { issue_info: { policy_id: quote.policy_id } });
} finally {
  await service.stop();
}
process.exit(0);
