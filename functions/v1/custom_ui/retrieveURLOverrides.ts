import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { retrieveOverrides } from '../../../shared/url-overrides/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveURLOverrides',
  summary: 'Every URL override; the shared secret only for administrators',
  permission: 'url_overrides:read',
  wrapper: 'json_obj',
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: (_input, { principal }) => retrieveOverrides(principal),
});
