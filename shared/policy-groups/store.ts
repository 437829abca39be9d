/**
 * The store of policy groups and external policies: the only code that knows their keys.
 * Moving policies between groups is one transaction per group: the group's items, the
 * members' records (the policies area hands the write of its own records) and the
 * memberships they leave.
 */
import { getItem, queryAll } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction, type TransactionWrite } from '../platform/transactions.js';
import { policyNumberFreeCheck } from '../policies/index.js';
import { config } from '../platform/config.js';
import { externalPolicyNumberRecord, externalPolicyRecord, groupMemberRecord, policyGroupRecord } from './records.js';
import type { ExternalPolicyRecord, GroupMemberRecord, PolicyGroupRecord } from './model.js';

export type Write = TransactionWrite;

// ---------------------------------------------------------------- external policies

/**
 * Inserts an external policy unless its number exists, as an external policy or as one of
 * the carrier's own: insert only, an existing number is never overwritten.
 */
export async function insertExternalPolicy(record: ExternalPolicyRecord): Promise<'inserted' | 'exists'> {
  try {
    await runTransaction(
      [externalPolicyNumberRecord.create({ policyNumber: record.policyNumber, externalPolicyId: record.id }), externalPolicyRecord.create(record), policyNumberFreeCheck(record.policyNumber)],
      { label: `External policy ${record.policyNumber}` },
    );
    return 'inserted';
  } catch (error) {
    if (error instanceof RecordChangedError) return 'exists';
    throw error;
  }
}

export async function getExternalPolicy(id: string): Promise<ExternalPolicyRecord | undefined> {
  const item = await getItem(externalPolicyRecord.key({ id }));
  return item ? externalPolicyRecord.parse(item) : undefined;
}

export async function findExternalPolicyByNumber(policyNumber: string): Promise<ExternalPolicyRecord | undefined> {
  const pointer = await getItem(externalPolicyNumberRecord.key({ policyNumber }));
  return pointer ? getExternalPolicy(externalPolicyNumberRecord.parse(pointer).externalPolicyId) : undefined;
}

/** Deletes an external policy, its number and its membership, as read (version-guarded). */
export async function deleteExternalPolicy(record: ExternalPolicyRecord): Promise<void> {
  await runTransaction(
    [
      { Delete: { ...externalPolicyRecord.remove(record).Delete!, ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': record.version } } },
      externalPolicyNumberRecord.remove(record),
      ...(record.policyGroupId ? [groupMemberRecord.remove({ groupId: record.policyGroupId, policyId: record.id })] : []),
    ],
    { label: `External policy ${record.policyNumber}` },
  );
}

/** Puts an external policy in a group (or none), guarded by the version read. */
export function externalGroupWrite(record: Pick<ExternalPolicyRecord, 'id' | 'version'>, policyGroupId: string | null): Write {
  return {
    Update: {
      TableName: config.tableName(),
      Key: externalPolicyRecord.key(record),
      UpdateExpression: 'SET policyGroupId = :group, version = :next',
      ConditionExpression: 'version = :expected',
      ExpressionAttributeValues: { ':group': policyGroupId, ':next': record.version + 1, ':expected': record.version },
    },
  };
}

// ---------------------------------------------------------------- groups

export async function loadGroup(groupId: string): Promise<{ group: PolicyGroupRecord; members: GroupMemberRecord[] } | undefined> {
  const items = await queryAll(policyGroupRecord.partition({ id: groupId }));
  const group = items.find(policyGroupRecord.is);
  if (!group) return undefined;
  return { group: policyGroupRecord.parse(group), members: items.filter(groupMemberRecord.is).map(groupMemberRecord.parse) };
}

export const newGroupWrite = (group: PolicyGroupRecord): Write => policyGroupRecord.create(group);
export const groupExistsCheck = (groupId: string): Write => ({ ConditionCheck: { TableName: config.tableName(), Key: policyGroupRecord.key({ id: groupId }), ConditionExpression: 'attribute_exists(pk)' } });
export const memberPut = (member: GroupMemberRecord): Write => groupMemberRecord.put(member);
export const memberDelete = (groupId: string, policyId: string): Write => groupMemberRecord.remove({ groupId, policyId });
export const groupDelete = (groupId: string): Write => policyGroupRecord.remove({ id: groupId });

/** Runs one group change; a failed guard (a member changed meanwhile, a group gone) is a concurrent change. */
export async function runGroupTransaction(writes: Write[], label: string): Promise<void> {
  await runTransaction(writes, { label });
}
