/**
 * Creates what the CDK app creates in AWS, against the embedded stores: the table,
 * the bucket and the queues; then loads the reference product and makes sure an
 * Administrator can call the API.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient, ResourceInUseException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, GetQueueUrlCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { seedReferenceCatalog } from '../../shared/catalog/index.js';
import { QUEUE_NAMES, QUEUES, queueUrlVariable } from '../../shared/platform/queues.js';
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../../shared/platform/table.js';
import { LOCAL_CREDENTIALS, LOCAL_REGION, type EmbeddedStores } from './stores.js';


// The same Administrator the deploy-time seed ensures in AWS (events/bootstrap/ensure-administrator.ts).
export { BOOTSTRAP_ADMINISTRATOR_ID, ensureAdministrator } from '../../shared/auth/index.js';
// Seals personal identifiers stored in clear before sealing existed; a no-op once it has run.
export { sealStoredIdentifiers } from '../../shared/contacts/seal-identifiers-migration.js';
// Writes the lockbox-due records of accounts written before them; a no-op once it has run.
export { backfillLockboxDues } from '../../shared/billing/lockbox-due-backfill.js';

/** The built-in vendor's webhook secret when none is given: new for each run of the process. */
const LOCAL_SIGNATURE_VENDOR_SECRET = randomBytes(32).toString('hex');

export interface LocalResourceNames {
  tableName: string;
  bucketName: string;
  /** Prefix of the queue names, so that parallel test runs do not share queues. */
  queuePrefix: string;
}

/** Points the AWS SDK and the functions' configuration at the embedded stores. */
export function applyLocalEnvironment(stores: EmbeddedStores, names: LocalResourceNames, apiBaseUrl: string): void {
  Object.assign(process.env, {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: stores.dynamodbEndpoint,
    AWS_ENDPOINT_URL_S3: stores.s3Endpoint,
    AWS_ENDPOINT_URL_SQS: stores.sqsEndpoint,
    S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: names.tableName,
    BUCKET_NAME: names.bucketName,
    JWT_ISSUER: apiBaseUrl,
    JWKS_URI: `${apiBaseUrl}/.well-known/jwks.json`,
    // The built-in signature vendor's pages and webhooks point at the local API.
    PUBLIC_BASE_URL: apiBaseUrl,
    SIGNATURE_VENDOR_SECRET: process.env.SIGNATURE_VENDOR_SECRET || LOCAL_SIGNATURE_VENDOR_SECRET,
  });
  delete process.env.AWS_PROFILE;
  delete process.env.COGNITO_USER_POOL_ID;
  for (const queue of QUEUE_NAMES) {
    process.env[queueUrlVariable(queue)] = `${stores.sqsEndpoint}/000000000000/${names.queuePrefix}${queue}`;
  }
}

export async function provisionResources(names: LocalResourceNames): Promise<void> {
  const dynamodb = new DynamoDBClient({});
  try {
    await dynamodb.send(
      new CreateTableCommand({
        TableName: names.tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: TABLE_KEYS.partition, AttributeType: 'S' },
          { AttributeName: TABLE_KEYS.sort, AttributeType: 'S' },
          ...GLOBAL_INDEXES.flatMap((index) => [
            { AttributeName: index.partition, AttributeType: 'S' as const },
            { AttributeName: index.sort, AttributeType: 'S' as const },
          ]),
        ],
        KeySchema: [
          { AttributeName: TABLE_KEYS.partition, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sort, KeyType: 'RANGE' },
        ],
        // No stream locally (in AWS the pipes of shared/platform/queues.ts read it): DynamoDB Local
        // looks its stream up on every write of a table that has one, which made every write
        // several times slower; infra/local/pipe-dispatchers.ts stands in for the pipe.
        GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partition, KeyType: 'HASH' as const },
            { AttributeName: index.sort, KeyType: 'RANGE' as const },
          ],
          Projection: { ProjectionType: 'ALL' as const },
        })),
      }),
    );
    await dynamodb.send(
      new UpdateTimeToLiveCommand({
        TableName: names.tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  } finally {
    dynamodb.destroy();
  }

  const s3 = new S3Client({ forcePathStyle: true });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: names.bucketName }));
  } catch (error) {
    const name = (error as Error).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  } finally {
    s3.destroy();
  }

  const sqs = new SQSClient({});
  try {
    // The same settings as the CDK app's queues (shared/platform/queues.ts).
    for (const queue of QUEUE_NAMES) {
      const settings = QUEUES[queue];
      const dlqUrl = await createOrUpdateQueue(sqs, `${names.queuePrefix}${queue}-dlq`, { MessageRetentionPeriod: String(settings.deadLetterRetentionDays * 86_400) });
      const dlqAttributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
      const QueueName = `${names.queuePrefix}${queue}`;
      const Attributes = {
        VisibilityTimeout: String(settings.visibilityTimeoutSeconds),
        MessageRetentionPeriod: String(settings.retentionDays * 86_400),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqAttributes.Attributes?.QueueArn, maxReceiveCount: settings.maxReceiveCount }),
      };
      await createOrUpdateQueue(sqs, QueueName, Attributes);
    }
  } finally {
    sqs.destroy();
  }
}

/** Creates a queue, or brings the attributes of one kept under .data/ by an earlier version up to date. */
async function createOrUpdateQueue(sqs: SQSClient, QueueName: string, Attributes: Record<string, string>): Promise<string> {
  try {
    return (await sqs.send(new CreateQueueCommand({ QueueName, Attributes }))).QueueUrl!;
  } catch (error) {
    if ((error as Error).name !== 'QueueNameExists') throw error;
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName }));
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes }));
    return QueueUrl!;
  }
}

export async function seedReferenceProduct(): Promise<void> {
  await seedReferenceCatalog();
}

export const newLocalResourceNames = (prefix = `t${randomUUID().slice(0, 8)}`): LocalResourceNames => ({
  tableName: `${prefix}-insurance-admin`,
  bucketName: `${prefix}-insurance-admin-files`.toLowerCase(),
  queuePrefix: `${prefix}-`,
});
