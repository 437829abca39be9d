/**
 * A small SQS server for laptops and tests: the HTTP and long-poll layer. It speaks the AWS
 * JSON 1.0 protocol that current `@aws-sdk/client-sqs` uses (sqs/protocol.ts) over the queue
 * engine (sqs/engine.ts), keeping queues in a JSON file between runs when given one
 * (sqs/persistence.ts). It checks no signatures: any region and credentials are accepted.
 *
 * Only the actions the service and its tests use are served: CreateQueue, GetQueueUrl,
 * ListQueues, GetQueueAttributes, SetQueueAttributes, SendMessage, SendMessageBatch,
 * ReceiveMessage (with long polling), DeleteMessage, DeleteMessageBatch and
 * ChangeMessageVisibility. Left out: FIFO queues, permissions and tags, purging and deleting
 * queues, message move tasks, KMS.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueueEngine, type StoredMessage } from './sqs/engine.js';
import { loadState, persistTo } from './sqs/persistence.js';
import {
  COMPUTED_ATTRIBUTES,
  entryList,
  errorAnswer,
  JSON_CONTENT_TYPE,
  md5OfMessageAttributes,
  normalizeAttributes,
  optionalInteger,
  optionalString,
  optionalStringList,
  optionalStringMap,
  QUEUE_NAME,
  queueNameFromUrl,
  queueUrl,
  readMessageAttributes,
  readTraceHeader,
  renderMessage,
  requiredString,
  SETTABLE_ATTRIBUTES,
  SqsError,
  type Json,
} from './sqs/protocol.js';

export { md5OfMessageAttributes, queueArn } from './sqs/protocol.js';

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

const MAX_REQUEST_BYTES = 2 * 1024 * 1024;

type Operation = (input: Json, gone: AbortSignal, baseUrl: string) => unknown;

/** The answer of a stored message to its send: its id and digests. */
function sent(message: StoredMessage): Json {
  return {
    MessageId: message.messageId,
    MD5OfMessageBody: message.md5OfBody,
    ...(message.messageAttributes ? { MD5OfMessageAttributes: md5OfMessageAttributes(message.messageAttributes) } : {}),
    ...(message.awsTraceHeader ? { MD5OfMessageSystemAttributes: md5OfMessageAttributes({ AWSTraceHeader: { DataType: 'String', StringValue: message.awsTraceHeader } }) } : {}),
  };
}

/** A message of a SendMessage body or a batch entry, read off the wire. */
function messageOf(input: Json) {
  const awsTraceHeader = readTraceHeader(input);
  const messageAttributes = readMessageAttributes(input);
  const delaySeconds = optionalInteger(input, 'DelaySeconds', 0, 900);
  return { body: optionalString(input, 'MessageBody') ?? '', ...(messageAttributes ? { messageAttributes } : {}), ...(awsTraceHeader ? { awsTraceHeader } : {}), ...(delaySeconds !== undefined ? { delaySeconds } : {}) };
}

/** The operations served, each from its wire input to the engine and back. */
function operations(engine: QueueEngine, longPoll: (name: string, waitSeconds: number, gone: AbortSignal, take: () => StoredMessage[]) => Promise<StoredMessage[]>): Record<string, Operation> {
  const nameOf = (input: Json) => {
    const name = queueNameFromUrl(requiredString(input, 'QueueUrl'));
    if (name === undefined || !engine.has(name)) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
    return name;
  };
  const perEntry = (entries: Json[], work: (entry: Json) => Json | void) => {
    const successful: Json[] = [];
    const failed: Json[] = [];
    for (const entry of entries) {
      try {
        successful.push({ Id: entry.Id, ...(work(entry) ?? {}) });
      } catch (error) {
        if (!(error instanceof SqsError)) throw error;
        failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
      }
    }
    return { Successful: successful, Failed: failed };
  };
  return {
    CreateQueue: (input, _gone, baseUrl) => {
      const name = requiredString(input, 'QueueName');
      if (name.endsWith('.fifo')) throw new SqsError('UnsupportedOperation', 'This local SQS server supports standard queues only, not FIFO queues.');
      if (!QUEUE_NAME.test(name)) throw new SqsError('InvalidParameterValue', 'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length');
      engine.createQueue(name, normalizeAttributes(optionalStringMap(input, 'Attributes')));
      return { QueueUrl: queueUrl(baseUrl, name) };
    },
    GetQueueUrl: (input, _gone, baseUrl) => {
      const name = requiredString(input, 'QueueName');
      if (!engine.has(name)) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
      return { QueueUrl: queueUrl(baseUrl, name) };
    },
    ListQueues: (input, _gone, baseUrl) => {
      const prefix = optionalString(input, 'QueueNamePrefix') ?? '';
      const maxResults = optionalInteger(input, 'MaxResults', 1, 1000);
      const token = optionalString(input, 'NextToken');
      const names = engine.names().filter((name) => name.startsWith(prefix)).sort();
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
    GetQueueAttributes: (input) => {
      const name = nameOf(input);
      const requested = optionalStringList(input, 'AttributeNames');
      if (requested.length === 0) return {};
      const all = engine.describe(name);
      const names = requested.includes('All') ? Object.keys(all) : requested;
      const attributes: Record<string, string> = {};
      for (const attribute of names) {
        const known = attribute in SETTABLE_ATTRIBUTES || (COMPUTED_ATTRIBUTES as readonly string[]).includes(attribute);
        if (!known) throw new SqsError('InvalidAttributeName', `Unknown Attribute ${attribute}.`);
        if (all[attribute] !== undefined) attributes[attribute] = all[attribute];
      }
      return { Attributes: attributes };
    },
    SetQueueAttributes: (input) => {
      engine.setAttributes(nameOf(input), normalizeAttributes(optionalStringMap(input, 'Attributes')));
      return {};
    },
    SendMessage: (input) => {
      if (!optionalString(input, 'MessageBody')) throw new SqsError('MissingParameter', 'The request must contain the parameter MessageBody.');
      return sent(engine.send(nameOf(input), messageOf(input)));
    },
    SendMessageBatch: (input) => {
      const name = nameOf(input);
      const entries = entryList(input);
      const totalBytes = entries.reduce((sum, entry) => sum + Buffer.byteLength(typeof entry.MessageBody === 'string' ? entry.MessageBody : ''), 0);
      const maxSize = engine.numericAttribute(name, 'MaximumMessageSize');
      if (totalBytes > maxSize) throw new SqsError('BatchRequestTooLong', `Batch requests cannot be longer than ${maxSize} bytes.`);
      // Entries whose wire form is wrong fail alone; the others are stored together, each answering its message or its error.
      const read = entries.map((entry) => {
        try {
          return messageOf(entry);
        } catch (error) {
          if (error instanceof SqsError) return error;
          throw error;
        }
      });
      const stored = engine.sendBatch(name, read.filter((message): message is ReturnType<typeof messageOf> => !(message instanceof SqsError)));
      const outcomes = read.map((message) => (message instanceof SqsError ? message : stored.shift()!));
      return perEntry(entries, (entry) => {
        const outcome = outcomes[entries.indexOf(entry)];
        if (outcome instanceof SqsError) throw outcome;
        return sent(outcome);
      });
    },
    ReceiveMessage: async (input, gone) => {
      const name = nameOf(input);
      const max = optionalInteger(input, 'MaxNumberOfMessages', 1, 10) ?? 1;
      const visibilityTimeoutSeconds = optionalInteger(input, 'VisibilityTimeout', 0, 43_200);
      const waitSeconds = optionalInteger(input, 'WaitTimeSeconds', 0, 20) ?? engine.numericAttribute(name, 'ReceiveMessageWaitTimeSeconds');
      const systemNames = new Set([...optionalStringList(input, 'AttributeNames'), ...optionalStringList(input, 'MessageSystemAttributeNames')]);
      const attributeNames = optionalStringList(input, 'MessageAttributeNames');
      const taken = await longPoll(name, waitSeconds, gone, () => engine.take(name, { max, ...(visibilityTimeoutSeconds !== undefined ? { visibilityTimeoutSeconds } : {}) }));
      return taken.length ? { Messages: taken.map((message) => renderMessage(message, systemNames, attributeNames)) } : {};
    },
    DeleteMessage: (input) => {
      engine.deleteByHandle(nameOf(input), requiredString(input, 'ReceiptHandle'));
      return {};
    },
    DeleteMessageBatch: (input) => {
      const name = nameOf(input);
      return perEntry(entryList(input), (entry) => engine.deleteByHandle(name, requiredString(entry, 'ReceiptHandle')));
    },
    ChangeMessageVisibility: (input) => {
      const name = nameOf(input);
      const handle = requiredString(input, 'ReceiptHandle');
      const timeout = optionalInteger(input, 'VisibilityTimeout', 0, 43_200);
      if (timeout === undefined) throw new SqsError('MissingParameter', 'The request must contain the parameter VisibilityTimeout.');
      engine.changeVisibility(name, handle, timeout);
      return {};
    },
  };
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

export async function startSqsServer(options: SqsServerOptions = {}): Promise<SqsServer> {
  const host = options.host ?? '127.0.0.1';
  const engine = new QueueEngine();
  if (options.dataFile) engine.restore(await loadState(options.dataFile));
  const saver = options.dataFile ? persistTo(options.dataFile, engine) : undefined;
  const shutdown = new AbortController();
  // Every long poll in flight listens for shutdown: one per poller, and a local run has more than Node's default warning count of 10.
  setMaxListeners(0, shutdown.signal);
  const inflightRequests = new Set<Promise<void>>();
  let closing = false;

  /**
   * Takes messages now, or waits until the queue changes, a hidden message becomes visible, the
   * wait ends, or the caller goes away, and tries again: a long poll answers as soon as it can.
   */
  const longPoll = async (name: string, waitSeconds: number, gone: AbortSignal, take: () => StoredMessage[]) => {
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      if (gone.aborted || !engine.has(name)) return [];
      const taken = take();
      if (taken.length > 0) return taken;
      const now = Date.now();
      if (now >= deadline) return [];
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          stopWaiting();
          gone.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, Math.min(deadline, engine.nextVisibleAt(name)) - now));
        const stopWaiting = engine.onceChanged(name, done);
        gone.addEventListener('abort', done, { once: true });
      });
    }
  };
  const served = operations(engine, longPoll);

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID();
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (response.writableEnded || response.destroyed) return;
      const payload = JSON.stringify(body);
      response.writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(payload), 'x-amzn-RequestId': requestId, ...headers });
      response.end(payload);
    };
    try {
      if (request.method === 'GET' && (request.url === '/' || request.url === '/health')) {
        // Lets start-up scripts and humans check the server is up without an SDK.
        send(200, { status: 'ok', queues: engine.names().length });
        return;
      }
      if (closing) throw new SqsError('ServiceUnavailable', 'The server is shutting down.');
      const target = request.headers['x-amz-target'];
      if (request.method !== 'POST' || typeof target !== 'string' || !target.startsWith('AmazonSQS.')) {
        throw new SqsError('UnsupportedOperation', 'Only the AWS JSON 1.0 protocol is supported: POST with X-Amz-Target: AmazonSQS.<Operation>.');
      }
      const operation = served[target.slice('AmazonSQS.'.length)];
      if (!operation) throw new SqsError('UnsupportedOperation', `Operation ${target} is not supported by this local server.`);
      const raw = await readBody(request);
      let input: unknown;
      try {
        input = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
      } catch {
        throw new SqsError('SerializationException', 'The request body is not valid JSON.');
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new SqsError('SerializationException', 'The request body must be a JSON object.');
      // A long poll must stop when its caller disconnects (so it does not take messages nobody
      // will see) and when the server shuts down (so close() does not hang).
      const gone = new AbortController();
      const abortGone = () => gone.abort();
      response.once('close', abortGone);
      shutdown.signal.addEventListener('abort', abortGone, { once: true });
      try {
        send(200, (await operation(input as Json, gone.signal, baseUrlOf(request))) ?? {});
      } finally {
        shutdown.signal.removeEventListener('abort', abortGone);
      }
    } catch (error) {
      if (error instanceof SqsError) {
        const answer = errorAnswer(error);
        send(answer.status, answer.body, answer.headers);
      } else {
        console.error('[sqs-server] internal error:', error);
        send(500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Internal error.' }, { 'x-amzn-query-error': 'InternalError;Receiver' });
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
      await Promise.race([Promise.allSettled([...inflightRequests]), new Promise<void>((resolve) => (grace = setTimeout(resolve, 1000)))]);
      clearTimeout(grace);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      saver?.stop();
      await saver?.flush();
    })();
    return closed;
  };
  return { endpoint, port, close };
}
