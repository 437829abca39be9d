/**
 * The house construct for every Lambda function of the service: operations behind the
 * HTTP API, queue consumers, scheduled jobs and the bootstrap seed all use it, so they
 * share one runtime, one bundling recipe and one way of granting access.
 *
 * - nodejs22.x on ARM64, 512 MB, a log group kept one month;
 * - esbuild: minified ESM with source maps, the AWS SDK bundled (tree-shaken, no layer),
 *   a banner that defines `require` for CommonJS dependencies inside the ESM bundle
 *   (infra/bundles.ts: BUNDLING, and one esbuild run for all functions);
 * - least privilege: the table, the bucket and the queues are granted exactly as the
 *   function's declared `resources` say, and their names reach the function's environment
 *   only when it may use them.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack, Tags } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { apiKeyPartitionPattern } from '../../shared/auth/index.js';
import type { ResourceAccess } from '../../shared/platform/operation.js';
import { OPERATION_TIMEOUT_SECONDS } from '../../shared/platform/invocation.js';
import { TABLE_KEYS } from '../../shared/platform/table.js';
import { BUNDLING, type FunctionBundles } from '../bundles.js';
import { FUNCTION_CLASS_TAG, type FunctionClass } from './service-monitoring.js';
import { queueUrlVariable, type QueueName } from '../../shared/platform/queues.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const SERVICE_NAME = 'insurance-admin';

/** The shared data resources a function may be granted. */
export interface DataResources {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  queues: Record<QueueName, sqs.IQueue>;
}

/** Reads only: no Scan (docs/data-model.md: no request path scans the table). */
export const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
/** Transactions need no actions of their own: TransactWriteItems checks these per item. */
export const TABLE_WRITE_ACTIONS = [
  ...TABLE_READ_ACTIONS,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/** The one attribute authentication writes on an API key record (shared/auth/store.ts recordApiKeyUse). */
export const API_KEY_USE_ATTRIBUTE = 'lastUsedAt';

// `SIGNATURE_EVENTS_QUEUE_URL` for `signature-events`, as shared/platform/config.ts reads it.
export { queueUrlVariable } from '../../shared/platform/queues.js';

export interface ServiceFunctionProps {
  /** Absolute path of the TypeScript entry file; it exports `handler`. */
  entry: string;
  description: string;
  data: DataResources;
  /** What the function touches, as its file declares it. */
  resources: ResourceAccess;
  /**
   * The function authenticates callers (the operation factory does for every operation
   * but `authentication: 'none'` ones): it reads API keys, sessions, contacts and roles,
   * and stamps an API key's `lastUsedAt`. Grants table read at least, plus that one update.
   */
  authenticates?: boolean;
  /** @default OPERATION_TIMEOUT_SECONDS (29), within API Gateway's integration limit; an Idempotency-Key's in-progress mark lapses with it */
  timeout?: Duration;
  /** @default 512 */
  memorySize?: number;
  environment?: Record<string, string>;
  /** Prebuilt bundles of all functions; without them NodejsFunction bundles this one alone. */
  bundles?: FunctionBundles;
  /** Its class for alarms, dashboard and throttling (tag FunctionClass; infra/constructs/service-monitoring.ts). */
  functionClass: FunctionClass;
  /**
   * Its handler records X-Ray segments (shared/platform/tracing.ts): active tracing on, which
   * also grants the role xray:PutTraceSegments. Only traced handlers: tracing a function that
   * records nothing costs a segment per invocation and tells only its duration.
   */
  traced?: boolean;
  /**
   * Builds this function's own asset directory (`index.mjs` exporting `handler`, plus any
   * files it reads); called only when the stack is bundled. Takes precedence over `bundles`.
   */
  assetDirectory?: () => string;
}

export class ServiceFunction extends Construct {
  readonly function: nodejs.NodejsFunction;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { data, resources } = props;

    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH });

    const tableAccess = resources.table ?? (props.authenticates ? 'read' : undefined);
    // No --enable-source-maps: it parses the source map at every cold start (8 to 15 ms of CPU per
    // import, README "Cold starts"); the map ships beside index.mjs and a logged fault's stack is
    // mapped from it then (shared/platform/stack-traces.ts).
    const environment: Record<string, string> = {
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      ...releaseEnvironment(this),
    };
    if (tableAccess) environment.TABLE_NAME = data.table.tableName;
    if (resources.bucket) environment.BUCKET_NAME = data.bucket.bucketName;
    for (const queue of resources.queues ?? []) environment[queueUrlVariable(queue)] = data.queues[queue].queueUrl;
    Object.assign(environment, props.environment);

    // One esbuild run for all functions when the app provides it (see infra/bundles.ts).
    const prebuilt = props.assetDirectory ?? (props.bundles ? () => props.bundles!.directoryFor(props.entry) : undefined);
    const code = prebuilt && Stack.of(this).bundlingRequired ? lambda.Code.fromAsset(prebuilt()) : undefined;
    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(OPERATION_TIMEOUT_SECONDS),
      logGroup: this.logGroup,
      environment,
      ...(props.traced ? { tracing: lambda.Tracing.ACTIVE } : {}),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: { ...BUNDLING, mainFields: [...BUNDLING.mainFields], externalModules: [] },
      ...(code ? { code, handler: 'index.handler' } : {}),
    });

    Tags.of(this.function).add(FUNCTION_CLASS_TAG, props.functionClass);

    if (tableAccess === 'write') data.table.grant(this.function, ...TABLE_WRITE_ACTIONS);
    else if (tableAccess === 'read') data.table.grant(this.function, ...TABLE_READ_ACTIONS);
    if (props.authenticates && tableAccess !== 'write') {
      this.function.addToRolePolicy(apiKeyUseStatement(data.table));
    }
    if (resources.bucket === 'write') data.bucket.grantReadWrite(this.function);
    else if (resources.bucket === 'read') data.bucket.grantRead(this.function);
    for (const queue of resources.queues ?? []) data.queues[queue].grantSendMessages(this.function);
  }
}

/**
 * Authentication stamps `lastUsedAt` on the API key it accepted, at most once a minute.
 * Rather than full write access for every read-only operation, this grants UpdateItem
 * only on items whose partition key is an API key's (`APIKEY#...`), and only touching the
 * key attributes and `lastUsedAt`: such a function cannot revoke, re-own or create a key.
 */
export function apiKeyUseStatement(table: dynamodb.ITable): iam.PolicyStatement {
  return new iam.PolicyStatement({
    sid: 'StampApiKeyLastUse',
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [apiKeyPartitionPattern()] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [TABLE_KEYS.partition, TABLE_KEYS.sort, API_KEY_USE_ATTRIBUTE] },
    },
  });
}

/** RELEASE_TAG / RELEASE_TIMESTAMP from context (`-c releaseTag=...`) or the environment; absent when neither is set. */
function releaseEnvironment(scope: Construct): Record<string, string> {
  const environment: Record<string, string> = {};
  const tag = scope.node.tryGetContext('releaseTag') ?? process.env.RELEASE_TAG;
  const timestamp = scope.node.tryGetContext('releaseTimestamp') ?? process.env.RELEASE_TIMESTAMP;
  if (tag) environment.RELEASE_TAG = String(tag);
  if (timestamp) environment.RELEASE_TIMESTAMP = String(timestamp);
  return environment;
}
