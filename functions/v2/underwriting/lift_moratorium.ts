import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { liftMoratorium, MORATORIUM_PERMISSION } from '../../../shared/moratoriums/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'lift_moratorium',
  summary: 'Lifts a binding moratorium from now on (underwriters and Administrators); what it refused stays refused, others in force stay. Subscribers receive moratorium.lifted',
  permission: MORATORIUM_PERMISSION,
  input: () => z.object({ moratorium_id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => liftMoratorium(principal, input.moratorium_id),
});
