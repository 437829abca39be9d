import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { reinstateMove } from '../../../shared/moves/reinstate.js';
import { date, flagOr, id, optional } from '../../../shared/platform/request-fields.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'reinstate_policy',
  summary:
    'Puts a cancelled policy back in force: without lapse the cancellation is undone to the cent (a Reinstatement row reverses its return premium, voided installments are billed again); with lapse cover resumes on reinstatement_date and the days without cover are not charged; the reinstatement fee assessed or waived; a Notice of Reinstatement; a renewal cancelled with the term is reinstated with it (its account as before, its own notice, in force on its first day); underwriters and Administrators only; an Idempotency-Key makes a retry answer the first result',
  permission: 'policies:cancel',
  input: () => z.object({
    policy_id: id(),
    reinstatement_date: optional(date()),
    with_lapse: flagOr(false),
    fee_action: z.enum(['assess', 'waive'], { error: 'must be assess or waive' }),
  }),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  idempotent: { scope: 'reinstate_policy', inProgress: 'The reinstatement sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) =>
    reinstateMove(principal, {
      policyId: input.policy_id,
      ...(input.reinstatement_date ? { reinstatementDate: input.reinstatement_date } : {}),
      withLapse: input.with_lapse,
      feeAction: input.fee_action,
    }),
});
