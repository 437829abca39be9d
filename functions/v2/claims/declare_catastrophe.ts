import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { declareCatastrophe } from '../../../shared/claims/index.js';
import { boundedString, date, id, list, name, optional, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'declare_catastrophe',
  summary:
    'Declares a catastrophe (Administrators and Claims Managers): title, PCS number, states, county FIPS codes (none: the whole states), from and to; a claim whose loss date and property fall in it is tagged with it when reported. moratorium_id names the binding moratorium declared for the same storm',
  permission: 'claims:manage',
  input: () => z.object({
    title: name(),
    pcs_number: optional(boundedString(20)),
    // Each a two-letter state and a 5-digit county FIPS code, checked by the service (naming the entry) as declare_moratorium's are.
    states: list(boundedString(40), 60).check(z.minLength(1, 'name at least one state')),
    counties: optional(list(boundedString(40), 500)),
    from: date(),
    to: date(),
    moratorium_id: optionalId(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    declareCatastrophe(principal, {
      title: input.title,
      ...(input.pcs_number ? { pcsNumber: input.pcs_number } : {}),
      states: input.states,
      counties: input.counties ?? [],
      from: input.from,
      to: input.to,
      ...(input.moratorium_id ? { moratoriumId: input.moratorium_id } : {}),
    }),
});
