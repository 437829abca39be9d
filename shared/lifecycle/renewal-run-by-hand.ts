/**
 * process_renewals without a policy number plans a day's run exactly as the nightly schedule
 * does (nightly-renewals.ts). That planner sends to the queue, so it brings the SQS client: it is
 * loaded by such a call only (a module of its own beside the bundle), not parsed at every cold
 * start of an operation that mostly renews one policy.
 */
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';

const nightlyRenewals = /* @__PURE__ */ moduleOnFirstUse<typeof import('./nightly-renewals.js')>(new URL('./nightly-renewals.mjs', import.meta.url), new URL('./nightly-renewals.ts', import.meta.url));

export async function planRenewalRunByHand(date: string): Promise<{ runId: string; batches: number; accounts: number }> {
  return (await nightlyRenewals()).planRenewalRun(date);
}
