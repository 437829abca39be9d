/**
 * Statements to a party that is not a policy (an agency's commission statement): rendered as a
 * PDF and kept as a file of the party (its id in place of a policy's: the agency's agents reach
 * it by its agencyId as they reach their policies' files), dated and queued for the print run
 * on its print date, or e-mailed where the party takes notices by e-mail, like any deliverable.
 * The same statement asked for again (the caller's file id) answers the file first made.
 */
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import { carrierIdentity, deliverableUrl, getAttachmentRecord, storeDeliverable } from './deliverable-service.js';
import type { AttachmentRecord, PartyStatement } from './model.js';

const renderer = /* @__PURE__ */ moduleOnFirstUse<typeof import('./pdf-renderer.js')>(new URL('./pdf-renderer.mjs', import.meta.url), new URL('./pdf-renderer.ts', import.meta.url));

export interface StoredStatement {
  file_id: string;
  deliverable_url: { url: string; path: string };
  print_date: string | null;
  electronic_delivery: boolean;
}

const answerOf = (record: AttachmentRecord): StoredStatement => ({ file_id: record.fileId, deliverable_url: deliverableUrl(record), print_date: record.printDate, electronic_delivery: record.electronicDelivery ?? false });

/** The statement as a PDF file of its party, queued for delivery; `fileId` names it (the same statement, the same file). */
export async function storePartyStatement(statement: PartyStatement, options: { fileId: string; goDate: string }): Promise<StoredStatement> {
  const earlier = await getAttachmentRecord(options.fileId);
  if (earlier && !(earlier as { deleted?: boolean }).deleted) return answerOf(earlier);
  const pdf = await (await renderer()).renderPartyStatement(statement, await carrierIdentity());
  const record = await storeDeliverable(
    { policyId: statement.party.id, policyNumber: statement.reference, revisionId: null, agencyId: statement.party.id, contactIds: [statement.party.id] },
    null,
    pdf,
    {
      label: statement.title,
      title: `${statement.title} - ${statement.reference}`,
      goDate: options.goDate,
      printState: 'tbd',
      recipient: statement.party.address ? { name: statement.party.name, address: statement.party.address } : null,
      recipientContactId: statement.party.id,
      fileId: options.fileId,
      fileName: `${statement.title.replace(/\s+/g, '-')}-${statement.reference}.pdf`,
    },
  );
  return answerOf(record);
}
