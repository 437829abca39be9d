/**
 * The deliverable requests' records (keys.ts `deliverableRequestKey`): the part of the documents
 * store a policy's move needs. Kept apart from store.ts so that the functions moving policies
 * and money bundle neither the S3 client nor the renderer.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryPages } from '../platform/dynamo.js';
import { deliverableRequestKey, pendingRequestIndex, pendingRequestsQuery } from './keys.js';
import type { DeliverableRequest } from './model.js';

export const DELIVERABLE_REQUEST_ENTITY = 'DeliverableRequest';

const STORAGE_ATTRIBUTES = ['pk', 'sk', 'entity', 'gsi2pk', 'gsi2sk'] as const;

function withoutKeys(item: Record<string, unknown>): DeliverableRequest {
  const copy = { ...item };
  for (const attribute of STORAGE_ATTRIBUTES) delete copy[attribute];
  return copy as unknown as DeliverableRequest;
}

/** The put of a new request, as one write of a move's transaction. */
export function deliverableRequestPut(request: DeliverableRequest) {
  return {
    Put: {
      TableName: config.tableName(),
      Item: { ...deliverableRequestKey(request.requestId), entity: DELIVERABLE_REQUEST_ENTITY, ...pendingRequestIndex(request.requestedAt, request.requestId), ...request },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getDeliverableRequest(requestId: string): Promise<DeliverableRequest | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: deliverableRequestKey(requestId), ConsistentRead: true }));
  return found.Item ? withoutKeys(found.Item) : undefined;
}

/** Takes a rendered request out of the pending index; marking it twice changes nothing. */
export async function markDeliverableRequestRendered(requestId: string, renderedAt: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: config.tableName(),
        Key: deliverableRequestKey(requestId),
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
  for await (const page of queryPages(pendingRequestsQuery())) {
    for (const item of page.items) pending.push(withoutKeys(item));
    if (pending.length >= limit) break;
  }
  return pending.slice(0, limit);
}
