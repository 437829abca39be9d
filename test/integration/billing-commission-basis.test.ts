/**
 * What commission is paid on (issue 32): the carrier's setting pays it on written premium (the
 * default: earned when written, a payment earns nothing more) or on collected premium (earned as
 * payments are applied, in proportion of premium to what the term charges, the same 123.99 once
 * paid in full, the same chargeback on a cancellation); and a rewrite charges the old term's
 * commission back on the return premium it transfers while the new term earns its own.
 * The clock is pinned: no day-of-run dependence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import type { CatalogRecord } from '../../shared/catalog/reference-data.js';
import { getCatalogRecord, writeCatalogRecords } from '../../shared/catalog/store.js';
import { clock } from '../../shared/platform/clock.js';
import { loadAccount } from '../../shared/billing/store.js';
import { newAgency } from '../support/agencies.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const B = '/api/v2/billing';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
const TODAY = '2026-03-10';
let service: TestService;

beforeAll(async () => {
  clock.startAt(TODAY);
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
  clock.startAt(undefined);
});

/** The worked example (826.62 premium, 25.00 fee, Full Pay) written by the agency, effective `effective`. */
const issuedForAgency = (agencyId: string, name: string, effective = TODAY) => issueWorkedExample(service, name, effective, { agencyId });

const statement = async (agencyId: string, month = TODAY.slice(0, 7)) => ok(await service.call(`${B}/retrieve_commission_statement`, { agency_id: agencyId, month }));
const lines = (answer: { transactions: Array<{ transaction: string; premium: number; commission: number }> }) => answer.transactions.map((row) => [row.transaction, row.premium, row.commission]);
const pay = async (policyNumber: string, amount: string) => ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount } }));

/** The carrier paying commission on collected premium, for the length of `run`. */
async function onCollectedBasis(run: () => Promise<void>) {
  const carrier = (await getCatalogRecord<CatalogRecord>('CARRIER'))!;
  try {
    await writeCatalogRecords([{ ...carrier, ...catalogKey('CARRIER'), commissionBasis: 'collected' }]);
    await run();
  } finally {
    await writeCatalogRecords([carrier]);
  }
}

describe('commission basis', () => {
  it('on written premium (the default): 123.99 earned at issue, a payment earns nothing more', async () => {
    const agency = await newAgency();
    const policy = await issuedForAgency(agency, 'Wes Written');
    await pay(policy.policyNumber, '851.62');
    expect(lines(await statement(agency))).toEqual([['New Business', 826.62, 123.99]]);
  });

  it('on collected premium: nothing at issue, each payment earns its share (62.00 then 61.99, 123.99 in all), a bounced payment takes its share back, a cancellation charges back 108.99 as on written', async () => {
    const agency = await newAgency();
    let policy!: Awaited<ReturnType<typeof issuedForAgency>>;
    await onCollectedBasis(async () => {
      policy = await issuedForAgency(agency, 'Cole Collected');
    });
    // The basis is fixed for the term when written: the setting back to written changes nothing for it.
    expect(lines(await statement(agency))).toEqual([]);
    await pay(policy.policyNumber, '425.81');
    expect(lines(await statement(agency))).toEqual([['Collection', 413.31, 62]]);
    // The check bounces: what it earned is taken back with the NSF reversal.
    const bounced = (await loadAccount(policy.policyId, policy.termId))!.entries.find((entry) => entry.type === 'Payment')!;
    ok(await service.call('/api/v1/policies/storeNSF', { json_dict: { paymentId: bounced.id, policyId: policy.policyId, assessFee: '0', allowCancel: 'true' } }));
    expect(lines(await statement(agency))).toEqual([['Collection', 413.31, 62], ['Collection', -413.31, -62]]);
    await pay(policy.policyNumber, '425.81');
    await pay(policy.policyNumber, '425.81');
    const paid = await statement(agency);
    expect(lines(paid).slice(2)).toEqual([['Collection', 413.31, 62], ['Collection', 413.31, 61.99]]);
    expect(paid.totals).toMatchObject({ premium: 826.62, commission: 123.99 });

    ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: '2026-04-09', cancel_reason_id: INSUREDS_REQUEST }));
    const cancelled = await statement(agency);
    expect(lines(cancelled).at(-1)).toEqual(['Cancellation', -726.62, -108.99]);
    expect(cancelled.totals).toMatchObject({ premium: 100, commission: 15 });
  });

  it('a rewrite charges back the old term\'s commission on the 600.14 it transfers (-90.02) and the new term earns new business commission on its 713.36 (107.00)', async () => {
    const agency = await newAgency();
    // A 365-day term from 2025-11-20; rewritten remainder of term on day 100 (2026-02-28).
    const policy = await issuedForAgency(agency, 'Rhea Rewrite', '2025-11-20');
    expect(lines(await statement(agency))).toEqual([['New Business', 826.62, 123.99]]);
    const opened = ok(await service.call(`${P}/rewrite_policy`, { policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: '2026-02-28' }));
    const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: opened.revision_id }));
    const dwelling = revision.items.find((item: { name: string }) => item.name === 'Dwelling');
    ok(await service.call(`${P}/update_rating_information`, { revision_id: opened.revision_id, items: [{ id: dwelling.id, limit: 300000 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: opened.revision_id }));
    const issued = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: opened.revision_id } }));
    expect(issued).toMatchObject({ return_premium: 600.14, written_premium: 713.36 });
    const after = await statement(agency);
    expect(after.transactions.map((row: Record<string, unknown>) => [row.transaction, row.effective_date, row.premium, row.rate, row.commission])).toEqual([
      ['New Business', '2025-11-20', 826.62, 15, 123.99],
      ['Cancellation', '2026-02-28', -600.14, 15, -90.02],
      ['Rewrite', '2026-02-28', 713.36, 15, 107],
    ]);
    expect(after.totals).toMatchObject({ commission: 140.97 });
  });
});
