import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { claimDeadlines } from '../../../shared/claims/index.js';
import { boundedString, optional, wholeNumber, withDefault } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'deadlines',
  summary:
    "The claims' state deadlines (acknowledge, begin the investigation, accept or reject, pay or deny) that come due within due_within_days calendar days (0 to 365, default 7; 0: today) and every one overdue, soonest first: each with its claim, clock, due date and days left or days overdue (breached_at once the nightly run flagged it). Of one state, or of every state the product's clocks run in. An agent sees his agencies' claims only",
  permission: 'claims:read',
  input: () => z.object({
    due_within_days: withDefault(wholeNumber({ min: 0, max: 365 }), 7),
    state: optional(boundedString(2).check(z.regex(/^[A-Za-z]{2}$/, 'must be a state abbreviation, as NY'))),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => claimDeadlines(principal, { dueWithinDays: input.due_within_days, ...(input.state ? { state: input.state } : {}) }),
});
