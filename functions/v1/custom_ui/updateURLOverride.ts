import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { optional, optionalFlag, builtOnFirstUse } from '../../../shared/platform/request-fields.js';
import { category, externalUrl, httpMethod, internalPath, sharedSecret, updateOverride } from '../../../shared/url-overrides/index.js';

export const updateUrlOverrideInput = builtOnFirstUse(() =>
  z.object({
    url: internalPath(),
    override: optional(externalUrl()),
    enabled: optionalFlag(),
    http_method: optional(httpMethod()),
    shared_secret: sharedSecret(),
    category: category(),
  }),
);

export const handler = defineOperation({
  version: 'v1',
  name: 'updateURLOverride',
  summary: 'Changes the fields passed of the URL override of an internal path (administrators only)',
  permission: 'url_overrides:write',
  wrapper: 'json_obj',
  input: updateUrlOverrideInput,
  resources: { table: 'write' },
  handle: (input, { principal }) => updateOverride(input, principal),
});
