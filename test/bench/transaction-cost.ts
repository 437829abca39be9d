/**
 * What one transaction costs on the local stack, by its size: the median time of a
 * TransactWriteItems of N new items (about 800 bytes each, as a revision's line items are; half
 * carrying an index key, as search and contact entries do) beside the median GetItem of one item
 * and the median warm get_release_info (the warm-move bench's baseline), interleaved in one run.
 * It answers how many items a move's transaction can hold and stay within a ratio of the
 * baseline, whatever its reads (docs/cost.md, "The moves of a new policy, warm").
 *
 *   npx tsx test/bench/transaction-cost.ts
 */
import { randomUUID } from 'node:crypto';
import { newToken } from '../../shared/auth/secrets.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const { startLocalService } = await import('../../infra/local/service.js');
const { documentClient } = await import('../../shared/platform/clients.js');
const { config } = await import('../../shared/platform/config.js');
const { GetCommand, TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');

const SIZES = [1, 2, 4, 8, 15, 25, 40];
const runs = Number(process.env.TRANSACTION_COST_RUNS ?? 30);
const apiKey = newToken('ias');
const service = await startLocalService({ port: 0, administratorApiKey: apiKey, consumers: false });
const table = config.tableName();
const padding = 'x'.repeat(700);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

try {
  const probe = { pk: `BENCH#${randomUUID()}`, sk: 'ITEM' };
  await documentClient().send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: table, Item: { ...probe, padding } } }] }));
  const samples: Record<string, number[]> = { baseline: [], GetItem: [], ...Object.fromEntries(SIZES.map((size) => [`${size} items`, []])) };
  for (let round = 0; round < runs + 3; round += 1) {
    const keep = round >= 3;
    const record = (name: string, ms: number) => keep && samples[name].push(ms);
    record('baseline', await timed(async () => (await fetch(`${service.url}/api/v2/utils/get_release_info`, { method: 'POST', body: JSON.stringify({ api_key: apiKey }) })).json()));
    record('GetItem', await timed(() => documentClient().send(new GetCommand({ TableName: table, Key: probe, ConsistentRead: true }))));
    for (const size of SIZES) {
      const partition = `BENCH#${randomUUID()}`;
      const items = Array.from({ length: size }, (_, index) => ({
        Put: { TableName: table, Item: { pk: partition, sk: `ITEM#${index}`, padding, ...(index % 2 ? { gsi1pk: `BENCHWORD#${index}`, gsi1sk: partition } : {}) }, ConditionExpression: 'attribute_not_exists(pk)' },
      }));
      record(`${size} items`, await timed(() => documentClient().send(new TransactWriteCommand({ TransactItems: items }))));
    }
  }
  const { loadavg } = await import('node:os');
  const baseline = median(samples.baseline);
  console.log(`${runs} rounds; load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  console.log(`get_release_info (the baseline) median ${baseline.toFixed(1)} ms; GetItem ${median(samples.GetItem).toFixed(1)} ms`);
  for (const size of SIZES) {
    const ms = median(samples[`${size} items`]);
    console.log(`TransactWriteItems of ${String(size).padStart(2)} items: median ${ms.toFixed(1).padStart(5)} ms = ${(ms / baseline).toFixed(2)}× the baseline; with the baseline's own work ${((ms + baseline) / baseline).toFixed(2)}×`);
  }
} finally {
  await service.stop();
}
process.exit(0);
