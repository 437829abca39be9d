import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, flagOr, name, optional, uuid } from '../../../shared/platform/request-fields.js';
import { newCustomDeliverable } from '../../../shared/documents/index.js';

/** A custom deliverable's page: large enough for a styled document, far below a Lambda payload. */
const MAX_HTML_CHARS = 1_000_000;

export const handler = defineOperation({
  version: 'v1',
  name: 'newCustomDeliverable',
  summary: "Stores a named custom deliverable (the given HTML, or HTML generated from the revision) as a file of the revision's policy, listed under its attachments",
  permission: 'deliverables:write',
  wrapper: 'json_dict',
  input: () => z.object({
    revisionId: uuid('must be a revision id (UUID)'),
    deliverableName: name(),
    prebuiltHTML: optional(boundedString(MAX_HTML_CHARS, { trim: false })),
    generateHTML: flagOr(false),
  }),
  resources: { table: 'write', bucket: 'write' },
  handle: async (input, { principal, idempotencyKey }) => newCustomDeliverable(principal, input, idempotencyKey),
});
