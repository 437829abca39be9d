/**
 * The two response envelopes of the interface (spec 2.1, DESIGN.md section 2).
 * v1 operations answer `message`, v2 operations answer `messages`; both as lists.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type ApiVersion = 'v1' | 'v2';

export interface Envelope {
  success: boolean;
  message?: string[];
  messages?: string[];
  data: unknown;
}

export function envelope(version: ApiVersion, success: boolean, messages: string[], data: unknown): Envelope {
  return version === 'v1' ? { success, message: messages, data } : { success, messages, data };
}

/**
 * An answer an operation gives in its own documented shape instead of the
 * envelope (for example storeNewContact's top-level `id` and `address_ids`).
 */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly options: { statusCode?: number; cookies?: string[]; headers?: Record<string, string> } = {},
  ) {}
}

/** Data plus informational messages for an envelope answer. */
export class DataWithMessages {
  constructor(
    readonly data: unknown,
    readonly messages: string[],
  ) {}
}

export function jsonResponse(
  statusCode: number,
  body: unknown,
  extra: { cookies?: string[]; headers?: Record<string, string>; requestId?: string } = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json',
      ...(extra.requestId ? { 'x-request-id': extra.requestId } : {}),
      ...extra.headers,
    },
    ...(extra.cookies?.length ? { cookies: extra.cookies } : {}),
    body: JSON.stringify(body),
  };
}
