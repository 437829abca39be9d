/**
 * Delivering events: the fan-out of an outbox event to the subscriptions it matches (one
 * delivery record each), and the attempts, in each policy's order, with the retry schedule.
 *
 * Ordered per policy: a subscription's deliveries of one policy are sent oldest first, and a
 * later one waits while an earlier one is being retried (delivered or failed lets the next go).
 * Fanning out an event first fans out the policy's earlier events still pending, so a queue
 * that hands events over out of order cannot reorder them. At least once: a delivery is
 * attempted under a short lease, and a worker that dies mid-attempt leaves it due: the message
 * it was handling comes back after the queue's visibility timeout and attempts it again.
 *
 * Each retry is scheduled for its own time: before a failed attempt is recorded, a message is
 * put on the `event-retries` queue, delayed until the next attempt is due (SQS delays a message
 * up to 15 minutes; a longer wait is re-queued when it arrives), and its consumer walks that
 * subscription's deliveries of the policy again. No sweep runs on a timer.
 *
 * Time and the network are dependencies (`DeliveryDependencies`), so tests advance the clock
 * and call the retry step instead of waiting.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { sendInBatches } from '../platform/queue-sends.js';
import { unseal } from '../platform/sealing.js';
import { bareHost, isReachableSubscriberAddress, subscriberLookup, UnreachableSubscriberError } from './subscriber-addresses.js';
import { deliveryIdOf } from './ids.js';
import { CARRIER_WIDE_EVENT_TYPES, wireEvent, type Delivery, type DeliveryAttempt, type PolicyEvent, type Subscription } from './model.js';
import { matchesAny } from './patterns.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAfter } from './retry-schedule.js';
import { signedHeaders } from './signing.js';
import { clock } from '../platform/clock.js';
import {
  allSubscriptions,
  dueDeliveries,
  eventAndEarlierPending,
  getSubscription,
  markEventPublished,
  knockOnDelivery,
  openDeliveries,
  putNewDelivery,
  replaceDelivery,
  replaceWalkedDelivery,
} from './store.js';

export interface SubscriberAnswer {
  status: number;
  body: string;
}

/** A subscription's deliveries of one policy to walk again at `at` (the `event-retries` queue's message). */
export interface ScheduledRetry {
  subscriptionId: string;
  policyId: string;
  /** When the next attempt is due (ISO instant). */
  at: string;
}

export interface DeliveryDependencies {
  now?: () => Date;
  /** POSTs a signed body; answers the subscriber's status and body, or throws when none came. */
  post?: (url: string, headers: Record<string, string>, body: string) => Promise<SubscriberAnswer>;
  /** Puts a retry on the `event-retries` queue, delayed by `delaySeconds` (at most SQS's 900). */
  scheduleRetry?: (retry: ScheduledRetry, delaySeconds: number) => Promise<void>;
  /** Waits the last fraction of a second before a retry that arrived early. */
  sleep?: (ms: number) => Promise<void>;
}

/** SQS's longest delay of one message: a longer wait is re-queued when the message arrives. */
export const LONGEST_QUEUE_DELAY_SECONDS = 900;

async function queueRetry(retry: ScheduledRetry, delaySeconds: number): Promise<void> {
  await sendInBatches('event-retries', [{ id: 'retry', body: retry, delaySeconds }], 'a delivery retry');
}

const EXCERPT_CHARS = 200;
/** How long a worker holds a delivery while attempting it. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 5_000;

class AttemptTimeoutError extends Error {
  constructor() {
    super(`no answer within ${ATTEMPT_TIMEOUT_MS} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * POSTs to a subscriber through the checked lookup (subscriber-addresses.ts): the socket goes to
 * the address that was judged, never to one resolved again after. Redirects are not followed.
 */
function postToSubscriber(url: string, headers: Record<string, string>, body: string): Promise<SubscriberAnswer> {
  const target = new URL(url);
  const host = bareHost(target.hostname);
  // An IP literal is connected to without a lookup: judged here instead.
  if (isIP(host) && !isReachableSubscriberAddress(host)) return Promise.reject(new UnreachableSubscriberError(host));
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: subscriberLookup as LookupFunction }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text.length < EXCERPT_CHARS * 4) text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text.slice(0, EXCERPT_CHARS * 4) }));
      response.on('error', reject);
    });
    // The whole attempt, answer included, within the timeout.
    const timer = setTimeout(() => request.destroy(new AttemptTimeoutError()), ATTEMPT_TIMEOUT_MS);
    request.on('close', () => clearTimeout(timer));
    request.on('error', reject);
    request.end(body);
  });
}

const resolved = (dependencies: DeliveryDependencies) => ({
  now: dependencies.now ?? (() => clock.now()),
  post: dependencies.post ?? postToSubscriber,
  scheduleRetry: dependencies.scheduleRetry ?? queueRetry,
  sleep: dependencies.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
});

/**
 * Schedules `retry` on the queue: delayed by the whole seconds until it is due (its consumer
 * waits out the fraction left), or by the queue's longest delay when it is due later than that.
 */
export async function scheduleRetry(retry: ScheduledRetry, dependencies: DeliveryDependencies = {}): Promise<void> {
  const { now, scheduleRetry: send } = resolved(dependencies);
  const waitMs = Date.parse(retry.at) - now().getTime();
  await send(retry, Math.max(0, Math.min(LONGEST_QUEUE_DELAY_SECONDS, Math.floor(waitMs / 1000))));
}

/** The clear secrets a delivery is signed with now: the current one, and a rotated one still honoured. */
export function signingSecrets(subscription: Subscription, now: Date): string[] {
  return subscription.secrets
    .filter((secret) => !secret.validUntil || secret.validUntil > now.toISOString())
    .map((secret) => unseal(secret.sealed, `EventSubscription#${subscription.subscriptionId}`))
    .filter((clear): clear is string => !!clear);
}

/** Whether `subscription` receives `event`: its types match, and an agency's subscription only its agency's policies. */
export function receives(subscription: Subscription, event: Pick<PolicyEvent, 'type' | 'agencyId'>): boolean {
  if (!subscription.active) return false;
  if (subscription.agencyId !== null && subscription.agencyId !== event.agencyId && !CARRIER_WIDE_EVENT_TYPES.has(event.type)) return false;
  return matchesAny(subscription.eventTypes, event.type);
}

/** Sends one signed message and says what happened, never throwing for the subscriber's sake. */
export async function attempt(subscription: Subscription, messageId: string, body: string, dependencies: DeliveryDependencies = {}): Promise<DeliveryAttempt> {
  const { now, post } = resolved(dependencies);
  const at = now();
  const started = performance.now();
  const headers = signedHeaders(signingSecrets(subscription, at), messageId, Math.floor(at.getTime() / 1000), body);
  try {
    const answer = await post(subscription.url, headers, body);
    return { at: at.toISOString(), statusCode: answer.status, durationMs: Math.round(performance.now() - started), responseExcerpt: answer.body.slice(0, EXCERPT_CHARS) };
  } catch (error) {
    const reason =
      error instanceof UnreachableSubscriberError || (error as { code?: string })?.code === 'EUNREACHABLESUBSCRIBER'
        ? 'refused: the subscriber\'s address is private, loopback or link-local'
        : (error as { name?: string })?.name === 'TimeoutError'
          ? `no answer within ${ATTEMPT_TIMEOUT_MS} ms`
          : 'the subscriber could not be reached';
    return { at: at.toISOString(), durationMs: Math.round(performance.now() - started), responseExcerpt: reason };
  }
}

const succeeded = (attempted: DeliveryAttempt) => attempted.statusCode !== undefined && attempted.statusCode >= 200 && attempted.statusCode < 300;

/** At most this many attempts are kept on a delivery (the oldest go first). */
const KEPT_ATTEMPTS = 40;

export interface InOrderOptions {
  /**
   * redeliver of a delivery still being retried: it (and any earlier one of the policy ahead of
   * it) is sent now, before its retry is due. Such an early attempt that fails leaves the retry
   * schedule as it was: the integrator's extra try costs the delivery none of its retries.
   */
  sendNowThrough?: string;
  /**
   * Deliveries the caller has just written already leased to this walk (publishEvent): the first
   * attempt needs no lease write of its own. One this walk does not attempt is released.
   */
  leasedToThisWalk?: ReadonlySet<string>;
}

/** Reads of a policy's open deliveries one walk makes at most (others change them meanwhile). */
const MOST_READS_A_WALK = 20;

/**
 * Sends a subscription's open deliveries of one policy in order, stopping at one still to be
 * retried (or not yet due, or held by another worker). Answers the deliveries it changed.
 *
 * A walk that stops behind a delivery another walk holds knocks on it and leaves what follows to
 * that walk, which reads the open deliveries again once its own are settled (what came since, not
 * the policy's history: from its first changed delivery on). A walk nobody knocked on reads once.
 */
export async function deliverInOrder(subscription: Subscription, policyId: string, dependencies: DeliveryDependencies = {}, options: InOrderOptions = {}): Promise<Delivery[]> {
  const changed: Delivery[] = [];
  const leasedHere = new Set(options.leasedToThisWalk ?? []);
  let from: string | undefined;
  for (let reads = 0; reads < MOST_READS_A_WALK; reads += 1) {
    const walked = await walkOpenDeliveries(subscription, policyId, dependencies, changed.length ? {} : options, leasedHere, from);
    changed.push(...walked.changed);
    if (walked.outcome === 'stopped' || (walked.outcome === 'settled' && !walked.knocked)) return changed;
    if (walked.outcome === 'settled' && walked.changed.length === 0) return changed;
    if (changed.length) from ??= changed[0].eventId;
  }
  return changed;
}

type Walked = {
  changed: Delivery[];
  /** settled: every delivery read was settled; stopped: one was left waiting (its retry, or a walk that holds it, goes on); readAgain: one changed under this walk. */
  outcome: 'settled' | 'stopped' | 'readAgain';
  /** Another walk knocked on a delivery this one held: read again before ending. */
  knocked: boolean;
};

/** One pass over the open deliveries read now (from `fromEventId`'s on, when given). */
async function walkOpenDeliveries(subscription: Subscription, policyId: string, dependencies: DeliveryDependencies, options: InOrderOptions, leasedHere: Set<string>, fromEventId?: string): Promise<Walked> {
  const { now } = resolved(dependencies);
  const changed: Delivery[] = [];
  let knocked = false;
  const open = await openDeliveries(subscription.subscriptionId, policyId, fromEventId);
  const sendNowThrough = options.sendNowThrough ? open.findIndex((delivery) => delivery.deliveryId === options.sendNowThrough) : -1;
  /** Leased to this walk when written, and untouched since (a knock changes no version). */
  const ownLease = (delivery: Delivery) => leasedHere.has(delivery.deliveryId) && delivery.version === 1 && !!delivery.leaseUntil;
  /** What this walk leaves: its own leases given up, so that the walk it leaves them to can send them. */
  const leave = async (outcome: Walked['outcome'], waiting: readonly Delivery[]): Promise<Walked> => {
    for (const delivery of waiting.filter(ownLease)) {
      const { leaseUntil: _lease, ...released } = delivery;
      leasedHere.delete(delivery.deliveryId);
      await replaceWalkedDelivery({ ...released, version: delivery.version + 1 });
    }
    return { changed, outcome, knocked };
  };
  for (const [index, head] of open.entries()) {
    const at = now();
    const early = index <= sendNowThrough;
    // Never attempted in this round: its time was only a wait behind the ones settled before it here.
    const onlyWaitedBehind = changed.length > 0 && head.attemptsInRound === 0;
    if (!early && !onlyWaitedBehind && head.nextAttemptAt && head.nextAttemptAt > at.toISOString()) {
      // Its retry was scheduled when its attempt failed.
      await deferBehind(head.nextAttemptAt, open.slice(index + 1), at, ownLease, leasedHere);
      return { changed, outcome: 'stopped', knocked };
    }
    const mine = ownLease(head);
    if (!mine && head.leaseUntil && head.leaseUntil > at.toISOString()) {
      // Another walk holds it: what follows is left to that walk, which is told to read again;
      // one that let go meanwhile is not knocked on, and this walk reads again itself.
      const left = await leave('stopped', open.slice(index + 1));
      return (await knockOnDelivery(head)) ? left : { ...left, outcome: 'readAgain' };
    }
    // Leased when it was written, with time enough for an attempt: no lease write of its own.
    const leaseHeld = mine && Date.parse(head.leaseUntil!) - at.getTime() >= ATTEMPT_TIMEOUT_MS;
    leasedHere.delete(head.deliveryId);
    const leased: Delivery = leaseHeld ? head : { ...head, leaseUntil: new Date(at.getTime() + LEASE_MS).toISOString(), version: head.version + 1 };
    if (!leaseHeld) {
      const lease = await replaceWalkedDelivery(leased);
      if (!lease.replaced) return leave('readAgain', open.slice(index + 1));
      knocked ||= lease.knocked;
    }
    const attempted = await attempt(subscription, head.eventId, JSON.stringify(head.event), dependencies);
    // An early attempt that fails keeps the schedule: the retry due next stays due when it was (its message is already on the queue).
    const keepsSchedule = early && !succeeded(attempted) && head.nextAttemptAt !== null && head.nextAttemptAt > attempted.at && head.attemptsInRound > 0;
    const attemptsInRound = keepsSchedule ? head.attemptsInRound : head.attemptsInRound + 1;
    const next = succeeded(attempted) ? undefined : keepsSchedule ? new Date(head.nextAttemptAt!) : nextAttemptAfter(attemptsInRound, new Date(attempted.at));
    // Scheduled before the failure is recorded: a worker that dies between the two leaves the
    // delivery leased, and the retry (or this message, coming back) attempts it again.
    if (next && !keepsSchedule) await scheduleRetry({ subscriptionId: subscription.subscriptionId, policyId, at: next.toISOString() }, dependencies);
    const { leaseUntil: _lease, ...rest } = leased;
    const settled: Delivery = {
      ...rest,
      attempts: [...head.attempts, attempted].slice(-KEPT_ATTEMPTS),
      attemptsInRound,
      version: leased.version + 1,
      ...(succeeded(attempted)
        ? { status: 'delivered', deliveredAt: attempted.at, nextAttemptAt: null }
        : next
          ? { status: 'pending', nextAttemptAt: next.toISOString() }
          : { status: 'failed', failedAt: attempted.at, nextAttemptAt: null }),
    };
    const outcome = await replaceWalkedDelivery(settled);
    // Taken over by another worker (its lease ran out): that worker goes on.
    if (!outcome.replaced) return leave('stopped', open.slice(index + 1));
    knocked ||= outcome.knocked;
    changed.push(settled);
    if (settled.status === 'pending') {
      await deferBehind(settled.nextAttemptAt!, open.slice(index + 1), at, ownLease, leasedHere);
      return { changed, outcome: 'stopped', knocked };
    }
  }
  return { changed, outcome: 'settled', knocked };
}

/**
 * Deliveries waiting behind one being retried are due no sooner than it: the retry step's
 * query (soonest first, a page at a time) then never fills with deliveries that cannot go yet.
 * This walk's own leases among them are given up; one another walk holds is left to it.
 */
async function deferBehind(until: string, waiting: readonly Delivery[], at: Date, ownLease: (delivery: Delivery) => boolean, leasedHere: Set<string>): Promise<void> {
  for (const delivery of waiting) {
    const mine = ownLease(delivery);
    if (!mine && delivery.leaseUntil && delivery.leaseUntil > at.toISOString()) continue;
    if (!mine && delivery.nextAttemptAt && delivery.nextAttemptAt >= until) continue;
    const { leaseUntil: _lease, ...unleased } = delivery;
    leasedHere.delete(delivery.deliveryId);
    const later = delivery.nextAttemptAt && delivery.nextAttemptAt > until ? delivery.nextAttemptAt : until;
    await replaceDelivery({ ...(mine ? unleased : delivery), nextAttemptAt: later, version: delivery.version + 1 });
  }
}

/**
 * A new delivery, leased already to the walk that writes it: its first attempt needs no lease
 * write. A worker that dies before attempting it leaves it leased: its message comes back after
 * the lease is over, as for a worker that dies mid-attempt.
 */
function newDelivery(subscription: Subscription, event: PolicyEvent, at: string): Delivery {
  return {
    deliveryId: deliveryIdOf(subscription.subscriptionId, event.policyId, event.eventId),
    subscriptionId: subscription.subscriptionId,
    eventId: event.eventId,
    eventType: event.type,
    policyId: event.policyId,
    event: wireEvent(event),
    status: 'pending',
    attempts: [],
    attemptsInRound: 0,
    nextAttemptAt: at,
    createdAt: at,
    leaseUntil: new Date(Date.parse(at) + LEASE_MS).toISOString(),
    version: 1,
  };
}

/**
 * The delivery step of one outbox event (the `events` queue's message): the policy's earlier
 * pending events and this one get a delivery per matching subscription, are marked published,
 * and each touched subscription's deliveries of the policy are sent in order. Repeating it
 * creates nothing twice.
 */
export async function publishEvent(policyId: string, eventId: string, dependencies: DeliveryDependencies = {}): Promise<'published' | 'unknown'> {
  const { now } = resolved(dependencies);
  // The event and its policy's earlier waiting ones are one read, the subscriptions another, at once.
  const [{ event, earlierPending: earlier }, subscriptions] = await Promise.all([eventAndEarlierPending(policyId, eventId), allSubscriptions()]);
  if (!event) return 'unknown';
  const events = [...earlier, ...(event.publishedAt ? [] : [event])];
  const touched = new Map<string, Subscription>();
  /** Per subscription, the deliveries written here, leased to its walk below. */
  const written = new Map<string, Set<string>>();
  /** The last event's mark, made while its deliveries are walked: the walk reads only deliveries, which exist by then. */
  let lastMark: Promise<void> = Promise.resolve();
  for (const [index, pending] of events.entries()) {
    const at = now().toISOString();
    const receivers = subscriptions.filter((candidate) => receives(candidate, pending));
    let wroteOne = false;
    // Each subscription's delivery of one event at once; events one after the other, oldest first, so a walk that sees a later delivery sees the earlier ones.
    await Promise.all(
      receivers.map(async (subscription) => {
        const delivery = newDelivery(subscription, pending, at);
        if (!(await putNewDelivery(delivery))) return;
        wroteOne = true;
        written.set(subscription.subscriptionId, (written.get(subscription.subscriptionId) ?? new Set()).add(delivery.deliveryId));
      }),
    );
    for (const subscription of receivers) touched.set(subscription.subscriptionId, subscription);
    // Marked only once its deliveries exist (a worker dying in between leaves it pending, fanned out again); the earlier ones before the later.
    // An earlier event is marked here only by the worker that wrote a delivery of it: one another worker fanned out
    // is marked by that worker, or by its own message (which always marks its event), not by every message behind it.
    const own = pending.eventId === eventId;
    if (!own && !wroteOne) continue;
    if (index < events.length - 1) await markEventPublished(pending, at);
    else lastMark = markEventPublished(pending, at);
  }
  // A message that comes back (its worker died mid-attempt) finds the event published: the
  // subscriptions receiving it are walked again, and the delivery its worker held is sent again.
  for (const subscription of subscriptions.filter((candidate) => receives(candidate, event))) touched.set(subscription.subscriptionId, subscription);
  await Promise.all([lastMark, ...[...touched.values()].map((subscription) => deliverInOrder(subscription, policyId, dependencies, { leasedToThisWalk: written.get(subscription.subscriptionId) }))]);
  return 'published';
}

/** This process's fan-outs by policy: the last one started, which the next of that policy waits for. */
const fanOutsByPolicy = new Map<string, Promise<unknown>>();

/**
 * publishEvent, one policy's messages at a time in this process (the `events` consumer's step).
 * A policy's events committed together come as messages handled at once (a batch's records in
 * parallel, locally every poller in one process): each would fan out the events before it and
 * walk the same deliveries, every refused write, lease, knock and release billed. In turn, a
 * message finds the ones before it fanned out and sent, and writes only its own. Messages of
 * other policies, and workers elsewhere, still go at once.
 */
export function publishEventInTurn(policyId: string, eventId: string, dependencies: DeliveryDependencies = {}): Promise<'published' | 'unknown'> {
  const before = fanOutsByPolicy.get(policyId) ?? Promise.resolve();
  const mine = before.then(() => publishEvent(policyId, eventId, dependencies));
  const settled = mine.catch(() => undefined);
  fanOutsByPolicy.set(policyId, settled);
  void settled.then(() => {
    if (fanOutsByPolicy.get(policyId) === settled) fanOutsByPolicy.delete(policyId);
  });
  return mine;
}

/**
 * A scheduled retry's step (the `event-retries` queue's message): at its time, the
 * subscription's deliveries of the policy are walked again in order. A message due later than
 * the queue could delay it is put back for the rest of the wait; one a fraction of a second
 * early waits it out. A paused subscription's retry is put back for the queue's longest delay;
 * a deleted one's open deliveries of the policy are settled failed.
 */
export async function runScheduledRetry(retry: ScheduledRetry, dependencies: DeliveryDependencies = {}): Promise<'attempted' | 'rescheduled' | 'paused' | 'settled'> {
  const { now, sleep } = resolved(dependencies);
  const waitMs = Date.parse(retry.at) - now().getTime();
  if (waitMs >= 1000) {
    await scheduleRetry(retry, dependencies);
    return 'rescheduled';
  }
  if (waitMs > 0) await sleep(waitMs);
  const subscription = await getSubscription(retry.subscriptionId);
  if (!subscription) {
    const at = now().toISOString();
    for (const orphan of await openDeliveries(retry.subscriptionId, retry.policyId)) {
      await replaceDelivery({ ...orphan, status: 'failed', failedAt: at, nextAttemptAt: null, version: orphan.version + 1 });
    }
    return 'settled';
  }
  if (!subscription.active) {
    await scheduleRetry({ ...retry, at: new Date(now().getTime() + LONGEST_QUEUE_DELAY_SECONDS * 1000).toISOString() }, dependencies);
    return 'paused';
  }
  await deliverInOrder(subscription, retry.policyId, dependencies);
  return 'attempted';
}

/**
 * Every delivery due by now, attempted, each subscription's deliveries of a policy in order: a
 * sweep no schedule runs (each retry is scheduled for its own time, runScheduledRetry), kept
 * for an operator's one-off run and for tests that advance the clock.
 */
export async function retryDueDeliveries(dependencies: DeliveryDependencies = {}): Promise<{ attempted: number }> {
  const { now } = resolved(dependencies);
  const due = await dueDeliveries(now().toISOString());
  if (due.length === 0) return { attempted: 0 };
  const subscriptions = new Map((await allSubscriptions()).map((subscription) => [subscription.subscriptionId, subscription]));
  const groups = new Map<string, { subscriptionId: string; policyId: string }>();
  for (const delivery of due) groups.set(`${delivery.subscriptionId}/${delivery.policyId}`, { subscriptionId: delivery.subscriptionId, policyId: delivery.policyId });
  let attempted = 0;
  for (const { subscriptionId, policyId } of groups.values()) {
    const subscription = subscriptions.get(subscriptionId);
    // An inactive subscription's deliveries wait until it is active again.
    if (subscription?.active) attempted += (await deliverInOrder(subscription, policyId, dependencies)).length;
  }
  // A deleted subscription's deliveries are settled failed, leaving the due index.
  const at = now().toISOString();
  for (const orphan of due.filter((delivery) => !subscriptions.has(delivery.subscriptionId))) {
    await replaceDelivery({ ...orphan, status: 'failed', failedAt: at, nextAttemptAt: null, version: orphan.version + 1 });
  }
  return { attempted };
}
