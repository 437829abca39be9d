import { describe, expect, it } from 'vitest';
import { assignMailingBatches } from '../../shared/documents/mailing-batches.js';
import type { PrintFile } from '../../shared/documents/model.js';

const avery = { name: 'Jordan Avery', address: { line1: '42 Maple Avenue', city: 'Springfield', state: 'IL', zip: '62704' } };
const bank = { name: 'First Prairie Bank', address: { line1: '1 Bank Plaza', city: 'Chicago', state: 'IL', zip: '60601' } };

function file(fileId: string, policyNumber: string, recipient: PrintFile['recipient'], extra: Partial<PrintFile> = {}): PrintFile {
  return { fileId, policyNumber, printDate: '2026-07-06', label: 'Declaration', title: 'Declaration', recipient, ...extra };
}

const files: PrintFile[] = [
  file('f-dec-1', '10-2026-1', avery),
  file('f-bill-1', '10-2026-1', { name: ' jordan  AVERY', address: { line1: '42 Maple Avenue.', city: 'SPRINGFIELD', state: 'il', zip: '62704-1234' } }),
  file('f-endorsement', '10-2026-1', avery, { parentId: 'f-dec-1' }),
  file('f-mortgagee-1', '10-2026-1', bank),
  file('f-dec-2', '10-2026-2', avery),
  file('f-later', '10-2026-3', avery, { printDate: '2026-07-07' }),
];

describe('mailing batches for a print date', () => {
  it('puts the files of one recipient and policy in one envelope, however the address was typed', () => {
    const batches = assignMailingBatches('2026-07-06', files);
    expect(batches).toHaveLength(3);
    const averyFirst = batches.find((batch) => batch.fileIds.includes('f-dec-1'))!;
    expect(averyFirst.policyNumber).toBe('10-2026-1');
    expect(averyFirst.fileIds).toEqual(['f-bill-1', 'f-dec-1', 'f-endorsement']);
    expect(batches.find((batch) => batch.recipient.name === bank.name)?.fileIds).toEqual(['f-mortgagee-1']);
    expect(batches.find((batch) => batch.policyNumber === '10-2026-2')?.fileIds).toEqual(['f-dec-2']);
  });

  it('leaves out files that print on another day', () => {
    const ids = assignMailingBatches('2026-07-06', files).flatMap((batch) => batch.fileIds);
    expect(ids).not.toContain('f-later');
    expect(assignMailingBatches('2026-07-07', files).map((batch) => batch.fileIds)).toEqual([['f-later']]);
  });

  it('gives the same labels on a second run, in any order, and when a late file joins', () => {
    const first = assignMailingBatches('2026-07-06', files);
    const second = assignMailingBatches('2026-07-06', [...files].reverse());
    expect(second).toEqual(first);
    for (const batch of first) expect(batch.label).toMatch(/^MB-20260706-[0-9a-f]{10}$/);
    const withLate = assignMailingBatches('2026-07-06', [...files, file('f-dec-9', '10-2026-9', bank)]);
    expect(withLate).toHaveLength(4);
    for (const batch of first) expect(withLate.find((other) => other.label === batch.label)?.fileIds).toEqual(batch.fileIds);
  });

  it('labels the same envelope differently on another print date', () => {
    const today = assignMailingBatches('2026-07-06', [files[0]])[0].label;
    const tomorrow = assignMailingBatches('2026-07-07', [{ ...files[0], printDate: '2026-07-07' }])[0].label;
    expect(tomorrow.slice(12)).toBe(today.slice(12));
    expect(tomorrow).not.toBe(today);
  });
});
