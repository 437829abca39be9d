/**
 * Documents: how long a Declaration takes to render and how large it is; one create_deliverable
 * call (render, bucket, record); the nightly print run over 1,000 deliverables of one print
 * date (two per envelope); getToBePrinted listing them and markAsPrinted marking them all.
 */
import { randomUUID } from 'node:crypto';
import { billedMeter as capacityMeter } from '../billed-capacity.js';
import { batchWriteAll } from '../../../shared/platform/dynamo.js';
import type { AttachmentRecord } from '../../../shared/documents/model.js';
import { renderDeliverablePdf } from '../../../shared/documents/render/index.js';
import { workedExampleDocument } from '../../support/document-samples.js';
import { runPrintJob } from '../../../shared/documents/print-runs.js';
import { attachmentItems } from '../../../shared/documents/store.js';
import type { BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const PRINT_DATE = '2033-05-11';
const DELIVERABLES = 1000;
const LOSSES_IN_PAST_3_YEARS = 'e29555d3-7101-4947-a3af-a279d8774c09';

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function printFile(index: number): AttachmentRecord {
  const policy = Math.floor(index / 2);
  const fileId = randomUUID();
  return {
    fileId,
    policyId: `bench-policy-${policy}`,
    policyNumber: `10-2033-${policy + 1}`,
    revisionId: null,
    agencyId: null,
    contactIds: [],
    referenceType: 'policies',
    deliverableType: index % 2 === 0 ? 'Declaration' : 'Installment Billing Statement',
    label: index % 2 === 0 ? 'Declaration' : 'Installment Billing Statement',
    title: `Deliverable ${index}`,
    objectKey: `policies/bench-policy-${policy}/files/${fileId}/file.pdf`,
    contentType: 'application/pdf',
    sizeBytes: 4000,
    printState: 'tbd',
    printDate: PRINT_DATE,
    recipientContactId: `bench-contact-${policy}`,
    recipient: { name: `Insured ${policy}`, address: { line1: `${policy} Main Street`, city: 'Springfield', state: 'IL', zip: '62701' } },
    parentId: null,
    childrenIds: [],
    esigned: false,
    goDate: PRINT_DATE,
    procDate: PRINT_DATE,
    createdAt: new Date().toISOString(),
  };
}

export const scenario: BenchScenario = {
  name: 'documents',
  async run(context) {
    const rows: BenchRow[] = [];

    // Rendering alone, in this process: the worked example's Declaration.
    const document = workedExampleDocument('Declaration');
    await renderDeliverablePdf(document); // the first render loads the fonts
    const times: number[] = [];
    let bytes = 0;
    for (let run = 0; run < 30; run += 1) {
      const started = performance.now();
      bytes = (await renderDeliverablePdf(document)).byteLength;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    rows.push({ name: 'Declaration render (worked example, in process)', p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), bytes });

    // One create_deliverable call: the revision read, the render, the bucket and the record.
    const quote = await context.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: '07/01/2026', line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Bench Insured' }],
        underwriting_questions: [{ questionId: LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_line1: '1 Main Street', address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    });
    if (quote.body?.success !== true) throw new Error(`create_quote_extended failed: ${JSON.stringify(quote.body)}`);
    const policy = await context.call(`${P}/retrieve_policy`, { policy_id: quote.body.data.policy_id });
    const revisionId = policy.body.data.active_revision.id;
    const created = await context.call('/api/v1/deliverables/create_deliverable', { revision_id: revisionId, deliverable_type: 'Declaration' });
    if (created.body?.success !== true) throw new Error(`create_deliverable failed: ${JSON.stringify(created.body)}`);
    rows.push({ name: 'create_deliverable Declaration (one call)', readUnits: created.readUnits, writeUnits: created.writeUnits, ms: round(created.ms) });
    const latency = await context.latency('/api/v1/deliverables/create_deliverable', { revision_id: revisionId, deliverable_type: 'Declaration', print_state: 'none' }, { requests: 40, concurrency: 4 });
    rows.push({ name: 'create_deliverable Declaration warm latency', ...latency });

    // The nightly print run over 1,000 deliverables of one date (seeded directly: not measured).
    const files = Array.from({ length: DELIVERABLES }, (_, index) => printFile(index));
    await batchWriteAll(files.flatMap((file) => attachmentItems(file).map((Item) => ({ PutRequest: { Item } }))), { concurrency: 8 });
    capacityMeter.reset();
    let started = performance.now();
    const run = await runPrintJob(PRINT_DATE);
    const runMs = performance.now() - started;
    rows.push({ name: `nightly print run, ${DELIVERABLES} deliverables (${run.batches} envelopes)`, ms: round(runMs), readUnits: round(capacityMeter.readUnits), writeUnits: round(capacityMeter.writeUnits), calls: capacityMeter.calls });
    capacityMeter.reset();
    started = performance.now();
    await runPrintJob(PRINT_DATE);
    rows.push({ name: `nightly print run again (nothing changes), ${DELIVERABLES} deliverables`, ms: round(performance.now() - started), readUnits: round(capacityMeter.readUnits), writeUnits: round(capacityMeter.writeUnits) });
    capacityMeter.enabled = false;

    const listed = await context.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: PRINT_DATE, to_date: PRINT_DATE } });
    if (listed.body?.files?.length !== DELIVERABLES) throw new Error(`getToBePrinted listed ${listed.body?.files?.length} files`);
    rows.push({ name: `getToBePrinted, ${DELIVERABLES} files (one call)`, readUnits: listed.readUnits, ms: round(listed.ms), kb: round(JSON.stringify(listed.body).length / 1024) });
    const marked = await context.call('/api/v1/printing/markAsPrinted', { file_ids: files.map((file) => file.fileId) });
    if (marked.body?.num_marked !== DELIVERABLES) throw new Error(`markAsPrinted marked ${marked.body?.num_marked}`);
    // Its files go 25 to a transaction, whose write units DynamoDB Local under-reports (bench print-runs: the figure AWS bills).
    rows.push({ name: `markAsPrinted, ${DELIVERABLES} files (one call, write units as DynamoDB Local reports them)`, readUnits: marked.readUnits, writeUnits: marked.writeUnits, ms: round(marked.ms) });
    return rows;
  },
};
