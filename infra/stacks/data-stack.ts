/**
 * Everything that holds data and outlives code: the single table, the document bucket,
 * the queues with their dead-letter queues, the alarm topic, the key that seals URL
 * overrides' shared secrets, and the reference catalog seed. Stateful resources are
 * retained when the stack is deleted.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as pipes from 'aws-cdk-lib/aws-pipes';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../../shared/platform/table.js';
import type { FunctionBundles } from '../bundles.js';
import { ReferenceCatalogSeed } from '../constructs/reference-catalog-seed.js';
import type { DataResources } from '../constructs/service-function.js';
import { QUEUE_NAMES, QUEUES, TABLE_PIPES, type QueueName } from '../../shared/platform/queues.js';
import { pascal } from '../naming.js';

export interface DataStackProps extends StackProps {
  /** Subscribe this address to the alarm topic. */
  alarmEmail?: string;
  /** Write the reference catalog on deploy (default true). */
  seedReferenceCatalog?: boolean;
  bundles?: FunctionBundles;
}

export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly bucket: s3.Bucket;
  readonly queues: Record<QueueName, sqs.Queue>;
  readonly deadLetterQueues: Record<QueueName, sqs.Queue>;
  /** Every alarm of the service notifies this topic. */
  readonly alarmTopic: sns.Topic;
  /** URL_OVERRIDE_ENCRYPTION_KEY of shared/url-overrides/secrets.ts: 64 hex digits, 32 bytes. */
  readonly urlOverrideEncryptionKey: secretsmanager.Secret;
  /** SIGNATURE_VENDOR_SECRET of shared/platform/config.ts: 64 hex digits. */
  readonly signatureVendorSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: DataStackProps = {}) {
    super(scope, id, props);

    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Insurance admin service alarms', enforceSSL: true });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    const key = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: key(TABLE_KEYS.partition),
      sortKey: key(TABLE_KEYS.sort),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // The pipes below read new items from it (shared/platform/queues.ts TABLE_PIPES).
      stream: dynamodb.StreamViewType.NEW_IMAGE,
    });
    for (const index of GLOBAL_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: key(index.partition),
        sortKey: key(index.sort),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.bucket = new s3.Bucket(this, 'Documents', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(7) },
        { noncurrentVersionExpiration: Duration.days(90) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const queues = {} as Record<QueueName, sqs.Queue>;
    const deadLetterQueues = {} as Record<QueueName, sqs.Queue>;
    // Every queue and its dead-letter settings come from the one table (shared/platform/queues.ts).
    for (const name of QUEUE_NAMES) {
      const settings = QUEUES[name];
      const construct = pascal(name);
      const deadLetterQueue = new sqs.Queue(this, `${construct}DeadLetterQueue`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(settings.deadLetterRetentionDays),
      });
      queues[name] = new sqs.Queue(this, `${construct}Queue`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(settings.visibilityTimeoutSeconds),
        retentionPeriod: Duration.days(settings.retentionDays),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: settings.maxReceiveCount },
      });
      deadLetterQueues[name] = deadLetterQueue;
      new cloudwatch.Alarm(this, `${construct}DeadLetterAlarm`, {
        alarmDescription: `Messages of ${name} failed ${settings.maxReceiveCount} times and wait in its dead-letter queue`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new actions.SnsAction(this.alarmTopic));
    }
    this.queues = queues;
    this.deadLetterQueues = deadLetterQueues;

    // Items whose creation becomes a queue message (a deliverable request written in a move's
    // transaction): an EventBridge pipe per row of TABLE_PIPES reads the table's stream, keeps
    // the new items of its entity and sends `{"<attribute>": "<value>"}` to the queue. Nothing
    // the producer does after its commit can lose one; a record the pipe cannot send is retried
    // and then left in the queue's dead-letter queue (the item itself stays in the table).
    for (const pipe of TABLE_PIPES) {
      const construct = pascal(pipe.name);
      const role = new iam.Role(this, `${construct}PipeRole`, { assumedBy: new iam.ServicePrincipal('pipes.amazonaws.com') });
      this.table.grantStreamRead(role);
      queues[pipe.queue].grantSendMessages(role);
      deadLetterQueues[pipe.queue].grantSendMessages(role);
      new pipes.CfnPipe(this, `${construct}Pipe`, {
        description: `New ${pipe.entity} items of the table, to the ${pipe.queue} queue`,
        roleArn: role.roleArn,
        source: this.table.tableStreamArn!,
        sourceParameters: {
          dynamoDbStreamParameters: {
            startingPosition: 'TRIM_HORIZON',
            batchSize: 10,
            maximumRetryAttempts: QUEUES[pipe.queue].maxReceiveCount,
            deadLetterConfig: { arn: deadLetterQueues[pipe.queue].queueArn },
          },
          filterCriteria: { filters: [{ pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [pipe.entity] } } } }) }] },
        },
        target: queues[pipe.queue].queueArn,
        targetParameters: { inputTemplate: `{"${pipe.attribute}": "<$.dynamodb.NewImage.${pipe.attribute}.S>"}` },
      });
    }

    // Secrets Manager cannot generate base64 of random bytes, but it can generate hex: with
    // only digits and a-f allowed, 64 characters are 256 random bits. Retained and never
    // rotated: the shared secrets already sealed with it would become unreadable.
    this.urlOverrideEncryptionKey = new secretsmanager.Secret(this, 'UrlOverrideEncryptionKey', {
      description: 'Key sealing the shared secrets of URL overrides (insurance administration service)',
      generateSecretString: {
        passwordLength: 64,
        excludePunctuation: true,
        excludeUppercase: true,
        includeSpace: false,
        excludeCharacters: 'ghijklmnopqrstuvwxyz',
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // The built-in signature vendor signs its webhooks with it and the callback verifies them.
    // Replaceable: rotating it only invalidates webhooks and signing links not yet used.
    this.signatureVendorSecret = new secretsmanager.Secret(this, 'SignatureVendorSecret', {
      description: 'Webhook secret of the built-in signature vendor (insurance administration service)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, excludeUppercase: true, includeSpace: false, excludeCharacters: 'ghijklmnopqrstuvwxyz' },
    });

    if (props.seedReferenceCatalog ?? true) new ReferenceCatalogSeed(this, 'ReferenceCatalog', { data: this.data, bundles: props.bundles });

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
  }

  get data(): DataResources {
    return { table: this.table, bucket: this.bucket, queues: this.queues };
  }
}
