import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { uuid } from '../../../shared/platform/request-fields.js';
import { lockboxRunResult } from '../../../shared/billing/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_lockbox_file_result',
  summary:
    'How far a lockbox file applied in chunks has come (status applying, chunks done) and, once done, the answer of each of its lines in file order, exactly as one application of the file would have answered; only its sender or an Administrator reads it',
  permission: 'billing:write',
  input: () => z.object({ file_id: uuid('must be the file_id apply_lockbox_payment_transactions answered') }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => lockboxRunResult(input.file_id, principal),
});
