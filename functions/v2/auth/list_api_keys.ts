import * as z from 'zod/mini';
import { apiKeysOf, apiKeyDescription, MANAGE_API_KEYS } from '../../../shared/auth/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list_api_keys',
  summary: "A contact's API keys (Administrators): ids, descriptions, status and last use, never the keys",
  permission: MANAGE_API_KEYS,
  input: () => z.object({
    contact_id: id('must be the id of a contact'),
  }),
  resources: { table: 'read' },
  handle: async ({ contact_id }) => (await apiKeysOf(contact_id)).map(apiKeyDescription),
});
