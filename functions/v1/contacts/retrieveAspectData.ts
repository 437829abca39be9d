import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flag, flagOr, uuid } from '../../../shared/platform/request-fields.js';
import { retrieveAspectData } from '../../../shared/contacts/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveAspectData',
  summary: 'The aspect data of a contact for a role (or for all its roles), with its policies',
  permission: 'contacts:read',
  input: () => z.object({
    id: uuid(),
    roleId: uuid(),
    /** Typed string in the legacy schema; required, and must be true for API-key callers. */
    hasPermissions: flag(),
    all: flagOr(false),
  }),
  resources: { table: 'read' },
  handle: (input, { principal }) => retrieveAspectData(input, principal),
});
