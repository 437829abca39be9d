import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { FileReply } from '../../../shared/platform/envelope.js';
import { eitherOf, flagOr, optional, uuid } from '../../../shared/platform/request-fields.js';
import { attachmentForViewing } from '../../../shared/documents/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'getAttachment',
  summary: 'Answers a stored file of a policy (a PDF deliverable, a custom HTML deliverable) with its content type, by its id (or file_id, as getToBePrinted names it); delete_on_view removes it once sent',
  permission: 'deliverables:read',
  wrapper: 'json_dict',
  input: () => z
    .object({
      id: optional(uuid('must be a file id (UUID)')),
      // getToBePrinted's files carry their id as file_id: the same field under that name.
      file_id: optional(uuid('must be a file id (UUID)')),
      delete_on_view: flagOr(false),
      // Files are PDFs and HTML pages, which have no smaller rendition: accepted and ignored.
      resized: flagOr(false),
    })
    .check(eitherOf('id', 'file_id')),
  resources: { table: 'write', bucket: 'write' },
  handle: async ({ id, file_id, delete_on_view }, { principal }) => {
    const { record, bytes } = await attachmentForViewing(principal, (id ?? file_id)!, delete_on_view);
    const fileName = record.objectKey.split('/').at(-1);
    // A custom deliverable's HTML comes from a client: a browser shows it sandboxed, running
    // no script and loading nothing, whoever wrote it.
    const headers = record.contentType.startsWith('text/html')
      ? { 'content-security-policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:" }
      : undefined;
    return new FileReply(bytes, record.contentType, { ...(fileName ? { fileName } : {}), ...(headers ? { headers } : {}) });
  },
});
