/**
 * The deliverable requests' records (records.ts `deliverableRequestRecord`): the part of the documents
 * store a policy's move needs. Kept apart from store.ts so that the functions moving policies
 * and money bundle neither the S3 client nor the renderer.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { getItem, isConditionalCheckFailure, queryPages } from '../platform/dynamo.js';
import type { TransactionWrite } from '../platform/transactions.js';
import type { DeliverableRequest } from './model.js';
import { deliverableRequestRecord } from './records.js';

/** The put of a new request (listed as pending on gsi2 until it is rendered), as one write of a move's transaction. */
export function deliverableRequestPut(request: DeliverableRequest): TransactionWrite {
  return deliverableRequestRecord.create(request);
}

export async function getDeliverableRequest(requestId: string): Promise<DeliverableRequest | undefined> {
  const item = await getItem(deliverableRequestRecord.key({ requestId }));
  return item ? deliverableRequestRecord.parse(item) : undefined;
}

/** Takes a rendered request out of the pending index; marking it twice changes nothing. */
export async function markDeliverableRequestRendered(requestId: string, renderedAt: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: config.tableName(),
        Key: deliverableRequestRecord.key({ requestId }),
        UpdateExpression: 'SET #state = :rendered, renderedAt = :at REMOVE gsi2pk, gsi2sk',
        ConditionExpression: 'attribute_exists(pk) AND #state <> :rendered',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':rendered': 'rendered', ':at': renderedAt },
      }),
    )
    .catch((error) => {
      if (!isConditionalCheckFailure(error)) throw error;
    });
}

/** Requests still waiting to be rendered, oldest first. */
export async function pendingDeliverableRequests(limit = 100): Promise<DeliverableRequest[]> {
  const pending: DeliverableRequest[] = [];
  for await (const page of queryPages(deliverableRequestRecord.query({}, { index: 'gsi2' }))) {
    for (const item of page.items) pending.push(deliverableRequestRecord.parse(item));
    if (pending.length >= limit) break;
  }
  return pending.slice(0, limit);
}
