/**
 * The built-in signature vendor's signing page in AWS: `GET /esign/sign` shows it and
 * `POST /esign/sign` (its form) signs; `GET /esign/sign?...&view=document` is the document to sign. The same page the local server serves
 * (infra/local/signing-routes.ts); it takes no credential: the link's token is the proof.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { serveSigningPage } from '../../shared/signatures/index.js';

/** A form of a signing page is a few hundred bytes; anything far larger is not one. */
const FORM_LIMIT_BYTES = 16 * 1024;

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const method = event.requestContext.http.method.toUpperCase();
  const raw = event.body ?? '';
  const body = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(body) > FORM_LIMIT_BYTES) return { statusCode: 413, headers: { 'content-type': 'text/plain' }, body: 'The form is too large' };
  const response = await serveSigningPage({ method: method === 'POST' ? 'POST' : 'GET', query: new URLSearchParams(event.rawQueryString ?? ''), body });
  return { statusCode: response.statusCode, headers: response.headers, body: response.body, ...(response.isBase64Encoded ? { isBase64Encoded: true } : {}) };
}
