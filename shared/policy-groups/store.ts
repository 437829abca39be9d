/**
 * The store of policy groups and external policies: the only code that knows their keys.
 * Moving policies between groups is one transaction per group: the group's items, the
 * members' records (the policies area hands the write of its own records) and the
 * memberships they leave.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { queryAll } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction, withoutStorageKeys, type TransactionWrite } from '../platform/transactions.js';
import { policyNumberFreeCheck } from '../policies/index.js';
import { externalPolicyKey, externalPolicyNumberKey, groupMemberKey, groupPartitionQuery, policyGroupKey } from './keys.js';
import type { ExternalPolicyRecord, GroupMemberRecord, PolicyGroupRecord } from './model.js';

export type Write = TransactionWrite;
const table = () => config.tableName();

const strip = <T>(item: Record<string, unknown>): T => withoutStorageKeys<T>(item, { keepEntity: true });

// ---------------------------------------------------------------- external policies

/**
 * Inserts an external policy unless its number exists, as an external policy or as one of
 * the carrier's own: insert only, an existing number is never overwritten.
 */
export async function insertExternalPolicy(record: ExternalPolicyRecord): Promise<'inserted' | 'exists'> {
  try {
    await runTransaction(
      [
        {
          Put: {
            TableName: table(),
            Item: { ...externalPolicyNumberKey(record.policyNumber), entity: 'ExternalPolicyNumber', policyNumber: record.policyNumber, externalPolicyId: record.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Put: { TableName: table(), Item: { ...externalPolicyKey(record.id), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
        policyNumberFreeCheck(record.policyNumber),
      ],
      { label: `External policy ${record.policyNumber}` },
    );
    return 'inserted';
  } catch (error) {
    if (error instanceof RecordChangedError) return 'exists';
    throw error;
  }
}

export async function getExternalPolicy(id: string): Promise<ExternalPolicyRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: externalPolicyKey(id), ConsistentRead: true }));
  return result.Item ? strip<ExternalPolicyRecord>(result.Item) : undefined;
}

export async function findExternalPolicyByNumber(policyNumber: string): Promise<ExternalPolicyRecord | undefined> {
  const pointer = await documentClient().send(new GetCommand({ TableName: table(), Key: externalPolicyNumberKey(policyNumber), ConsistentRead: true }));
  const id = pointer.Item?.externalPolicyId as string | undefined;
  return id ? getExternalPolicy(id) : undefined;
}

/** Deletes an external policy, its number and its membership, as read (version-guarded). */
export async function deleteExternalPolicy(record: ExternalPolicyRecord): Promise<void> {
  await runTransaction(
    [
      { Delete: { TableName: table(), Key: externalPolicyKey(record.id), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': record.version } } },
      { Delete: { TableName: table(), Key: externalPolicyNumberKey(record.policyNumber) } },
      ...(record.policyGroupId ? [{ Delete: { TableName: table(), Key: groupMemberKey(record.policyGroupId, record.id) } }] : []),
    ],
    { label: `External policy ${record.policyNumber}` },
  );
}

/** Puts an external policy in a group (or none), guarded by the version read. */
export function externalGroupWrite(record: Pick<ExternalPolicyRecord, 'id' | 'version'>, policyGroupId: string | null): Write {
  return {
    Update: {
      TableName: table(),
      Key: externalPolicyKey(record.id),
      UpdateExpression: 'SET policyGroupId = :group, version = :next',
      ConditionExpression: 'version = :expected',
      ExpressionAttributeValues: { ':group': policyGroupId, ':next': record.version + 1, ':expected': record.version },
    },
  };
}

// ---------------------------------------------------------------- groups

export async function loadGroup(groupId: string): Promise<{ group: PolicyGroupRecord; members: GroupMemberRecord[] } | undefined> {
  const items = (await queryAll(groupPartitionQuery(table(), groupId))).map((item) => strip<Record<string, unknown>>(item));
  const group = items.find((item) => item.entity === 'PolicyGroup') as unknown as PolicyGroupRecord | undefined;
  if (!group) return undefined;
  return { group, members: items.filter((item) => item.entity === 'PolicyGroupMember') as unknown as GroupMemberRecord[] };
}

export const newGroupWrite = (group: PolicyGroupRecord): Write => ({
  Put: { TableName: table(), Item: { ...policyGroupKey(group.id), ...group }, ConditionExpression: 'attribute_not_exists(pk)' },
});
export const groupExistsCheck = (groupId: string): Write => ({
  ConditionCheck: { TableName: table(), Key: policyGroupKey(groupId), ConditionExpression: 'attribute_exists(pk)' },
});
export const memberPut = (member: GroupMemberRecord): Write => ({
  Put: { TableName: table(), Item: { ...groupMemberKey(member.groupId, member.policyId), ...member } },
});
export const memberDelete = (groupId: string, policyId: string): Write => ({ Delete: { TableName: table(), Key: groupMemberKey(groupId, policyId) } });
export const groupDelete = (groupId: string): Write => ({ Delete: { TableName: table(), Key: policyGroupKey(groupId) } });

/** Runs one group change; a failed guard (a member changed meanwhile, a group gone) is a concurrent change. */
export async function runGroupTransaction(writes: Write[], label: string): Promise<void> {
  await runTransaction(writes, { label });
}
