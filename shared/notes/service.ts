/** The notes operations: removeNote. */
import { NotFoundError } from '../platform/errors.js';
import { reaches, type Principal } from '../platform/principal.js';
import { deleteNote, getNote } from './store.js';

/** removeNote: deletes the note with that id, if the caller reaches its policy; an unknown id is not found. */
export async function removeNote(principal: Principal, noteId: string): Promise<void> {
  const label = `Note ${noteId}`;
  const note = await getNote(noteId);
  if (!note || !reaches(principal, note)) throw new NotFoundError(label);
  // Removed by another request since it was read: the caller's note is gone either way, but not by this call.
  if (!(await deleteNote(noteId))) throw new NotFoundError(label);
}
