/**
 * What authentication needs to know of a contact: its roles and its agencies.
 * The contacts store owns the record; this is its narrow read for auth.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { contactKey } from './keys.js';

export interface ContactAccessProfile {
  contactId: string;
  roleIds: string[];
  /** Agencies the contact belongs to; an agency contact belongs to itself. */
  agencyIds: string[];
}

export async function getContactAccessProfile(contactId: string): Promise<ContactAccessProfile | undefined> {
  const result = await documentClient().send(
    new GetCommand({
      TableName: config.tableName(),
      Key: contactKey(contactId),
      ProjectionExpression: 'id, roleIds, agencyIds',
    }),
  );
  if (!result.Item) return undefined;
  return {
    contactId,
    roleIds: (result.Item.roleIds as string[] | undefined) ?? [],
    agencyIds: (result.Item.agencyIds as string[] | undefined) ?? [],
  };
}
