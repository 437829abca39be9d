import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { boundedString, LIMITS, pageNumber, pageSize, withDefault } from '../../../shared/platform/request-fields.js';
import { MAX_SEARCH_PAGE_SIZE, policyTypesFilter, reviewStatesFilter, revisionStatesFilter, sortObject, statusesFilter, searchPolicies } from '../../../shared/search/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'search',
  summary:
    'Policies whose named insureds have words beginning with each word searched, or whose number begins with it (also without its prefix, or as digits alone), within the caller\'s reach; filtered, sorted and paged',
  permission: 'policies:read',
  input: () => z.object({
    search_string: z.pipe(z.nullish(boundedString(LIMITS.nameLength, { trim: false })), z.transform((value) => value ?? '')),
    statuses: statusesFilter(),
    policy_types: policyTypesFilter(),
    revision_states: revisionStatesFilter(),
    review_states: reviewStatesFilter(),
    sort_obj: sortObject(),
    current_page: withDefault(pageNumber(1), 1),
    page_size: withDefault(pageSize(MAX_SEARCH_PAGE_SIZE), 25),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    const page = await searchPolicies(principal, {
      searchString: input.search_string,
      statuses: input.statuses,
      policyTypes: input.policy_types,
      revisionStates: input.revision_states,
      reviewStates: input.review_states,
      sort: input.sort_obj,
      page: input.current_page,
      pageSize: input.page_size,
    });
    // The page is the data; clients that read activePage at the top level find it there too (spec 2.1).
    return new Reply({ success: true, messages: [], ...page, data: page });
  },
});
