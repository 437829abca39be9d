import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { processPolicyRenewalMove } from '../../../shared/moves/renew.js';
import { RENEWAL_DECISION_PERMISSION, planRenewalRunByHand } from '../../../shared/lifecycle/index.js';
import { todayIso } from '../../../shared/platform/dates.js';
import { PermissionDeniedError } from '../../../shared/platform/errors.js';
import { hasPermission } from '../../../shared/platform/principal.js';
import { date, id, optional } from '../../../shared/platform/request-fields.js';
import { toAmount } from '../../../shared/platform/money.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'process_renewals',
  summary:
    'Runs the renewal move for a day by hand: with policy_number, that policy now (renewed, held for review, put in force or expired, whatever the lead days); without, every term due on renew_date, fanned out as the nightly run does',
  permission: 'policies:write',
  input: () => z.object({ renew_date: optional(date()), policy_number: optional(id()) }),
  resources: { table: 'write', queues: ['nightly-renewals'] },
  tracing: moneyPathTracing,
  // A policy's renewal bills its term: a retry with the same Idempotency-Key answers the first result.
  idempotent: { scope: 'process_renewals', inProgress: 'The renewal sent earlier with this Idempotency-Key is still being made', when: (input) => !!input.policy_number },
  handle: async (input, { principal }) => {
    const renewDate = input.renew_date ?? todayIso();
    const policyNumber = input.policy_number;
    if (policyNumber) {
      const decided = await processPolicyRenewalMove(principal, { policyNumber, renewDate });
      return {
        policy_number: decided.policyNumber,
        renew_date: renewDate,
        decision: decided.decision,
        message: decided.detail,
        policy_term_id: decided.termId ?? null,
        renewal_term_id: decided.renewalTermId ?? null,
        renewal_revision_id: decided.renewalRevisionId ?? null,
        renewal_premium: decided.premium === undefined ? null : toAmount(decided.premium),
      };
    }
    if (!principal.isAdministrator && !hasPermission(principal, RENEWAL_DECISION_PERMISSION)) throw new PermissionDeniedError('Only an underwriter or an Administrator may process renewals');
    const run = await planRenewalRunByHand(renewDate);
    return { renew_date: renewDate, run_id: run.runId, batches: run.batches, terms: run.accounts, message: `${run.accounts} terms due on ${renewDate} queued for the renewal run` };
  },
});
