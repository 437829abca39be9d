import * as z from 'zod/mini';
import { issueApiKeyTo, MANAGE_API_KEYS } from '../../../shared/auth/index.js';
import { DataWithMessages } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, id, LIMITS } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'create_api_key',
  summary: 'Issue a new API key for a contact (Administrators); the key is answered this once and never again',
  permission: MANAGE_API_KEYS,
  input: () => z.object({
    contact_id: id('must be the id of a contact'),
    description: boundedString(LIMITS.nameLength, { nonEmpty: true, typeMessage: 'must say what the key is for' }),
  }),
  resources: { table: 'write' },
  handle: async ({ contact_id, description }) => {
    const key = await issueApiKeyTo(contact_id, description);
    return new DataWithMessages(
      { key_id: key.keyId, contact_id: key.contactId, description: key.description, created_at: key.createdAt, api_key: key.apiKey },
      ['Store this API key now: it cannot be shown again'],
    );
  },
});
