/**
 * The whole service as CDK stacks, from the file trees: functions/ (operations) and
 * events/ (queue consumers, scheduled jobs). The trees are parameters so that tests can
 * build the service from fixture trees.
 *
 *   <prefix>-Data     table, bucket, queues + dead-letter queues + alarms, alarm topic, catalog seed,
 *                     URL override encryption key (secret)
 *   <prefix>-Auth     Cognito user pool, resource server, client-credentials client, domain;
 *                     bootstrap Administrator seed and its API key (secret)
 *   <prefix>-Api      HTTP API, stage, 5xx alarm; one nested stack per module (shard) of operations;
 *                     the site function serving /api/openapi.json and /docs; the signature vendor's signing page
 *   <prefix>-Workers  queue consumers and scheduled jobs (only when there are any)
 */
import type { App, Environment } from 'aws-cdk-lib';
import { FunctionBundles } from './bundles.js';
import { acknowledgeNagFindings } from './nag-acknowledgements.js';
import { ENSURE_ADMINISTRATOR_ENTRY } from './constructs/bootstrap-administrator.js';
import { SEED_ENTRY } from './constructs/reference-catalog-seed.js';
import { SIGNING_PAGE_ENTRY } from './constructs/signing-page.js';
import { buildOpenApiDocument } from './openapi.js';
import { FUNCTIONS_DIR, listOperationRoutes } from './routes.js';
import { loadOperations, type OperationSpec } from './operations.js';
import { ApiStack } from './stacks/api-stack.js';
import { AuthStack } from './stacks/auth-stack.js';
import { DataStack } from './stacks/data-stack.js';
import { WorkersStack } from './stacks/workers-stack.js';
import { EVENTS_DIR, loadQueueConsumers, loadScheduledJobs, type QueueConsumerSpec, type ScheduledJobSpec } from './workers.js';

export interface ServiceOptions {
  functionsDir?: string;
  eventsDir?: string;
  /** Stack name prefix (default `InsuranceAdmin`). */
  prefix?: string;
  env?: Environment;
  alarmEmail?: string;
  cognitoDomainPrefix?: string;
  seedReferenceCatalog?: boolean;
  /** Ensure the bootstrap Administrator, its API key and the service client on deploy (default true). */
  bootstrapAdministrator?: boolean;
  /** Bundle all functions in one esbuild run (default true); false leaves it to each NodejsFunction. */
  bundleTogether?: boolean;
}

export interface Service {
  data: DataStack;
  auth: AuthStack;
  api: ApiStack;
  workers?: WorkersStack;
  operations: OperationSpec[];
  consumers: QueueConsumerSpec[];
  jobs: ScheduledJobSpec[];
}

export async function defineService(app: App, options: ServiceOptions = {}): Promise<Service> {
  const prefix = options.prefix ?? 'InsuranceAdmin';
  const env = options.env;
  const [operations, consumers, jobs] = await Promise.all([
    loadOperations(options.functionsDir ?? FUNCTIONS_DIR),
    loadQueueConsumers(options.eventsDir ?? EVENTS_DIR),
    loadScheduledJobs(options.eventsDir ?? EVENTS_DIR),
  ]);

  const seedReferenceCatalog = options.seedReferenceCatalog ?? true;
  const bootstrapAdministrator = options.bootstrapAdministrator ?? true;
  const bundles =
    options.bundleTogether ?? true
      ? new FunctionBundles([
          ...operations.map((operation) => operation.entry),
          ...consumers.map((consumer) => consumer.entry),
          ...jobs.map((job) => job.entry),
          ...(seedReferenceCatalog ? [SEED_ENTRY] : []),
          ...(bootstrapAdministrator ? [ENSURE_ADMINISTRATOR_ENTRY] : []),
          SIGNING_PAGE_ENTRY,
        ])
      : undefined;

  const data = new DataStack(app, `${prefix}-Data`, {
    env,
    description: 'Insurance administration service: table, documents bucket, queues',
    alarmEmail: options.alarmEmail,
    seedReferenceCatalog,
    bundles,
  });
  const auth = new AuthStack(app, `${prefix}-Auth`, {
    env,
    description: 'Insurance administration service: Cognito user pool for OAuth clients, bootstrap Administrator',
    domainPrefix: options.cognitoDomainPrefix,
    ...(bootstrapAdministrator ? { data: data.data, bundles } : {}),
  });
  const api = new ApiStack(app, `${prefix}-Api`, {
    env,
    description: 'Insurance administration service: HTTP API and one function per operation',
    data: data.data,
    userPool: auth.userPool,
    alarmTopic: data.alarmTopic,
    deadLetterQueues: data.deadLetterQueues,
    operations,
    bundles,
    urlOverrideEncryptionKey: data.urlOverrideEncryptionKey,
    signatureVendorSecret: data.signatureVendorSecret,
  });
  // Generating the document imports every operation module again and converts its schema:
  // done only when the site's bundle is built (synth, deploy), not for template tests.
  api.addApiDocs(api.bundlingRequired ? await buildOpenApiDocument(listOperationRoutes(options.functionsDir ?? FUNCTIONS_DIR)) : undefined);
  const workers =
    consumers.length + jobs.length > 0
      ? new WorkersStack(app, `${prefix}-Workers`, {
          env,
          description: 'Insurance administration service: queue consumers and scheduled jobs',
          data: data.data,
          alarmTopic: data.alarmTopic,
          consumers,
          jobs,
          bundles,
          dataKey: data.urlOverrideEncryptionKey,
        })
      : undefined;

  const service = { data, auth, api, workers, operations, consumers, jobs };
  acknowledgeNagFindings(service);
  return service;
}
