import { defineOperation } from '../../../shared/operation.js';
import { createUrlOverrideSchema } from '../../../shared/url-overrides/schemas.js';
import { createOverride } from '../../../shared/url-overrides/service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'createURLOverride',
  summary: 'Replaces an internal page path with an external URL (administrators only)',
  permission: 'url_overrides:write',
  wrapper: 'json_obj',
  input: createUrlOverrideSchema,
  resources: { table: 'write' },
  handle: (input, { principal }) => createOverride(input, principal),
});
