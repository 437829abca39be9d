/**
 * Keys of policy groups and external policies (docs/data-model.md, Policy groups). A
 * group's partition holds its header and one item per member, so one Query reads a group
 * whole; an external policy is keyed by its id, its number by a uniqueness item.
 */
export type Key = { pk: string; sk: string };

export const externalPolicyKey = (id: string): Key => ({ pk: `EXTPOLICY#${id}`, sk: 'EXTPOLICY' });
export const externalPolicyNumberKey = (policyNumber: string): Key => ({ pk: `EXTPOLICYNUMBER#${policyNumber}`, sk: 'EXTPOLICYNUMBER' });
export const policyGroupKey = (groupId: string): Key => ({ pk: `PGROUP#${groupId}`, sk: 'GROUP' });
export const groupMemberKey = (groupId: string, policyId: string): Key => ({ pk: `PGROUP#${groupId}`, sk: `MEMBER#${policyId}` });

/** Query parameters that read a group whole (header and members), strongly consistent. */
export function groupPartitionQuery(tableName: string, groupId: string) {
  return { TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `PGROUP#${groupId}` }, ConsistentRead: true };
}
