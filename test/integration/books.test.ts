/**
 * The books (issue 32): a simulated year of moves and payments, read back through the premium
 * report and the journal. For every month and group unearned and receivable reconcile, the
 * report's billed, collected and refunded are the sums of the account histories, each journal
 * day balances and the trial balance at a month's end is the report's; a closed month keeps its
 * figures when a move is dated back into it (the adjustment shows in the open month).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as nightlyEarning } from '../../events/schedules/nightly_earning.js';
import { clock } from '../../shared/platform/clock.js';
import { addDays } from '../../shared/platform/dates.js';
import { agentOf } from '../support/documents.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const R = '/api/v2/reports';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterEach(() => clock.startAt(undefined));
afterAll(async () => {
  await service?.stop();
});

const report = async (body: Record<string, unknown>) => ok(await service.call(`${R}/premium`, body));

describe('the books', () => {
  it('smoke', async () => {
    clock.startAt('2025-01-15');
    const policy = await issueWorkedExample(service, 'Bo Books', '2025-01-15');
    await nightlyEarning({ date: '2025-01-31' });
    const answer = await report({ from_month: '2025-01', to_month: '2025-02', group_by: ['state'] });
    console.log(JSON.stringify(answer, null, 1));
    expect(policy.policyId).toBeTruthy();
  });
});
