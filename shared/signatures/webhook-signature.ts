/**
 * Signing and verifying signature-vendor webhooks before anything is queued.
 *
 * Header (`X-Signature` or whichever header the vendor integration names):
 *
 *     t=<unix seconds>,v1=<hex HMAC-SHA256 of `${t}.${rawBody}` under the vendor's secret>
 *
 * The timestamp is inside the signed text, so an old delivery cannot be given a fresh time;
 * a delivery older (or further in the future) than the tolerance is refused as a replay.
 * Several `v1=` entries may be present while a vendor rotates its secret; any one that matches
 * a known secret is enough. The raw body is signed as received: re-serialized JSON would differ.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** An authentic delivery outside the tolerance window: a replay or a badly skewed clock. */
export class StaleWebhookError extends Error {
  constructor(readonly timestamp: number, readonly toleranceSeconds: number) {
    super(`The webhook timestamp is more than ${toleranceSeconds} seconds from now`);
    this.name = 'StaleWebhookError';
  }
}

type Bytes = string | Uint8Array;

function digest(secret: Bytes, timestamp: number, rawBody: Bytes): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

/** The header value for a delivery of `rawBody` at `timestamp` (unix seconds). */
export function signWebhook(secret: Bytes, rawBody: Bytes, timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError('The timestamp must be whole unix seconds');
  return `t=${timestamp},v1=${digest(secret, timestamp, rawBody).toString('hex')}`;
}

interface ParsedHeader {
  timestamp: number;
  signatures: Buffer[];
}

function parseHeader(header: string | undefined): ParsedHeader {
  if (!header || header.length > 2048) throw new WebhookSignatureError('The signature header is missing');
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) throw new WebhookSignatureError('The signature header is malformed');
  return { timestamp, signatures };
}

export interface VerifyWebhookInput {
  header: string | undefined;
  rawBody: Bytes;
  /** The vendor's secret, or its current and previous secrets while it rotates them. */
  secrets: Bytes | Bytes[];
  /** The time to judge staleness by (injected so the check is a pure function). */
  now: Date;
  toleranceSeconds?: number;
}

/**
 * Returns the delivery's timestamp when the signature matches and the delivery is fresh;
 * throws `WebhookSignatureError` when it does not match and `StaleWebhookError` when an
 * authentic delivery is outside the tolerance.
 */
export function verifyWebhook(input: VerifyWebhookInput): { timestamp: number } {
  const { timestamp, signatures } = parseHeader(input.header);
  const secrets = Array.isArray(input.secrets) ? input.secrets : [input.secrets];
  const expected = secrets.map((secret) => digest(secret, timestamp, input.rawBody));
  // Every comparison runs, so the time taken does not tell which secret or entry matched.
  let matched = false;
  for (const candidate of expected) for (const given of signatures) matched = timingSafeEqual(candidate, given) || matched;
  if (!matched) throw new WebhookSignatureError('The webhook signature does not match');
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(input.now.getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) throw new StaleWebhookError(timestamp, tolerance);
  return { timestamp };
}
