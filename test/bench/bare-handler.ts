/**
 * The yardstick of `npm run bench`: a handler that only imports the DynamoDB client and
 * lib-dynamodb and does one GetCommand. It is bundled with the functions' recipe in the
 * same run, and every function's bundle size and cold import are reported against it.
 *
 * The client is created on first call, as shared/platform/clients.ts creates ours, so the
 * two imports compare the same work: loading code, not constructing clients.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

let client: DynamoDBDocumentClient | undefined;

export const handler = async (event: { id?: string }) => {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `BENCH#${event.id ?? ''}`, sk: 'BENCH' } }));
  return { statusCode: 200, body: JSON.stringify(Item ?? null) };
};
