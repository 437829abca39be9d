/**
 * Mailing batches for one print date: every file of the same recipient and policy goes in
 * one envelope, so an insured gets a declaration and its bill together. The batch label is
 * derived from the print date and the envelope's key alone, so a second run (a retried
 * nightly job, a file added late) gives every envelope the label it had the first time.
 */
import { createHash } from 'node:crypto';
import type { MailingAddress, PrintFile } from './model.js';

export interface MailingBatch {
  /** `MB-20260706-<10 hex>`: the print date and a digest of recipient and policy. */
  label: string;
  printDate: string;
  policyNumber: string;
  recipient: PrintFile['recipient'];
  /** Parents before the attachments printed with them, then by file id. */
  fileIds: string[];
}

/** Case, spacing and punctuation do not make two envelopes of one address. */
function normalized(text: string | undefined): string {
  return (text ?? '').toUpperCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();
}

function envelopeKey(policyNumber: string, recipient: { name: string; address: MailingAddress }): string {
  const { address } = recipient;
  const zip5 = address.zip.replace(/\D/g, '').slice(0, 5);
  const parts = [policyNumber.trim(), recipient.name, address.line1, address.line2, address.city, address.state];
  return JSON.stringify([...parts.map(normalized), zip5]);
}

export function mailingBatchLabel(printDate: string, file: Pick<PrintFile, 'policyNumber' | 'recipient'>): string {
  const digest = createHash('sha256').update(envelopeKey(file.policyNumber, file.recipient)).digest('hex');
  return `MB-${printDate.replace(/-/g, '')}-${digest.slice(0, 10)}`;
}

/** Parents first (an attachment follows the file it belongs to), then by file id. */
function envelopeOrder(files: PrintFile[]): string[] {
  const ids = new Set(files.map((file) => file.fileId));
  const parentOf = (file: PrintFile) => (file.parentId && ids.has(file.parentId) ? file.parentId : file.fileId);
  return [...files]
    .sort((a, b) => compare(parentOf(a), parentOf(b)) || Number(a.fileId !== parentOf(a)) - Number(b.fileId !== parentOf(b)) || compare(a.fileId, b.fileId))
    .map((file) => file.fileId);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The batches of the files printing on `printDate` (files of other dates are left out), by label. */
export function assignMailingBatches(printDate: string, files: readonly PrintFile[]): MailingBatch[] {
  const envelopes = new Map<string, PrintFile[]>();
  for (const file of files) {
    if (file.printDate !== printDate) continue;
    const label = mailingBatchLabel(printDate, file);
    envelopes.set(label, [...(envelopes.get(label) ?? []), file]);
  }
  return [...envelopes.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([label, envelope]) => {
      const first = [...envelope].sort((a, b) => compare(a.fileId, b.fileId))[0];
      return { label, printDate, policyNumber: first.policyNumber, recipient: first.recipient, fileIds: envelopeOrder(envelope) };
    });
}
