/**
 * Starts the service for one test file against the run's embedded stores, with
 * its own table, bucket and queues, and gives the test a way to call it over HTTP.
 */
import { expect, inject } from 'vitest';
import { newToken } from '../../shared/auth/secrets.js';
import { newLocalResourceNames } from '../../infra/local/bootstrap.js';
import { pendingDeliverableRequests } from '../../shared/documents/request-store.js';
import type { QueueName } from '../../shared/platform/queues.js';
import { startLocalService, type LocalService } from '../../infra/local/service.js';

export interface CallOptions {
  apiKey?: string | null;
  headers?: Record<string, string>;
  /** Send this raw text as the body instead of JSON-encoding `body`. */
  rawBody?: string;
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestService extends LocalService {
  administratorApiKey: string;
  oauthClient: { clientId: string; clientSecret: string };
  /**
   * Waits until every deliverable a move requested (the Declaration at issue, Notices of
   * Cancellation) has been rendered by the documents consumer the local runtime runs.
   */
  deliverablesRendered(timeoutMs?: number): Promise<void>;
  /** POSTs `body` (plus `api_key`, the administrator's unless told otherwise) to `path`. */
  call<T = any>(path: string, body?: Record<string, unknown>, options?: CallOptions): Promise<ApiAnswer<T>>;
}

/**
 * `consumers`: by default only the documents consumer runs (with the requests' dispatcher), so
 * that a move's deliverables are rendered as in AWS; `true` runs every consumer, `false` none.
 */
export async function startTestService(
  options: { consumers?: boolean | QueueName[]; eventsDir?: string; operationTimeoutSeconds?: number; oauthClient?: { clientId: string; clientSecret: string } } = {},
): Promise<TestService> {
  const stores = { ...inject('stores'), stop: async () => undefined };
  const administratorApiKey = newToken('ias');
  const oauthClient = options.oauthClient ?? { clientId: `client-${crypto.randomUUID()}`, clientSecret: newToken('secret') };
  const service = await startLocalService({
    port: 0,
    stores,
    names: newLocalResourceNames(),
    administratorApiKey,
    oauthClient,
    consumers: options.consumers ?? ['documents'],
    ...(options.eventsDir ? { eventsDir: options.eventsDir } : {}),
    ...(options.operationTimeoutSeconds ? { operationTimeoutSeconds: options.operationTimeoutSeconds } : {}),
  });
  return {
    ...service,
    administratorApiKey,
    oauthClient,
    deliverablesRendered: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const pending = await pendingDeliverableRequests(1);
        if (pending.length === 0) return;
        if (Date.now() > deadline) throw new Error(`Deliverable request ${pending[0].requestId} (${pending[0].deliverableType}) was not rendered within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    call: async (path, body = {}, callOptions = {}) => {
      const apiKey = callOptions.apiKey === undefined ? administratorApiKey : callOptions.apiKey;
      const payload = callOptions.rawBody ?? JSON.stringify(apiKey === null ? body : { api_key: apiKey, ...body });
      const response = await fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: callOptions.headers ?? {},
        body: payload,
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: the test sees the raw text.
      }
      return { status: response.status, body: parsed as any, headers: response.headers };
    },
  };
}

/** The data of a successful answer; otherwise fails with the answer's messages, so a refusal explains itself. */
export function successData(answer: ApiAnswer): any {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.success, JSON.stringify(answer.body.messages ?? answer.body)).toBe(true);
  return answer.body.data;
}
