import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { compareRevisionsOf } from '../../../shared/comparison/index.js';
import { id, withDefault } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'compare_revisions',
  summary:
    'Every difference between two revisions of one policy (committed or open), field by field: items added, removed and changed (limit, deductible, premium), answers, properties and their locations, contacts by role, policy type, term dates, rate version; the premium change per item and in total (a year, and for the rest of the term within one term); who committed each and when. format text answers the lines a person reads',
  permission: 'policies:read',
  input: () => z.object({
    from_revision_id: id(),
    to_revision_id: id(),
    format: withDefault(z.enum(['json', 'text'], { error: 'must be json or text' }), 'json'),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => compareRevisionsOf(principal, { fromRevisionId: input.from_revision_id, toRevisionId: input.to_revision_id, format: input.format }),
});
