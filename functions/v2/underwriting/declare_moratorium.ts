import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { declareMoratorium, MORATORIUM_PERMISSION } from '../../../shared/moratoriums/index.js';
import { boundedString, LIMITS, list, name, optional } from '../../../shared/platform/request-fields.js';

const codes = () => optional(list(boundedString(40), 500));

export const handler = defineOperation({
  version: 'v2',
  name: 'declare_moratorium',
  summary:
    'Declares a binding moratorium (underwriters and Administrators): over states, 5-digit county FIPS codes and ZIPs, for some policy types (default all), from starts_at (default now) until ends_at or until lifted, blocking any of new_business, coverage_increase, reinstatement, cancellation, non_renewal. Answers its moratorium_id; subscribers receive moratorium.declared',
  permission: MORATORIUM_PERMISSION,
  input: () => z.object({
    name: name(),
    kind: boundedString(40),
    states: codes(),
    counties: codes(),
    zips: codes(),
    products: optional(list(boundedString(LIMITS.nameLength), 100)),
    starts_at: optional(boundedString(40)),
    ends_at: optional(boundedString(40)),
    blocks: list(boundedString(40), 10),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    declareMoratorium(principal, {
      name: input.name,
      kind: input.kind,
      blocks: input.blocks,
      ...(input.states ? { states: input.states } : {}),
      ...(input.counties ? { counties: input.counties } : {}),
      ...(input.zips ? { zips: input.zips } : {}),
      ...(input.products ? { products: input.products } : {}),
      ...(input.starts_at ? { startsAt: input.starts_at } : {}),
      ...(input.ends_at ? { endsAt: input.ends_at } : {}),
    }),
});
