/**
 * A failed delivery's retry comes at its own time, from a message delayed on the `event-retries`
 * queue (no sweep on a timer); a retry due later than the queue can delay a message is put back
 * for the rest of the wait; and a delivery whose worker died between its attempt and recording
 * it is sent again when the message comes back (at least once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverInOrder, publishEvent, runScheduledRetry, type ScheduledRetry } from '../../shared/events/delivery.js';
import { eventOf } from '../../shared/events/index.js';
import { getSubscription, openDeliveries } from '../../shared/events/store.js';
import { runTransaction } from '../../shared/platform/transactions.js';
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { holdingFirstAnswer, startSubscriber, type Received, type Subscriber } from '../support/subscriber.js';

const P = '/api/v2/policies';
const E = '/api/v2/events';
const usToday = () => { const iso = todayIso(); return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`; };

async function issued(service: TestService, name: string): Promise<{ policyId: string; policyNumber: string }> {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: usToday(), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id } }));
  return { policyId: data.policy_id, policyNumber: data.quote_number };
}

const of = (policyId: string) => (received: Received) => received.event.policy_id === policyId;

describe('a retry at its own time (the events and retries consumers running)', () => {
  let service: TestService;
  let subscriber: Subscriber;
  beforeAll(async () => {
    service = await startTestService({ consumers: ['documents', 'events', 'event-retries'] });
    subscriber = await startSubscriber();
  });
  afterAll(async () => {
    await subscriber?.close();
    await service?.stop();
  });

  it('sends again when the 5-second wait is over, from the retries queue, without a sweep', async () => {
    const { subscription_id: subscriptionId } = ok(await service.call(`${E}/create`, { url: subscriber.url, event_types: ['payment.posted'] }));
    const policy = await issued(service, 'Reta Later');
    subscriber.answer(503);
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: '25.00' } }));
    await subscriber.waitFor(1, of(policy.policyId));
    subscriber.answer(204);
    const [first, second] = await subscriber.waitFor(2, of(policy.policyId));
    expect(second.event.id).toBe(first.event.id);
    const { deliveries } = ok(await service.call(`${E}/list_deliveries`, { subscription_id: subscriptionId }));
    const delivery = deliveries.find((candidate: { policy_id: string }) => candidate.policy_id === policy.policyId);
    expect(delivery).toMatchObject({ status: 'delivered' });
    expect(delivery.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([503, 204]);
    // Not before its time: the second attempt came once the first's 5 seconds had passed.
    expect(Date.parse(delivery.attempts[1].at) - Date.parse(delivery.attempts[0].at)).toBeGreaterThanOrEqual(5000);
  });
});

describe('scheduling and at-least-once (no consumer: the test hands the messages over)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ consumers: ['documents'] });
  });
  afterAll(async () => {
    await service?.stop();
  });

  async function subscribedEvent(name: string) {
    const subscriber = await startSubscriber();
    await subscriber.close();
    const { subscription_id: subscriptionId } = ok(await service.call(`${E}/create`, { url: subscriber.url, event_types: ['policy.endorsed'] }));
    const policy = await issued(service, name);
    const write = eventOf({ type: 'policy.endorsed', policyId: policy.policyId, policyNumber: policy.policyNumber, transactionId: `test-${name}` });
    await runTransaction([write], { label: 'test event' });
    const eventId = (write.Put!.Item as { eventId: string }).eventId;
    return { subscriptionId: subscriptionId as string, policyId: policy.policyId, eventId };
  }

  it('delays a retry by the whole seconds to its time, puts back one due later than 15 minutes, and waits out a fraction of a second', async () => {
    const { subscriptionId, policyId, eventId } = await subscribedEvent('Sched Uled');
    const scheduled: Array<{ retry: ScheduledRetry; delaySeconds: number }> = [];
    const scheduleRetry = async (retry: ScheduledRetry, delaySeconds: number) => void scheduled.push({ retry, delaySeconds });
    const failing = async () => ({ status: 500, body: 'down' });
    const t0 = new Date('2030-01-01T00:00:00.000Z');
    await publishEvent(policyId, eventId, { now: () => t0, post: failing, scheduleRetry });
    expect(scheduled).toEqual([{ retry: { subscriptionId, policyId, at: '2030-01-01T00:00:05.000Z' }, delaySeconds: 5 }]);

    // Due in 2 hours: put back for the queue's longest delay; nothing is sent.
    const later = { subscriptionId, policyId, at: '2030-01-01T02:00:00.000Z' };
    const posted: string[] = [];
    const post = async (url: string) => (posted.push(url), { status: 200, body: 'ok' });
    expect(await runScheduledRetry(later, { now: () => t0, post, scheduleRetry })).toBe('rescheduled');
    expect(scheduled.at(-1)).toEqual({ retry: later, delaySeconds: 900 });
    expect(posted).toHaveLength(0);

    // Arriving 400 ms early: it waits them out, then sends.
    const waited: number[] = [];
    let clock = Date.parse('2030-01-01T00:00:04.600Z');
    const sleep = async (ms: number) => void (waited.push(ms), (clock += ms));
    expect(await runScheduledRetry(scheduled[0].retry, { now: () => new Date(clock), post, scheduleRetry, sleep })).toBe('attempted');
    expect(waited).toEqual([400]);
    expect(posted).toHaveLength(1);
    expect(await openDeliveries(subscriptionId, policyId)).toEqual([]);
    ok(await service.call(`${E}/delete`, { subscription_id: subscriptionId }));
  });

  it('sends again a delivery whose worker died after its attempt, before recording it, when the message comes back', async () => {
    const { subscriptionId, policyId, eventId } = await subscribedEvent('Kilda Midway');
    const posted: number[] = [];
    const t0 = new Date('2030-02-01T00:00:00.000Z');
    // The attempt fails; the worker dies while scheduling its retry: nothing records the attempt.
    const dies = async () => {
      throw new Error('worker killed');
    };
    await expect(publishEvent(policyId, eventId, { now: () => t0, post: async () => (posted.push(500), { status: 500, body: 'down' }), scheduleRetry: dies })).rejects.toThrow('worker killed');
    const [held] = await openDeliveries(subscriptionId, policyId);
    expect(held).toMatchObject({ status: 'pending', attempts: [] });
    expect(held.leaseUntil).toBeDefined();
    // While its lease holds, another worker leaves it alone.
    const subscription = (await getSubscription(subscriptionId))!;
    expect(await deliverInOrder(subscription, policyId, { now: () => new Date(t0.getTime() + 1000), post: async () => (posted.push(200), { status: 200, body: 'ok' }) })).toEqual([]);
    // The events message comes back after the queue's visibility timeout (6 minutes): the lease is over, the delivery is sent again.
    const back = new Date(t0.getTime() + 360_000);
    await publishEvent(policyId, eventId, { now: () => back, post: async () => (posted.push(200), { status: 200, body: 'ok' }) });
    expect(posted).toEqual([500, 200]);
    expect(await openDeliveries(subscriptionId, policyId)).toEqual([]);
    ok(await service.call(`${E}/delete`, { subscription_id: subscriptionId }));
  });
  it("sends a policy's second event, whose message came while the first was still being sent, right after the first, and each once", async () => {
    const { subscriptionId, policyId, eventId: first } = await subscribedEvent('Tan Dem');
    const { sent, post, answerFirst, firstSent } = holdingFirstAnswer(first);
    const firstMessage = publishEvent(policyId, first, { post });
    await firstSent();
    // The second event's message is handled while the subscriber has not answered the first yet.
    const write = eventOf({ type: 'policy.endorsed', policyId, policyNumber: 'P-TANDEM', transactionId: 'test-tandem-2' });
    await runTransaction([write], { label: 'test event' });
    const second = (write.Put!.Item as { eventId: string }).eventId;
    await publishEvent(policyId, second, { post });
    // Not sent ahead of the first: left to the walk that is sending it.
    expect(sent).toEqual([first]);
    answerFirst();
    await firstMessage;
    expect(sent).toEqual([first, second]);
    expect(await openDeliveries(subscriptionId, policyId)).toEqual([]);
    ok(await service.call(`${E}/delete`, { subscription_id: subscriptionId }));
  });

  it("fans out a policy's events committed while nothing published, oldest first, each once, whichever message comes first", async () => {
    const { subscriptionId, policyId, eventId: first } = await subscribedEvent('Ord Erly');
    const sent: string[] = [];
    const post = async (_url: string, _headers: Record<string, string>, body: string) => (sent.push(JSON.parse(body).id), { status: 200, body: 'ok' });
    await publishEvent(policyId, first, { post });
    // Three more, committed while nothing publishes; the newest's message comes first.
    const later: string[] = [];
    for (const n of [1, 2, 3]) {
      const write = eventOf({ type: 'policy.endorsed', policyId, policyNumber: 'P-ORDER', transactionId: `test-order-${n}` });
      await runTransaction([write], { label: 'test event' });
      later.push((write.Put!.Item as { eventId: string }).eventId);
    }
    await publishEvent(policyId, later[2], { post });
    // The others' messages come after: they find their events fanned out and delivered, and send nothing again.
    await publishEvent(policyId, later[0], { post });
    await publishEvent(policyId, later[1], { post });
    expect(sent).toEqual([first, ...later]);
    expect(await openDeliveries(subscriptionId, policyId)).toEqual([]);
    ok(await service.call(`${E}/delete`, { subscription_id: subscriptionId }));
  });
});
