/**
 * The contacts store: the only code that knows the contact records' keys.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { contactKey } from './keys.js';

export interface ContactProfile {
  id: string;
  name: string;
  type: 'individual' | 'organization';
  roleIds: string[];
  agencyIds: string[];
  createdAt: string;
  version: number;
  [attribute: string]: unknown;
}

/** Creates the contact's profile record unless one with that id exists; answers whether it created it. */
export async function createContactProfileIfAbsent(profile: ContactProfile): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config.tableName(),
        Item: { ...contactKey(profile.id), entity: 'Contact', ...profile },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
