import { join } from 'node:path';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { API_KEY_USE_ATTRIBUTE } from '../../infra/constructs/service-function.js';
import { recordApiKeyUse } from '../../shared/auth/store.js';
import { TABLE_KEYS } from '../../shared/platform/table.js';
import { allActions, FIXTURES, functionDescribed, statementsOf, synthesize, type Statement, type Synthesized } from './helpers.js';

let synth: Synthesized;
beforeAll(async () => {
  synth = await synthesize({ functionsDir: join(FIXTURES, 'functions') });
}, 120_000);

function operation(name: string) {
  const stack = synth.service.api.operationStacks[0];
  const template = synth.template(stack);
  const [id, fn] = functionDescribed(template, `POST /api/v2/fixture/${name}`);
  return { statements: statementsOf(template, id), variables: fn.Properties!.Environment.Variables as Record<string, unknown> };
}

const mentions = (statement: Statement, text: string) => JSON.stringify(statement.Resource).includes(text);

describe('grants follow what each operation declares', () => {
  it('gives a writing operation read/write on the table and bucket and send on its queue only', () => {
    const { statements, variables } = operation('write_thing');
    const actions = allActions(statements);
    for (const action of ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
      expect(actions).toContain(action);
    }
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions).toContain('s3:PutObject');
    expect(actions).toContain('s3:GetObject*');

    const sends = statements.filter((statement) => allActions([statement]).has('sqs:SendMessage'));
    expect(sends).toHaveLength(1);
    expect(mentions(sends[0], 'PrintBatchesQueue')).toBe(true);
    expect(mentions(sends[0], 'SignatureEvents')).toBe(false);
    expect([...actions].filter((action) => action.startsWith('sqs:') && !action.startsWith('sqs:Send') && action !== 'sqs:GetQueueAttributes' && action !== 'sqs:GetQueueUrl')).toEqual([]);

    expect(Object.keys(variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME', 'PRINT_BATCHES_QUEUE_URL']));
    expect(variables).not.toHaveProperty('SIGNATURE_EVENTS_QUEUE_URL');
  });

  it('gives a read-only operation no bucket, no queue and no table writes', () => {
    const { statements, variables } = operation('read_thing');
    const actions = [...allActions(statements)];
    expect(actions.filter((action) => !action.startsWith('dynamodb:'))).toEqual([]);
    for (const write of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) expect(actions).not.toContain(write);
    expect(variables).not.toHaveProperty('BUCKET_NAME');
    expect(variables).not.toHaveProperty('PRINT_BATCHES_QUEUE_URL');
  });

  it('gives an unauthenticated webhook only its queue: no table at all', () => {
    const { statements, variables } = operation('vendor_hook');
    const actions = [...allActions(statements)];
    expect(actions.some((action) => action.startsWith('dynamodb:'))).toBe(false);
    expect(actions.some((action) => action.startsWith('s3:'))).toBe(false);
    expect(actions).toContain('sqs:SendMessage');
    expect(statements.every((statement) => mentions(statement, 'SignatureEventsQueue'))).toBe(true);
    expect(variables).not.toHaveProperty('TABLE_NAME');
    expect(variables).toHaveProperty('SIGNATURE_EVENTS_QUEUE_URL');
  });
});

describe('the API key stamp that read-only functions are allowed', () => {
  it('covers everything authentication writes: one attribute of an APIKEY# item', async () => {
    process.env.TABLE_NAME ??= 'table';
    const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockResolvedValue({} as never);
    try {
      await recordApiKeyUse('digest');
      expect(send).toHaveBeenCalledTimes(1);
      const command = send.mock.calls[0][0] as UpdateCommand;
      expect(command).toBeInstanceOf(UpdateCommand);
      const input = command.input;
      expect(String(input.Key?.[TABLE_KEYS.partition])).toMatch(/^APIKEY#/);
      const expressions = [input.UpdateExpression, input.ConditionExpression].join(' ');
      const keywords = new Set(['SET', 'AND', 'OR', 'NOT', 'attribute_exists', 'attribute_not_exists', 'if_not_exists']);
      const attributes = new Set(
        (expressions.replace(/:\w+/g, ' ').match(/#?[A-Za-z_]\w*/g) ?? [])
          .filter((word) => !keywords.has(word))
          .map((word) => (word.startsWith('#') ? input.ExpressionAttributeNames![word] : word)),
      );
      expect([...attributes].sort()).toEqual([API_KEY_USE_ATTRIBUTE, TABLE_KEYS.partition].sort());
      expect(input.ReturnValues ?? 'NONE').toBe('NONE');
    } finally {
      send.mockRestore();
    }
  });
});
