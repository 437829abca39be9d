/**
 * Billing: warm latency of posting a manual payment, lockbox throughput for a 1,000-line
 * file (one check per policy, 1,000 policies), and the nightly billing run over 10,000
 * accounts (planner, queue, consumers) on a day when nothing is due and on a day when
 * 1,000 of them fall into cancellation pending. Accounts for the lockbox and the nightly
 * run are seeded straight into the table (issuing 10,000 policies through the API would
 * take the bench an hour); they are the records issue writes.
 */
import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { handler as decideAccounts } from '../../../events/queues/nightly-billing/decide_accounts.js';
import { handler as applyChunk } from '../../../events/queues/lockbox-chunks/apply_chunk.js';
import { startQueuePoller } from '../../../infra/local/queue-poller.js';
import { invoiceEntry } from '../../../shared/billing/account-history.js';
import { lockboxPolicyNumber } from '../../../shared/billing/lockbox.js';
import type { BillingAccount } from '../../../shared/billing/model.js';
import { planNightlyBilling } from '../../../shared/billing/nightly.js';
import { newAccountItems } from '../../../shared/billing/store.js';
import { config } from '../../../shared/platform/config.js';
import { batchWriteAll } from '../../../shared/platform/dynamo.js';
import { policyKey, termKey } from '../../../shared/policies/keys.js';
import type { PolicyRecord, RevisionRecord, TermRecord } from '../../../shared/policies/model.js';
import { getPolicyWithTerms, getRevisionHeaders, searchableOf } from '../../../shared/policies/store.js';
import { searchRecordOfNewPolicy } from '../../../shared/search/index-store.js';
import type { BenchRow, BenchScenario } from '../types.js';
import { timedNightlyRun } from '../scenario-helpers.js';

const P = '/api/v2/policies';

/** An issued policy the seeded accounts of the pending day copy: each gets a policy, a term and a search record of its own, on the issued revision. */
interface IssuedTemplate {
  policy: PolicyRecord;
  term: TermRecord;
  revision: RevisionRecord;
}

/**
 * Seeds `count` issued accounts, each with one Full Pay invoice of 851.62 due on `dueDate`.
 * With `issued`, each account's policy and term exist too (copies of the issued policy on its
 * revision): the nightly job's pending cancellation is recorded on the term, and its Notice of
 * Cancellation is printed from that revision.
 */
export async function seedAccounts(count: number, year: number, dueDate: string, issued?: IssuedTemplate): Promise<string[]> {
  const revisionId = issued?.revision.id;
  const numbers: string[] = [];
  const requests = [];
  for (let n = 1; n <= count; n += 1) {
    const policyNumber = `10-${year}-${n}`;
    numbers.push(policyNumber);
    const account: BillingAccount = {
      policyId: randomUUID(), termId: randomUUID(), policyNumber, lockboxNumber: lockboxPolicyNumber(policyNumber), revisionId: revisionId ?? randomUUID(),
      scheduleId: '6166af2a-7070-45b8-a722-d84dc6b765b4', effectiveDate: dueDate, expirationDate: `${Number(dueDate.slice(0, 4)) + 1}${dueDate.slice(4)}`,
      policyStatus: 'Active', agencyId: null, contactIds: [], balanceCents: 85162,
      nonPayment: { status: 'current', cancelDate: null, chargeId: null }, nightlyDate: null, version: 1,
    };
    const invoice = invoiceEntry({ id: randomUUID(), postedAt: new Date().toISOString(), generatedBy: 'bench', policyStatus: 'Active' }, {
      number: 1, billDate: dueDate, dueDate, amountDueCents: 85162,
      details: [{ type: 'Premium', amountCents: 82662 }, { type: 'Custom Fee Fully Earned', amountCents: 2500 }],
    }, 1);
    for (const Item of newAccountItems(account, [invoice])) requests.push({ PutRequest: { Item } });
    if (issued) {
      const policy: PolicyRecord = { ...issued.policy, id: account.policyId, policyNumber, activeTermId: account.termId, version: 1 };
      const term: TermRecord = { ...issued.term, id: account.termId, policyId: account.policyId, effectiveDate: account.effectiveDate, expirationDate: account.expirationDate, version: 1 };
      requests.push({ PutRequest: { Item: { ...policyKey(policy.id), ...policy } } }, { PutRequest: { Item: { ...termKey(policy.id, term.id), ...term } } });
      const searchable = searchableOf(policy, term, issued.revision, { namedInsuredNames: ['Bench Billing'], policyTypeName: 'Homeowner - HO3' });
      for (const write of searchRecordOfNewPolicy(searchable)) if (write.Put) requests.push({ PutRequest: { Item: write.Put.Item as Record<string, unknown> } });
    }
  }
  await batchWriteAll(requests, { concurrency: 8 });
  return numbers;
}

const nightlyBilling = { job: 'billing', queue: 'nightly-billing' as const, consumer: decideAccounts, plan: planNightlyBilling };
const timedNightly = (date: string, workers: number) => timedNightlyRun(nightlyBilling, date, workers);

export const scenario: BenchScenario = {
  name: 'billing',
  async run(context) {
    const rows: BenchRow[] = [];
    const ok = async (path: string, body: Record<string, unknown>, headers?: Record<string, string>) => {
      const call = await context.call(path, body, headers ? { headers } : {});
      if (call.body?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(call.body)}`);
      return call;
    };
    const today = new Date().toISOString().slice(0, 10);
    const quote = await ok(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
        named_insureds: [{ name: 'Bench Billing' }], locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    });
    const policyId = quote.body.data.policy_id;
    await ok(`${P}/bind`, { bind_info: { policy_id: policyId } });
    const issued = await ok(`${P}/issue`, { issue_info: { policy_id: policyId } });
    rows.push({ name: 'issue with its Full Pay invoice (one call)', readUnits: issued.readUnits, writeUnits: issued.writeUnits, ms: Math.round(issued.ms * 10) / 10 });
    const policyNumber = quote.body.data.quote_number;
    const payment = await ok('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount: '0.01' } });
    rows.push({ name: 'makeManualPolicyPayment (one call)', readUnits: payment.readUnits, writeUnits: payment.writeUnits, ms: Math.round(payment.ms * 10) / 10 });
    const history = await ok(`${P}/retrieve_account_history`, { policy_id: policyId });
    rows.push({ name: 'retrieve_account_history (one call)', readUnits: history.readUnits, writeUnits: history.writeUnits, ms: Math.round(history.ms * 10) / 10 });
    rows.push({
      name: 'makeManualPolicyPayment warm latency, 4 at a time on one policy',
      ...(await context.latency('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount: '0.01' } }, { requests: 200, concurrency: 4 })),
    });

    const lockboxNumbers = await seedAccounts(1000, 2091, today);
    const file = lockboxNumbers.map((number, index) => ({ policy: lockboxPolicyNumber(number), check: `9${index}`, payment: '851.62' }));
    const lockboxKey = { 'Idempotency-Key': `bench-lockbox-${randomUUID()}` };
    const applied = await ok(`${P}/apply_lockbox_payment_transactions`, { transactions: file }, lockboxKey);
    const posted = (applied.body.data as Array<{ result: string }>).filter((line) => line.result === 'success').length;
    if (posted !== 1000) throw new Error(`lockbox posted ${posted} of 1000`);
    rows.push({ name: 'apply_lockbox_payment_transactions, 1,000 lines on 1,000 policies', ms: Math.round(applied.ms), txPerSecond: Math.round(1000 / (applied.ms / 1000)), writeUnits: applied.writeUnits });
    const replayed = await ok(`${P}/apply_lockbox_payment_transactions`, { transactions: file }, lockboxKey);
    rows.push({ name: 'the same 1,000-line file again, same Idempotency-Key (first answer replayed, nothing posted)', ms: Math.round(replayed.ms), readUnits: replayed.readUnits, writeUnits: replayed.writeUnits });
    const judgedAgain = await ok(`${P}/apply_lockbox_payment_transactions`, { transactions: file });
    if ((judgedAgain.body.data as Array<{ result: string }>).some((line) => line.result === 'success')) throw new Error('the same lockbox file without a key posted again');
    rows.push({ name: 'the same 1,000-line file again, no key (each line: already posted)', ms: Math.round(judgedAgain.ms), readUnits: judgedAgain.readUnits, writeUnits: judgedAgain.writeUnits });
    // A file ten times that size: accepted at once, applied in chunks by 4 local consumers (Lambda would run more).
    const bigNumbers = await seedAccounts(10_000, 2096, today);
    const bigFile = bigNumbers.map((number, index) => ({ policy: lockboxPolicyNumber(number), check: `8${index}`, payment: '851.62' }));
    const bigClient = new SQSClient({});
    const chunkPollers = Array.from({ length: 4 }, () =>
      startQueuePoller({ client: bigClient, queueUrl: config.queueUrl('lockbox-chunks'), handler: applyChunk, batchSize: 2, waitTimeSeconds: 1 }),
    );
    try {
      const began = performance.now();
      const accepted = await ok(`${P}/apply_lockbox_payment_transactions`, { transactions: bigFile });
      const fileId = accepted.body.data.file_id as string;
      let answered = await ok(`${P}/retrieve_lockbox_file_result`, { file_id: fileId });
      while (answered.body.data.status !== 'done') {
        await new Promise((resolve) => setTimeout(resolve, 250));
        answered = await ok(`${P}/retrieve_lockbox_file_result`, { file_id: fileId });
      }
      const seconds = (performance.now() - began) / 1000;
      const postedBig = (answered.body.data.results as Array<{ result: string }>).filter((line) => line.result === 'success').length;
      if (postedBig !== 10_000) throw new Error(`the 10,000-line file posted ${postedBig}`);
      const syncRate = 1000 / (applied.ms / 1000);
      rows.push({ name: 'apply_lockbox_payment_transactions, 10,000 lines, in chunks (4 consumers), end to end', seconds: Math.round(seconds * 10) / 10, txPerSecond: Math.round(10_000 / seconds), ratioToSync1000: Math.round((10_000 / seconds / syncRate) * 100) / 100, acceptedInMs: Math.round(accepted.ms) });
    } finally {
      await Promise.all(chunkPollers.map((poller) => poller.stop()));
      bigClient.destroy();
    }
    const matchfile = await ok(`${P}/retrieve_lockbox_matchfile_info`, {});
    rows.push({ name: 'retrieve_lockbox_matchfile_info over 1,001 accounts', ms: Math.round(matchfile.ms), readUnits: matchfile.readUnits });

    // 9,000 accounts due far ahead and 1,000 due (and unpaid) on 2030-01-01.
    await seedAccounts(9000, 2092, '2031-01-01');
    // The 1,000 going pending get their Notice of Cancellation rendered from the issued revision.
    const stored = (await getPolicyWithTerms(policyId))!;
    const [revision] = await getRevisionHeaders([stored.policy.activeRevisionId]);
    await seedAccounts(1000, 2093, '2030-01-01', { policy: stored.policy, term: stored.terms[0], revision });
    const quiet = await timedNightly('2029-06-01', 4);
    rows.push({ name: `nightly billing, ${quiet.accounts} accounts, nothing due (4 consumers)`, seconds: quiet.seconds, batches: quiet.batches });
    const busy = await timedNightly('2030-01-02', 4);
    rows.push({ name: `nightly billing, ${busy.accounts} accounts, 1,000 fall into cancellation pending, each requesting its Notice of Cancellation (4 consumers)`, seconds: busy.seconds, batches: busy.batches });
    const repeat = await timedNightly('2030-01-02', 4);
    rows.push({ name: 'the same day again (changes nothing)', seconds: repeat.seconds, batches: repeat.batches });
    return rows;
  },
};
