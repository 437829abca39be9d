/**
 * The OpenAPI description of the interface, generated from the same zod schemas the
 * operations validate with, for every operation file under functions/.
 */
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import type { OperationHandler, OperationMetadata } from '../shared/platform/operation.js';
import { listOperationRoutes, type OperationRoute } from './routes.js';

export const OPENAPI_VERSION_LABEL = '2.0.0';

export async function loadOperationMetadata(route: OperationRoute): Promise<OperationMetadata> {
  const module = (await import(pathToFileURL(route.entry).href)) as { handler?: OperationHandler };
  if (!module.handler?.operation) throw new Error(`${route.entry} does not export a handler made by defineOperation`);
  return module.handler.operation;
}

/**
 * The README's worked example, by field name: what /docs shows for these fields in every
 * operation, over the generic examples of the request vocabulary (shared/platform/request-fields.ts).
 */
export const WORKED_EXAMPLE_VALUES: Record<string, unknown> = {
  policy_number: '10-2026-1',
  policyNumber: '10-2026-1',
  quote_number: '10-2026-1',
  policy_id: '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b',
  policyId: '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b',
  effective_date: '11/25/2026',
  cancel_date: '2026-12-25',
  cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797',
  billing_schedule_id: 'e3645365-e835-4022-973d-43e9cba798df',
  line_name: 'Homeowners',
  policy_type_name: 'Homeowner - HO3',
  name: 'Pat Example',
  search_string: 'pat exa',
  questionId: 'e29555d3-7101-4947-a3af-a279d8774c09',
  yesNoAnswer: 'no',
  address_line1: '1 Main St',
  address_zip: '10001',
  zip: '10001',
  limit: 250000,
  deductible: 1000,
  amount: '851.62',
};

/** For text fields the worked example does not name: a value of the kind their name says. */
const EXAMPLES_BY_NAME: Array<[RegExp, unknown]> = [
  [/(^|_)id$|Id$|_ids?$/, '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b'],
  [/date$|Date$/, '2026-11-25'],
  [/email/i, 'pat@example.com'],
  [/phone/i, '212-555-0100'],
  [/city$/i, 'New York'],
  [/state$/i, 'NY'],
  [/zip|postal/i, '10001'],
  [/number$|Number$/, '10-2026-1'],
  [/name$|Name$/, 'Pat Example'],
  [/address/i, '1 Main St'],
];

const isText = (property: Record<string, unknown>) =>
  property.type === 'string' || (Array.isArray(property.anyOf) && property.anyOf.some((option) => (option as { type?: string }).type === 'string'));

/** Puts the worked example's value on each property it names, through nested objects, lists and alternatives. */
function withWorkedExample(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) return schema.forEach(withWorkedExample);
  const node = schema as Record<string, unknown>;
  const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [field, property] of Object.entries(properties ?? {})) {
    if (!property || typeof property !== 'object' || 'properties' in property || 'items' in property) continue;
    if (field in WORKED_EXAMPLE_VALUES) property.examples = [WORKED_EXAMPLE_VALUES[field]];
    else if (!property.examples && !property.enum && isText(property)) {
      const byName = EXAMPLES_BY_NAME.find(([pattern]) => pattern.test(field));
      if (byName) property.examples = [byName[1]];
    }
  }
  for (const [key, value] of Object.entries(node)) if (key !== 'examples' && key !== 'default') withWorkedExample(value);
}

function requestSchema(metadata: OperationMetadata): Record<string, unknown> {
  const schema = z.toJSONSchema(metadata.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  withWorkedExample(schema);
  const properties = { ...((schema.properties as Record<string, unknown>) ?? {}) };
  properties.api_key = { type: 'string', description: 'API key (one of the accepted credentials)', writeOnly: true };
  const flat = { ...schema, properties };
  if (!metadata.wrapper) return flat;
  // v1 operations with a wrapper accept the wrapped form and the flat form alike.
  return { oneOf: [{ type: 'object', properties: { [metadata.wrapper]: schema, api_key: properties.api_key }, required: [metadata.wrapper] }, flat] };
}

const envelope = (version: string) => ({
  type: 'object',
  required: ['success', version === 'v1' ? 'message' : 'messages'],
  properties: {
    success: { type: 'boolean' },
    [version === 'v1' ? 'message' : 'messages']: { type: 'array', items: { type: 'string' } },
    data: {},
  },
});

export async function buildOpenApiDocument(routes = listOperationRoutes()): Promise<Record<string, unknown>> {
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    const metadata = await loadOperationMetadata(route);
    const failure = { description: 'See the envelope', content: { 'application/json': { schema: envelope(route.version) } } };
    paths[route.path] = {
      post: {
        operationId: route.id,
        summary: metadata.summary,
        tags: [`${route.version} ${route.module}`],
        ...(metadata.permission ? { description: `Requires the permission \`${metadata.permission}\`.` } : {}),
        ...(metadata.authentication === 'none' ? { security: [] } : {}),
        requestBody: { required: false, content: { 'application/json': { schema: requestSchema(metadata) } } },
        responses: {
          '200': { description: 'Success, or a business or validation failure (`success: false`)', content: { 'application/json': { schema: envelope(route.version) } } },
          '400': { ...failure, description: 'The body is not JSON' },
          '401': { ...failure, description: 'No valid credential' },
          '403': { ...failure, description: 'The caller lacks the permission' },
          '409': { ...failure, description: 'A request sent earlier with the same Idempotency-Key is still running: retry after the `Retry-After` header\'s seconds for its answer' },
          '413': { ...failure, description: 'The body is over the limit' },
          '500': { ...failure, description: 'Unexpected fault; the message carries a request id' },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Insurance administration service',
      version: OPENAPI_VERSION_LABEL,
      description: 'JSON-over-HTTP operations for quoting, rating, binding, issuing, billing, cancelling and printing homeowners policies.',
    },
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An API key as the whole Authorization header (or `api_key` in the body)' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'OAuth 2.0 client-credentials access token' },
        session: { type: 'apiKey', in: 'cookie', name: 'ias_session', description: 'Session cookie minted by /api/v2/auth/session' },
      },
    },
    security: [{ apiKeyHeader: [] }, { bearer: [] }, { session: [] }],
    paths,
  };
}
