/**
 * The two response envelopes of the interface (spec 2.1, README.md, "A first call").
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

/**
 * A file instead of JSON (a stored PDF, an HTML page): its bytes and content type. API
 * Gateway carries binary bodies base64-encoded with `isBase64Encoded`; the local server
 * decodes them, so a client receives the raw bytes either way.
 */
export class FileReply {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
    readonly options: { fileName?: string; headers?: Record<string, string> } = {},
  ) {}
}

export function fileResponse(file: FileReply, requestId?: string): APIGatewayProxyStructuredResultV2 {
  // A name is only ever ours (a label), but quotes and line breaks would break the header.
  const fileName = file.options.fileName?.replace(/["\\\r\n]/g, '').slice(0, 120);
  return {
    statusCode: 200,
    headers: {
      'content-type': file.contentType,
      ...(fileName ? { 'content-disposition': `inline; filename="${fileName}"` } : {}),
      'x-content-type-options': 'nosniff',
      ...(requestId ? { 'x-request-id': requestId } : {}),
      ...file.options.headers,
    },
    body: Buffer.from(file.bytes).toString('base64'),
    isBase64Encoded: true,
  };
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
