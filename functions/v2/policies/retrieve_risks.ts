import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { retrieveRisks } from '../../../shared/policies/risk-service.js';
import { flag, id, unlessBlank, wholeNumber } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_risks',
  summary: 'A page of the properties of a revision',
  permission: 'policies:read',
  input: z.object({
    revision_id: id(),
    page: unlessBlank(wholeNumber().pipe(z.number().min(0, 'must be 0 or more')).default(0)),
    page_size: unlessBlank(wholeNumber().pipe(z.number().min(1, 'must be greater than 0')).default(10)),
    retrieve_remaining: flag(false),
    order_by: unlessBlank(z.string().trim().default('name')),
    risk_types: unlessBlank(z.union([z.array(z.string()), z.string().transform((value) => [value])]).optional()),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRisks(principal, input),
});
