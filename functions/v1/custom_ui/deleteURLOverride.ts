import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { internalPath, deleteOverride } from '../../../shared/url-overrides/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'deleteURLOverride',
  summary: 'Removes the URL override of an internal path (administrators only)',
  permission: 'url_overrides:write',
  wrapper: 'json_obj',
  input: () => z.object({ url: internalPath() }),
  resources: { table: 'write' },
  handle: async (input) => {
    await deleteOverride(input.url);
    return null;
  },
});
