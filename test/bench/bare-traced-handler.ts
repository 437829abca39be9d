/**
 * The yardstick of a traced function (the money paths, shared/platform/tracing.ts): the bare
 * DynamoDB handler plus the Powertools Tracer recording its client's calls. The X-Ray SDK under
 * the tracer is about 125 KiB and 20 ms of a cold start, a price the money paths pay on purpose;
 * against this handler the bench shows what such a function bundles beyond it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { Tracer } from '@aws-lambda-powertools/tracer';

const tracer = new Tracer({ serviceName: 'bench', captureHTTPsRequests: false });
let client: DynamoDBDocumentClient | undefined;

export const handler = async (event: { id?: string }) => {
  client ??= DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({})));
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `BENCH#${event.id ?? ''}`, sk: 'BENCH' } }));
  return { statusCode: 200, body: JSON.stringify(Item ?? null) };
};
