/**
 * The yardstick of a traced function that also uses the bucket (the lockbox chunk consumer):
 * the bare DynamoDB handler, the S3 client and the Powertools Tracer recording both clients.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { Tracer } from '@aws-lambda-powertools/tracer';

const tracer = new Tracer({ serviceName: 'bench', captureHTTPsRequests: false });
let client: DynamoDBDocumentClient | undefined;
let bucket: S3Client | undefined;

export const handler = async (event: { id?: string }) => {
  client ??= DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({})));
  bucket ??= tracer.captureAWSv3Client(new S3Client({}));
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `BENCH#${event.id ?? ''}`, sk: 'BENCH' } }));
  const object = await bucket.send(new GetObjectCommand({ Bucket: process.env.BUCKET_NAME, Key: `bench/${event.id ?? ''}` }));
  return { statusCode: 200, body: JSON.stringify({ item: Item ?? null, bytes: object.ContentLength ?? 0 }) };
};
