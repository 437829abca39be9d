import { describe, expect, it } from 'vitest';
import { StaleWebhookError, WebhookSignatureError, signWebhook, verifyWebhook } from '../../shared/signatures/webhook-signature.js';

const secret = 'whsec_vendor_secret';
const body = JSON.stringify({ event_type: 'signed', policy_id: 'p-1', signer_name: 'Jordan Avery', file_id: 'f-1' });
const sentAt = 1_782_900_000; // 2026-07-01T10:00:00Z
const now = new Date(sentAt * 1000 + 30_000);

describe('vendor webhook signatures', () => {
  it('accepts a delivery signed with the secret within the tolerance', () => {
    const header = signWebhook(secret, body, sentAt);
    expect(header).toMatch(/^t=1782900000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook({ header, rawBody: body, secrets: secret, now })).toEqual({ timestamp: sentAt });
    expect(verifyWebhook({ header, rawBody: Buffer.from(body), secrets: secret, now }).timestamp).toBe(sentAt);
  });

  it('refuses a forged signature: another secret, or made-up hex', () => {
    const forged = signWebhook('not-the-secret', body, sentAt);
    expect(() => verifyWebhook({ header: forged, rawBody: body, secrets: secret, now })).toThrow(WebhookSignatureError);
    const madeUp = `t=${sentAt},v1=${'ab'.repeat(32)}`;
    expect(() => verifyWebhook({ header: madeUp, rawBody: body, secrets: secret, now })).toThrow(WebhookSignatureError);
  });

  it('refuses a tampered body or a timestamp moved after signing', () => {
    const header = signWebhook(secret, body, sentAt);
    expect(() => verifyWebhook({ header, rawBody: body.replace('signed', 'all_signed'), secrets: secret, now })).toThrow(WebhookSignatureError);
    const moved = header.replace(`t=${sentAt}`, `t=${sentAt + 1000}`);
    expect(() => verifyWebhook({ header: moved, rawBody: body, secrets: secret, now: new Date((sentAt + 1000) * 1000) })).toThrow(WebhookSignatureError);
  });

  it('refuses an authentic delivery older than 300 seconds (a replay) or too far ahead', () => {
    const header = signWebhook(secret, body, sentAt);
    expect(verifyWebhook({ header, rawBody: body, secrets: secret, now: new Date((sentAt + 300) * 1000) }).timestamp).toBe(sentAt);
    expect(() => verifyWebhook({ header, rawBody: body, secrets: secret, now: new Date((sentAt + 301) * 1000) })).toThrow(StaleWebhookError);
    expect(() => verifyWebhook({ header, rawBody: body, secrets: secret, now: new Date((sentAt - 301) * 1000) })).toThrow(StaleWebhookError);
    expect(verifyWebhook({ header, rawBody: body, secrets: secret, now: new Date((sentAt + 3000) * 1000), toleranceSeconds: 3600 }).timestamp).toBe(sentAt);
  });

  it('refuses a missing or malformed header', () => {
    for (const header of [undefined, '', 'v1=abc', `t=${sentAt}`, `t=soon,v1=${'0'.repeat(64)}`, 'x'.repeat(5000)]) {
      expect(() => verifyWebhook({ header, rawBody: body, secrets: secret, now })).toThrow(WebhookSignatureError);
    }
  });

  it('accepts either secret while the vendor rotates it', () => {
    const header = signWebhook('old-secret', body, sentAt);
    expect(verifyWebhook({ header, rawBody: body, secrets: ['new-secret', 'old-secret'], now }).timestamp).toBe(sentAt);
    const both = `${signWebhook('new-secret', body, sentAt)},v1=${'0'.repeat(64)}`;
    expect(verifyWebhook({ header: both, rawBody: body, secrets: 'new-secret', now }).timestamp).toBe(sentAt);
  });
});
