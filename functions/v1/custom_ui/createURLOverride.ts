import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, withDefault, builtOnFirstUse } from '../../../shared/platform/request-fields.js';
import { category, externalUrl, httpMethod, internalPath, sharedSecret, createOverride } from '../../../shared/url-overrides/index.js';

export const createUrlOverrideInput = builtOnFirstUse(() =>
  z.object({
    url: internalPath(),
    override: externalUrl(),
    http_method: withDefault(httpMethod(), 'GET'),
    enabled: flagOr(true),
    shared_secret: sharedSecret(),
    category: category(),
  }),
);

export const handler = defineOperation({
  version: 'v1',
  name: 'createURLOverride',
  summary: 'Replaces an internal page path with an external URL (administrators only)',
  permission: 'url_overrides:write',
  wrapper: 'json_obj',
  input: createUrlOverrideInput,
  resources: { table: 'write' },
  handle: (input, { principal }) => createOverride(input, principal),
});
