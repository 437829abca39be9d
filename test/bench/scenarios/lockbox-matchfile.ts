/**
 * The lockbox matchfile (retrieve_lockbox_matchfile_info) read from the lockbox-due records:
 * with the owing accounts the run holds when the scenario starts (none when it runs alone), with
 * 2,200 more seeded as issue writes them (account, invoice, lockbox number, lockbox-due record),
 * and with 100,000 owing accounts, walked in pages of 25,000 (more than one answer carries). The
 * 100,000 are seeded as their lockbox-due records only: the matchfile reads nothing else, and
 * seeding 400,000 items would take the bench many minutes (BENCH_MATCHFILE_100K=0 skips them).
 * Times are p50 of repeated calls, as ratios to the baseline call of the same run.
 */
import { randomUUID } from 'node:crypto';
import { invoiceEntry } from '../../../shared/billing/account-history.js';
import { lockboxPolicyNumber } from '../../../shared/billing/lockbox.js';
import type { BillingAccount } from '../../../shared/billing/model.js';
import { newAccountItems } from '../../../shared/billing/store.js';
import { batchWriteAll } from '../../../shared/platform/dynamo.js';
import type { BenchCall, BenchContext, BenchRow, BenchScenario } from '../types.js';

const PATH = '/api/v2/policies/retrieve_lockbox_matchfile_info';

/** Accounts owing one Full Pay invoice of 851.62 billed today, as issue writes them; `dueOnly` writes only their lockbox-due records. */
async function seedOwing(count: number, year: number, options: { dueOnly?: boolean } = {}): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const requests: Array<{ PutRequest: { Item: Record<string, unknown> } }> = [];
  for (let n = 1; n <= count; n += 1) {
    const policyNumber = `77-${year}-${n}`;
    const account: BillingAccount = {
      policyId: randomUUID(), termId: randomUUID(), policyNumber, lockboxNumber: lockboxPolicyNumber(policyNumber), revisionId: randomUUID(),
      scheduleId: '6166af2a-7070-45b8-a722-d84dc6b765b4', effectiveDate: today, expirationDate: `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`,
      policyStatus: 'Active', agencyId: null, contactIds: [], balanceCents: 85162,
      nonPayment: { status: 'current', cancelDate: null, chargeId: null }, nightlyDate: null, version: 1,
    };
    const invoice = invoiceEntry({ id: randomUUID(), postedAt: new Date().toISOString(), generatedBy: 'bench', policyStatus: 'Active' }, {
      number: 1, billDate: today, dueDate: today, amountDueCents: 85162,
      details: [{ type: 'Premium', amountCents: 82662 }, { type: 'Custom Fee Fully Earned', amountCents: 2500 }],
    }, 1);
    const items = newAccountItems(account, [invoice]);
    for (const Item of options.dueOnly ? items.filter((item) => item.entity === 'LockboxDue') : items) requests.push({ PutRequest: { Item } });
  }
  await batchWriteAll(requests, { concurrency: 8 });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** p50 of `times` calls (after one warm-up), with the capacity and answer of the last. */
async function measured(context: BenchContext, body: Record<string, unknown>, times = 5): Promise<{ p50: number; last: BenchCall }> {
  await context.call(PATH, body);
  const durations: number[] = [];
  let last: BenchCall | undefined;
  for (let i = 0; i < times; i += 1) {
    last = await context.call(PATH, body);
    if (last.body?.success !== true) throw new Error(`matchfile answered ${JSON.stringify(last.body).slice(0, 300)}`);
    durations.push(last.ms);
  }
  return { p50: Math.round(median(durations) * 10) / 10, last: last! };
}

/** A walk over every page, page_size `pageSize`: its total time, capacity and lines. */
async function walk(context: BenchContext, pageSize: number) {
  let token: string | null = null;
  let ms = 0;
  let readUnits = 0;
  let lines = 0;
  let pages = 0;
  let largestAnswerBytes = 0;
  do {
    const answer: BenchCall = await context.call(PATH, { page_size: pageSize, ...(token ? { page_token: token } : {}) });
    if (answer.body?.success !== true) throw new Error(`matchfile page answered ${JSON.stringify(answer.body).slice(0, 300)}`);
    ms += answer.ms;
    readUnits += answer.readUnits;
    lines += answer.body.data.length;
    pages += 1;
    largestAnswerBytes = Math.max(largestAnswerBytes, JSON.stringify(answer.body).length);
    token = answer.body.next_page_token;
  } while (token);
  return { ms: Math.round(ms), readUnits, lines, pages, largestAnswerBytes };
}

export const scenario: BenchScenario = {
  name: 'lockbox-matchfile',
  async run(context) {
    const rows: BenchRow[] = [];
    const before = await measured(context, {});
    const present = before.last.body.data.length as number;
    rows.push({ name: `matchfile, ${present} lines owing when the scenario starts`, p50: before.p50, readUnits: before.last.readUnits, lines: present });

    await seedOwing(2_200, 2091);
    const owing2200 = await measured(context, {});
    rows.push({ name: `matchfile, 2,200 accounts owing (+${present} present)`, p50: owing2200.p50, readUnits: owing2200.last.readUnits, lines: owing2200.last.body.data.length, answerBytes: JSON.stringify(owing2200.last.body).length });

    if (process.env.BENCH_MATCHFILE_100K !== '0') {
      await seedOwing(100_000 - 2_200, 2092, { dueOnly: true });
      const unpaged = await context.call(PATH, {});
      rows.push({ name: 'matchfile unpaged, 100,000 owing: refused, asking for pages', ms: Math.round(unpaged.ms), readUnits: unpaged.readUnits, success: String(unpaged.body?.success) });
      const walked = await walk(context, 25_000);
      rows.push({ name: `matchfile in pages of 25,000, 100,000 owing (+${present}): whole walk`, ms: walked.ms, readUnits: walked.readUnits, lines: walked.lines, pages: walked.pages, largestAnswerBytes: walked.largestAnswerBytes });
      const firstPage = await measured(context, { page_size: 25_000 }, 3);
      rows.push({ name: 'matchfile first page of 25,000, 100,000 owing', p50: firstPage.p50, readUnits: firstPage.last.readUnits, lines: firstPage.last.body.data.length });
    }
    return rows;
  },
};
