/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): a delivery carries
 * `webhook-id`, `webhook-timestamp` (epoch seconds) and `webhook-signature`, a space-separated
 * list of `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one per secret valid now (two
 * while a rotated secret is still honoured). A secret reads `whsec_<base64 of 32 random bytes>`;
 * the HMAC key is the decoded bytes.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const keyOf = (secret: string) => Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function signedHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}

/** Whether any signature of the header is `secret`'s over this message (what a receiver checks). */
export function verifies(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const expected = Buffer.from(signature(secret, headers.id, Number(headers.timestamp), body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
