/**
 * The notes store: the only code that knows the keys of notes. Notes are written inside
 * the transaction of the action they record (noteOf answers that write); the notes
 * service removes one by id.
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import { withoutStorageKeys, type TransactionWrite } from '../platform/transactions.js';
import { noteIndexAttributes, noteKey, policyNotesQuery } from './keys.js';
import type { NoteRecord } from './model.js';
import { clock } from '../platform/clock.js';

export type { NoteRecord };

/** A note about a policy, as the action that writes it describes it. */
export function newNote(facts: Omit<NoteRecord, 'id' | 'createdAt'> & { createdAt?: string; id?: string }): NoteRecord {
  return { ...facts, id: facts.id ?? randomUUID(), createdAt: facts.createdAt ?? clock.now().toISOString() };
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

/**
 * The note another area's action leaves (a payment, an NSF, a lockbox posting), as a write for
 * that action's own transaction: the caller gives the facts, the notes area builds its item.
 */
export function noteOf(facts: Omit<NoteRecord, 'id' | 'createdAt'> & { createdAt?: string }): TransactionWrite {
  return notePut(newNote(facts));
}

/** A policy's notes, oldest first (the index is eventually consistent). */
export async function listPolicyNotes(policyId: string): Promise<NoteRecord[]> {
  const items = await queryAll<NoteRecord & Record<string, unknown>>(policyNotesQuery(config.tableName(), policyId));
  return items.map((item) => withoutStorageKeys<NoteRecord>(item));
}

/** The note with that id, strongly consistent; undefined when there is none. */
export async function getNote(noteId: string): Promise<NoteRecord | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: noteKey(noteId), ConsistentRead: true }));
  return found.Item as NoteRecord | undefined;
}

/** Deletes a note; false when it was already gone. */
export async function deleteNote(noteId: string): Promise<boolean> {
  try {
    await documentClient().send(new DeleteCommand({ TableName: config.tableName(), Key: noteKey(noteId), ConditionExpression: 'attribute_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}
