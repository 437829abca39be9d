/**
 * The queue engine of the local SQS server: standard queues in memory, with the behaviour an
 * application can observe of SQS: visibility timeouts, receive counts, redrive to a
 * dead-letter queue, delay seconds, retention, receipt handles that only the latest receive
 * holds. Time comes from an injected clock, so the engine is tested without a network or a
 * wait (test/unit/sqs-engine.test.ts). No I/O: the HTTP layer (../sqs-server.ts) speaks the
 * wire protocol (protocol.ts) and persistence.ts keeps the state between runs.
 */
import { randomUUID } from 'node:crypto';
import {
  attributesSize,
  DEFAULT_ATTRIBUTES,
  hasOnlyAllowedCharacters,
  md5Hex,
  newReceiptHandle,
  parseReceiptHandle,
  parseRedrivePolicy,
  queueArn,
  SqsError,
  type ReceivedMessage,
  type RedrivePolicy,
  type WireAttributeValue,
} from './protocol.js';

export interface StoredMessage extends ReceivedMessage {
  /** Epoch ms from which the message can be received (covers both delay and visibility timeout). */
  visibleAt: number;
}

/** A queue as persistence keeps it. */
export interface QueueSnapshot {
  name: string;
  createdTimestamp: number;
  lastModifiedTimestamp: number;
  attributes: Record<string, string>;
  messages: StoredMessage[];
}

interface Queue {
  name: string;
  createdTimestamp: number;
  lastModifiedTimestamp: number;
  attributes: Record<string, string>;
  /** Insertion order is send order, which receives follow as a best effort, like SQS standard queues. */
  messages: Map<string, StoredMessage>;
}

export interface NewMessage {
  body: string;
  messageAttributes?: Record<string, WireAttributeValue>;
  awsTraceHeader?: string;
  /** The queue's DelaySeconds when absent. */
  delaySeconds?: number;
}

export interface EngineOptions {
  /** Epoch milliseconds now. */
  clock?: () => number;
  newId?: () => string;
}

export class QueueEngine {
  private readonly queues = new Map<string, Queue>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly changeListeners = new Set<() => void>();
  private readonly clock: () => number;
  private readonly newId: () => string;

  constructor(options: EngineOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  /** Called after every change of any queue (persistence saves on it). */
  onAnyChange(listener: () => void): void {
    this.changeListeners.add(listener);
  }

  /** Calls `listener` once, at the next change of the queue (a long poll re-checks on it); answers how to stop waiting. */
  onceChanged(name: string, listener: () => void): () => void {
    const waiting = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, waiting);
    waiting.add(listener);
    return () => waiting.delete(listener);
  }

  private changed(queue: Queue): void {
    const waiting = [...(this.listeners.get(queue.name) ?? [])];
    this.listeners.get(queue.name)?.clear();
    for (const listener of waiting) listener();
    for (const listener of this.changeListeners) listener();
  }

  has(name: string): boolean {
    return this.queues.has(name);
  }

  names(): string[] {
    return [...this.queues.keys()];
  }

  private queue(name: string): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
    return queue;
  }

  /** Creates a queue; creating it again is fine unless a given attribute differs from the queue's, as in SQS. */
  createQueue(name: string, attributes: Record<string, string>): void {
    const existing = this.queues.get(name);
    if (existing) {
      for (const [key, value] of Object.entries(attributes)) {
        const current = existing.attributes[key] ?? DEFAULT_ATTRIBUTES[key] ?? '';
        if (current !== value) throw new SqsError('QueueNameExists', `A queue already exists with the same name and a different value for attribute ${key}`);
      }
      return;
    }
    const now = this.clock();
    const queue: Queue = { name, createdTimestamp: now, lastModifiedTimestamp: now, attributes: { ...DEFAULT_ATTRIBUTES, ...attributes }, messages: new Map() };
    this.queues.set(name, queue);
    this.changed(queue);
  }

  /** Sets attributes (already in canonical form); an empty RedrivePolicy removes the policy, as SQS callers do. */
  setAttributes(name: string, attributes: Record<string, string>): void {
    const queue = this.queue(name);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === '' && key === 'RedrivePolicy') delete queue.attributes[key];
      else queue.attributes[key] = value;
    }
    queue.lastModifiedTimestamp = this.clock();
    this.changed(queue);
  }

  numericAttribute(name: string, attribute: string): number {
    return Number(this.queue(name).attributes[attribute] ?? DEFAULT_ATTRIBUTES[attribute] ?? '0');
  }

  /** Stores a message; refuses a body SQS would refuse (empty, characters outside XML 1.0, larger than the queue allows). */
  send(name: string, message: NewMessage): StoredMessage {
    const queue = this.queue(name);
    const stored = this.stored(queue, message, this.clock());
    queue.messages.set(stored.messageId, stored);
    this.changed(queue);
    return stored;
  }

  /** Several messages in one change; each entry answers its message or the error it met. */
  sendBatch(name: string, messages: readonly NewMessage[]): Array<StoredMessage | SqsError> {
    const queue = this.queue(name);
    const now = this.clock();
    const results = messages.map((message) => {
      try {
        const stored = this.stored(queue, message, now);
        queue.messages.set(stored.messageId, stored);
        return stored;
      } catch (error) {
        if (error instanceof SqsError) return error;
        throw error;
      }
    });
    if (results.some((result) => !(result instanceof SqsError))) this.changed(queue);
    return results;
  }

  private stored(queue: Queue, message: NewMessage, now: number): StoredMessage {
    if (!message.body) throw new SqsError('MissingParameter', 'The request must contain the parameter MessageBody.');
    if (!hasOnlyAllowedCharacters(message.body)) throw new SqsError('InvalidMessageContents', 'Invalid binary character in the message body.');
    const maxSize = this.numericAttribute(queue.name, 'MaximumMessageSize');
    if (Buffer.byteLength(message.body) + attributesSize(message.messageAttributes) > maxSize) {
      throw new SqsError('InvalidParameterValue', `One or more parameters are invalid. Reason: Message must be shorter than ${maxSize} bytes.`);
    }
    const delaySeconds = message.delaySeconds ?? this.numericAttribute(queue.name, 'DelaySeconds');
    return {
      messageId: this.newId(),
      body: message.body,
      md5OfBody: md5Hex(message.body),
      ...(message.messageAttributes ? { messageAttributes: message.messageAttributes } : {}),
      ...(message.awsTraceHeader ? { awsTraceHeader: message.awsTraceHeader } : {}),
      sentTimestamp: now,
      receiveCount: 0,
      visibleAt: now + delaySeconds * 1000,
    };
  }

  /**
   * Takes up to `max` visible messages, each hidden for the visibility timeout, applying the
   * redrive policy on the way: a message a receive would take past maxReceiveCount moves to
   * the dead-letter queue instead (without the target queue it keeps being delivered, as SQS
   * does while the dead-letter queue is missing).
   */
  take(name: string, request: { max: number; visibilityTimeoutSeconds?: number }): StoredMessage[] {
    const queue = this.queue(name);
    const now = this.clock();
    this.dropExpired(queue, now);
    const visibilityTimeout = request.visibilityTimeoutSeconds ?? this.numericAttribute(name, 'VisibilityTimeout');
    const redrive = this.redrivePolicyOf(queue);
    const deadLetterQueue = redrive ? this.queues.get(redrive.deadLetterTargetArn.split(':').at(-1)!) : undefined;
    const taken: StoredMessage[] = [];
    for (const message of queue.messages.values()) {
      if (taken.length >= request.max) break;
      if (message.visibleAt > now) continue;
      if (redrive && deadLetterQueue && deadLetterQueue !== queue && message.receiveCount >= redrive.maxReceiveCount) {
        queue.messages.delete(message.messageId);
        // The copy keeps its id and send time (retention counts from it) and starts a fresh receive history there.
        const moved: StoredMessage = {
          messageId: message.messageId,
          body: message.body,
          md5OfBody: message.md5OfBody,
          ...(message.messageAttributes ? { messageAttributes: message.messageAttributes } : {}),
          ...(message.awsTraceHeader ? { awsTraceHeader: message.awsTraceHeader } : {}),
          deadLetterQueueSourceArn: queueArn(queue.name),
          sentTimestamp: message.sentTimestamp,
          receiveCount: 0,
          visibleAt: now,
        };
        deadLetterQueue.messages.set(moved.messageId, moved);
        this.changed(deadLetterQueue);
        continue;
      }
      message.receiveCount += 1;
      message.firstReceiveTimestamp ??= now;
      message.receiptHandle = newReceiptHandle(queue.name, message.messageId);
      message.visibleAt = now + visibilityTimeout * 1000;
      taken.push(message);
    }
    if (taken.length > 0) this.changed(queue);
    return taken;
  }

  /**
   * Deletes the message a handle names, if the handle is still its latest. A well-formed but
   * outdated handle is a no-op: SQS documents that deleting with it "succeeds, but the message
   * will not be deleted", and consumers that retry deletes rely on that.
   */
  deleteByHandle(name: string, handle: string): void {
    const queue = this.queue(name);
    const { messageId } = parseReceiptHandle(handle);
    const message = queue.messages.get(messageId);
    if (message && message.receiptHandle === handle) {
      queue.messages.delete(messageId);
      this.changed(queue);
    }
  }

  /** A new visibility timeout for a message in flight; an outdated handle is an error, not a no-op (else a consumer would think it held a lease someone else has). */
  changeVisibility(name: string, handle: string, timeoutSeconds: number): void {
    const queue = this.queue(name);
    const { messageId } = parseReceiptHandle(handle);
    const message = queue.messages.get(messageId);
    const now = this.clock();
    if (!message || message.receiptHandle !== handle || message.visibleAt <= now) throw new SqsError('MessageNotInflight', 'The message referred to is not in flight.');
    message.visibleAt = now + timeoutSeconds * 1000;
    this.changed(queue);
  }

  /** The queue's attributes with the computed ones (counts, ARN, timestamps in seconds). */
  describe(name: string): Record<string, string> {
    const queue = this.queue(name);
    const now = this.clock();
    this.dropExpired(queue, now);
    let visible = 0;
    let notVisible = 0;
    let delayed = 0;
    for (const message of queue.messages.values()) {
      if (message.visibleAt <= now) visible += 1;
      else if (message.receiptHandle === undefined) delayed += 1;
      else notVisible += 1;
    }
    return {
      ...queue.attributes,
      QueueArn: queueArn(queue.name),
      ApproximateNumberOfMessages: String(visible),
      ApproximateNumberOfMessagesNotVisible: String(notVisible),
      ApproximateNumberOfMessagesDelayed: String(delayed),
      CreatedTimestamp: String(Math.floor(queue.createdTimestamp / 1000)),
      LastModifiedTimestamp: String(Math.floor(queue.lastModifiedTimestamp / 1000)),
    };
  }

  /** When the next hidden message becomes visible (a long poll wakes then); Infinity when none is hidden. */
  nextVisibleAt(name: string): number {
    const queue = this.queue(name);
    const now = this.clock();
    let next = Infinity;
    for (const message of queue.messages.values()) if (message.visibleAt > now && message.visibleAt < next) next = message.visibleAt;
    return next;
  }

  snapshot(): QueueSnapshot[] {
    return [...this.queues.values()].map((queue) => ({
      name: queue.name,
      createdTimestamp: queue.createdTimestamp,
      lastModifiedTimestamp: queue.lastModifiedTimestamp,
      attributes: queue.attributes,
      messages: [...queue.messages.values()],
    }));
  }

  restore(snapshots: readonly QueueSnapshot[]): void {
    for (const snapshot of snapshots) {
      this.queues.set(snapshot.name, { ...snapshot, attributes: { ...snapshot.attributes }, messages: new Map(snapshot.messages.map((message) => [message.messageId, { ...message }])) });
    }
  }

  private dropExpired(queue: Queue, now: number): void {
    const retentionMs = this.numericAttribute(queue.name, 'MessageRetentionPeriod') * 1000;
    let dropped = false;
    for (const [id, message] of queue.messages) {
      if (message.sentTimestamp + retentionMs <= now) {
        queue.messages.delete(id);
        dropped = true;
      }
    }
    if (dropped) for (const listener of this.changeListeners) listener();
  }

  private redrivePolicyOf(queue: Queue): RedrivePolicy | undefined {
    const text = queue.attributes.RedrivePolicy;
    return text ? parseRedrivePolicy(text) : undefined;
  }
}
