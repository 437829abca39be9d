/**
 * What bounds a large lockbox file on the local stack (issue 22): where one chunk's time goes, and
 * DynamoDB Local's own rate for the writes a payment needs. Not a bench scenario (it starts its own
 * embedded stores and reads DynamoDB Local's CPU time from /proc, so Linux only):
 *
 *   npx tsx test/bench/lockbox-bound.ts            2,000 lines, 4 chunks at once
 *   LINES=5000 AT_ONCE=8 npx tsx test/bench/lockbox-bound.ts
 *
 * Prints, for the chunks of a file over seeded accounts (one check per policy, as the billing
 * scenario): payments/s, DynamoDB Local's CPU (Java) and this process's CPU per payment, and the
 * DynamoDB calls a payment takes; then, with nothing else running, transactions of 7-write
 * postings (the writes of one lockbox payment) alone and 14 to a transaction, and the same
 * payments' reads: how many a second DynamoDB Local takes, and how much of a core it uses.
 */
import { execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { applyLocalEnvironment, newLocalResourceNames, provisionResources } from '../../infra/local/bootstrap.js';
import { startEmbeddedStores } from '../../infra/local/stores.js';
import { lockboxPolicyNumber } from '../../shared/billing/lockbox.js';
import { applyLockboxChunk, lockboxChunks, startLockboxRun } from '../../shared/billing/lockbox-runs.js';
import { documentClient } from '../../shared/platform/clients.js';
import { seedAccounts } from './scenarios/billing.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const lines = Number(process.env.LINES ?? 2000);
const atOnce = Number(process.env.AT_ONCE ?? 4);

const stores = await startEmbeddedStores();
const names = newLocalResourceNames('bound');
applyLocalEnvironment(stores, names, 'http://localhost:1');
await provisionResources(names);
const table = names.tableName;
const port = new URL(stores.dynamodbEndpoint).port;

/** CPU milliseconds DynamoDB Local (its Java process) has used so far. */
function dynamoDbLocalCpuMs(): number {
  let total = 0;
  for (const pid of execSync(`pgrep -f 'DynamoDBLocal.*-port ${port}' || true`).toString().split(/\s+/).filter(Boolean)) {
    if (!existsSync(`/proc/${pid}/comm`) || !readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('java')) continue;
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    total += (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  }
  return total;
}

const calls = new Map<string, number>();
documentClient().middlewareStack.add(
  (next, context) => async (args) => {
    calls.set(String(context.commandName), (calls.get(String(context.commandName)) ?? 0) + 1);
    return next(args);
  },
  { step: 'initialize', name: 'countCalls' },
);

/** Runs `work`, answering its wall time and the CPU DynamoDB Local and this process used meanwhile. */
async function measured(work: () => Promise<unknown>) {
  calls.clear();
  const java = dynamoDbLocalCpuMs();
  const node = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(node);
  return { ms: performance.now() - started, javaMs: dynamoDbLocalCpuMs() - java, nodeMs: (used.user + used.system) / 1000 };
}

const numbers = await seedAccounts(lines, 2096, new Date().toISOString().slice(0, 10));
const file = numbers.map((number, index) => ({ policy: lockboxPolicyNumber(number), check: `8${index}`, payment: '851.62' }));
const fileId = randomUUID();
await startLockboxRun(file, 'lockbox-bound', fileId);
const chunks = lockboxChunks(file);
let next = 0;
const applied = await measured(() =>
  Promise.all(Array.from({ length: atOnce }, async () => {
    while (next < chunks.length) {
      const chunk = next++;
      await applyLockboxChunk({ fileId, chunk, lines: chunks[chunk] });
    }
  })),
);
console.log(`${lines} lines in ${chunks.length} chunks, ${atOnce} at once: ${Math.round(lines / (applied.ms / 1000))} payments/s; DynamoDB Local ${(applied.javaMs / lines).toFixed(2)} ms CPU a payment (${Math.round((100 * applied.javaMs) / applied.ms)}% of a core), this process ${(applied.nodeMs / lines).toFixed(2)} ms`);
console.log(`calls a payment: ${[...calls].map(([name, count]) => `${name.replace('Command', '')} ${(count / lines).toFixed(3)}`).join(', ')}`);

// The writes of one lockbox payment (postingWrites): the account under its version, its row, check,
// locator, lockbox-due record, note and event; the items keep the attributes and indexes they have.
const seeded = Array.from({ length: 2000 }, () => randomUUID());
for (let start = 0; start < seeded.length; start += 25) {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: seeded.slice(start, start + 25).map((id) => ({
        Put: { TableName: table, Item: { pk: `BOUND#${id}`, sk: 'ACCOUNT', version: 1, balanceCents: 85162, gsi1pk: `BOUNDTERM#${id}`, gsi1sk: id, gsi2pk: `BOUNDACCOUNTS#${id.charCodeAt(0) % 8}`, gsi2sk: id, text: 'x'.repeat(300) } },
      })),
    }),
  );
}
const payment = (id: string) => {
  const entry = randomUUID();
  const row = { amountCents: -85162, text: 'x'.repeat(250) };
  return [
    { Update: { TableName: table, Key: { pk: `BOUND#${id}`, sk: 'ACCOUNT' }, UpdateExpression: 'ADD #b :d, #v :one', ConditionExpression: 'attribute_exists(pk) AND #v = :read', ExpressionAttributeNames: { '#b': 'balanceCents', '#v': 'version' }, ExpressionAttributeValues: { ':d': -85162, ':one': 1, ':read': 1 } } },
    { Put: { TableName: table, Item: { pk: `BOUND#${id}`, sk: `ENTRY#${entry}`, ...row }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table, Item: { pk: `BOUND#${id}`, sk: `CHECK#${entry}`, termId: id }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table, Item: { pk: `BOUNDPAYMENT#${entry}`, sk: 'PAYMENT', policyId: id }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Delete: { TableName: table, Key: { pk: `BOUNDDUE#${id.charCodeAt(1) % 8}`, sk: id } } },
    { Put: { TableName: table, Item: { pk: `BOUNDNOTE#${entry}`, sk: 'NOTE', gsi1pk: `BOUNDNOTES#${id}`, gsi1sk: entry, ...row }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table, Item: { pk: `BOUNDEVENT#${id}`, sk: entry, gsi1pk: `BOUNDEVENTS#${id.charCodeAt(2) % 8}`, gsi1sk: entry, gsi2pk: `BOUNDPENDING#${id.charCodeAt(2) % 8}`, gsi2sk: entry, ...row }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
};
let account = 0;
for (const [perTransaction, concurrency, postings] of [[1, 1, 300], [1, 16, 300], [14, 1, 700], [14, 8, 700]] as const) {
  const transactions = Math.ceil(postings / perTransaction);
  let sent = 0;
  const run = await measured(() =>
    Promise.all(Array.from({ length: concurrency }, async () => {
      while (sent < transactions) {
        sent += 1;
        await documentClient().send(new TransactWriteCommand({ TransactItems: Array.from({ length: perTransaction }, () => payment(seeded[account++])).flat() }));
      }
    })),
  );
  console.log(`${perTransaction} payment(s) of 7 writes a transaction, ${concurrency} at once: ${Math.round((transactions * perTransaction) / (run.ms / 1000))} payments/s; DynamoDB Local ${(run.javaMs / (transactions * perTransaction)).toFixed(2)} ms CPU a payment (${Math.round((100 * run.javaMs) / run.ms)}% of a core)`);
}
// A payment's reads: its lockbox number, account, lockbox-due record and check, 100 keys a BatchGetItem.
const keys = seeded.slice(0, 1600).flatMap((id) => [{ pk: `BOUND#${id}`, sk: 'ACCOUNT' }, { pk: `BOUND#${id}`, sk: 'CHECK#none' }, { pk: `BOUNDDUE#0`, sk: id }, { pk: `BOUNDNUMBER#${id}`, sk: 'LOCKBOX' }]);
const reads = await measured(async () => {
  for (let start = 0; start < keys.length; start += 100) await documentClient().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys.slice(start, start + 100), ConsistentRead: true } } }));
});
console.log(`a payment's 4 reads in BatchGetItem: DynamoDB Local ${(reads.javaMs / 1600).toFixed(2)} ms CPU a payment`);
await stores.stop();
process.exit(0);
