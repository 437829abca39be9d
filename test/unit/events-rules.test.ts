/** The events area's plain rules: Standard Webhooks signatures, type patterns, the retry schedule, ids. */
import { describe, expect, it } from 'vitest';
import { deliveryIdOf, eventIdFloor, newEventId, partsOfDeliveryId } from '../../shared/events/ids.js';
import { matches, namesSomeEvent } from '../../shared/events/patterns.js';
import { nextAttemptAfter, RETRY_WAITS_SECONDS } from '../../shared/events/retry-schedule.js';
import { signature, signedHeaders, verifies } from '../../shared/events/signing.js';

describe('signatures', () => {
  it("match the Standard Webhooks reference vector", () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('carry one signature per secret, each verifying, and none for a changed body', () => {
    const headers = signedHeaders(['whsec_AAAA', 'whsec_BBBB'], 'evt_1', 1700000000, '{"a":1}');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    const given = { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] };
    expect(verifies('whsec_BBBB', given, '{"a":1}')).toBe(true);
    expect(verifies('whsec_BBBB', given, '{"a":2}')).toBe(false);
    expect(verifies('whsec_CCCC', given, '{"a":1}')).toBe(false);
  });
});

describe('event type patterns', () => {
  it('match an exact type, a group and everything, and refuse a pattern that names no event', () => {
    expect(matches('policy.*', 'policy.issued')).toBe(true);
    expect(matches('policy.*', 'payment.posted')).toBe(false);
    expect(matches('*', 'invoice.created')).toBe(true);
    expect(matches('payment.posted', 'payment.posted')).toBe(true);
    expect(namesSomeEvent('claims.*')).toBe(false);
    expect(namesSomeEvent('policy')).toBe(false);
  });
});

describe('the retry schedule', () => {
  it('tries again for just under 24 hours after the first attempt, then gives up', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    let at = start;
    let failures = 0;
    for (;;) {
      failures += 1;
      const next = nextAttemptAfter(failures, at);
      if (!next) break;
      at = next;
    }
    expect(failures).toBe(RETRY_WAITS_SECONDS.length + 1);
    const hours = (at.getTime() - start.getTime()) / 3600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);
  });
});

describe('ids', () => {
  it('sort events by when they were written, even within one millisecond', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const ids = Array.from({ length: 5 }, () => newEventId(at));
    expect([...ids].sort()).toEqual(ids);
    expect(eventIdFloor(at) <= ids[0]).toBe(true);
  });

  it('name a delivery by subscription, policy and event, and refuse anything else', () => {
    const parts = { subscriptionId: 'sub_0123456789abcdef01234567', policyId: 'aee80217-7fcb-405a-ab5c-2602e8bf6b1c', eventId: 'evt_0123456789abcdef01234567' };
    expect(partsOfDeliveryId(deliveryIdOf(parts.subscriptionId, parts.policyId, parts.eventId))).toEqual(parts);
    expect(partsOfDeliveryId('dlv.sub_x.y.z')).toBeUndefined();
    expect(partsOfDeliveryId('nonsense')).toBeUndefined();
  });
});
