/**
 * A small SQS server for laptops and tests. It speaks the AWS JSON 1.0 protocol that
 * current `@aws-sdk/client-sqs` uses (`POST /`, `X-Amz-Target: AmazonSQS.<Operation>`),
 * keeps standard (not FIFO) queues in memory and, when given a `dataFile`, in a JSON
 * file between runs. It checks no signatures: any region and credentials are accepted.
 *
 * Behaviour follows the SQS API reference where the application can observe it:
 * visibility timeouts, receive counts, redrive to a dead-letter queue, long polling,
 * delay seconds, retention, batch entry failures, and the error codes the SDK maps to
 * its exception classes. Deliberately left out: FIFO queues, permissions and tags,
 * message move tasks, KMS, and the one-purge-per-60-seconds limit.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';

export interface SqsServerOptions {
  /** 0 or undefined picks a free port. */
  port?: number;
  host?: string;
  /** JSON file that keeps queues and messages between runs; without it nothing is kept. */
  dataFile?: string;
}

export interface SqsServer {
  endpoint: string;
  port: number;
  close(): Promise<void>;
}

const ACCOUNT_ID = '000000000000';
const REGION = 'us-east-1';
const JSON_CONTENT_TYPE = 'application/x-amz-json-1.0';
const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
const SAVE_DEBOUNCE_MS = 250;
const MAX_BATCH_ENTRIES = 10;

// ---------------------------------------------------------------------------
// Errors

/** Wire identity of an error: the `__type` shape name, the query-compatible code and status. */
interface ErrorKind {
  shape: string;
  queryCode: string;
  status: number;
}

/**
 * Codes and statuses as the SDK's error model declares them (its `awsQueryError` traits):
 * with query compatibility on, the SDK picks the exception class from the
 * `x-amzn-query-error` code, so that code must be the one the model lists.
 */
const ERRORS = {
  QueueDoesNotExist: { shape: 'QueueDoesNotExist', queryCode: 'AWS.SimpleQueueService.NonExistentQueue', status: 400 },
  QueueNameExists: { shape: 'QueueNameExists', queryCode: 'QueueAlreadyExists', status: 400 },
  ReceiptHandleIsInvalid: { shape: 'ReceiptHandleIsInvalid', queryCode: 'ReceiptHandleIsInvalid', status: 404 },
  MessageNotInflight: { shape: 'MessageNotInflight', queryCode: 'AWS.SimpleQueueService.MessageNotInflight', status: 400 },
  EmptyBatchRequest: { shape: 'EmptyBatchRequest', queryCode: 'AWS.SimpleQueueService.EmptyBatchRequest', status: 400 },
  TooManyEntriesInBatchRequest: {
    shape: 'TooManyEntriesInBatchRequest',
    queryCode: 'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
    status: 400,
  },
  BatchEntryIdsNotDistinct: {
    shape: 'BatchEntryIdsNotDistinct',
    queryCode: 'AWS.SimpleQueueService.BatchEntryIdsNotDistinct',
    status: 400,
  },
  InvalidBatchEntryId: { shape: 'InvalidBatchEntryId', queryCode: 'AWS.SimpleQueueService.InvalidBatchEntryId', status: 400 },
  BatchRequestTooLong: { shape: 'BatchRequestTooLong', queryCode: 'AWS.SimpleQueueService.BatchRequestTooLong', status: 400 },
  UnsupportedOperation: { shape: 'UnsupportedOperation', queryCode: 'AWS.SimpleQueueService.UnsupportedOperation', status: 400 },
  InvalidAttributeName: { shape: 'InvalidAttributeName', queryCode: 'InvalidAttributeName', status: 400 },
  InvalidAttributeValue: { shape: 'InvalidAttributeValue', queryCode: 'InvalidAttributeValue', status: 400 },
  InvalidMessageContents: { shape: 'InvalidMessageContents', queryCode: 'InvalidMessageContents', status: 400 },
  // Not in the SDK's model: it surfaces them as a plain SQSServiceException named by the code.
  InvalidParameterValue: { shape: 'InvalidParameterValue', queryCode: 'InvalidParameterValue', status: 400 },
  MissingParameter: { shape: 'MissingParameter', queryCode: 'MissingParameter', status: 400 },
  SerializationException: { shape: 'SerializationException', queryCode: 'SerializationException', status: 400 },
  ServiceUnavailable: { shape: 'ServiceUnavailable', queryCode: 'ServiceUnavailable', status: 503 },
} satisfies Record<string, ErrorKind>;

type ErrorCode = keyof typeof ERRORS;

class SqsError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------
// Data model

/** Message attribute values exactly as they travel in JSON (binary as base64). */
interface WireAttributeValue {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
}

interface StoredMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  messageAttributes?: Record<string, WireAttributeValue>;
  awsTraceHeader?: string;
  /** Set when the message was moved here by a redrive policy. */
  deadLetterQueueSourceArn?: string;
  sentTimestamp: number;
  receiveCount: number;
  firstReceiveTimestamp?: number;
  /** Epoch ms from which the message can be received (covers both delay and visibility timeout). */
  visibleAt: number;
  /** Only the handle from the latest receive may delete or change the message. */
  receiptHandle?: string;
}

interface Queue {
  name: string;
  createdTimestamp: number;
  lastModifiedTimestamp: number;
  attributes: Record<string, string>;
  /** Insertion order is send order, which receives follow as a best effort, like SQS standard queues. */
  messages: Map<string, StoredMessage>;
  /** Long polls waiting on this queue; each is called once when the queue changes. */
  waiters: Set<() => void>;
  deleted: boolean;
}

interface PersistedState {
  version: 1;
  queues: Array<{
    name: string;
    createdTimestamp: number;
    lastModifiedTimestamp: number;
    attributes: Record<string, string>;
    messages: StoredMessage[];
  }>;
}

const DEFAULT_ATTRIBUTES: Readonly<Record<string, string>> = {
  VisibilityTimeout: '30',
  MessageRetentionPeriod: '345600',
  MaximumMessageSize: '262144',
  DelaySeconds: '0',
  ReceiveMessageWaitTimeSeconds: '0',
  SqsManagedSseEnabled: 'true',
};

/** Attributes a caller may set, with the range AWS accepts for the numeric ones. */
const SETTABLE_ATTRIBUTES: Readonly<Record<string, { min: number; max: number } | 'json' | 'string'>> = {
  VisibilityTimeout: { min: 0, max: 43_200 },
  MessageRetentionPeriod: { min: 60, max: 1_209_600 },
  MaximumMessageSize: { min: 1024, max: 1_048_576 },
  DelaySeconds: { min: 0, max: 900 },
  ReceiveMessageWaitTimeSeconds: { min: 0, max: 20 },
  RedrivePolicy: 'json',
  RedriveAllowPolicy: 'json',
  Policy: 'json',
  KmsMasterKeyId: 'string',
  KmsDataKeyReusePeriodSeconds: { min: 60, max: 86_400 },
  SqsManagedSseEnabled: 'string',
};

const COMPUTED_ATTRIBUTES = [
  'QueueArn',
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
  'CreatedTimestamp',
  'LastModifiedTimestamp',
] as const;

const MESSAGE_SYSTEM_ATTRIBUTES = [
  'SenderId',
  'SentTimestamp',
  'ApproximateReceiveCount',
  'ApproximateFirstReceiveTimestamp',
  'AWSTraceHeader',
  'DeadLetterQueueSourceArn',
] as const;

export function queueArn(name: string): string {
  return `arn:aws:sqs:${REGION}:${ACCOUNT_ID}:${name}`;
}

function md5Hex(data: string | Buffer): string {
  return createHash('md5').update(data).digest('hex');
}

/**
 * The SQS digest of message attributes: for each attribute in name order, the name, the
 * data type and the value, each as a 4-byte big-endian length followed by its bytes, with
 * a one-byte transport type (1 string, 2 binary) before the value.
 */
export function md5OfMessageAttributes(attributes: Record<string, WireAttributeValue>): string {
  const hash = createHash('md5');
  const lengthPrefixed = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  };
  for (const name of Object.keys(attributes).sort()) {
    const value = attributes[name]!;
    lengthPrefixed(Buffer.from(name, 'utf8'));
    lengthPrefixed(Buffer.from(value.DataType, 'utf8'));
    if (value.BinaryValue !== undefined) {
      hash.update(Buffer.from([2]));
      lengthPrefixed(Buffer.from(value.BinaryValue, 'base64'));
    } else {
      hash.update(Buffer.from([1]));
      lengthPrefixed(Buffer.from(value.StringValue ?? '', 'utf8'));
    }
  }
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------
// Request field readers: the SDK sends well-typed JSON, but other clients may not,
// and a clear InvalidParameterValue beats a TypeError deep in an operation.

type Json = Record<string, unknown>;

function optionalString(input: Json, field: string): string | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SqsError('InvalidParameterValue', `${field} must be a string.`);
  return value;
}

function requiredString(input: Json, field: string): string {
  const value = optionalString(input, field);
  if (value === undefined || value === '') {
    throw new SqsError('MissingParameter', `The request must contain the parameter ${field}.`);
  }
  return value;
}

function optionalInteger(input: Json, field: string, min: number, max: number): number | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new SqsError(
      'InvalidParameterValue',
      `Value ${String(value)} for parameter ${field} is invalid. Reason: must be an integer from ${min} to ${max}.`,
    );
  }
  return value;
}

function optionalStringList(input: Json, field: string): string[] {
  const value = input[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new SqsError('InvalidParameterValue', `${field} must be a list of strings.`);
  }
  return value as string[];
}

function optionalStringMap(input: Json, field: string): Record<string, string> {
  const value = input[field];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new SqsError('InvalidParameterValue', `${field} must be a map of strings.`);
  }
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw new SqsError('InvalidAttributeValue', `Value for ${field}.${key} must be a string.`);
    result[key] = item;
  }
  return result;
}

function entryList(input: Json): Json[] {
  const value = input.Entries;
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
    throw new SqsError('EmptyBatchRequest', 'There should be at least one entry in the request.');
  }
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'object' || item === null)) {
    throw new SqsError('InvalidParameterValue', 'Entries must be a list of objects.');
  }
  if (value.length > MAX_BATCH_ENTRIES) {
    throw new SqsError('TooManyEntriesInBatchRequest', `Maximum number of entries per request are ${MAX_BATCH_ENTRIES}.`);
  }
  const seen = new Set<string>();
  for (const entry of value as Json[]) {
    const id = entry.Id;
    if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,80}$/.test(id)) {
      throw new SqsError('InvalidBatchEntryId', 'A batch entry id can only contain alphanumeric characters, hyphens and underscores, up to 80.');
    }
    if (seen.has(id)) throw new SqsError('BatchEntryIdsNotDistinct', `Id ${id} repeated.`);
    seen.add(id);
  }
  return value as Json[];
}

// ---------------------------------------------------------------------------
// Receipt handles

/**
 * A handle names its message and carries a nonce, base64url-encoded so it looks opaque.
 * Handles that do not decode to that shape are rejected with ReceiptHandleIsInvalid.
 * A well-formed handle that is no longer current (the message was deleted, or received
 * again since) is accepted by DeleteMessage as a no-op: SQS documents that deleting with
 * an outdated handle "succeeds, but the message will not be deleted", and consumers
 * that retry deletes rely on that.
 */
function newReceiptHandle(queueName: string, messageId: string): string {
  return Buffer.from(`${queueName}\n${messageId}\n${randomUUID()}`, 'utf8').toString('base64url');
}

function parseReceiptHandle(handle: string): { messageId: string } {
  const invalid = () => new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${handle}" is not a valid receipt handle.`);
  if (!/^[A-Za-z0-9_-]+$/.test(handle)) throw invalid();
  const parts = Buffer.from(handle, 'base64url').toString('utf8').split('\n');
  if (parts.length !== 3 || parts.some((part) => part === '')) throw invalid();
  return { messageId: parts[1]! };
}

// ---------------------------------------------------------------------------
// Validation of message contents

/** The characters SQS accepts in bodies and string attributes (XML 1.0 characters). */
function hasOnlyAllowedCharacters(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (!allowed) return false;
  }
  return true;
}

function readMessageAttributes(input: Json): Record<string, WireAttributeValue> | undefined {
  const raw = input.MessageAttributes;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SqsError('InvalidParameterValue', 'MessageAttributes must be a map.');
  }
  const entries = Object.entries(raw as Json);
  if (entries.length === 0) return undefined;
  if (entries.length > 10) {
    throw new SqsError('InvalidParameterValue', 'Number of message attributes cannot exceed 10.');
  }
  const result: Record<string, WireAttributeValue> = {};
  for (const [name, value] of entries) {
    const invalidName =
      name.length > 256 ||
      !/^[A-Za-z0-9_.-]+$/.test(name) ||
      name.startsWith('.') ||
      name.endsWith('.') ||
      name.includes('..') ||
      /^(aws\.|amazon\.)/i.test(name);
    if (invalidName) throw new SqsError('InvalidParameterValue', `Message attribute name '${name}' is invalid.`);
    if (typeof value !== 'object' || value === null) {
      throw new SqsError('InvalidParameterValue', `Message attribute '${name}' must be an object.`);
    }
    const attribute = value as Json;
    const dataType = optionalString(attribute, 'DataType');
    const baseType = dataType?.split('.')[0];
    if (!dataType || (baseType !== 'String' && baseType !== 'Number' && baseType !== 'Binary')) {
      throw new SqsError('InvalidParameterValue', `The message attribute '${name}' has an invalid message attribute type.`);
    }
    if (baseType === 'Binary') {
      const binary = optionalString(attribute, 'BinaryValue');
      if (binary === undefined || binary === '') {
        throw new SqsError('InvalidParameterValue', `The message attribute '${name}' with type 'Binary' must use field 'Binary'.`);
      }
      result[name] = { DataType: dataType, BinaryValue: binary };
    } else {
      const text = optionalString(attribute, 'StringValue');
      if (text === undefined || text === '') {
        throw new SqsError('InvalidParameterValue', `The message attribute '${name}' must contain a non-empty value of type '${baseType}'.`);
      }
      if (baseType === 'Number' && !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
        throw new SqsError('InvalidParameterValue', `Could not cast message attribute '${name}' value to number.`);
      }
      if (!hasOnlyAllowedCharacters(text)) {
        throw new SqsError('InvalidParameterValue', `Message attribute '${name}' contains invalid characters.`);
      }
      result[name] = { DataType: dataType, StringValue: text };
    }
  }
  return result;
}

function attributesSize(attributes: Record<string, WireAttributeValue> | undefined): number {
  let size = 0;
  for (const [name, value] of Object.entries(attributes ?? {})) {
    size += Buffer.byteLength(name) + Buffer.byteLength(value.DataType);
    size += value.BinaryValue !== undefined ? Buffer.from(value.BinaryValue, 'base64').length : Buffer.byteLength(value.StringValue ?? '');
  }
  return size;
}

function readTraceHeader(input: Json): string | undefined {
  const raw = input.MessageSystemAttributes;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const header = (raw as Json).AWSTraceHeader;
  if (typeof header !== 'object' || header === null) return undefined;
  const value = (header as Json).StringValue;
  return typeof value === 'string' ? value : undefined;
}

// ---------------------------------------------------------------------------
// Queue attributes

interface RedrivePolicy {
  deadLetterTargetArn: string;
  maxReceiveCount: number;
}

function parseRedrivePolicy(text: string): RedrivePolicy {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SqsError('InvalidAttributeValue', 'Invalid value for the parameter RedrivePolicy. Reason: not valid JSON.');
  }
  const policy = parsed as { deadLetterTargetArn?: unknown; maxReceiveCount?: unknown };
  // SQS accepts maxReceiveCount as a number or a numeric string.
  const count = typeof policy.maxReceiveCount === 'string' ? Number(policy.maxReceiveCount) : policy.maxReceiveCount;
  if (
    typeof policy.deadLetterTargetArn !== 'string' ||
    !/^arn:aws[a-z-]*:sqs:[^:]+:\d{12}:[A-Za-z0-9_-]{1,80}$/.test(policy.deadLetterTargetArn) ||
    typeof count !== 'number' ||
    !Number.isInteger(count) ||
    count < 1 ||
    count > 1000
  ) {
    throw new SqsError(
      'InvalidAttributeValue',
      'Invalid value for the parameter RedrivePolicy. Reason: needs deadLetterTargetArn (an SQS ARN) and maxReceiveCount from 1 to 1000.',
    );
  }
  return { deadLetterTargetArn: policy.deadLetterTargetArn, maxReceiveCount: count };
}

/** Validates caller-supplied attributes and returns them in the canonical form SQS stores. */
function normalizeAttributes(attributes: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'FifoQueue' || name === 'ContentBasedDeduplication' || name === 'DeduplicationScope' || name === 'FifoThroughputLimit') {
      if (name === 'FifoQueue' && value === 'false') continue;
      throw new SqsError('UnsupportedOperation', 'This local SQS server supports standard queues only, not FIFO queues.');
    }
    const rule = SETTABLE_ATTRIBUTES[name];
    if (!rule) throw new SqsError('InvalidAttributeName', `Unknown Attribute ${name}.`);
    if (rule === 'json') {
      if (name === 'RedrivePolicy') {
        if (value === '') {
          result[name] = '';
          continue;
        }
        const policy = parseRedrivePolicy(value);
        result[name] = JSON.stringify({ deadLetterTargetArn: policy.deadLetterTargetArn, maxReceiveCount: policy.maxReceiveCount });
      } else {
        try {
          if (value !== '') JSON.parse(value);
        } catch {
          throw new SqsError('InvalidAttributeValue', `Invalid value for the parameter ${name}.`);
        }
        result[name] = value;
      }
    } else if (rule === 'string') {
      result[name] = value;
    } else {
      const number = Number(value);
      if (value.trim() === '' || !Number.isInteger(number) || number < rule.min || number > rule.max) {
        throw new SqsError('InvalidAttributeValue', `Invalid value for the parameter ${name}: must be from ${rule.min} to ${rule.max}.`);
      }
      result[name] = String(number);
    }
  }
  return result;
}

function numericAttribute(queue: Queue, name: string): number {
  return Number(queue.attributes[name] ?? DEFAULT_ATTRIBUTES[name] ?? '0');
}

function redrivePolicyOf(queue: Queue): RedrivePolicy | undefined {
  const text = queue.attributes.RedrivePolicy;
  return text ? parseRedrivePolicy(text) : undefined;
}

const QUEUE_NAME = /^[A-Za-z0-9_-]{1,80}$/;

// ---------------------------------------------------------------------------
// The server

export async function startSqsServer(options: SqsServerOptions = {}): Promise<SqsServer> {
  const host = options.host ?? '127.0.0.1';
  const queues = new Map<string, Queue>();
  const shutdown = new AbortController();
  const inflightRequests = new Set<Promise<void>>();
  let saveTimer: NodeJS.Timeout | undefined;
  let saving: Promise<void> = Promise.resolve();
  let closing = false;

  if (options.dataFile) {
    for (const queue of await loadState(options.dataFile)) queues.set(queue.name, queue);
  }

  const persist = () => {
    if (!options.dataFile || saveTimer || closing) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      flush().catch((error: unknown) => console.error('[sqs-server] could not save queue data:', error));
    }, SAVE_DEBOUNCE_MS);
  };

  // Saves run one after another so an older snapshot never overwrites a newer one.
  const flush = (): Promise<void> => {
    const file = options.dataFile;
    if (!file) return Promise.resolve();
    const next = saving.catch(() => undefined).then(() => saveState(file, queues));
    saving = next;
    return next;
  };

  const touch = (queue: Queue) => {
    persist();
    // Long polls re-check on every change: a send, a visibility change or a deletion can each unblock them.
    const waiters = [...queue.waiters];
    queue.waiters.clear();
    for (const wake of waiters) wake();
  };

  const getQueue = (queueUrl: string): Queue => {
    const name = queueNameFromUrl(queueUrl);
    const queue = name === undefined ? undefined : queues.get(name);
    if (!queue) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
    return queue;
  };

  const dropExpired = (queue: Queue, now: number) => {
    const retentionMs = numericAttribute(queue, 'MessageRetentionPeriod') * 1000;
    let dropped = false;
    for (const [id, message] of queue.messages) {
      if (message.sentTimestamp + retentionMs <= now) {
        queue.messages.delete(id);
        dropped = true;
      }
    }
    if (dropped) persist();
  };

  const enqueue = (queue: Queue, input: Json, now: number) => {
    const body = optionalString(input, 'MessageBody');
    if (body === undefined || body === '') {
      throw new SqsError('MissingParameter', 'The request must contain the parameter MessageBody.');
    }
    if (!hasOnlyAllowedCharacters(body)) {
      throw new SqsError('InvalidMessageContents', 'Invalid binary character in the message body.');
    }
    const messageAttributes = readMessageAttributes(input);
    const maxSize = numericAttribute(queue, 'MaximumMessageSize');
    if (Buffer.byteLength(body) + attributesSize(messageAttributes) > maxSize) {
      throw new SqsError('InvalidParameterValue', `One or more parameters are invalid. Reason: Message must be shorter than ${maxSize} bytes.`);
    }
    const delaySeconds = optionalInteger(input, 'DelaySeconds', 0, 900) ?? numericAttribute(queue, 'DelaySeconds');
    const awsTraceHeader = readTraceHeader(input);
    const message: StoredMessage = {
      messageId: randomUUID(),
      body,
      md5OfBody: md5Hex(body),
      ...(messageAttributes ? { messageAttributes } : {}),
      ...(awsTraceHeader ? { awsTraceHeader } : {}),
      sentTimestamp: now,
      receiveCount: 0,
      visibleAt: now + delaySeconds * 1000,
    };
    queue.messages.set(message.messageId, message);
    return {
      MessageId: message.messageId,
      MD5OfMessageBody: message.md5OfBody,
      ...(messageAttributes ? { MD5OfMessageAttributes: md5OfMessageAttributes(messageAttributes) } : {}),
      ...(awsTraceHeader
        ? { MD5OfMessageSystemAttributes: md5OfMessageAttributes({ AWSTraceHeader: { DataType: 'String', StringValue: awsTraceHeader } }) }
        : {}),
    };
  };

  /** Takes up to `max` visible messages, applying the redrive policy on the way. */
  const takeMessages = (queue: Queue, max: number, visibilityTimeout: number, now: number): StoredMessage[] => {
    dropExpired(queue, now);
    const redrive = redrivePolicyOf(queue);
    const deadLetterQueue = redrive ? queues.get(redrive.deadLetterTargetArn.split(':').at(-1)!) : undefined;
    const taken: StoredMessage[] = [];
    for (const message of queue.messages.values()) {
      if (taken.length >= max) break;
      if (message.visibleAt > now) continue;
      // SQS moves a message when a receive would push it past maxReceiveCount; without
      // the target queue it keeps delivering, as SQS does while the DLQ is missing.
      if (redrive && deadLetterQueue && deadLetterQueue !== queue && message.receiveCount >= redrive.maxReceiveCount) {
        queue.messages.delete(message.messageId);
        // The DLQ copy keeps its id and original send time (retention counts from it) but
        // starts a fresh receive history there, so a redrive policy on the DLQ applies anew.
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
        touch(deadLetterQueue);
        continue;
      }
      message.receiveCount += 1;
      message.firstReceiveTimestamp ??= now;
      message.receiptHandle = newReceiptHandle(queue.name, message.messageId);
      message.visibleAt = now + visibilityTimeout * 1000;
      taken.push(message);
    }
    if (taken.length > 0) persist();
    return taken;
  };

  const receive = async (input: Json, gone: AbortSignal) => {
    const queue = getQueue(requiredString(input, 'QueueUrl'));
    const max = optionalInteger(input, 'MaxNumberOfMessages', 1, 10) ?? 1;
    const visibilityTimeout = optionalInteger(input, 'VisibilityTimeout', 0, 43_200) ?? numericAttribute(queue, 'VisibilityTimeout');
    const waitSeconds = optionalInteger(input, 'WaitTimeSeconds', 0, 20) ?? numericAttribute(queue, 'ReceiveMessageWaitTimeSeconds');
    const systemNames = new Set([...optionalStringList(input, 'AttributeNames'), ...optionalStringList(input, 'MessageSystemAttributeNames')]);
    const attributeNames = optionalStringList(input, 'MessageAttributeNames');
    const deadline = Date.now() + waitSeconds * 1000;

    for (;;) {
      if (gone.aborted || queue.deleted) return {};
      const now = Date.now();
      const taken = takeMessages(queue, max, visibilityTimeout, now);
      if (taken.length > 0) {
        return { Messages: taken.map((message) => renderMessage(message, systemNames, attributeNames)) };
      }
      if (now >= deadline) return {};
      await waitForChange(queue, deadline, gone);
    }
  };

  const operations: Record<string, (input: Json, gone: AbortSignal, baseUrl: string) => unknown> = {
    CreateQueue: (input, _gone, baseUrl) => {
      const name = requiredString(input, 'QueueName');
      if (name.endsWith('.fifo')) {
        throw new SqsError('UnsupportedOperation', 'This local SQS server supports standard queues only, not FIFO queues.');
      }
      if (!QUEUE_NAME.test(name)) {
        throw new SqsError('InvalidParameterValue', 'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length');
      }
      const attributes = normalizeAttributes(optionalStringMap(input, 'Attributes'));
      const existing = queues.get(name);
      if (existing) {
        // Same as SQS: creating again is fine unless a given attribute differs from the queue's.
        for (const [key, value] of Object.entries(attributes)) {
          const current = existing.attributes[key] ?? DEFAULT_ATTRIBUTES[key] ?? '';
          if (current !== value) {
            throw new SqsError('QueueNameExists', `A queue already exists with the same name and a different value for attribute ${key}`);
          }
        }
        return { QueueUrl: queueUrl(baseUrl, name) };
      }
      const now = Date.now();
      queues.set(name, {
        name,
        createdTimestamp: now,
        lastModifiedTimestamp: now,
        attributes: { ...DEFAULT_ATTRIBUTES, ...attributes },
        messages: new Map(),
        waiters: new Set(),
        deleted: false,
      });
      persist();
      return { QueueUrl: queueUrl(baseUrl, name) };
    },

    GetQueueUrl: (input, _gone, baseUrl) => {
      const name = requiredString(input, 'QueueName');
      if (!queues.has(name)) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
      return { QueueUrl: queueUrl(baseUrl, name) };
    },

    ListQueues: (input, _gone, baseUrl) => {
      const prefix = optionalString(input, 'QueueNamePrefix') ?? '';
      const maxResults = optionalInteger(input, 'MaxResults', 1, 1000);
      const token = optionalString(input, 'NextToken');
      const names = [...queues.keys()].filter((name) => name.startsWith(prefix)).sort();
      const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
      if (!Number.isInteger(start) || start < 0) throw new SqsError('InvalidParameterValue', 'Invalid NextToken.');
      // SQS caps an unpaginated listing at 1000 queues; pagination only applies with MaxResults.
      const page = names.slice(start, start + (maxResults ?? 1000));
      const end = start + page.length;
      return {
        ...(page.length > 0 ? { QueueUrls: page.map((name) => queueUrl(baseUrl, name)) } : {}),
        ...(maxResults !== undefined && end < names.length ? { NextToken: Buffer.from(String(end)).toString('base64url') } : {}),
      };
    },

    DeleteQueue: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      queues.delete(queue.name);
      queue.deleted = true;
      touch(queue);
      return {};
    },

    PurgeQueue: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      queue.messages.clear();
      touch(queue);
      return {};
    },

    SendMessage: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      const result = enqueue(queue, input, Date.now());
      touch(queue);
      return result;
    },

    SendMessageBatch: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      const entries = entryList(input);
      const totalBytes = entries.reduce((sum, entry) => sum + Buffer.byteLength(typeof entry.MessageBody === 'string' ? entry.MessageBody : ''), 0);
      const maxSize = numericAttribute(queue, 'MaximumMessageSize');
      if (totalBytes > maxSize) {
        throw new SqsError('BatchRequestTooLong', `Batch requests cannot be longer than ${maxSize} bytes.`);
      }
      const now = Date.now();
      const successful: Json[] = [];
      const failed: Json[] = [];
      for (const entry of entries) {
        try {
          successful.push({ Id: entry.Id, ...enqueue(queue, entry, now) });
        } catch (error) {
          if (!(error instanceof SqsError)) throw error;
          failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
        }
      }
      if (successful.length > 0) touch(queue);
      return { Successful: successful, Failed: failed };
    },

    ReceiveMessage: (input, gone) => receive(input, gone),

    DeleteMessage: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      deleteByHandle(queue, requiredString(input, 'ReceiptHandle'));
      return {};
    },

    DeleteMessageBatch: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      const successful: Json[] = [];
      const failed: Json[] = [];
      for (const entry of entryList(input)) {
        try {
          deleteByHandle(queue, requiredString(entry, 'ReceiptHandle'));
          successful.push({ Id: entry.Id });
        } catch (error) {
          if (!(error instanceof SqsError)) throw error;
          failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
        }
      }
      return { Successful: successful, Failed: failed };
    },

    ChangeMessageVisibility: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      const handle = requiredString(input, 'ReceiptHandle');
      const timeout = optionalInteger(input, 'VisibilityTimeout', 0, 43_200);
      if (timeout === undefined) throw new SqsError('MissingParameter', 'The request must contain the parameter VisibilityTimeout.');
      changeVisibility(queue, handle, timeout);
      return {};
    },

    ChangeMessageVisibilityBatch: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      const successful: Json[] = [];
      const failed: Json[] = [];
      for (const entry of entryList(input)) {
        try {
          const timeout = optionalInteger(entry, 'VisibilityTimeout', 0, 43_200) ?? 0;
          changeVisibility(queue, requiredString(entry, 'ReceiptHandle'), timeout);
          successful.push({ Id: entry.Id });
        } catch (error) {
          if (!(error instanceof SqsError)) throw error;
          failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
        }
      }
      return { Successful: successful, Failed: failed };
    },

    GetQueueAttributes: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      const requested = optionalStringList(input, 'AttributeNames');
      if (requested.length === 0) return {};
      const all = describeQueue(queue);
      const names = requested.includes('All') ? Object.keys(all) : requested;
      const attributes: Record<string, string> = {};
      for (const name of names) {
        const known = name in SETTABLE_ATTRIBUTES || (COMPUTED_ATTRIBUTES as readonly string[]).includes(name);
        if (!known) throw new SqsError('InvalidAttributeName', `Unknown Attribute ${name}.`);
        const value = all[name];
        if (value !== undefined) attributes[name] = value;
      }
      return { Attributes: attributes };
    },

    SetQueueAttributes: (input) => {
      const queue = getQueue(requiredString(input, 'QueueUrl'));
      const attributes = normalizeAttributes(optionalStringMap(input, 'Attributes'));
      for (const [name, value] of Object.entries(attributes)) {
        // An empty RedrivePolicy is how SQS callers remove the policy.
        if (value === '' && name === 'RedrivePolicy') delete queue.attributes[name];
        else queue.attributes[name] = value;
      }
      queue.lastModifiedTimestamp = Date.now();
      touch(queue);
      return {};
    },
  };

  function deleteByHandle(queue: Queue, handle: string) {
    const { messageId } = parseReceiptHandle(handle);
    const message = queue.messages.get(messageId);
    if (message && message.receiptHandle === handle) {
      queue.messages.delete(messageId);
      touch(queue);
    }
  }

  function changeVisibility(queue: Queue, handle: string, timeoutSeconds: number) {
    const { messageId } = parseReceiptHandle(handle);
    const message = queue.messages.get(messageId);
    const now = Date.now();
    // Unlike delete, a stale handle here is an error: silently ignoring it would let a
    // consumer believe it extended its lease on a message someone else now holds.
    if (!message || message.receiptHandle !== handle || message.visibleAt <= now) {
      throw new SqsError('MessageNotInflight', 'The message referred to is not in flight.');
    }
    message.visibleAt = now + timeoutSeconds * 1000;
    touch(queue);
  }

  function describeQueue(queue: Queue): Record<string, string> {
    const now = Date.now();
    dropExpired(queue, now);
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

  /** Resolves when the queue changes, a message may have become visible, the deadline passes, or the caller goes away. */
  function waitForChange(queue: Queue, deadline: number, gone: AbortSignal): Promise<void> {
    let nextVisible = Infinity;
    const now = Date.now();
    for (const message of queue.messages.values()) {
      if (message.visibleAt > now && message.visibleAt < nextVisible) nextVisible = message.visibleAt;
    }
    const wakeAt = Math.min(deadline, nextVisible);
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        queue.waiters.delete(done);
        gone.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, wakeAt - now));
      queue.waiters.add(done);
      gone.addEventListener('abort', done, { once: true });
    });
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID();
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (response.writableEnded || response.destroyed) return;
      const payload = JSON.stringify(body);
      response.writeHead(status, {
        'Content-Type': JSON_CONTENT_TYPE,
        'Content-Length': Buffer.byteLength(payload),
        'x-amzn-RequestId': requestId,
        ...headers,
      });
      response.end(payload);
    };
    const sendError = (error: SqsError) => {
      const kind: ErrorKind = ERRORS[error.code];
      send(kind.status, { __type: `com.amazonaws.sqs#${kind.shape}`, message: error.message }, {
        'x-amzn-query-error': `${kind.queryCode};${kind.status >= 500 ? 'Receiver' : 'Sender'}`,
      });
    };

    try {
      if (request.method === 'GET' && (request.url === '/' || request.url === '/health')) {
        // Lets start-up scripts and humans check the server is up without an SDK.
        send(200, { status: 'ok', queues: queues.size });
        return;
      }
      if (closing) throw new SqsError('ServiceUnavailable', 'The server is shutting down.');
      const target = request.headers['x-amz-target'];
      if (request.method !== 'POST' || typeof target !== 'string' || !target.startsWith('AmazonSQS.')) {
        throw new SqsError(
          'UnsupportedOperation',
          'Only the AWS JSON 1.0 protocol is supported: POST with X-Amz-Target: AmazonSQS.<Operation>.',
        );
      }
      const operation = operations[target.slice('AmazonSQS.'.length)];
      if (!operation) throw new SqsError('UnsupportedOperation', `Operation ${target} is not supported by this local server.`);

      const raw = await readBody(request);
      let input: unknown;
      try {
        input = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
      } catch {
        throw new SqsError('SerializationException', 'The request body is not valid JSON.');
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw new SqsError('SerializationException', 'The request body must be a JSON object.');
      }

      // A long poll must stop when its caller disconnects (so it does not take messages
      // nobody will see) and when the server shuts down (so close() does not hang).
      const gone = new AbortController();
      const abortGone = () => gone.abort();
      response.once('close', abortGone);
      shutdown.signal.addEventListener('abort', abortGone, { once: true });
      try {
        const result = await operation(input as Json, gone.signal, baseUrlOf(request));
        send(200, result ?? {});
      } finally {
        shutdown.signal.removeEventListener('abort', abortGone);
      }
    } catch (error) {
      if (error instanceof SqsError) {
        sendError(error);
      } else {
        console.error('[sqs-server] internal error:', error);
        send(500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Internal error.' }, {
          'x-amzn-query-error': 'InternalError;Receiver',
        });
      }
    }
  };

  const server = createServer((request, response) => {
    const work = handle(request, response);
    inflightRequests.add(work);
    void work.finally(() => inflightRequests.delete(work));
  });
  // The SDK keeps connections alive; long polls may last 20 s plus network slack.
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpointHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const endpoint = `http://${endpointHost}:${port}`;

  function baseUrlOf(request: IncomingMessage): string {
    // Queue URLs follow the address the caller used, so they work from wherever it connected.
    const hostHeader = request.headers.host;
    return hostHeader ? `http://${hostHeader}` : endpoint;
  }

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      closing = true;
      shutdown.abort();
      // Aborting ended the long polls; a request whose body never arrives must not hold close() up.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inflightRequests]),
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, 1000);
        }),
      ]);
      clearTimeout(grace);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (saveTimer) {
        clearTimeout(saveTimer);
        saveTimer = undefined;
      }
      await flush();
    })();
    return closed;
  };

  return { endpoint, port, close };
}

// ---------------------------------------------------------------------------
// Helpers outside the server closure

function queueUrl(baseUrl: string, name: string): string {
  return `${baseUrl}/${ACCOUNT_ID}/${name}`;
}

/** Accepts a full queue URL (any host or account) or, leniently, a bare queue name. */
function queueNameFromUrl(queueUrl: string): string | undefined {
  let path = queueUrl;
  try {
    path = new URL(queueUrl).pathname;
  } catch {
    // Not a URL: treat it as a path or a name.
  }
  const name = path.split('/').filter(Boolean).at(-1);
  return name && QUEUE_NAME.test(name) ? name : undefined;
}

function renderMessage(message: StoredMessage, systemNames: Set<string>, attributeNames: string[]): Json {
  const all = systemNames.has('All');
  const system: Record<string, string | undefined> = {
    SenderId: ACCOUNT_ID,
    SentTimestamp: String(message.sentTimestamp),
    ApproximateReceiveCount: String(message.receiveCount),
    ApproximateFirstReceiveTimestamp: String(message.firstReceiveTimestamp ?? message.sentTimestamp),
    AWSTraceHeader: message.awsTraceHeader,
    DeadLetterQueueSourceArn: message.deadLetterQueueSourceArn,
  };
  const attributes: Record<string, string> = {};
  for (const name of MESSAGE_SYSTEM_ATTRIBUTES) {
    const value = system[name];
    if (value !== undefined && (all || systemNames.has(name))) attributes[name] = value;
  }
  const messageAttributes = selectMessageAttributes(message.messageAttributes, attributeNames);
  return {
    MessageId: message.messageId,
    ReceiptHandle: message.receiptHandle,
    MD5OfBody: message.md5OfBody,
    Body: message.body,
    ...(Object.keys(attributes).length > 0 ? { Attributes: attributes } : {}),
    // The digest covers only the attributes returned, as SQS computes it per response.
    ...(messageAttributes
      ? { MessageAttributes: messageAttributes, MD5OfMessageAttributes: md5OfMessageAttributes(messageAttributes) }
      : {}),
  };
}

/** Applies MessageAttributeNames: exact names, `All`/`.*`, or `prefix.*`. */
function selectMessageAttributes(
  attributes: Record<string, WireAttributeValue> | undefined,
  names: string[],
): Record<string, WireAttributeValue> | undefined {
  if (!attributes || names.length === 0) return undefined;
  const wantsAll = names.includes('All') || names.includes('.*');
  const prefixes = names.filter((name) => name.endsWith('.*') && name !== '.*').map((name) => name.slice(0, -1));
  const selected: Record<string, WireAttributeValue> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (wantsAll || names.includes(name) || prefixes.some((prefix) => name.startsWith(prefix))) selected[name] = value;
  }
  return Object.keys(selected).length > 0 ? selected : undefined;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_REQUEST_BYTES) throw new SqsError('InvalidParameterValue', 'The request is too large.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

async function loadState(file: string): Promise<Queue[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let state: PersistedState;
  try {
    state = JSON.parse(text) as PersistedState;
    if (state.version !== 1 || !Array.isArray(state.queues)) throw new Error('unknown format');
  } catch (error) {
    // Keep the unreadable file for inspection rather than overwriting it on the next save.
    const aside = `${file}.unreadable-${Date.now()}`;
    await rename(file, aside);
    console.warn(`[sqs-server] ${file} could not be read (${(error as Error).message}); moved it to ${aside} and started empty.`);
    return [];
  }
  return state.queues.map((queue) => ({
    name: queue.name,
    createdTimestamp: queue.createdTimestamp,
    lastModifiedTimestamp: queue.lastModifiedTimestamp,
    attributes: queue.attributes,
    messages: new Map(queue.messages.map((message) => [message.messageId, message])),
    waiters: new Set(),
    deleted: false,
  }));
}

async function saveState(file: string, queues: Map<string, Queue>): Promise<void> {
  const state: PersistedState = {
    version: 1,
    queues: [...queues.values()].map((queue) => ({
      name: queue.name,
      createdTimestamp: queue.createdTimestamp,
      lastModifiedTimestamp: queue.lastModifiedTimestamp,
      attributes: queue.attributes,
      messages: [...queue.messages.values()],
    })),
  };
  await mkdir(dirname(file), { recursive: true });
  // Write then rename, so a crash mid-write never leaves a truncated file behind.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(state));
  await rename(temporary, file);
}
