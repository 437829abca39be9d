/**
 * The yardstick of a function that reads or writes the bucket (getAttachment, the lockbox
 * chunk consumer): the bare DynamoDB handler plus the S3 client, which such a function cannot
 * do without (about 140 KiB of the SDK). Against it, the bench shows what such a function
 * bundles beyond the clients it needs, as the bare handler shows it for the others.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

let client: DynamoDBDocumentClient | undefined;
let bucket: S3Client | undefined;

export const handler = async (event: { id?: string }) => {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  bucket ??= new S3Client({});
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `BENCH#${event.id ?? ''}`, sk: 'BENCH' } }));
  const object = await bucket.send(new GetObjectCommand({ Bucket: process.env.BUCKET_NAME, Key: `bench/${event.id ?? ''}` }));
  return { statusCode: 200, body: JSON.stringify({ item: Item ?? null, bytes: object.ContentLength ?? 0 }) };
};
