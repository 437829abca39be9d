/**
 * The service's typed client. Every operation is `POST <path>` with a JSON body; `call` takes the
 * path and a body typed by the OpenAPI description (src/schema.ts, generated), handles the
 * envelope (`success: false`, or a 4xx/5xx, becomes an `ApiError` carrying the service's
 * `messages`), and answers the envelope's `data`. An `Idempotency-Key` is set per call.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export type { paths } from './schema.js';

/** Every operation's path, e.g. `/api/v2/policies/issue`. */
export type OperationPath = keyof paths & string;

/** The JSON body an operation takes, as its description says. */
export type RequestBody<Path extends OperationPath> = paths[Path] extends { post: { requestBody?: { content: { 'application/json': infer Body } } } } ? Body : never;

/** The service refused the call: a business or validation failure (status 200) or an HTTP error. */
export class ApiError extends Error {
  constructor(
    readonly messages: string[],
    readonly status: number,
    readonly body: unknown,
  ) {
    super(messages.join('; ') || `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export interface ClientOptions {
  /** Where the service answers, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An API key (sent as the Authorization header), or a bearer token (`Bearer ...`). */
  credential: string;
  fetch?: typeof globalThis.fetch;
}

export interface CallOptions {
  /** Sent as `Idempotency-Key`: a retried payment, NSF or endorsement with the same key answers the first result. */
  idempotencyKey?: string;
}

interface Envelope {
  success?: boolean;
  messages?: string[];
  message?: string[] | string;
  data?: unknown;
}

const messagesOf = (envelope: Envelope | undefined): string[] => {
  const listed = envelope?.messages ?? envelope?.message ?? [];
  return Array.isArray(listed) ? listed : [listed];
};

export function createInsuranceClient(options: ClientOptions) {
  const client = createClient<paths>({ baseUrl: options.baseUrl, headers: { Authorization: options.credential }, ...(options.fetch ? { fetch: options.fetch } : {}) });
  return {
    /** The underlying openapi-fetch client, for what `call` does not cover. */
    raw: client,
    /** Calls one operation; answers its `data`, or throws ApiError with the service's messages. */
    async call<Path extends OperationPath, Data = any>(path: Path, body: RequestBody<Path>, callOptions: CallOptions = {}): Promise<Data> {
      const init = { body, headers: callOptions.idempotencyKey ? { 'Idempotency-Key': callOptions.idempotencyKey } : {} };
      // openapi-fetch types POST per literal path; `call` is generic over every path, so the init is checked above instead.
      const { data, error, response } = await (client.POST as (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, init);
      const envelope = (data ?? error) as Envelope | undefined;
      if (!response.ok || envelope?.success !== true) throw new ApiError(messagesOf(envelope), response.status, envelope);
      return envelope.data as Data;
    },
  };
}

export type InsuranceClient = ReturnType<typeof createInsuranceClient>;
