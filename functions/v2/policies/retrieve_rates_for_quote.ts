import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { clearableMoney, id, list, optional, uuid, boundedString } from '../../../shared/platform/request-fields.js';
import { retrieveRatesForQuote } from '../../../shared/policies/index.js';

const ratingSpec = () =>
  z.object({
  items: optional(list(z.object({ id: uuid(), limit: clearableMoney(), deductible: clearableMoney() }))),
  questions: optional(z.record(uuid(), boundedString(200))),
});

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_rates_for_quote',
  summary: 'Rates a revision once per rating spec (other limits, deductibles or answers) without changing anything stored',
  permission: 'policies:read',
  input: () => z.object({ revision_id: id(), rating_specs: list(ratingSpec(), 50) }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRatesForQuote(principal, input),
});
