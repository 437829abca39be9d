import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { markFileAsSigned, signedFileMarker } from '../../../shared/signatures/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'mark_file_as_signed',
  summary: 'Flags a file sent for signature esigned once every signer has signed (also at /api/v2/utils/mark_file_as_signed)',
  permission: 'signatures:write',
  input: () => z.object({ file_id: id() }),
  resources: { table: 'write' },
  handle: async ({ file_id }, { principal }) => {
    await markFileAsSigned(principal, file_id, signedFileMarker);
    return null;
  },
});
