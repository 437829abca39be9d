/**
 * The service's queues, declared once. The CDK app (infra/stacks/data-stack.ts, workers-stack.ts),
 * the local runtime (infra/local: bootstrap, service, the request dispatcher) and the consumers
 * (shared/platform/consumer.ts) all read this table; a queue is added by adding a row here and
 * a folder events/queues/<name>/ holding its consumer.
 *
 * A message a consumer reports failed comes back after `visibilityTimeoutSeconds`; after
 * `maxReceiveCount` receives it moves to the queue's dead-letter queue, where it is kept
 * `deadLetterRetentionDays` (and alarms). Lambda hands a consumer `batchSize` messages at once.
 */

/** How long a queue consumer may run; AWS's advice is a visibility timeout of six times that. */
export const CONSUMER_TIMEOUT_SECONDS = 60;

export interface QueueSettings {
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** How long a received message stays hidden before it may be received again. */
  visibilityTimeoutSeconds: number;
  /** How long an unconsumed message is kept. */
  retentionDays: number;
  /** How long a dead-lettered message is kept for a person to look at. */
  deadLetterRetentionDays: number;
  /** Messages handed to one invocation of the consumer. */
  batchSize: number;
}

const STANDARD: QueueSettings = {
  maxReceiveCount: 5,
  visibilityTimeoutSeconds: CONSUMER_TIMEOUT_SECONDS * 6,
  retentionDays: 4,
  deadLetterRetentionDays: 14,
  batchSize: 10,
};

export const QUEUES = {
  /** Vendor webhooks, verified and queued by application_signature_event_callback. */
  'signature-events': STANDARD,
  /** A print date to put into mailing batches (the nightly print schedule). */
  'print-batches': STANDARD,
  /** Loss-analysis jobs of async_request_loss_analysis. */
  'loss-analysis': STANDARD,
  /** Batches of billing accounts the nightly planner fans out. */
  'nightly-billing': STANDARD,
  /** Batches of terms the nightly renewal planner fans out (renew, put in force, expire). */
  'nightly-renewals': STANDARD,
  /** Batches of watched terms a rate impact run fans out (rate_impact): each rated at the current and the candidate rates, nothing written to a policy. */
  'rate-impact': STANDARD,
  /** Chunks of a lockbox file too large for one call, applied in parallel. A chunk posts up to 250 lines: a batch of 2 stays inside the consumer's minute. */
  'lockbox-chunks': { ...STANDARD, batchSize: 2 },
  /**
   * Deliverables a policy's move requested (the Declaration, a Notice of Cancellation): the
   * table's stream carries each new request here (the `DELIVERABLE_REQUESTS` pipe below).
   * Rendering is the slowest consumer's work: a smaller batch keeps one batch well inside its timeout.
   */
  documents: { ...STANDARD, batchSize: 5 },
  /**
   * Policy events the moves and money moves wrote to the outbox: the table's stream carries each
   * new one here (the `policy-events` pipe below); the consumer fans it out to the subscriptions
   * and makes the first attempts. Attempts wait on subscribers: a small batch stays inside the timeout.
   */
  events: { ...STANDARD, batchSize: 5 },
  /**
   * Event deliveries' retries, each sent delayed until its attempt is due (shared/events/delivery.ts):
   * the consumer walks the subscription's deliveries of the policy again. Attempts wait on
   * subscribers, as the events consumer's do.
   */
  'event-retries': { ...STANDARD, batchSize: 5 },
} as const satisfies Record<string, QueueSettings>;

export type QueueName = keyof typeof QUEUES;

export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

export const isQueueName = (name: unknown): name is QueueName => typeof name === 'string' && Object.hasOwn(QUEUES, name);

/** `SIGNATURE_EVENTS_QUEUE_URL` for `signature-events`: where a function finds a queue it may send to. */
export const queueUrlVariable = (queue: QueueName) => `${queue.toUpperCase().replace(/-/g, '_')}_QUEUE_URL`;

/**
 * Items of the table whose creation becomes a queue message, through the table's stream: in
 * AWS an EventBridge pipe (infra/stacks/workers-stack.ts); locally infra/local/pipe-dispatchers.ts
 * sends the same messages from the pending requests' index. The write that creates the item is the only write its producer makes, inside
 * its own transaction, so nothing is lost if the process dies after the commit; the message
 * carries `attribute`'s value and the consumer reads the item.
 */
export interface TablePipe {
  /** Construct-friendly name. */
  name: string;
  /** The items' `entity` attribute. */
  entity: string;
  /** The attribute whose value the message carries, as `{"<attribute>": "<value>"}`. */
  attribute: string;
  queue: QueueName;
}

export const TABLE_PIPES: readonly TablePipe[] = [
  { name: 'deliverable-requests', entity: 'DeliverableRequest', attribute: 'requestId', queue: 'documents' },
  // Locally infra/local/pipe-dispatchers.ts sends the same messages from the pending events' index.
  { name: 'policy-events', entity: 'PolicyEvent', attribute: 'eventKey', queue: 'events' },
];
