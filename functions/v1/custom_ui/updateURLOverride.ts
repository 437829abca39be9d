import { defineOperation } from '../../../shared/operation.js';
import { updateUrlOverrideSchema } from '../../../shared/url-overrides/schemas.js';
import { updateOverride } from '../../../shared/url-overrides/service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'updateURLOverride',
  summary: 'Changes the fields passed of the URL override of an internal path (administrators only)',
  permission: 'url_overrides:write',
  wrapper: 'json_obj',
  input: updateUrlOverrideSchema,
  resources: { table: 'write' },
  handle: (input, { principal }) => updateOverride(input, principal),
});
