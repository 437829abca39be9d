/** A policy file's events for integrators (shared/events): written in the file's own transaction. */
import { eventOf } from '../events/index.js';
import type { AttachmentRecord } from './model.js';

/** deliverable.created / deliverable.printed for integrators (shared/events), in the file's own transaction. */
export function fileEvent(
  type: 'deliverable.created' | 'deliverable.printed',
  record: Pick<AttachmentRecord, 'fileId' | 'policyId' | 'policyNumber' | 'agencyId' | 'deliverableType' | 'title' | 'printDate'>,
  at: string,
) {
  return eventOf({
    type, policyId: record.policyId, policyNumber: record.policyNumber, agencyId: record.agencyId, transactionId: record.fileId, occurredAt: at,
    data: { file_id: record.fileId, deliverable_type: record.deliverableType ?? null, title: record.title, print_date: record.printDate ?? null },
  });
}
