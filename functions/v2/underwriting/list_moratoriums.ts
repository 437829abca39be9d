import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { listMoratoriumsFor } from '../../../shared/moratoriums/index.js';
import { date, optional } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list_moratoriums',
  summary: 'The binding moratoriums (those in force at some moment of active_on when given), each with its releases and the calls it refused, counted and listed by agency (an agent sees its own agencies\' only)',
  permission: 'policies:read',
  input: () => z.object({ active_on: optional(date()) }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => listMoratoriumsFor(principal, input.active_on),
});
