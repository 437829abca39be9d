import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, freeText, optional, optionalUuid, shortText, uuid } from '../../../shared/platform/request-fields.js';
import { requestInspection } from '../../../shared/documents/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'getInspection',
  summary: "Orders an inspection of a property from an inspection vendor (the built-in one unless named) and sets the property's inspection_requested_date",
  permission: 'policies:write',
  wrapper: 'json_dict',
  input: () => z.object({
    revisionId: optionalUuid('must be a revision id (UUID)'),
    propertyId: uuid('must be a property id (UUID)'),
    vendor: optional(shortText()),
    primaryCoverageId: optionalUuid('must be a coverage id (UUID)'),
    supplements: optional(freeText()),
    additionalComments: optional(freeText()),
    reportType: optional(shortText()),
    specialInstructions: optional(freeText()),
    commercial: flagOr(false),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => requestInspection(principal, input),
});
