/**
 * The wire protocol of the local SQS server: the AWS JSON 1.0 protocol that current
 * `@aws-sdk/client-sqs` speaks (`POST /`, `X-Amz-Target: AmazonSQS.<Operation>`). Reading
 * and checking request fields, the error identities the SDK maps to its exception classes,
 * message attribute digests, queue URLs and ARNs, and the shape of a received message.
 * No state and no network: the queue engine (engine.ts) keeps the queues.
 */
import { createHash, randomUUID } from 'node:crypto';

export const ACCOUNT_ID = '000000000000';
export const REGION = 'us-east-1';
export const JSON_CONTENT_TYPE = 'application/x-amz-json-1.0';
export const MAX_BATCH_ENTRIES = 10;
export const QUEUE_NAME = /^[A-Za-z0-9_-]{1,80}$/;

// ---------------------------------------------------------------------------
// Errors

/** Wire identity of an error: the `__type` shape name, the query-compatible code and status. */
export interface ErrorKind {
  shape: string;
  queryCode: string;
  status: number;
}

/**
 * Codes and statuses as the SDK's error model declares them (its `awsQueryError` traits):
 * with query compatibility on, the SDK picks the exception class from the
 * `x-amzn-query-error` code, so that code must be the one the model lists.
 */
export const ERRORS = {
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

export type ErrorCode = keyof typeof ERRORS;

export class SqsError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The answer an error makes on the wire: status, body and the query-compatible code header. */
export function errorAnswer(error: SqsError): { status: number; body: Json; headers: Record<string, string> } {
  const kind: ErrorKind = ERRORS[error.code];
  return {
    status: kind.status,
    body: { __type: `com.amazonaws.sqs#${kind.shape}`, message: error.message },
    headers: { 'x-amzn-query-error': `${kind.queryCode};${kind.status >= 500 ? 'Receiver' : 'Sender'}` },
  };
}

// ---------------------------------------------------------------------------
// Messages and queue attributes on the wire

/** Message attribute values exactly as they travel in JSON (binary as base64). */
export interface WireAttributeValue {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
}

export const DEFAULT_ATTRIBUTES: Readonly<Record<string, string>> = {
  VisibilityTimeout: '30',
  MessageRetentionPeriod: '345600',
  MaximumMessageSize: '262144',
  DelaySeconds: '0',
  ReceiveMessageWaitTimeSeconds: '0',
  SqsManagedSseEnabled: 'true',
};

/** Attributes a caller may set, with the range AWS accepts for the numeric ones. */
export const SETTABLE_ATTRIBUTES: Readonly<Record<string, { min: number; max: number } | 'json' | 'string'>> = {
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

export const COMPUTED_ATTRIBUTES = [
  'QueueArn',
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
  'CreatedTimestamp',
  'LastModifiedTimestamp',
] as const;


export const MESSAGE_SYSTEM_ATTRIBUTES = [
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

export function queueUrl(baseUrl: string, name: string): string {
  return `${baseUrl}/${ACCOUNT_ID}/${name}`;
}

/** Accepts a full queue URL (any host or account) or, leniently, a bare queue name. */
export function queueNameFromUrl(queueUrl: string): string | undefined {
  let path = queueUrl;
  try {
    path = new URL(queueUrl).pathname;
  } catch {
    // Not a URL: treat it as a path or a name.
  }
  const name = path.split('/').filter(Boolean).at(-1);
  return name && QUEUE_NAME.test(name) ? name : undefined;
}

export function md5Hex(data: string | Buffer): string {
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

export type Json = Record<string, unknown>;

export function optionalString(input: Json, field: string): string | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SqsError('InvalidParameterValue', `${field} must be a string.`);
  return value;
}

export function requiredString(input: Json, field: string): string {
  const value = optionalString(input, field);
  if (value === undefined || value === '') {
    throw new SqsError('MissingParameter', `The request must contain the parameter ${field}.`);
  }
  return value;
}

export function optionalInteger(input: Json, field: string, min: number, max: number): number | undefined {
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

export function optionalStringList(input: Json, field: string): string[] {
  const value = input[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new SqsError('InvalidParameterValue', `${field} must be a list of strings.`);
  }
  return value as string[];
}

export function optionalStringMap(input: Json, field: string): Record<string, string> {
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

export function entryList(input: Json): Json[] {
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
// Validation of message contents

/** The characters SQS accepts in bodies and string attributes (XML 1.0 characters). */
export function hasOnlyAllowedCharacters(text: string): boolean {
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

export function readMessageAttributes(input: Json): Record<string, WireAttributeValue> | undefined {
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

export function attributesSize(attributes: Record<string, WireAttributeValue> | undefined): number {
  let size = 0;
  for (const [name, value] of Object.entries(attributes ?? {})) {
    size += Buffer.byteLength(name) + Buffer.byteLength(value.DataType);
    size += value.BinaryValue !== undefined ? Buffer.from(value.BinaryValue, 'base64').length : Buffer.byteLength(value.StringValue ?? '');
  }
  return size;
}

export function readTraceHeader(input: Json): string | undefined {
  const raw = input.MessageSystemAttributes;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const header = (raw as Json).AWSTraceHeader;
  if (typeof header !== 'object' || header === null) return undefined;
  const value = (header as Json).StringValue;
  return typeof value === 'string' ? value : undefined;
}

// ---------------------------------------------------------------------------
// Queue attributes

export interface RedrivePolicy {
  deadLetterTargetArn: string;
  maxReceiveCount: number;
}

export function parseRedrivePolicy(text: string): RedrivePolicy {
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
export function normalizeAttributes(attributes: Record<string, string>): Record<string, string> {
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
export function newReceiptHandle(queueName: string, messageId: string): string {
  return Buffer.from(`${queueName}\n${messageId}\n${randomUUID()}`, 'utf8').toString('base64url');
}

export function parseReceiptHandle(handle: string): { messageId: string } {
  const invalid = () => new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${handle}" is not a valid receipt handle.`);
  if (!/^[A-Za-z0-9_-]+$/.test(handle)) throw invalid();
  const parts = Buffer.from(handle, 'base64url').toString('utf8').split('\n');
  if (parts.length !== 3 || parts.some((part) => part === '')) throw invalid();
  return { messageId: parts[1]! };
}

// ---------------------------------------------------------------------------
// A received message as the SDK reads it

/** What a received message carries, as the engine hands it over. */
export interface ReceivedMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  messageAttributes?: Record<string, WireAttributeValue>;
  awsTraceHeader?: string;
  deadLetterQueueSourceArn?: string;
  sentTimestamp: number;
  receiveCount: number;
  firstReceiveTimestamp?: number;
  receiptHandle?: string;
}

export function renderMessage(message: ReceivedMessage, systemNames: Set<string>, attributeNames: string[]): Json {
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

