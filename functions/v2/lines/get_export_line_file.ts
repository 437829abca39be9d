import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, eitherOf, optional, uuid } from '../../../shared/platform/request-fields.js';
import { getExportLineFile } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_export_line_file',
  summary:
    "The line file of a product version as published: data is the package as a JSON-encoded string (decode it yourself). The version is effective_date_id (the vendor's client sends it as curr_eff_date_id); curr_line_id and curr_state_id, when sent, must name a line and a state of that version",
  permission: 'policies:read',
  input: () => z
    .object({
      effective_date_id: optional(uuid()),
      curr_eff_date_id: optional(uuid()),
      curr_line_id: optional(uuid()),
      curr_state_id: optional(boundedString(40)),
    })
    .check(eitherOf('effective_date_id', 'curr_eff_date_id')),
  resources: { table: 'read' },
  handle: async (input) =>
    getExportLineFile({
      effectiveDateId: (input.effective_date_id ?? input.curr_eff_date_id)!,
      ...(input.curr_line_id ? { lineId: { value: input.curr_line_id, field: 'curr_line_id' } } : {}),
      ...(input.curr_state_id ? { stateId: { value: input.curr_state_id, field: 'curr_state_id' } } : {}),
    }),
});
