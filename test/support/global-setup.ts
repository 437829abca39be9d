/**
 * One set of embedded stores (DynamoDB Local, s3rver, the SQS server) for the
 * whole run, in memory; each test file provisions its own table, bucket and
 * queues in them, so files never see each other's data.
 */
import type { TestProject } from 'vitest/node';
import { startEmbeddedStores } from '../../infra/local/stores.js';
import { missingNeeds } from './needs.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stores: { dynamodbEndpoint: string; s3Endpoint: string; sqsEndpoint: string };
  }
}

export default async function setup(project: TestProject) {
  const missing = missingNeeds(project.name);
  if (missing) {
    // One line, not a stack trace or vitest's "no test files found": what is missing is the whole story.
    console.error(missing);
    process.exit(1);
  }
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const stores = await startEmbeddedStores();
  project.provide('stores', {
    dynamodbEndpoint: stores.dynamodbEndpoint,
    s3Endpoint: stores.s3Endpoint,
    sqsEndpoint: stores.sqsEndpoint,
  });
  return async () => {
    await stores.stop();
  };
}
