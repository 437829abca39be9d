/**
 * Renewals: the nightly renewal run over 10,000 issued policies (planner, queue, consumers) on a
 * day when none is due, on a day when 1,000 of them renew (each rated, with its account,
 * invoice and two documents requested), and the same day again; the ratio of the busy night to
 * the quiet one is the figure the README quotes. The policies are seeded straight into the table
 * as copies of one issued through the API (issuing 10,000 through the API would take an hour):
 * each has its policy, its term on the renewal watch and, for the 1,000 due, its own revision.
 */
import { randomUUID } from 'node:crypto';
import { handler as decideTerms } from '../../../events/queues/nightly-renewals/decide_terms.js';
import { planRenewalRun } from '../../../shared/lifecycle/nightly-renewals.js';
import { batchWriteAll } from '../../../shared/platform/dynamo.js';
import { policyKey, renewalWatchIndex, revisionKey, termKey } from '../../../shared/policies/keys.js';
import type { RevisionSnapshot } from '../../../shared/policies/model.js';
import { getPolicyWithTerms, loadRevision } from '../../../shared/policies/store.js';
import { partsRecordOf } from '../../../shared/policies/parts-store.js';
import type { BenchRow, BenchScenario } from '../types.js';
import { timedNightlyRun } from '../scenario-helpers.js';

const P = '/api/v2/policies';

/** Seeds `count` issued policies ending on `expirationDate`, copies of `template`; with `withRevision`, each with a revision of its own to renew from. */
export async function seedPolicies(template: RevisionSnapshot, base: Awaited<ReturnType<typeof getPolicyWithTerms>> & object, count: number, year: number, expirationDate: string, withRevision: boolean) {
  const requests = [];
  const effectiveDate = `${Number(expirationDate.slice(0, 4)) - 1}${expirationDate.slice(4)}`;
  for (let n = 1; n <= count; n += 1) {
    const policyId = randomUUID();
    const termId = randomUUID();
    const revisionId = randomUUID();
    const policyNumber = `10-${year}-${n}`;
    const policy = { ...base.policy, id: policyId, policyNumber, activeTermId: termId, activeRevisionId: revisionId, version: 1 };
    const issuedTerm = base.terms.find((candidate) => candidate.id === base.policy.activeTermId)!;
    const term = { ...issuedTerm, renewal: null, id: termId, policyId, effectiveDate, expirationDate, revisionIds: [revisionId], revisionIndex: {}, version: 1 };
    requests.push({ PutRequest: { Item: { ...policyKey(policyId), ...policy } } }, { PutRequest: { Item: { ...termKey(policyId, termId), ...term, ...renewalWatchIndex(policyId, termId, expirationDate) } } });
    if (withRevision) {
      const header = { ...template.header, id: revisionId, policyId, policyNumber, policyTermId: termId, termStart: effectiveDate, termEnd: expirationDate, revisionDate: effectiveDate, version: 1 };
      requests.push({ PutRequest: { Item: { ...revisionKey(revisionId), ...header } } });
      // The template is a quote's revision: its parts in one record, copied as one.
      requests.push({ PutRequest: { Item: partsRecordOf(revisionId, [...template.risks, ...template.subLines, ...template.items, ...template.mortgagees].map((part) => ({ ...part, revisionId }))) } });
    }
  }
  await batchWriteAll(requests, { concurrency: 8 });
}

const nightlyRenewals = { job: 'renewals', queue: 'nightly-renewals' as const, consumer: decideTerms, plan: planRenewalRun };
const timedRun = async (date: string, workers: number) => {
  const run = await timedNightlyRun(nightlyRenewals, date, workers);
  return { seconds: run.seconds, terms: run.accounts, batches: run.batches };
};

export const scenario: BenchScenario = {
  name: 'renewals',
  async run(context) {
    const rows: BenchRow[] = [];
    const ok = async (path: string, body: Record<string, unknown>) => {
      const call = await context.call(path, body);
      if (call.body?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(call.body)}`);
      return call;
    };
    const today = new Date().toISOString().slice(0, 10);
    const quote = await ok(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
        named_insureds: [{ name: 'Bench Renewal' }], locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    });
    const policyId = quote.body.data.policy_id;
    await ok(`${P}/bind`, { bind_info: { policy_id: policyId } });
    await ok(`${P}/issue`, { issue_info: { policy_id: policyId } });
    const renewed = await ok(`${P}/process_renewals`, { policy_number: quote.body.data.quote_number });
    rows.push({ name: 'process_renewals of one policy (renewed, account, invoice, two documents requested)', readUnits: renewed.readUnits, writeUnits: renewed.writeUnits, ms: Math.round(renewed.ms * 10) / 10 });

    const base = (await getPolicyWithTerms(policyId))!;
    const template = (await loadRevision(base.policy.activeRevisionId))!;
    // 9,000 ending far ahead, 1,000 ending on 2031-06-30.
    await seedPolicies(template, base, 9000, 2094, '2033-06-30', false);
    await seedPolicies(template, base, 1000, 2095, '2031-06-30', true);
    const quiet = await timedRun('2031-01-01', 4);
    rows.push({ name: `nightly renewals, 10,000 policies on the watch, none due (${quiet.terms} terms read, 4 consumers)`, seconds: quiet.seconds, batches: quiet.batches });
    const busy = await timedRun('2031-06-01', 4);
    rows.push({ name: `nightly renewals, 1,000 of 10,000 renew (${busy.terms} terms fanned out, 4 consumers)`, seconds: busy.seconds, batches: busy.batches, ratioToNoneDue: Math.round((busy.seconds / Math.max(quiet.seconds, 0.1)) * 10) / 10 });
    const repeat = await timedRun('2031-06-01', 4);
    rows.push({ name: 'the same day again (changes nothing)', seconds: repeat.seconds, batches: repeat.batches });
    return rows;
  },
};
