/**
 * What an agency is paid and its statement as a document (issue 32): an Administrator records a
 * commission payment, which the statement of the month paid on shows as paid and which lowers the
 * balance carried forward; the statement as a PDF is a file of the agency in the documents area,
 * queued for print, read back with pdftotext. The clock is pinned: no day-of-run dependence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/platform/clock.js';
import { agentOf, fetchFile, pdfText } from '../support/documents.js';
import { newAgency as agencyWith } from '../support/agencies.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const B = '/api/v2/billing';
let service: TestService;

beforeAll(async () => {
  clock.startAt('2026-02-10');
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
  clock.startAt(undefined);
});

/** An agency with its mailing address (the statement prints it). */
const newAgency = () =>
  agencyWith({ name: 'Harbor Agency', addresses: [{ id: crypto.randomUUID(), addressLine1: '9 Harbor Rd', addressCity: 'Albany', addressState: 'NY', addressZip: '12207', addressCountry: 'US' }] as never });

/** The worked example (826.62 premium) written by the agency, effective the clock's day. */
const issuedForAgency = (agencyId: string, name: string) => issueWorkedExample(service, name, undefined, { agencyId });

const statement = async (agencyId: string, month: string, format = 'json', apiKey?: string) =>
  ok(await service.call(`${B}/retrieve_commission_statement`, { agency_id: agencyId, month, format }, apiKey ? { apiKey } : {}));
const pay = (body: Record<string, unknown>, options: { key?: string; apiKey?: string } = {}) =>
  service.call(`${B}/record_commission_payment`, body, { ...(options.key ? { headers: { 'Idempotency-Key': options.key } } : {}), ...(options.apiKey ? { apiKey: options.apiKey } : {}) });

describe('agency commission payments and the statement as a PDF', () => {
  it("records a payment once, shows it as paid on its month's statement and carries the lower balance forward; bad fields are named and store nothing", async () => {
    clock.startAt('2026-02-10');
    const agency = await newAgency();
    const policy = await issuedForAgency(agency, 'Paula Paid');
    expect((await statement(agency, '2026-02')).totals).toEqual({ premium: 826.62, commission: 123.99, previous_balance: 0, paid: 0, balance: 123.99 });

    clock.startAt('2026-03-10');
    const body = { agency_id: agency, amount: '100.00', paid_on: '2026-03-05', reference: 'CHK-1001' };
    const first = await pay(body, { key: `pay-${agency}` });
    expect(ok(first)).toMatchObject({ agency_id: agency, paid_on: '2026-03-05', amount: 100, reference: 'CHK-1001' });
    expect((await pay(body, { key: `pay-${agency}` })).body).toEqual(first.body);
    const twice = await pay(body, { key: `again-${agency}` });
    expect(twice.body).toMatchObject({ success: false, messages: ['reference: a payment CHK-1001 is already recorded for this agency'] });

    for (const [bad, field] of [
      [{ ...body, reference: 'R0', amount: 0 }, 'amount'],
      [{ ...body, reference: 'R1', amount: '12.345' }, 'amount'],
      [{ ...body, reference: 'R2', paid_on: '2026-03-11' }, 'paid_on'],
      [{ ...body, reference: 'R3', paid_on: 'March' }, 'paid_on'],
      [{ ...body, reference: '' }, 'reference'],
      [{ ...body, reference: 'R4', agency_id: policy.policyId }, 'agency_id'],
    ] as const) {
      const refused = await pay(bad);
      expect(refused.body.success, JSON.stringify(bad)).toBe(false);
      expect(JSON.stringify(refused.body.messages)).toContain(field);
    }
    const agent = await agentOf([agency]);
    expect((await pay({ ...body, reference: 'R5' }, { apiKey: agent.apiKey })).body.success).toBe(false);

    const march = await statement(agency, '2026-03');
    expect(march.payments).toEqual([expect.objectContaining({ paid_on: '2026-03-05', amount: 100, reference: 'CHK-1001' })]);
    expect(march.totals).toEqual({ premium: 0, commission: 0, previous_balance: 123.99, paid: 100, balance: 23.99 });
    expect((await statement(agency, '2026-02')).totals.paid).toBe(0);
    const csv = (await statement(agency, '2026-03', 'csv')).csv as string;
    expect(csv).toContain('Payment CHK-1001,,,2026-03-05,,,-100.00\nPaid,,,,,,100.00\nBalance,,,,,,23.99\n');

    clock.startAt('2026-04-10');
    expect((await statement(agency, '2026-04')).totals).toMatchObject({ previous_balance: 23.99, paid: 0, balance: 23.99 });
  });

  it('makes the statement a PDF file of the agency, queued for print, that reads back with its lines, previous balance and what was paid; the same statement answers the same file', async () => {
    clock.startAt('2026-05-04');
    const agency = await newAgency();
    const policy = await issuedForAgency(agency, 'Dora Document');
    ok(await pay({ agency_id: agency, amount: '23.99', paid_on: '2026-05-04', reference: 'ACH-77' }));
    const agent = await agentOf([agency]);
    const answered = await statement(agency, '2026-05', 'pdf', agent.apiKey);
    expect(answered.totals).toEqual({ premium: 826.62, commission: 123.99, previous_balance: 0, paid: 23.99, balance: 100 });
    expect(answered.deliverable).toMatchObject({ file_id: expect.any(String), print_date: expect.stringMatching(/^2026-05-\d\d$/) });
    const file = await fetchFile(service, answered.deliverable.file_id, {}, agent.apiKey);
    expect(file.status).toBe(200);
    const text = pdfText(file.bytes).replace(/[ \t]+/g, ' ');
    for (const expected of ['Commission Statement', 'Harbor Agency', '9 Harbor Rd', policy.policyNumber, 'Dora Document', 'New Business', '826.62', '123.99', 'ACH-77', 'Previous balance 0.00', 'Paid 23.99', 'Balance 100.00']) {
      expect(text).toContain(expected);
    }
    expect((await statement(agency, '2026-05', 'pdf')).deliverable.file_id).toBe(answered.deliverable.file_id);
    // Another agency's agent reaches neither the statement nor its file.
    const stranger = await agentOf([crypto.randomUUID()]);
    expect((await service.call(`${B}/retrieve_commission_statement`, { agency_id: agency, month: '2026-05', format: 'pdf' }, { apiKey: stranger.apiKey })).body.success).toBe(false);
    const refused = await fetchFile(service, answered.deliverable.file_id, {}, stranger.apiKey);
    expect(refused.contentType).not.toBe('application/pdf');
    expect(new TextDecoder().decode(refused.bytes)).toContain('not found');
  });
});
