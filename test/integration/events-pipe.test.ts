/**
 * The local events pipe (infra/local/pipe-dispatchers.ts), the stand-in for the table's stream:
 * each event a transaction commits goes to the `events` queue once, even when the commit
 * carries more events than one call sends and the pipe's poll comes round while the first
 * call is still on its way (under load it sent the later ones twice, and the events consumer
 * fell further behind doing the work again).
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventDispatcher, type PipeDispatcher } from '../../infra/local/pipe-dispatchers.js';
import { eventOf } from '../../shared/events/index.js';
import { runTransaction } from '../../shared/platform/transactions.js';
import { startTestService, type TestService } from '../support/service.js';

describe('the local events pipe', () => {
  let service: TestService;
  let pipe: PipeDispatcher | undefined;
  beforeAll(async () => {
    service = await startTestService({ consumers: false });
  });
  afterAll(async () => {
    await pipe?.stop();
    await service?.stop();
  });

  it('sends each of fifteen events committed together once, though the poll runs while the first ten are on their way', async () => {
    const sent: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let calls = 0;
    // The queue answers the first call only after the poll has had many chances to run.
    const queue = {
      send: async (command: { input: { Entries: Array<{ MessageBody: string }> } }) => {
        calls += 1;
        if (calls === 1) await firstHeld;
        sent.push(...command.input.Entries.map((entry) => JSON.parse(entry.MessageBody).eventKey as string));
        return { Failed: [] };
      },
    } as unknown as SQSClient;
    pipe = startEventDispatcher({ sqs: queue, pollMs: 10, idlePollMs: 10 });

    const writes = Array.from({ length: 15 }, (_, n) => eventOf({ type: 'policy.endorsed', policyId: `pipe-policy-${n}`, policyNumber: `PIPE-${n}`, transactionId: `pipe-${n}` }));
    await runTransaction(writes, { label: 'pipe test' });
    const ours = () => sent.filter((key) => key.startsWith('pipe-policy-'));
    // Long enough for a dozen polls of the pending events while the first call is held.
    await new Promise((resolve) => setTimeout(resolve, 400));
    releaseFirst();
    for (let waited = 0; ours().length < 15 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(ours()).toHaveLength(15);
    expect(new Set(ours()).size).toBe(15);
  });
});
