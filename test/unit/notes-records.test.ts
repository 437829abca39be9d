/** Notes' declared record (shared/notes/records.ts) stores each note as it always was: its own item, listed per policy on gsi1 in the order written. */
import { describe, expect, it } from 'vitest';
import { noteRecord } from '../../shared/notes/records.js';

const POLICY = 'policy-1';

describe('notes records', () => {
  it('keep each note its own item, listed per policy in the order written', () => {
    process.env.TABLE_NAME ??= 'notes-records-test';
    const note = { id: 'n1', policyId: POLICY, termId: null, text: 'Paid', createdBy: 'system', createdAt: '2026-01-01T00:00:00.000Z', agencyId: null, contactIds: [] };
    expect(noteRecord.key({ id: 'n1' })).toEqual({ pk: 'NOTE#n1', sk: 'NOTE' });
    expect(noteRecord.item(note)).toEqual({ pk: 'NOTE#n1', sk: 'NOTE', gsi1pk: `POLICYNOTES#${POLICY}`, gsi1sk: '2026-01-01T00:00:00.000Z#n1', entity: 'Note', ...note });
    expect(noteRecord.create(note).Put).toMatchObject({ ConditionExpression: 'attribute_not_exists(#pk)' });
    expect(noteRecord.query({ policyId: POLICY }, { index: 'gsi1' })).toEqual({
      IndexName: 'gsi1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'gsi1pk' }, ExpressionAttributeValues: { ':pk': `POLICYNOTES#${POLICY}` },
    });
  });
});
