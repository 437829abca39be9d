/**
 * Keys of notes (see docs/data-model.md, Notes): each note is its own item, found by id
 * (removeNote), and listed per policy on gsi1 in the order written.
 */
export type Key = { pk: string; sk: string };

export const noteKey = (noteId: string): Key => ({ pk: `NOTE#${noteId}`, sk: 'NOTE' });

export function noteIndexAttributes(policyId: string, createdAt: string, noteId: string) {
  return { gsi1pk: `POLICYNOTES#${policyId}`, gsi1sk: `${createdAt}#${noteId}` };
}

export function policyNotesQuery(tableName: string, policyId: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `POLICYNOTES#${policyId}` },
  };
}
