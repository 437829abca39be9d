/**
 * The documents area without a store: its keys (the exact parameters the store sends), a
 * file record's indexes by print state, a revision assembled into a printable document, the
 * print queue's answer shape, the print-batches message, the inspection vendor, and a file
 * answer through API Gateway.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CARRIER, deliverableFileName, policyDocumentFrom, primaryRisk, recipientOf } from '../../shared/documents/assemble.js';
import { builtInInspectionVendor, inspectionVendor } from '../../shared/documents/inspection-vendors.js';
import { printShardOf } from '../../shared/documents/print-shards.js';
import { attachmentRecord, deliverableRequestRecord, inspectionRecord, legacyMailingBatchRecord, mailingBatchRecord, printableEntryRecord, printRunRecord, waitingEntryRecord } from '../../shared/documents/records.js';
import { TABLE_PIPES } from '../../shared/platform/queues.js';
import type { AttachmentRecord } from '../../shared/documents/model.js';
import { InvalidPrintRunRequestError, printRunRequest } from '../../shared/documents/print-queue.js';
import { toBePrintedFile } from '../../shared/documents/print-service.js';
import { printFileOf } from '../../shared/documents/print-runs.js';
import { attachmentItems, fileFolder, printEntryOf, printPositionOf, printWindowQuery } from '../../shared/documents/store.js';
import { renderDeliverablePdf } from '../../shared/documents/render/index.js';
import { FileReply, fileResponse } from '../../shared/platform/envelope.js';
import type { LineItemRecord, RevisionSnapshot, RiskRecord } from '../../shared/policies/model.js';


const FILE = '0b8f5a9e-1111-4222-8333-944455556666';
const POLICY = '7c1d2e3f-1111-4222-8333-944455556666';

function record(overrides: Partial<AttachmentRecord> = {}): AttachmentRecord {
  return {
    fileId: FILE, policyId: POLICY, policyNumber: '10-2026-1', revisionId: 'rev-1', agencyId: 'agency-1', contactIds: ['c1'], referenceType: 'policies',
    deliverableType: 'Declaration', label: 'Declaration', title: 'Declaration - 10-2026-1', objectKey: `${fileFolder(POLICY, FILE)}Declaration-10-2026-1.pdf`,
    contentType: 'application/pdf', sizeBytes: 5000, printState: 'tbd', printDate: '2026-07-06', recipientContactId: 'c1',
    recipient: { name: 'Jordan Avery', address: { line1: '42 Maple Avenue', city: 'Springfield', state: 'IL', zip: '62704' } },
    parentId: null, childrenIds: [], esigned: false, goDate: '2026-07-03', procDate: '2026-07-01', createdAt: '2026-07-01T10:00:00.000Z',
    ...overrides,
  };
}

describe('documents keys', () => {
  it('gives each file its own partition, listed under its policy in the order made', () => {
    expect(attachmentRecord.key({ fileId: FILE })).toEqual({ pk: `FILE#${FILE}`, sk: 'FILE' });
    expect(attachmentRecord.item(record())).toMatchObject({ gsi1pk: `POLICYFILES#${POLICY}`, gsi1sk: `2026-07-01T10:00:00.000Z#${FILE}` });
    expect(attachmentRecord.query({ policyId: POLICY }, { index: 'gsi1' })).toEqual({
      IndexName: 'gsi1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'gsi1pk' }, ExpressionAttributeValues: { ':pk': `POLICYFILES#${POLICY}` },
    });
    expect(fileFolder(POLICY, FILE)).toBe(`policies/${POLICY}/files/${FILE}/`);
  });

  it('reads the print queue, or every printable file, by print date range in one shard, whatever the window', () => {
    // The shard follows the policy number, so every file of an envelope shares it.
    const shard = printShardOf('10-2026-1');
    expect(shard).toBe(printShardOf('10-2026-1'));
    expect(new Set(Array.from({ length: 400 }, (_, n) => printShardOf(`10-2026-${n}`))).size).toBe(8);
    const entry = { policyNumber: '10-2026-1', printDate: '2026-07-06', fileId: FILE };
    expect(waitingEntryRecord.key(entry)).toEqual({ pk: `PRINTQUEUE#tbd#${shard}`, sk: `2026-07-06#${FILE}` });
    expect(printableEntryRecord.key(entry)).toEqual({ pk: `PRINTABLE#${shard}`, sk: `2026-07-06#${FILE}` });
    expect(printPositionOf(entry)).toBe(`2026-07-06#${FILE}`);
    expect(printWindowQuery({ source: 'tbd', from: '2012-01-01', to: '2026-07-31', includeClaims: true }, 3)).toEqual({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'PRINTQUEUE#tbd#3', ':from': '2012-01-01#', ':to': '2026-07-31#~' },
    });
    expect(printWindowQuery({ source: 'printable', from: '2026-07-06', to: '2026-07-06', after: `2026-07-06#${FILE}`, includeClaims: false, electronic: 'exclude' }, 0)).toEqual({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      FilterExpression: 'referenceType <> :claims AND (attribute_not_exists(electronicDelivery) OR electronicDelivery = :false)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'PRINTABLE#0', ':from': `2026-07-06#${FILE}`, ':to': '2026-07-06#~', ':claims': 'claims', ':false': false },
    });
    expect(printWindowQuery({ source: 'tbd', from: '2026-07-01', to: '2026-07-31', includeClaims: true, electronic: 'only' }, 7)).toMatchObject({
      FilterExpression: 'electronicDelivery = :true',
      ExpressionAttributeValues: { ':true': true },
    });
  });

  it('keeps a print date’s run in one item and its envelopes in the shards of their policies; inspections under their property', () => {
    expect(printRunRecord.key({ printDate: '2026-07-06' })).toEqual({ pk: 'PRINTRUN#2026-07-06', sk: 'RUN' });
    const batch = { printDate: '2026-07-06', policyNumber: '10-2026-1', label: 'MB-20260706-abc', fileIds: [FILE] };
    expect(mailingBatchRecord.key(batch)).toEqual({ pk: `PRINTRUN#2026-07-06#${printShardOf('10-2026-1')}`, sk: 'BATCH#MB-20260706-abc' });
    expect(mailingBatchRecord.item(batch)).not.toHaveProperty('shard');
    expect(mailingBatchRecord.query({ printDate: '2026-07-06', shard: 5 })).toEqual({
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'PRINTRUN#2026-07-06#5', ':sk': 'BATCH#' },
    });
    // Runs before the fan-out kept a date's envelopes beside its run.
    expect(legacyMailingBatchRecord.query({ printDate: '2026-07-06' }).ExpressionAttributeValues![':pk']).toBe('PRINTRUN#2026-07-06');
    expect(inspectionRecord.key({ propertyId: 'risk-1', inspectionId: 'insp-1' })).toEqual({ pk: 'INSPECTIONS#risk-1', sk: 'INSPECTION#insp-1' });
    // The stream's pipe hands on what the declaration writes.
    expect(TABLE_PIPES.find((pipe) => pipe.queue === 'documents')?.entity).toBe(deliverableRequestRecord.declaration.entity);
  });

  it('gives a file to print a waiting and a printable entry, a printed one only the printable entry, a custom one neither; the record is in no print index', () => {
    const [file, printable, waiting] = attachmentItems(record());
    expect(file).toMatchObject({ pk: `FILE#${FILE}`, sk: 'FILE', gsi1pk: `POLICYFILES#${POLICY}` });
    expect(file.gsi2pk).toBeUndefined();
    expect(file.gsi3pk).toBeUndefined();
    expect(printable).toMatchObject({ pk: expect.stringMatching(/^PRINTABLE#[0-7]$/), entity: 'PrintableEntry', fileId: FILE });
    expect(waiting).toMatchObject({ pk: expect.stringMatching(/^PRINTQUEUE#tbd#[0-7]$/), entity: 'WaitingEntry', fileId: FILE });
    // An entry carries what the print queue's readers read, not the file's storage details: it stays one write unit.
    expect(waiting).not.toHaveProperty('objectKey');
    expect(Buffer.byteLength(JSON.stringify(waiting))).toBeLessThan(1024);
    expect(attachmentItems(record({ printState: 'printed' })).map((item) => item.entity)).toEqual(['Attachment', 'PrintableEntry']);
    expect(attachmentItems(record({ printState: 'none', printDate: null })).map((item) => item.entity)).toEqual(['Attachment']);
  });
});

describe('the print queue answer', () => {
  it('names every field existing clients read, and the mailing address only when asked', () => {
    expect(toBePrintedFile({ ...printEntryOf(record())!, printState: 'tbd' }, 'MB-1', false)).toEqual({
      policy_number: '10-2026-1', file_id: FILE, contact_id: 'c1', print_date: '2026-07-06', print_state: 'tbd', label: 'Declaration',
      title: 'Declaration - 10-2026-1', batch: 'MB-1', parent: null, children: [], revision_id: 'rev-1',
    });
    expect(toBePrintedFile({ ...printEntryOf(record())!, printState: 'tbd' }, null, true)).toMatchObject({ recipient_name: 'Jordan Avery', address_line1: '42 Maple Avenue', address_line2: '', address_zip: '62704' });
    expect(printFileOf(printEntryOf(record({ recipient: null }))!).recipient).toEqual({ name: '', address: { line1: '', city: '', state: '', zip: '' } });
  });

  it('reads a print-batches message of one date, and refuses anything else', () => {
    expect(printRunRequest('{"printDate":"2026-07-06"}')).toEqual({ printDate: '2026-07-06' });
    for (const body of ['', 'not json', '{}', '{"printDate":"2026-02-30"}', '{"printDate":"07/06/2026"}', 'null']) {
      expect(() => printRunRequest(body), body).toThrow(InvalidPrintRunRequestError);
    }
  });
});

const risk = (id: string, sequence: number, primary: boolean, line1: string) =>
  ({ entity: 'Risk', id, revisionId: 'rev-1', name: `Property #${sequence}`, sequence, primary, questions: primary ? { q1: 'Frame', q2: '3' } : {}, address_line1: line1, address_city: 'Springfield', address_state: 'IL', address_zip: '62704', year_built: '1998' }) as unknown as RiskRecord;

const item = (fields: Partial<LineItemRecord>) =>
  ({ entity: 'LineItem', revisionId: 'rev-1', riskId: null, limitCents: null, deductibleCents: null, annualPremiumCents: null, annualFeeCents: null, persistStatus: 'normal', sortOrder: 1, ...fields }) as LineItemRecord;

function snapshot(): RevisionSnapshot {
  return {
    header: {
      id: 'rev-1', policyId: POLICY, policyNumber: '10-2026-1', termStart: '2026-07-01', termEnd: '2027-07-01', annualPremiumCents: 82662, annualFeeCents: 2500,
      contacts: { namedInsuredIds: ['c1'] },
    } as RevisionSnapshot['header'],
    risks: [risk('r2', 2, false, '7 Elm Street'), risk('r1', 1, true, '42 Maple Avenue')],
    subLines: [],
    items: [
      item({ id: 'i1', itemId: 'dw', name: 'Dwelling', type: 'coverage', riskId: 'r1', limitCents: 25_000_000, deductibleCents: 100_000, annualPremiumCents: 86625, sortOrder: 1 }),
      item({ id: 'i2', itemId: 'lu', name: 'Loss of Use', type: 'nonRate', riskId: 'r1', limitCents: 5_000_000, sortOrder: 4 }),
      item({ id: 'i3', itemId: 'pl', name: 'Personal Liability', type: 'coverage', limitCents: 30_000_000, annualPremiumCents: 3500, sortOrder: 6 }),
      item({ id: 'i4', itemId: 'mp', name: 'Medical Payments', type: 'coverage', limitCents: 500_000, annualPremiumCents: 1200, sortOrder: 7 }),
      item({ id: 'i5', itemId: 'cf', name: 'Claims-Free Discount', type: 'adjustment', annualPremiumCents: -8663, sortOrder: 8 }),
      item({ id: 'i6', itemId: 'pf', name: 'Policy Fee', type: 'fee', annualFeeCents: 2500, sortOrder: 9 }),
      item({ id: 'i7', itemId: 'wb', name: 'Water Backup', type: 'coverage', riskId: 'r1', persistStatus: 'rejected', annualPremiumCents: 999, sortOrder: 5 }),
    ],
    mortgagees: [],
  };
}

describe('a revision assembled into a document', () => {
  it('prints each property with its coverages, the policy coverages, adjustments, fees, forms and the revision totals', async () => {
    const document = policyDocumentFrom({
      type: 'Declaration', snapshot: snapshot(), policyTypeName: 'Homeowner - HO3', carrier: DEFAULT_CARRIER,
      namedInsureds: [{ name: 'Jordan Avery' }], forms: [{ form_code: 'HO 00 03', edition_number: '05 11', description: 'Homeowners 3 - Special Form' }], issueDate: '2026-06-15',
      questionNames: { q1: 'Construction Type', q2: 'Protection Class' },
    });
    expect(document.properties[0]).toMatchObject({ yearBuilt: '1998', construction: 'Frame', protectionClass: '3' });
    expect(document.properties[1].construction).toBeUndefined();
    expect(document.properties.map((property) => [property.name, property.address.line1, property.coverages.map((coverage) => coverage.name)])).toEqual([
      ['Property #1', '42 Maple Avenue', ['Dwelling', 'Loss of Use']],
      ['Property #2', '7 Elm Street', []],
    ]);
    expect(document.properties[0].coverages[1]).toEqual({ name: 'Loss of Use', limit: 5_000_000, premium: 0 });
    expect(document.policyCoverages.map((coverage) => coverage.name)).toEqual(['Personal Liability', 'Medical Payments']);
    expect(document.adjustments).toEqual([{ name: 'Claims-Free Discount', amount: -8663 }]);
    expect(document.fees).toEqual([{ name: 'Policy Fee', amount: 2500 }]);
    expect(document.forms).toEqual([{ code: 'HO 00 03', edition: '05 11', description: 'Homeowners 3 - Special Form' }]);
    expect(document.totals).toEqual({ premium: 82662, fees: 2500, total: 85162 });
    // A named insured without an address of their own is mailed at the primary property.
    expect(recipientOf(document)).toEqual({ name: 'Jordan Avery', address: { line1: '42 Maple Avenue', city: 'Springfield', state: 'IL', zip: '62704' } });
    expect((await renderDeliverablePdf(document)).byteLength).toBeGreaterThan(1000);
  });

  it('takes the primary property (else the first) as the mailing address, and names files safely', () => {
    expect(primaryRisk(snapshot())?.id).toBe('r1');
    expect(primaryRisk({ risks: [risk('b', 2, false, 'B'), risk('a', 1, false, 'A')] })?.id).toBe('a');
    expect(deliverableFileName('Notice of Cancellation', '10-2026-1')).toBe('Notice-of-Cancellation-10-2026-1.pdf');
    expect(deliverableFileName('../../etc/passwd', 'x/y', 'html')).toBe('etc-passwd-x-y.html');
  });
});

describe('inspection vendors and file answers', () => {
  it('finds the built-in vendor by any spelling, and no vendor it does not know', async () => {
    expect(inspectionVendor(undefined)).toBe(builtInInspectionVendor);
    expect(inspectionVendor('built in')).toBe(builtInInspectionVendor);
    expect(inspectionVendor('Acme')).toBeUndefined();
    const order = { inspectionId: 'i-1', policyNumber: '10-2026-1', propertyName: 'Property #1', address: { line1: '1', city: 'c', state: 'IL', zip: '62704' }, commercial: false };
    expect(await builtInInspectionVendor.requestInspection(order)).toEqual(await builtInInspectionVendor.requestInspection(order));
  });

  it('answers a file base64-encoded for API Gateway, with its content type and a harmless file name', () => {
    const response = fileResponse(new FileReply(new Uint8Array([37, 80, 68, 70]), 'application/pdf', { fileName: 'a"b\r\n.pdf' }), 'req-1');
    expect(response).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="ab.pdf"', 'x-content-type-options': 'nosniff', 'x-request-id': 'req-1' },
      body: Buffer.from('%PDF').toString('base64'),
      isBase64Encoded: true,
    });
  });
});

describe("markAsPrinted's ceiling of file ids a call", () => {
  it('is the published 20,000 unless a deployment lowers it; it cannot be raised, and a setting that is no count is refused by name', async () => {
    const { markAsPrintedMaxFiles } = await import('../../shared/documents/print-service.js');
    expect(markAsPrintedMaxFiles(undefined)).toBe(20_000);
    expect(markAsPrintedMaxFiles('')).toBe(20_000);
    expect(markAsPrintedMaxFiles('2000')).toBe(2000);
    for (const setting of ['20001', '0', '-5', '1.5', 'many']) expect(() => markAsPrintedMaxFiles(setting), setting).toThrow(/MARK_AS_PRINTED_MAX_FILES/);
  });
});
