/**
 * The notes store: the only code that knows the keys of notes. Notes are written inside
 * the transaction of the action they record (notePut answers that write); removeNote
 * deletes one by id.
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import { NotFoundError } from '../platform/errors.js';
import { reaches, type Principal } from '../platform/principal.js';
import { noteIndexAttributes, noteKey, policyNotesQuery } from './keys.js';
import type { NoteRecord } from './model.js';

export type { NoteRecord };

/** A note about a policy, as the action that writes it describes it. */
export function newNote(facts: Omit<NoteRecord, 'id' | 'createdAt'> & { createdAt?: string; id?: string }): NoteRecord {
  return { ...facts, id: facts.id ?? randomUUID(), createdAt: facts.createdAt ?? new Date().toISOString() };
}

/** The write that stores a note, for the transaction of the action it records. */
export function notePut(note: NoteRecord) {
  return {
    Put: {
      TableName: config.tableName(),
      Item: { ...noteKey(note.id), ...noteIndexAttributes(note.policyId, note.createdAt, note.id), entity: 'Note', ...note },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** A policy's notes, oldest first (the index is eventually consistent). */
export async function listPolicyNotes(policyId: string): Promise<NoteRecord[]> {
  const items = await queryAll<NoteRecord & Record<string, unknown>>(policyNotesQuery(config.tableName(), policyId));
  return items.map(({ pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, entity: _e, ...note }) => note as unknown as NoteRecord);
}

/** removeNote: deletes the note with that id, if the caller reaches its policy; an unknown id is not found. */
export async function removeNote(principal: Principal, noteId: string): Promise<void> {
  const label = `Note ${noteId}`;
  const found = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: noteKey(noteId), ConsistentRead: true }));
  const note = found.Item as NoteRecord | undefined;
  if (!note || !reaches(principal, note)) throw new NotFoundError(label);
  try {
    await documentClient().send(new DeleteCommand({ TableName: config.tableName(), Key: noteKey(noteId), ConditionExpression: 'attribute_exists(pk)' }));
  } catch (error) {
    // Removed by another request since it was read: the caller's note is gone either way, but not by this call.
    if (isConditionalCheckFailure(error)) throw new NotFoundError(label);
    throw error;
  }
}
