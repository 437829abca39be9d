/**
 * What authentication needs to know of a contact on every call: its roles, its agencies
 * and its standing. The contacts store owns the record; these are its narrow reads for
 * auth, strongly consistent so that a termination or an inactivated agency holds from
 * the very next call. A store module of its own (it alone reads these attributes), kept apart from
 * store.ts so that every authenticated function bundles these two reads and nothing more.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { batchGetAll } from '../platform/dynamo.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { contactKey } from './keys.js';

export interface ContactAccessProfile {
  contactId: string;
  roleIds: string[];
  /** Agencies the contact belongs to; an agency contact belongs to itself. */
  agencyIds: string[];
  /** Set by storeRoles when any of the contact's roles carries `termination.isTerminated`. */
  terminated: boolean;
  /** The contact is an agency marked inactive. */
  agencyInactive: boolean;
  /** The profile's version: a copy of this profile kept elsewhere (the auth area's credentials) is guarded by it. */
  version: number;
}

/** What authentication needs of a stored profile, as the reads below and a change's after-image give it. */
export function accessProfileOf(item: Record<string, unknown>, contactId = item.id as string): ContactAccessProfile {
  return {
    contactId,
    roleIds: (item.roleIds as string[] | undefined) ?? [],
    agencyIds: (item.agencyIds as string[] | undefined) ?? [],
    terminated: item.terminated === true,
    agencyInactive: item.agencyInactive === true,
    version: typeof item.version === 'number' ? item.version : 0,
  };
}

/**
 * A transaction's check that the contact still stands at the version a copy of its profile was
 * taken from: a credential issued with that copy is refused by DynamoDB when the contact changed
 * meanwhile (the change did not know the credential, so could not have updated its copy).
 */
export function contactAtVersionCheck(contactId: string, version: number): TransactionWrite {
  return {
    ConditionCheck: {
      TableName: config.tableName(),
      Key: contactKey(contactId),
      ConditionExpression: version === 0 ? 'attribute_exists(pk) AND attribute_not_exists(version)' : 'version = :version',
      ...(version === 0 ? {} : { ExpressionAttributeValues: { ':version': version } }),
    },
  };
}

export async function getContactAccessProfile(contactId: string): Promise<ContactAccessProfile | undefined> {
  const result = await documentClient().send(
    new GetCommand({
      TableName: config.tableName(),
      Key: contactKey(contactId),
      ProjectionExpression: 'id, roleIds, agencyIds, #terminated, agencyInactive, version',
      // TERMINATED is one of DynamoDB's reserved words.
      ExpressionAttributeNames: { '#terminated': 'terminated' },
      ConsistentRead: true,
    }),
  );
  if (!result.Item) return undefined;
  return accessProfileOf(result.Item, contactId);
}

/** The agencies among `agencyIds` that are marked inactive (one BatchGet of their standing). */
export async function inactiveAgencies(agencyIds: readonly string[]): Promise<Set<string>> {
  if (agencyIds.length === 0) return new Set();
  const agencies = await batchGetAll<{ id: string; agencyInactive?: boolean }>(agencyIds.map(contactKey), {
    consistentRead: true,
    projection: { expression: 'id, agencyInactive' },
  });
  return new Set(agencies.filter((agency) => agency.agencyInactive === true).map((agency) => agency.id));
}
