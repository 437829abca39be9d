/**
 * The typed client's README examples, run as they are printed (clients/typescript/examples):
 * the worked example through the client, and a webhook receiver that verifies signatures.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createInsuranceClient } from '@insurance-admin/client';
import { workedExample } from '../../clients/typescript/examples/worked-example.js';
import { receiveWebhooks } from '../../clients/typescript/examples/receive-webhook.js';
import { startTestService, type TestService } from '../support/service.js';
import { runCommand } from '../support/processes.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents', 'events'] });
});
afterAll(async () => {
  await service?.stop();
});

describe('the typed client', () => {
  it("prints its examples in its README exactly as they are run", () => {
    const readme = readFileSync(new URL('../../clients/typescript/README.md', import.meta.url), 'utf8');
    for (const file of ['examples/worked-example.ts', 'examples/receive-webhook.ts']) {
      const source = readFileSync(new URL(`../../clients/typescript/${file}`, import.meta.url), 'utf8').trimEnd();
      expect(readme).toContain(`<!-- client-example: ${file} -->\n\`\`\`ts\n${source}\n\`\`\``);
    }
  });

  it('runs the worked example (quote, bind, issue, pay with an Idempotency-Key) and the webhook receiver gets its events, verified', async () => {
    const events: Array<{ type: string; policy_id: string }> = [];
    const receiver = await receiveWebhooks(service.url, service.administratorApiKey, (event) => events.push(event));
    try {
      const result = await workedExample(service.url, service.administratorApiKey);
      expect(result).toMatchObject({ annualTotal: 851.62, balance: 0 });
      const deadline = Date.now() + 30_000;
      const mine = () => events.filter((event) => event.policy_id === result.policyId).map((event) => event.type);
      while (!mine().includes('payment.posted') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      // One payment posted although it was sent twice: the retry carried the same Idempotency-Key.
      expect(mine()).toEqual(['policy.quoted', 'policy.bound', 'policy.issued', 'payment.posted']);
    } finally {
      await receiver.close();
    }
  });

  it('runs its README\'s command for the worked example, printing the policy, its total and its balance', async () => {
    const result = await runCommand('npx', ['tsx', 'clients/typescript/examples/run-worked-example.ts'], { API_URL: service.url, KEY: service.administratorApiKey });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^policy 10-\d{4}-\d+: annual total 851\.62, paid; balance 0\.00$/);
    const readme = readFileSync(new URL('../../clients/typescript/README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```sh\nnpx tsx clients/typescript/examples/run-worked-example.ts\n# policy 10-2026-1: annual total 851.62, paid; balance 0.00\n```');
  }, 60_000);

  it('throws ApiError with the service messages for a refusal, and for a missing credential', async () => {
    const client = createInsuranceClient({ baseUrl: service.url, credential: service.administratorApiKey });
    const refused = await client.call('/api/v2/events/create', { url: 'ftp://example.com', event_types: ['*'] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 200, messages: ['url: must be https (or http to localhost)'] });
    const anonymous = createInsuranceClient({ baseUrl: service.url, credential: 'not-a-key' });
    expect(await anonymous.call('/api/v2/events/list', {}).catch((error: unknown) => error)).toMatchObject({ status: 401 });
  });
});
