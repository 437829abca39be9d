import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, id, list, name, optional, pageNumber, pageSize, shortText, withDefault } from '../../../shared/platform/request-fields.js';
import { retrieveRisks } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_risks',
  summary: 'A page of the properties of a revision',
  permission: 'policies:read',
  input: () => z.object({
    revision_id: id(),
    page: withDefault(pageNumber(0), 0),
    page_size: withDefault(pageSize(), 10),
    retrieve_remaining: flagOr(false),
    order_by: withDefault(name(), 'name'),
    risk_types: optional(z.union([list(shortText(), 100), z.pipe(shortText(), z.transform((value) => [value]))])),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRisks(principal, input),
});
