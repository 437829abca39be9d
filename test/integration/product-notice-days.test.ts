/**
 * A state's notice days, from outside: Florida's filing asks 120 days' notice of non-renewal
 * (the countrywide filing 30), so a Non-Renewal of a Florida policy is refused later than 120
 * days before its end, and the nightly run renews a Florida term 120 days ahead (not the
 * carrier's 45) so that the renewal is never made while notice of not renewing could still go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as planRenewals } from '../../events/schedules/nightly_renewals.js';
import { getNightlyRun } from '../../shared/platform/nightly-runs.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const LOSS_HISTORY = 'e5a9f172-3b8c-4d61-a0f4-8c7b5e2d9a03';
const MIAMI = '33101';
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ consumers: true });
});
afterAll(async () => {
  await service?.stop();
});

async function nightly(date: string) {
  const run = await planRenewals({ date });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const progress = await getNightlyRun<{ policyNumber: string; decision: string }>('renewals', date, run.runId);
    if (progress && progress.batchesDone >= progress.batches) return progress.decisions ?? [];
    if (Date.now() > deadline) throw new Error(`renewal run ${run.runId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const decisionsFor = (decisions: Array<{ policyNumber: string; decision: string }>, policyNumber: string) => decisions.filter((decided) => decided.policyNumber === policyNumber).map((decided) => decided.decision);
const nonRenew = (revisionId: string) => service.call(`${P}/store_renewal_status`, { revision_id: revisionId, renewal_status: 'Non-Renewal', renewal_status_reason: LOSS_HISTORY });

describe("a state's notice days", () => {
  it('refuses a Non-Renewal of a Florida policy 65 days before its end (120 days filed), and takes one of a New York policy the same day (30 days)', async () => {
    const effective = addDays(todayIso(), -300);
    const florida = await issueWorkedExample(service, 'Flo Notice', effective, { zip: MIAMI });
    const newYork = await issueWorkedExample(service, 'Nye Notice', effective);
    const refused = await nonRenew(florida.revisionId);
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages[0]).toMatch(/^renewal_status: a Non-Renewal must be decided at least 120 days before the term ends on /);
    const terms = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: florida.policyId }));
    expect(terms[0].renewal_status ?? null).not.toBe('Non-Renewal');
    expect((await nonRenew(newYork.revisionId)).body.success).toBe(true);
  });

  it('takes a Non-Renewal of a Florida policy 121 days before its end', async () => {
    const florida = await issueWorkedExample(service, 'Flo Early', addDays(todayIso(), -244), { zip: MIAMI });
    expect((await nonRenew(florida.revisionId)).body.success).toBe(true);
  });

  it('renews a Florida term 120 days before its end, a New York one still 45 days before', async () => {
    const florida = await issueWorkedExample(service, 'Flo Renewal', '2025-01-01', { zip: MIAMI });
    const newYork = await issueWorkedExample(service, 'Nye Renewal', '2025-01-01');
    // 121 days before 2026-01-01: neither.
    expect(decisionsFor(await nightly('2025-09-02'), florida.policyNumber)).toEqual([]);
    const decided = await nightly('2025-09-03');
    expect(decisionsFor(decided, florida.policyNumber)).toEqual(['renewed']);
    expect(decisionsFor(decided, newYork.policyNumber)).toEqual([]);
    expect(decisionsFor(await nightly('2025-11-17'), newYork.policyNumber)).toEqual(['renewed']);
  }, 180_000);
});
