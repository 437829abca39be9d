/**
 * Notes' stored records, declared once (shared/platform/records.ts): each note is its own item,
 * found by id (removeNote), and listed per policy on gsi1 in the order written. Only the area's
 * store imports this module.
 */
import { defineRecord } from '../platform/records.js';
import type { NoteRecord } from './model.js';

/**
 * A short text about a policy: policyId, termId, text, createdBy (a contact id, `lockbox`, `nightly-billing`), createdAt,
 * agencyId/contactIds (reach); written in the transaction of the action it records (payment, NSF, cancellation, nightly decision).
 */
export const noteRecord = /* @__PURE__ */ defineRecord<NoteRecord>({
  entity: 'Note',
  key: { pk: 'NOTE#${id}', sk: 'NOTE' },
  indexes: { gsi1: { pk: 'POLICYNOTES#${policyId}', sk: '${createdAt}#${id}' } },
});

/** Every declaration of the area, for docs/data-model.md. */
export const NOTES_RECORDS = [noteRecord] as const;
