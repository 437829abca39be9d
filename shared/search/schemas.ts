/**
 * Request building blocks of search and the listings (zod/mini, on the house vocabulary).
 * Filters accept their documented values in any letter case.
 */
import * as z from 'zod/mini';
import { boundedString, LIMITS, list } from '../platform/request-fields.js';
import { REVIEW_STATES, SEARCH_STATUSES, SORT_FIELDS } from './model.js';
import { sortFieldOf } from './rules.js';

/** The largest page a search answers: real clients ask for 10,000. */
export const MAX_SEARCH_PAGE_SIZE = 10_000;

const REVISION_STATES = ['open', 'committed', 'archived', 'pending'] as const;

/** A filter list whose values must be among `allowed` (any case); answered as the canonical spelling. */
const filterOf = (allowed: readonly string[]) =>
  z.pipe(
    z.pipe(
      z.nullish(list(boundedString(LIMITS.nameLength), 50)),
      z.transform((values) => values ?? []),
    ),
    z.pipe(
      z.array(z.string()).check(
        z.refine((values) => values.every((value) => allowed.some((known) => known.toLowerCase() === value.toLowerCase())), `must each be one of ${allowed.join(', ')}`),
      ),
      z.transform((values) => values.map((value) => allowed.find((known) => known.toLowerCase() === value.toLowerCase()) as string)),
    ),
  );

export const statusesFilter = () => filterOf(SEARCH_STATUSES);
export const reviewStatesFilter = () => filterOf(REVIEW_STATES);
export const revisionStatesFilter = () => filterOf(REVISION_STATES);
/** Policy types by name or id. */
export const policyTypesFilter = () => z.pipe(z.nullish(list(boundedString(LIMITS.nameLength), 50)), z.transform((values) => values ?? []));

/** `{field, order}`: field in either spelling (`policyNumber` or `policy_number`). */
export const sortObject = () =>
  z.pipe(
    z.nullish(
      z.object({
        field: z.nullish(
          boundedString(LIMITS.nameLength).check(z.refine((name) => name === '' || sortFieldOf(name) !== undefined, `must be one of ${SORT_FIELDS.join(', ')} (or as snake_case)`)),
        ),
        order: z.nullish(z.string().check(z.refine((order) => ['asc', 'desc', ''].includes(order.toLowerCase()), 'must be asc or desc'))),
      }),
    ),
    z.transform((sort) => ({
      field: (sort?.field ? sortFieldOf(sort.field) : undefined) ?? ('policyNumber' as const),
      order: (sort?.order ?? '').toLowerCase() === 'desc' ? ('desc' as const) : ('asc' as const),
    })),
  );
