import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { id, list } from '../../../shared/platform/request-fields.js';
import { endorseMove } from '../../../shared/moves/endorse.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'resolve_oos_conflicts',
  summary: 'Issues an out-of-sequence endorsement whose fields conflict with later revisions, each conflict resolved: keep_later keeps the later revision\'s value, take_new takes the endorsement\'s',
  permission: 'policies:issue',
  input: () => z.object({
    revision_id: id(),
    resolutions: list(z.object({ field: id(), resolution: z.enum(['keep_later', 'take_new']) })),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'resolve_oos_conflicts', inProgress: 'The endorsement sent earlier with this Idempotency-Key is still being issued' },
  handle: async (input, { principal }) =>
    endorseMove(principal, { revisionId: input.revision_id, resolutions: new Map(input.resolutions.map((resolution) => [resolution.field, resolution.resolution])) }),
});
