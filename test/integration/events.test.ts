/**
 * Event subscriptions end to end: a move or a payment commits its event with its writes, the
 * events consumer delivers it signed to a subscriber (a local HTTP server), in each policy's
 * order; a subscriber that fails is retried on the schedule (the test advances the clock and
 * runs the retry step itself) until the delivery is kept as failed and redeliver sends it again;
 * the README's verification snippet accepts what the service signs and refuses a forgery; an
 * agency's subscription receives its own policies' events only.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { retryDueDeliveries } from '../../shared/events/delivery.js';
import { newEventId } from '../../shared/events/ids.js';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { RETRY_WAITS_SECONDS } from '../../shared/events/retry-schedule.js';
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { startSubscriber, type Received, type Subscriber } from '../support/subscriber.js';

const P = '/api/v2/policies';
const E = '/api/v2/events';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
let service: TestService;
const subscribers: Subscriber[] = [];
let verifyWebhook: (secret: string, headers: Record<string, unknown>, rawBody: string) => boolean;

const usToday = () => { const iso = todayIso(); return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`; };

async function quote(name: string, apiKey?: string): Promise<{ policyId: string; policyNumber: string }> {
  const data = ok(
    await service.call(
      `${P}/create_quote_extended`,
      {
        quote_info: {
          effective_date: usToday(), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
          underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
          locations: [{ address_zip: '10001' }],
          items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
        },
      },
      apiKey ? { apiKey } : {},
    ),
  );
  return { policyId: data.policy_id, policyNumber: data.quote_number };
}

async function issued(name: string) {
  const policy = await quote(name);
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: policy.policyId } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId } }));
  return policy;
}

const pay = (policyNumber: string, amount: string) => service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber, amount } });

async function subscribe(eventTypes: string[], apiKey?: string) {
  const subscriber = await startSubscriber();
  subscribers.push(subscriber);
  const created = ok(await service.call(`${E}/create`, { url: subscriber.url, event_types: eventTypes, description: 'test' }, apiKey ? { apiKey } : {}));
  return { subscriber, subscriptionId: created.subscription_id as string, secret: created.secret as string };
}

const of = (policyId: string) => (received: Received) => received.event.policy_id === policyId;

/**
 * The subscriber hears an attempt before the worker records it (and queues its retry): a test
 * that reads the delivery's next attempt waits until the first attempt is on it.
 */
async function firstAttemptRecorded(subscriptionId: string, policyId: string): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const { deliveries } = ok(await service.call(`${E}/list_deliveries`, { subscription_id: subscriptionId }));
    const first = deliveries.find((delivery: { policy_id: string }) => delivery.policy_id === policyId);
    if (first?.attempts.length) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the README's verification snippet as a user pastes it. */
async function readmeSnippet() {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /<!-- verify-webhook -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README has no verify-webhook block');
  expect(block.trim().split('\n').length).toBeLessThanOrEqual(12);
  const file = join(mkdtempSync(join(tmpdir(), 'verify-')), 'verify.mjs');
  writeFileSync(file, `${block}\nexport { verifyWebhook };\n`);
  return (await import(pathToFileURL(file).href)).verifyWebhook;
}

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents', 'events'] });
  verifyWebhook = await readmeSnippet();
});
afterAll(async () => {
  await Promise.all(subscribers.map((subscriber) => subscriber.close()));
  await service?.stop();
});

describe('a subscriber', () => {
  it('receives policy.issued then payment.posted, each signed (the README snippet verifies it, and refuses a forgery)', async () => {
    const { subscriber, secret } = await subscribe(['policy.issued', 'payment.*']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const policy = await issued('Ivy Events');
    ok(await pay(policy.policyNumber, '851.62'));
    const [issuedEvent, posted] = await subscriber.waitFor(2, of(policy.policyId));
    expect(issuedEvent.event).toMatchObject({ type: 'policy.issued', policy_id: policy.policyId, policy_number: policy.policyNumber, data: { annual_premium: 826.62, annual_fees: 25 } });
    expect(posted.event).toMatchObject({ type: 'payment.posted', policy_number: policy.policyNumber, data: { amount: 851.62 } });
    expect(posted.event.id > issuedEvent.event.id).toBe(true);
    for (const delivery of [issuedEvent, posted]) {
      expect(delivery.headers['webhook-id']).toBe(delivery.event.id);
      expect(verifyWebhook(secret, delivery.headers, delivery.body)).toBe(true);
    }
    // A forged body, a signature by another secret, or a stale timestamp fails the snippet.
    expect(verifyWebhook(secret, posted.headers, posted.body.replace('851.62', '1.00'))).toBe(false);
    const other = (await subscribe(['policy.bound'])).secret;
    expect(verifyWebhook(other, posted.headers, posted.body)).toBe(false);
    expect(verifyWebhook(secret, { ...posted.headers, 'webhook-timestamp': String(Number(posted.headers['webhook-timestamp']) - 3600) }, posted.body)).toBe(false);
    // The pull stream has both, in order, after a cursor.
    const stream = ok(await service.call(`${E}/list_events`, { types: ['policy.issued', 'payment.posted'] }));
    const mine = stream.events.filter((event: { policy_id: string }) => event.policy_id === policy.policyId);
    expect(mine.map((event: { type: string }) => event.type)).toEqual(['policy.issued', 'payment.posted']);
    expect(mine[1]).toEqual(posted.event);
  });

  it('answering 500 is retried on the schedule, then kept failed; redeliver sends it again', async () => {
    const { subscriber, subscriptionId, secret } = await subscribe(['payment.posted']);
    const policy = await issued('Rhea Retry');
    subscriber.answer(500);
    ok(await pay(policy.policyNumber, '100.00'));
    await subscriber.waitFor(1, of(policy.policyId));
    await firstAttemptRecorded(subscriptionId, policy.policyId);
    const failedDelivery = async () => {
      const { deliveries } = ok(await service.call(`${E}/list_deliveries`, { subscription_id: subscriptionId }));
      return deliveries.find((delivery: { policy_id: string }) => delivery.policy_id === policy.policyId);
    };
    // The clock is advanced to each next attempt, instead of waiting 24 hours.
    for (let step = 0; step < RETRY_WAITS_SECONDS.length + 2; step += 1) {
      const delivery = await failedDelivery();
      if (delivery.status !== 'pending') break;
      await retryDueDeliveries({ now: () => new Date(Date.parse(delivery.next_attempt_at) + 1000) });
    }
    const failed = await failedDelivery();
    expect(failed.status).toBe('failed');
    expect(failed.attempts).toHaveLength(RETRY_WAITS_SECONDS.length + 1);
    expect(failed.attempts.every((attempt: { status_code: number; response_excerpt: string }) => attempt.status_code === 500 && attempt.response_excerpt === 'subscriber is down')).toBe(true);
    expect(ok(await service.call(`${E}/list_deliveries`, { subscription_id: subscriptionId, status: 'failed' })).deliveries.map((d: { delivery_id: string }) => d.delivery_id)).toContain(failed.delivery_id);

    subscriber.answer(200);
    const before = subscriber.received.length;
    const again = ok(await service.call(`${E}/redeliver`, { delivery_id: failed.delivery_id }));
    expect(again).toMatchObject({ status: 'delivered', delivery_id: failed.delivery_id });
    expect(again.attempts.at(-1)).toMatchObject({ status_code: 200, response_excerpt: 'ok' });
    const resent = subscriber.received.slice(before).filter(of(policy.policyId));
    expect(resent).toHaveLength(1);
    expect(resent[0].event).toMatchObject({ type: 'payment.posted', data: { amount: 100 } });
    expect(verifyWebhook(secret, resent[0].headers, resent[0].body)).toBe(true);
  });

  it('still being retried, is sent at once by redeliver: a failure keeps its retry schedule, a success ends its retries, and the one waiting behind it goes too', async () => {
    const { subscriber, subscriptionId } = await subscribe(['payment.posted']);
    const policy = await issued('Ned Now');
    subscriber.answer(500);
    ok(await pay(policy.policyNumber, '100.00'));
    await subscriber.waitFor(1, of(policy.policyId));
    await firstAttemptRecorded(subscriptionId, policy.policyId);
    const mine = async () => ok(await service.call(`${E}/list_deliveries`, { subscription_id: subscriptionId })).deliveries.filter((delivery: { policy_id: string }) => delivery.policy_id === policy.policyId);
    // Its second attempt (the clock advanced 5 s) fails too: the next retry is 5 minutes away.
    const [first] = await mine();
    await retryDueDeliveries({ now: () => new Date(Date.parse(first.next_attempt_at) + 1000) });
    const [retrying] = await mine();
    expect(retrying).toMatchObject({ status: 'pending', attempts: [{ status_code: 500 }, { status_code: 500 }] });
    ok(await pay(policy.policyNumber, '20.00'));

    // Still down: sent now, and the retry stays due when it was.
    const stillDown = ok(await service.call(`${E}/redeliver`, { delivery_id: retrying.delivery_id }));
    expect(stillDown).toMatchObject({ status: 'pending', next_attempt_at: retrying.next_attempt_at });
    expect(stillDown.attempts).toHaveLength(3);

    // Fixed: sent now and delivered, then the payment waiting behind it.
    subscriber.answer(200);
    const before = subscriber.received.filter(of(policy.policyId)).length;
    const sent = ok(await service.call(`${E}/redeliver`, { delivery_id: retrying.delivery_id }));
    expect(sent).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(sent.attempts.at(-1)).toMatchObject({ status_code: 200 });
    const received = await subscriber.waitFor(before + 2, of(policy.policyId));
    expect(received.slice(before).map((r) => (r.event.data as { amount: number }).amount)).toEqual([100, 20]);
    // No later retry sends it again, even past every time its schedule named.
    await retryDueDeliveries({ now: () => new Date(Date.parse(retrying.next_attempt_at) + 24 * 3600 * 1000) });
    const after = subscriber.received.filter(of(policy.policyId));
    expect(after.map((r) => (r.event.data as { amount: number }).amount).slice(before)).toEqual([100, 20]);
    expect((await mine()).map((delivery: { status: string }) => delivery.status)).toEqual(['delivered', 'delivered']);
  });

  it("waits, in a policy's order, behind an earlier event being retried", async () => {
    const { subscriber, subscriptionId } = await subscribe(['payment.posted']);
    const policy = await issued('Olive Order');
    subscriber.answer(503);
    ok(await pay(policy.policyNumber, '10.00'));
    await subscriber.waitFor(1, of(policy.policyId));
    await firstAttemptRecorded(subscriptionId, policy.policyId);
    subscriber.answer(200);
    ok(await pay(policy.policyNumber, '20.00'));
    const { deliveries } = ok(await service.call(`${E}/list_deliveries`, { subscription_id: subscriptionId }));
    const mine = deliveries.filter((delivery: { policy_id: string }) => delivery.policy_id === policy.policyId);
    // The second payment's event may not yet be fanned out; when it is, it waits unsent behind the first.
    for (const later of mine.slice(1)) expect(later).toMatchObject({ status: 'pending', attempts: [] });
    // The retry falls due. The second event's fan-out may still be walking the policy's deliveries
    // (it saw the first pending, so it holds the second behind it until the first's retry time):
    // the retry step is run again until that walk is over, as the retry message due then would.
    const afterRetry = () => new Date(Date.parse(mine[0].next_attempt_at) + 1000);
    for (let round = 0; round < 100 && subscriber.received.filter(of(policy.policyId)).length < 3; round += 1) {
      await retryDueDeliveries({ now: afterRetry });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const received = await subscriber.waitFor(3, of(policy.policyId));
    expect(received.map((r) => r.event.data)).toMatchObject([{ amount: 10 }, { amount: 10 }, { amount: 20 }]);
  });
});

describe('the pull stream', () => {
  it("lists a policy's life in order: quoted, bound, issued, its invoice, its Declaration, paid, reversed (NSF), cancelled", async () => {
    const policy = await issued('Lena Lifecycle');
    ok(await pay(policy.policyNumber, '851.62'));
    await service.deliverablesRendered();
    const history = ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policy.policyId })).records;
    const payment = history.find((record: { type: string }) => record.type === 'Payment');
    ok(await service.call('/api/v1/policies/storeNSF', { json_dict: { paymentId: payment.id, policyId: policy.policyId, allowCancel: 'true' } }));
    const cancel = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason: "insured's request", cancel_date: todayIso() });
    expect(cancel.body.success).toBe(true);
    const types: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = ok(await service.call(`${E}/list_events`, after ? { after } : {}));
      types.push(...page.events.filter((event: { policy_id: string }) => event.policy_id === policy.policyId).map((event: { type: string }) => event.type));
      if (page.events.length === 0) break;
      after = page.next_cursor;
    }
    expect(types.filter((type) => type !== 'deliverable.created')).toEqual(['policy.quoted', 'policy.bound', 'policy.issued', 'invoice.created', 'payment.posted', 'payment.reversed', 'policy.cancelled']);
    expect(types).toContain('deliverable.created');
    expect(ok(await service.call(`${E}/list_events`, { types: ['payment.*'] })).events.every((event: { type: string }) => event.type.startsWith('payment.'))).toBe(true);
  });
});

describe('the pull stream at scale', () => {
  it('merges its shards (and the unsharded list of events written before them) in event id order, each event once', async () => {
    // An event as stored before the lists were sharded: it must still be listed.
    const legacy = { policyId: randomUUID(), eventId: newEventId(new Date()) };
    await documentClient().send(
      new PutCommand({
        TableName: config.tableName(),
        Item: {
          pk: `EVENTS#POLICY#${legacy.policyId}`, sk: `EVENT#${legacy.eventId}`, gsi1pk: 'EVENTS#ALL', gsi1sk: legacy.eventId, entity: 'PolicyEvent',
          eventId: legacy.eventId, type: 'policy.quoted', occurredAt: new Date().toISOString(), policyId: legacy.policyId, policyNumber: 'LEGACY-1', agencyId: null, transactionId: legacy.policyId, data: {}, publishedAt: new Date().toISOString(),
        },
      }),
    );
    const policies = await Promise.all(['Ada Shard', 'Bo Shard', 'Cy Shard', 'Di Shard'].map((name) => issued(name)));
    const ids: string[] = [];
    const policiesSeen = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = ok(await service.call(`${E}/list_events`, after ? { after } : {}));
      ids.push(...page.events.map((event: { id: string }) => event.id));
      for (const event of page.events) policiesSeen.add(event.policy_id);
      if (page.events.length === 0) break;
      after = page.next_cursor;
    }
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const policy of policies) expect(policiesSeen.has(policy.policyId)).toBe(true);
    expect(policiesSeen.has(legacy.policyId)).toBe(true);
  });
});

describe("an agency's subscription", () => {
  async function agent(agencyId: string) {
    const contactId = crypto.randomUUID();
    await createContactProfileIfAbsent({ id: contactId, name: `Agent ${contactId.slice(0, 8)}`, type: 'individual', roleIds: [AGENT_ROLE], agencyIds: [agencyId], createdAt: new Date().toISOString(), version: 1 });
    const apiKey = newToken('ias');
    await ensureApiKey(contactId, apiKey, 'test agent');
    return apiKey;
  }

  it("receives its own policies' events and never another agency's; it reaches no other subscription", async () => {
    const [agencyA, agencyB] = [crypto.randomUUID(), crypto.randomUUID()];
    const [keyA, keyB] = [await agent(agencyA), await agent(agencyB)];
    const a = await subscribe(['policy.*'], keyA);
    const b = await subscribe(['policy.*'], keyB);
    const everything = await subscribe(['policy.quoted']);
    const policyA = await quote('Ann Agency', keyA);
    const policyB = await quote('Ben Agency', keyB);
    await everything.subscriber.waitFor(2, (r) => [policyA.policyId, policyB.policyId].includes(r.event.policy_id));
    await a.subscriber.waitFor(1, of(policyA.policyId));
    await b.subscriber.waitFor(1, of(policyB.policyId));
    expect(a.subscriber.received.map((r) => r.event.policy_id)).toEqual([policyA.policyId]);
    expect(b.subscriber.received.map((r) => r.event.policy_id)).toEqual([policyB.policyId]);
    const listed = ok(await service.call(`${E}/list`, {}, { apiKey: keyA }));
    expect(listed.map((subscription: { subscription_id: string }) => subscription.subscription_id)).toEqual([a.subscriptionId]);
    expect(listed[0]).not.toHaveProperty('secret');
    expect((await service.call(`${E}/list_deliveries`, { subscription_id: b.subscriptionId }, { apiKey: keyA })).body).toMatchObject({ success: false });
    expect((await service.call(`${E}/create`, { url: a.subscriber.url, event_types: ['*'], agency_id: agencyB }, { apiKey: keyA })).body).toMatchObject({ success: false, messages: ['agency_id: must be an agency of the caller'] });
    const streamA = ok(await service.call(`${E}/list_events`, {}, { apiKey: keyA }));
    expect(streamA.events.map((event: { policy_id: string }) => event.policy_id)).toEqual([policyA.policyId]);
  });
});

describe('managing subscriptions', () => {
  it('refuses a URL that is not https or local http, and an event type that names nothing, storing nothing', async () => {
    const count = ok(await service.call(`${E}/list`, {})).length;
    expect((await service.call(`${E}/create`, { url: 'ftp://example.com/x', event_types: ['*'] })).body).toMatchObject({ success: false, messages: ['url: must be https (or http to localhost)'] });
    expect((await service.call(`${E}/create`, { url: 'http://example.com/x', event_types: ['*'] })).body.success).toBe(false);
    expect((await service.call(`${E}/create`, { url: 'https://example.com/x', event_types: ['claims.*'] })).body.messages[0]).toMatch(/^event_types\[0\]/);
    expect(ok(await service.call(`${E}/list`, {}))).toHaveLength(count);
  });

  it('rotates the secret: for a day deliveries carry a signature by each; ping reaches the subscriber; delete stops deliveries', async () => {
    const { subscriber, subscriptionId, secret } = await subscribe(['policy.bound']);
    const rotated = ok(await service.call(`${E}/rotate_secret`, { subscription_id: subscriptionId }));
    expect(rotated.secret).not.toBe(secret);
    const ping = ok(await service.call(`${E}/ping`, { subscription_id: subscriptionId }));
    expect(ping).toMatchObject({ delivered: true, attempt: { status_code: 200 } });
    const [pinged] = await subscriber.waitFor(1, (r) => r.event.type === 'ping');
    expect(pinged.headers['webhook-signature']!.toString().split(' ')).toHaveLength(2);
    expect(verifyWebhook(secret, pinged.headers, pinged.body)).toBe(true);
    expect(verifyWebhook(rotated.secret, pinged.headers, pinged.body)).toBe(true);
    ok(await service.call(`${E}/update`, { subscription_id: subscriptionId, description: 'renamed', event_types: ['policy.*'] }));
    ok(await service.call(`${E}/delete`, { subscription_id: subscriptionId }));
    expect((await service.call(`${E}/ping`, { subscription_id: subscriptionId })).body).toMatchObject({ success: false });
  });
});
