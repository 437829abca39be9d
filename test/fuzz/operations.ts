/** The operations the fuzz calls, read from the OpenAPI description the service serves. */
import type { JsonSchema } from './json-schema.js';

export interface FuzzOperation {
  path: string;
  version: 'v1' | 'v2';
  name: string;
  /** The flat request body's schema, without `api_key` (the fuzz sends its key in a header). */
  schema: JsonSchema;
  /** The documented v1 wrapper (`json_dict`/`json_obj`), when the description has a wrapped form. */
  wrapper?: string;
  /** A create: a rejected call must store nothing. */
  isCreate: boolean;
  /** Described with `security: []`: the caller presents no credential (session, the vendor webhook). */
  unauthenticated: boolean;
}

/** The brief's rule for which operations create something, by the operation's name. */
const CREATE_NAME = /create|store|add|new|post|copy/i;

export function fuzzOperations(document: { paths?: Record<string, any> }): FuzzOperation[] {
  return Object.entries(document.paths ?? {}).map(([path, item]) => fuzzOperation(path, item));
}

export function fuzzOperation(path: string, item: any): FuzzOperation {
  const requestSchema = item?.post?.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
  if (!requestSchema) throw new Error(`The description of ${path} has no JSON request body schema`);
  const name = path.split('/').pop() ?? path;
  const { flat, wrapper } = splitWrapper(requestSchema);
  const properties = { ...(flat.properties ?? {}) };
  delete properties.api_key;
  return {
    path,
    version: path.startsWith('/api/v1/') ? 'v1' : 'v2',
    name,
    schema: { ...flat, properties, required: (flat.required ?? []).filter((key) => key !== 'api_key') },
    ...(wrapper ? { wrapper } : {}),
    isCreate: CREATE_NAME.test(name),
    unauthenticated: Array.isArray(item?.post?.security) && item.post.security.length === 0,
  };
}

/** A wrapped v1 operation is described as oneOf [{<wrapper>: flat}, flat]. */
function splitWrapper(schema: JsonSchema): { flat: JsonSchema; wrapper?: string } {
  if (!schema.oneOf) return { flat: schema };
  const wrapped = schema.oneOf.find((member) => member.required?.length === 1 && member.properties?.[member.required[0]]?.type === 'object');
  const flat = schema.oneOf.find((member) => member !== wrapped);
  if (!wrapped || !flat) return { flat: schema };
  return { flat, wrapper: wrapped.required![0] };
}
