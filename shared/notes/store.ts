/**
 * The notes store: the only code that knows the keys of notes. Notes are written inside
 * the transaction of the action they record (noteOf answers that write); the notes
 * service removes one by id.
 */
import { randomUUID } from 'node:crypto';
import { deleteItem, getItem, isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { noteRecord } from './records.js';
import type { NoteRecord } from './model.js';
import { clock } from '../platform/clock.js';

export type { NoteRecord };

/** A note about a policy, as the action that writes it describes it. */
export function newNote(facts: Omit<NoteRecord, 'id' | 'createdAt'> & { createdAt?: string; id?: string }): NoteRecord {
  return { ...facts, id: facts.id ?? randomUUID(), createdAt: facts.createdAt ?? clock.now().toISOString() };
}

/** The write that stores a note, for the transaction of the action it records. */
export function notePut(note: NoteRecord): TransactionWrite {
  return noteRecord.create(note);
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
  return (await queryAll(noteRecord.query({ policyId }, { index: 'gsi1' }))).map(noteRecord.parse);
}

/** The note with that id, strongly consistent; undefined when there is none. */
export async function getNote(noteId: string): Promise<NoteRecord | undefined> {
  const item = await getItem(noteRecord.key({ id: noteId }));
  return item ? noteRecord.parse(item) : undefined;
}

/** Deletes a note; false when it was already gone. */
export async function deleteNote(noteId: string): Promise<boolean> {
  try {
    await deleteItem(noteRecord.remove({ id: noteId }, { exists: true }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}
