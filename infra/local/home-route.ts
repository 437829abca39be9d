/**
 * `GET /` on the local server: where to go next (the interactive docs, the OpenAPI
 * description), which version runs, and whether each embedded store answers, so that a
 * first visit in a browser or with curl is not a bare 404.
 */
import { readFileSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../shared/platform/config.js';
import { QUEUE_NAMES, queueUrlVariable } from '../../shared/platform/queues.js';
import type { LocalRoute } from './server.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

type Health = 'ok' | string;

/** 'ok', or what the store answered instead, in a few words. */
async function check(probe: () => Promise<unknown>): Promise<Health> {
  try {
    await Promise.race([probe(), new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 3 s')), 3000).unref())]);
    return 'ok';
  } catch (error) {
    return `failing: ${(error as Error).name === 'Error' ? (error as Error).message : (error as Error).name}`.slice(0, 120);
  }
}

export async function storesHealth(): Promise<Record<'table' | 'bucket' | 'queues', Health>> {
  const dynamodb = new DynamoDBClient({});
  const s3 = new S3Client({ forcePathStyle: true });
  const sqs = new SQSClient({});
  try {
    const [table, bucket, queues] = await Promise.all([
      check(() => dynamodb.send(new DescribeTableCommand({ TableName: config.tableName() }))),
      check(() => s3.send(new HeadBucketCommand({ Bucket: config.bucketName() }))),
      check(() => Promise.all(QUEUE_NAMES.map((queue) => sqs.send(new GetQueueAttributesCommand({ QueueUrl: process.env[queueUrlVariable(queue)], AttributeNames: ['QueueArn'] }))))),
    ]);
    return { table, bucket, queues };
  } finally {
    dynamodb.destroy();
    s3.destroy();
    sqs.destroy();
  }
}

export function homeRoutes(): LocalRoute[] {
  return [
    {
      method: 'GET',
      path: '/',
      handle: async () => {
        const stores = await storesHealth();
        const healthy = Object.values(stores).every((health) => health === 'ok');
        const body = {
          service: packageJson.name,
          version: packageJson.version,
          docs: '/docs',
          openapi: '/api/openapi.json',
          healthy,
          stores,
          release: process.env.RELEASE_TAG ?? `v${packageJson.version}-local`,
          operations: 'POST /api/v1/<module>/<operation> and POST /api/v2/<module>/<operation>, described in /docs',
        };
        return { statusCode: healthy ? 200 : 503, headers: { 'content-type': 'application/json' }, body: `${JSON.stringify(body)}\n` };
      },
    },
  ];
}
