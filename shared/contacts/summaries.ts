/**
 * Names and types of contacts, for other areas that show who is on a record
 * (policy contacts, named insureds). One BatchGet per 100 contacts.
 */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { contactKey } from './keys.js';

export interface ContactSummary {
  id: string;
  name: string;
  type: 'individual' | 'organization';
  roleIds: string[];
  agencyIds: string[];
}

export async function getContactSummaries(contactIds: readonly string[]): Promise<Map<string, ContactSummary>> {
  const found = new Map<string, ContactSummary>();
  const unique = [...new Set(contactIds)];
  for (let start = 0; start < unique.length; start += 100) {
    let keys: Record<string, unknown>[] | undefined = unique.slice(start, start + 100).map(contactKey);
    for (let attempt = 0; keys && keys.length > 0; attempt += 1) {
      const result: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({
          RequestItems: {
            [config.tableName()]: { Keys: keys, ProjectionExpression: 'id, #name, #type, roleIds, agencyIds', ExpressionAttributeNames: { '#name': 'name', '#type': 'type' } },
          },
        }),
      );
      for (const item of result.Responses?.[config.tableName()] ?? []) {
        found.set(item.id, { id: item.id, name: item.name, type: item.type, roleIds: item.roleIds ?? [], agencyIds: item.agencyIds ?? [] });
      }
      keys = result.UnprocessedKeys?.[config.tableName()]?.Keys;
      if (keys?.length) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    }
  }
  return found;
}
