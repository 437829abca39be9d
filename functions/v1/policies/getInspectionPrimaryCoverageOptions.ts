import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { uuid } from '../../../shared/platform/request-fields.js';
import { inspectionCoverageOptions } from '../../../shared/documents/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'getInspectionPrimaryCoverageOptions',
  summary: "The coverages of a property an inspection can be ordered for (its primary coverage), with their limits and deductibles",
  permission: 'policies:read',
  wrapper: 'json_dict',
  input: () => z.object({ propertyId: uuid('must be a property id (UUID)') }),
  resources: { table: 'read' },
  handle: async ({ propertyId }, { principal }) => inspectionCoverageOptions(principal, propertyId),
});
