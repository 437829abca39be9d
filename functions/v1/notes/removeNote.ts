import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { removeNote } from '../../../shared/notes/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'removeNote',
  summary: 'Removes the note with that id; an unknown id answers success false',
  permission: 'notes:write',
  wrapper: 'json_dict',
  input: () => z.object({ id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    await removeNote(principal, input.id);
    return {};
  },
});
