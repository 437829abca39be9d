/**
 * Deliverables as a client gets them: a Declaration of the worked example whose PDF reads
 * the policy number, the named insured and the 826.62 premium; the Declaration issuing
 * creates; a custom HTML deliverable; files fetched with their content type, removed when
 * viewed once if asked, and refused to an agent of another agency.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import type { Context, SQSRecord } from 'aws-lambda';
import { loadAccount } from '../../shared/billing/store.js';
import { formatMoney, formatDocumentDate } from '../../shared/documents/format.js';
import { declarationAtIssue as declarationPart, noticeOfCancellation as noticePart } from '../../shared/documents/joins-moves.js';
import type { CancelledTerm, CommittedRevision } from '../../shared/lifecycle/index.js';

/** Documents' parts in the cancel and issue moves, as the writes they land in the move's transaction. */
const noticeOfCancellation = async (cancelled: CancelledTerm) => (await noticePart(cancelled)).writes;
const declarationAtIssue = async (committed: CommittedRevision) => (await declarationPart(committed)).writes;
import { getDeliverableRequest, markDeliverableRequestRendered } from '../../shared/documents/request-store.js';
import { handler as renderDeliverables } from '../../events/queues/documents/render_deliverables.js';
import { runTransaction } from '../../shared/platform/transactions.js';
import { todayIso } from '../../shared/platform/dates.js';
import { agentOf, fetchFile as fetchFrom, pdfText, workedExampleQuote as quoteOf } from '../support/documents.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const workedExampleQuote = (apiKey?: string, insured?: string) => quoteOf(service, { ...(apiKey ? { apiKey } : {}), ...(insured ? { insured } : {}) });
const agent = agentOf;
const fetchFile = (id: string, extra: Record<string, unknown> = {}, apiKey?: string) => fetchFrom(service, id, extra, apiKey);

const fileIdOf = (path: string) => path.split('/').filter(Boolean).at(-1)!;

describe('create_deliverable', () => {
  it('renders the worked example as a Declaration whose PDF shows the policy number, the named insured and the 826.62 premium', async () => {
    const quote = await workedExampleQuote();
    const data = ok(await service.call('/api/v1/deliverables/create_deliverable', { revision_id: quote.revisionId, deliverable_type: 'Declaration' }));
    expect(data.deliverable_url).toEqual({ url: expect.stringMatching(/^s3:\/\/.+\/policies\//), path: `policies/${quote.policyId}/files/${data.file_id}/` });

    const file = await fetchFile(data.file_id);
    expect(file.status).toBe(200);
    expect(file.contentType).toBe('application/pdf');
    expect(Buffer.from(file.bytes.slice(0, 5)).toString()).toBe('%PDF-');
    const text = pdfText(file.bytes);
    expect(text).toContain(quote.policyNumber);
    expect(text).toContain('Jordan Avery');
    expect(text).toContain('826.62');
    expect(text).toContain('HO 00 03');
    expect(text).toContain('42 Maple Avenue');
    expect(text).toMatch(/Frame\s+3/);
    // Its first page as a picture (docs/declaration-page-1.png is this page of the README's worked example, Pat Example).
    const dir = mkdtempSync(join(tmpdir(), 'declaration-'));
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', '-', join(dir, 'page')], { input: Buffer.from(file.bytes) });
    const png = readFileSync(join(dir, 'page.png'));
    rmSync(dir, { recursive: true, force: true });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.byteLength).toBeGreaterThan(20_000);
  });

  it('renders every deliverable type of the issue, each a PDF naming the policy', async () => {
    const quote = await workedExampleQuote();
    for (const type of ['Policy Application', 'Quote Summary', 'Installment Billing Statement', 'Notice of Cancellation']) {
      const data = ok(await service.call('/api/v1/deliverables/create_deliverable', { revision_id: quote.revisionId, deliverable_type: type, go_date: todayIso() }));
      const text = pdfText((await fetchFile(data.file_id)).bytes);
      expect(text, type).toContain(quote.policyNumber);
    }
  });

  it('answers a retry with the same Idempotency-Key with the first file, storing one', async () => {
    const quote = await workedExampleQuote();
    const headers = { 'Idempotency-Key': `retry-${crypto.randomUUID()}` };
    const body = { revision_id: quote.revisionId, deliverable_type: 'Quote Summary' };
    const first = ok(await service.call('/api/v1/deliverables/create_deliverable', body, { headers }));
    const retried = ok(await service.call('/api/v1/deliverables/create_deliverable', body, { headers }));
    expect(retried).toEqual(first);
    const another = ok(await service.call('/api/v1/deliverables/create_deliverable', body));
    expect(another.file_id).not.toBe(first.file_id);
    expect((await listPolicyAttachments(quote.policyId)).map((file) => file.fileId).sort()).toEqual([first.file_id, another.file_id].sort());
  });

  it('refuses an unknown type or revision by name, storing nothing', async () => {
    const quote = await workedExampleQuote();
    const unknownType = await service.call('/api/v1/deliverables/create_deliverable', { revision_id: quote.revisionId, deliverable_type: 'Love Letter' });
    expect(unknownType.body).toMatchObject({ success: false, message: [expect.stringContaining('deliverable_type')] });
    const unknownRevision = await service.call('/api/v1/deliverables/create_deliverable', { revision_id: crypto.randomUUID(), deliverable_type: 'Declaration' });
    expect(unknownRevision.body).toMatchObject({ success: false, message: [expect.stringMatching(/Revision .* was not found/)] });
    const badDelay = await service.call('/api/v1/deliverables/create_deliverable', { revision_id: quote.revisionId, deliverable_type: 'Declaration', delay_print_days: -1 });
    expect(badDelay.body).toMatchObject({ success: false, message: [expect.stringContaining('delay_print_days')] });
    expect(await listPolicyAttachments(quote.policyId)).toEqual([]);
  });
});

describe('the Declaration at issue and the Notice of Cancellation', () => {
  it('issuing the worked example records its Declaration, queued to print, with the 826.62 premium', async () => {
    const quote = await workedExampleQuote();
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: quote.policyId } }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: quote.policyId } }));
    await service.deliverablesRendered();
    const files = await listPolicyAttachments(quote.policyId);
    expect(files).toEqual([expect.objectContaining({ deliverableType: 'Declaration', printState: 'tbd', policyNumber: quote.policyNumber, revisionId: quote.revisionId })]);
    expect(files[0].printDate! >= todayIso()).toBe(true);
    expect(pdfText((await fetchFile(files[0].fileId)).bytes)).toContain('826.62');
  });

  it('a policy issued on Monthly shows on its Declaration the very installments its invoices bill', async () => {
    const quote = await workedExampleQuote();
    const options = ok(await service.call(`${P}/retrieve_billing_schedule_options`, { policy_number: quote.policyNumber, policy_term_id: null }));
    const monthly = options.find((option: { label: string }) => option.label === 'Monthly');
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: quote.policyId } }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: quote.policyId, billing_schedule_id: monthly.id } }));
    await service.deliverablesRendered();
    const [declaration] = await listPolicyAttachments(quote.policyId);
    const lines = pdfText((await fetchFile(declaration.fileId)).bytes).split('\n');
    const invoices = (await loadAccount(quote.policyId, quote.policy.active_policy_term.id))!.entries.filter((entry) => entry.type === 'Invoice').sort((a, b) => a.dueDate!.localeCompare(b.dueDate!));
    expect(invoices).toHaveLength(10);
    invoices.forEach((invoice, index) => {
      const row = lines.find((line) => line.trimStart().startsWith(`${index + 1} of ${invoices.length} `));
      expect(row, `installment ${index + 1}`).toBeDefined();
      expect(row).toContain(formatDocumentDate(invoice.dueDate!));
      expect(row!.trimEnd().endsWith(formatMoney(invoice.amountCents))).toBe(true);
    });
  });

  it('a Notice of Cancellation lands with the cancellation, printing its reason and return premium; a pending one warns ahead of the date', async () => {
    const quote = await workedExampleQuote();
    const cancelled = {
      policyId: quote.policyId, policyNumber: quote.policyNumber, termId: 'term', revisionId: quote.revisionId, inForceRevisionId: quote.revisionId, cancelDate: todayIso(),
      reason: "Insured's Request", returnPremiumCents: 41234, namedInsuredContactIds: [],
      reasonId: 'reason', termEffectiveDate: todayIso(), termExpirationDate: todayIso(), contactIds: [], summary: 'test', decisionDate: todayIso(), decidedAt: new Date().toISOString(), decidedBy: 'test',
    };
    const pending = await noticeOfCancellation({ ...cancelled, outcome: 'pending', reason: 'Non-Payment of Premium' });
    expect(pending).toHaveLength(1);
    await runTransaction(pending, { label: 'test pending cancellation' });
    await service.deliverablesRendered();
    const [ahead] = await listPolicyAttachments(quote.policyId);
    const warning = pdfText((await fetchFile(ahead.fileId)).bytes);
    expect(warning).toContain('will be cancelled effective');
    expect(warning).not.toContain('Return premium');
    const writes = await noticeOfCancellation({ ...cancelled, outcome: 'cancelled' });
    expect(writes).toHaveLength(1);
    await runTransaction(writes, { label: 'test cancellation' });
    await service.deliverablesRendered();
    const notice = (await listPolicyAttachments(quote.policyId)).find((file) => file.fileId !== ahead.fileId)!;
    expect(notice).toMatchObject({ deliverableType: 'Notice of Cancellation', printState: 'tbd' });
    const text = pdfText((await fetchFile(notice.fileId)).bytes);
    expect(text).toContain("Insured's Request");
    expect(text).toContain('412.34');
  });
});

describe('the documents consumer', () => {
  const record = (messageId: string, requestId: string) =>
    ({ messageId, body: JSON.stringify({ requestId }), attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {}, eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:documents' }) as unknown as SQSRecord;
  const context = { functionName: 'documents', awsRequestId: 'test', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;

  it('renders a request once however often it is delivered', async () => {
    const quote = await workedExampleQuote();
    const [write] = await noticeOfCancellation({
      policyId: quote.policyId, policyNumber: quote.policyNumber, termId: 'term', revisionId: quote.revisionId, inForceRevisionId: quote.revisionId, cancelDate: todayIso(),
      outcome: 'cancelled', reason: "Insured's Request", returnPremiumCents: 100, namedInsuredContactIds: [],
      reasonId: 'reason', termEffectiveDate: todayIso(), termExpirationDate: todayIso(), contactIds: [], summary: 'test', decisionDate: todayIso(), decidedAt: new Date().toISOString(), decidedBy: 'test',
    });
    await runTransaction([write], { label: 'test cancellation' });
    await service.deliverablesRendered();
    const requestId = ((write as unknown as { Put: { Item: { requestId: string } } }).Put.Item).requestId;
    const answer = await renderDeliverables({ Records: [record('again', requestId), record('and-again', requestId)] }, context);
    expect(answer.batchItemFailures).toEqual([]);
    const files = await listPolicyAttachments(quote.policyId);
    expect(files.map((file) => [file.fileId, file.deliverableType])).toEqual([[requestId, 'Notice of Cancellation']]);
    expect((await getDeliverableRequest(requestId))?.state).toBe('rendered');
  });

  it('keeps a request that fails to render pending and reports it failed alone, so it is retried and then dead-lettered; until rendered its file is not found', async () => {
    const quote = await workedExampleQuote();
    const [write] = await declarationAtIssue({
      policyId: quote.policyId, policyNumber: quote.policyNumber, termId: 'term', revisionId: crypto.randomUUID(), policyTypeId: 'x', effectiveDate: todayIso(), expirationDate: todayIso(),
      commitDate: todayIso(), annualPremiumCents: 1, annualFeeCents: 0, writtenPremiumCents: 1, writtenFeeCents: 0, namedInsuredContactIds: [],
    });
    const broken = (write as unknown as { Put: { Item: { requestId: string } } }).Put.Item.requestId;
    await runTransaction([write], { label: 'test issue of a revision that is gone' });
    try {
      const answer = await renderDeliverables({ Records: [record('broken', broken), record('malformed', 'not an id')] }, context);
      expect(answer.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['broken', 'malformed']);
      expect(await getDeliverableRequest(broken)).toMatchObject({ state: 'requested', deliverableType: 'Declaration' });
      const file = await service.call('/api/v1/printing/getAttachment', { json_dict: { id: broken } });
      expect(file.body).toMatchObject({ success: false, message: [`File ${broken} was not found`] });
      expect(await listPolicyAttachments(quote.policyId)).toEqual([]);
    } finally {
      // It can never render: out of the pending list, so that waiting for the others ends.
      await markDeliverableRequestRendered(broken, new Date().toISOString());
    }
  });
});

describe('newCustomDeliverable and getAttachment', () => {
  it('stores given HTML under the policy and answers it as text/html; generated HTML escapes the names', async () => {
    const quote = await workedExampleQuote(undefined, '<b>Bold</b> Insured');
    const given = ok(await service.call('/api/v1/policies/newCustomDeliverable', { json_dict: { revisionId: quote.revisionId, deliverableName: 'Welcome Letter', prebuiltHTML: '<p>Welcome</p>', generateHTML: 'false' } }));
    const page = await fetchFile(given.file_id);
    expect(page.contentType).toBe('text/html');
    expect(page.csp).toContain('sandbox');
    expect(Buffer.from(page.bytes).toString()).toBe('<p>Welcome</p>');
    const generated = ok(await service.call('/api/v1/policies/newCustomDeliverable', { revisionId: quote.revisionId, deliverableName: 'Summary', generateHTML: true }));
    const html = Buffer.from((await fetchFile(generated.file_id)).bytes).toString();
    expect(html).toContain('&lt;b&gt;Bold&lt;/b&gt; Insured');
    expect(html).toContain(quote.policyNumber);
    expect((await listPolicyAttachments(quote.policyId)).map((file) => [file.label, file.printState])).toEqual([
      ['Welcome Letter', 'none'],
      ['Summary', 'none'],
    ]);
  });

  it('removes a file viewed with delete_on_view: the second fetch answers not found', async () => {
    const quote = await workedExampleQuote();
    const data = ok(await service.call('/api/v1/deliverables/create_deliverable', { revision_id: quote.revisionId, deliverable_type: 'Quote Summary' }));
    expect((await fetchFile(data.file_id, { delete_on_view: 'true' })).status).toBe(200);
    const again = await service.call('/api/v1/printing/getAttachment', { json_dict: { id: data.file_id } });
    expect(again.body).toMatchObject({ success: false, message: [`File ${data.file_id} was not found`] });
    expect(await listPolicyAttachments(quote.policyId)).toEqual([]);
  });

  it("refuses an agent another agency's file exactly like an unknown one, and serves its own agency's", async () => {
    const [mine, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
    const me = await agent([mine]);
    const other = await agent([theirs]);
    const quote = await workedExampleQuote(me.apiKey);
    const data = ok(await service.call('/api/v1/deliverables/create_deliverable', { revision_id: quote.revisionId, deliverable_type: 'Quote Summary' }));
    const refused = await service.call('/api/v1/printing/getAttachment', { json_dict: { id: data.file_id } }, { apiKey: other.apiKey });
    expect(refused.body).toEqual({ success: false, message: [`File ${data.file_id} was not found`], data: null });
    const own = await fetchFile(data.file_id, {}, me.apiKey);
    expect(own.status).toBe(200);
    expect(own.contentType).toBe('application/pdf');
    expect(fileIdOf(data.deliverable_url.path)).toBe(data.file_id);
  });
});

describe('inspections', () => {
  it("answers a property's coverages with their limits, and orders an inspection that sets the property's inspection_requested_date", async () => {
    const quote = await workedExampleQuote();
    const propertyId = quote.policy.active_revision.primary_property_id as string;
    const options = ok(await service.call('/api/v1/policies/getInspectionPrimaryCoverageOptions', { json_dict: { propertyId } }));
    expect(options.map((option: { name: string; limit: number }) => [option.name, option.limit])).toEqual([
      ['Dwelling', 250000],
      ['Other Structures', 25000],
      ['Personal Property', 125000],
      ['Loss of Use', 50000],
    ]);
    const dwelling = options[0];
    const ordered = ok(
      await service.call('/api/v1/policies/getInspection', {
        json_dict: { revisionId: quote.revisionId, propertyId, vendor: 'Built-in', primaryCoverageId: dwelling.id, reportType: 'Exterior', specialInstructions: 'Dog on premises', commercial: 'false' },
      }),
    );
    expect(ordered).toEqual({
      inspection_id: expect.any(String), property_id: propertyId, vendor: 'Built-in', vendor_reference: expect.stringMatching(/^INSP-[0-9A-F]{10}$/), status: 'requested', inspection_requested_date: todayIso(),
    });
    const risk = ok(await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId }));
    expect(risk.inspection_requested_date).toBe(todayIso());
  });

  it('refuses an unknown vendor or a coverage of another property, recording nothing; an agent of another agency sees no property', async () => {
    const quote = await workedExampleQuote();
    const propertyId = quote.policy.active_revision.primary_property_id as string;
    const vendor = await service.call('/api/v1/policies/getInspection', { json_dict: { propertyId, vendor: 'Acme Inspections' } });
    expect(vendor.body).toMatchObject({ success: false, message: [expect.stringMatching(/^vendor: no inspection vendor is called Acme Inspections/)] });
    const coverage = await service.call('/api/v1/policies/getInspection', { json_dict: { propertyId, primaryCoverageId: crypto.randomUUID() } });
    expect(coverage.body).toMatchObject({ success: false, message: [expect.stringContaining('primaryCoverageId')] });
    expect(ok(await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId })).inspection_requested_date ?? null).toBeNull();
    const stranger = await agent([crypto.randomUUID()]);
    const hidden = await service.call('/api/v1/policies/getInspectionPrimaryCoverageOptions', { json_dict: { propertyId } }, { apiKey: stranger.apiKey });
    expect(hidden.body).toMatchObject({ success: false, message: [`Property ${propertyId} was not found`] });
  });
});
