import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { reverseMove } from '../../../shared/moves/reverse.js';
import { id } from '../../../shared/platform/request-fields.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'reverse_revision',
  summary: 'Reverses the latest issued endorsement of a term: a new endorsement dated as it, restoring the revision before it (the premium change exactly negated per item, installments re-spread back, an Endorsement Declaration saying it reverses, a note, policy.endorsed with reverses) in one transaction',
  permission: 'policies:reverse',
  input: () => z.object({ revision_id: id() }),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  // The reversal moves money: a retry with the same Idempotency-Key answers the first answer.
  idempotent: { scope: 'reverse_revision', inProgress: 'The reversal sent earlier with this Idempotency-Key is still being issued' },
  handle: async ({ revision_id }, { principal }) => reverseMove(principal, { revisionId: revision_id }),
});
