import * as z from 'zod/mini';
import { apiKeyDescription, MANAGE_API_KEYS, revokeApiKeyById } from '../../../shared/auth/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'revoke_api_key',
  summary: 'Revoke an API key by its id (Administrators); it fails from the next call on, and so do its sessions',
  permission: MANAGE_API_KEYS,
  input: () => z.object({
    key_id: id('must be a key_id returned by create_api_key or list_api_keys'),
  }),
  resources: { table: 'write' },
  handle: async ({ key_id }) => apiKeyDescription(await revokeApiKeyById(key_id)),
});
