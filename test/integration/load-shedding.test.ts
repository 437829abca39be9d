/**
 * Under load the service answers 503 with Retry-After, or succeeds: never 500. The store is made
 * slow on purpose (every DynamoDB call of the service waits first, a middleware on its client) and
 * the functions' timeout short, so that many of 50 creates at once run out of time; one that runs
 * out before it saves anything says so and saves nothing (no policy, no number taken).
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ operationTimeoutSeconds: 4 });
});
afterAll(async () => {
  await service?.stop();
});

/** Every DynamoDB call of the service waits up to `maxMs` before it is sent: a store under load. */
function slowStore(maxMs: number) {
  const stack = documentClient().middlewareStack;
  const name = `slow-store-${crypto.randomUUID()}`;
  stack.add((next) => async (args) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs));
    return next(args);
  }, { step: 'initialize', name });
  return { remove: () => stack.remove(name) };
}

async function storedPolicies(): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: config.tableName(), FilterExpression: 'entity = :policy', ExpressionAttributeValues: { ':policy': 'Policy' }, ExclusiveStartKey: start }));
    count += page.Items?.length ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

describe('50 creates at once on a slow store', () => {
  it('each answers 200 with the policy, or 503 with Retry-After; none 500, and a create refused before saving saved nothing', async () => {
    const before = await storedPolicies();
    const slow = slowStore(800);
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.call('/api/v2/policies/create_policy', { manual_policy_number: true }))).finally(() => slow.remove());
    const created = answers.filter((answer) => answer.status === 200);
    const busy = answers.filter((answer) => answer.status !== 200);
    for (const answer of created) expect(answer.body.success, JSON.stringify(answer.body)).toBe(true);
    for (const answer of busy) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.body).toMatchObject({ success: false, messages: [expect.stringMatching(/^The service is busy/)] });
    }
    // Stopped mid-save, a create may still land; one refused before saving never does.
    const unknown = busy.filter((answer) => /may or may not have been saved/.test(answer.body.messages[0])).length;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const stored = (await storedPolicies()) - before;
    expect(stored).toBeGreaterThanOrEqual(created.length);
    expect(stored).toBeLessThanOrEqual(created.length + unknown);
  }, 120_000);
});
