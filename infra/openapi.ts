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

function requestSchema(metadata: OperationMetadata): Record<string, unknown> {
  const schema = z.toJSONSchema(metadata.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
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
