/**
 * Module-scope AWS SDK clients, created once per Lambda execution environment.
 * Endpoints come from the SDK's standard AWS_ENDPOINT_URL_<SERVICE> variables,
 * so the same code talks to AWS or to the embedded local servers.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';

let dynamo: DynamoDBDocumentClient | undefined;
/** The client under `dynamo`, whose middleware records its calls. */
let dynamoBase: DynamoDBClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

export type ServiceClient = DynamoDBClient | S3Client | SQSClient;
/**
 * Shared by every copy of this module in the process: a module a function loads on first use
 * (shared/platform/modules-on-first-use.ts) is bundled with its own copy of the platform, and its
 * clients must be traced by the hooks the function registered, as the function's own are.
 */
const clientHooks: Array<(client: ServiceClient) => void> = ((globalThis as Record<symbol, unknown>)[Symbol.for('insurance-admin.client-hooks')] ??= []) as Array<(client: ServiceClient) => void>;

/**
 * Called with each client as it is created, before its first call: a traced function's tracer
 * (shared/platform/tracing.ts) records the client's calls. Hooks registered after a client was
 * created are called with it at once.
 */
export function onClientCreated(hook: (client: ServiceClient) => void): void {
  clientHooks.push(hook);
  // Clients a copy of this module loaded on first use created are not here: none exists before the first call loads it.
  for (const client of [dynamoBase, s3, sqs]) if (client) hook(client);
}

function created<Client extends ServiceClient>(client: Client): Client {
  for (const hook of clientHooks) hook(client);
  return client;
}

/**
 * Consumed capacity of every DynamoDB call, summed; switched on by the benchmark
 * (MEASURE_DYNAMODB_CAPACITY=true) to report the cost of each operation call.
 */
export const capacityMeter = {
  readUnits: 0,
  writeUnits: 0,
  calls: 0,
  reset() {
    this.readUnits = 0;
    this.writeUnits = 0;
    this.calls = 0;
  },
};

type Capacity = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number };

function meterCapacity(client: DynamoDBClient) {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
      capacityMeter.calls += 1;
      for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        // DynamoDB Local reports only CapacityUnits for some calls: count it by the call's kind.
        if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
          capacityMeter.readUnits += entry.ReadCapacityUnits ?? 0;
          capacityMeter.writeUnits += entry.WriteCapacityUnits ?? 0;
        } else if (entry.CapacityUnits !== undefined) {
          const isWrite = /Put|Update|Delete|Write/.test(String(context.commandName ?? ''));
          if (isWrite) capacityMeter.writeUnits += entry.CapacityUnits;
          else capacityMeter.readUnits += entry.CapacityUnits;
        }
      }
      return result;
    },
    { step: 'initialize', name: 'meterConsumedCapacity' },
  );
}

export function documentClient(): DynamoDBDocumentClient {
  if (!dynamo) {
    const client = created(new DynamoDBClient({}));
    dynamoBase = client;
    if (process.env.MEASURE_DYNAMODB_CAPACITY === 'true') meterCapacity(client);
    dynamo = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
    });
  }
  return dynamo;
}

export function s3Client(): S3Client {
  s3 ??= created(new S3Client({ forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' }));
  return s3;
}

export function sqsClient(): SQSClient {
  sqs ??= created(new SQSClient({}));
  return sqs;
}
