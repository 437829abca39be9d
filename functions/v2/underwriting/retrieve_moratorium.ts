import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { retrieveMoratorium } from '../../../shared/moratoriums/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_moratorium',
  summary: 'One binding moratorium with its releases and the calls it refused (what, for which policy and agency, by whom, when)',
  permission: 'policies:read',
  input: () => z.object({ moratorium_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveMoratorium(principal, input.moratorium_id),
});
