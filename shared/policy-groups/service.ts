/**
 * External policies and policy groups. Every policy named must be within the caller's
 * reach (one out of reach answers like an unknown one); a call is checked whole before
 * anything is written, then each group changes in one transaction: its items, its
 * members' records, and the memberships they leave.
 */
import { randomUUID } from 'node:crypto';
import { DataWithMessages } from '../platform/envelope.js';
import { BusinessRuleError } from '../platform/errors.js';
import { reaches, type Principal } from '../platform/principal.js';
import { getPolicy, policyGroupChange } from '../policies/index.js';
import type { ExternalPolicyRecord, GroupMemberRecord, LoadedMember, MemberRef } from './model.js';
import { MAX_GROUP_MEMBERS, isInactive, readExternalPolicy } from './rules.js';
import {
  deleteExternalPolicy,
  externalGroupWrite,
  findExternalPolicyByNumber,
  getExternalPolicy,
  groupDelete,
  groupExistsCheck,
  insertExternalPolicy,
  loadGroup,
  memberDelete,
  memberPut,
  newGroupWrite,
  runGroupTransaction,
  type Write,
} from './store.js';
import { clock } from '../platform/clock.js';

// ---------------------------------------------------------------- external policies

/** post_external_policies: inserts each new number; a number that exists, or an entry that fails validation, is listed under `failed`. */
export async function postExternalPolicies(principal: Principal, entries: unknown[]) {
  const inserted: Array<{ policy_id: string; policy_number: string }> = [];
  const failed: Array<{ index: number; policy_number: unknown; reason: string }> = [];
  const agencyId = principal.scope === 'all' ? null : (principal.agencyIds[0] ?? null);
  for (const [index, entry] of entries.entries()) {
    const read = readExternalPolicy(entry);
    const givenNumber = entry && typeof entry === 'object' ? String((entry as Record<string, unknown>).policy_number ?? '').slice(0, 128) : null;
    if ('reason' in read) {
      failed.push({ index, policy_number: givenNumber, reason: read.reason });
      continue;
    }
    const record: ExternalPolicyRecord = {
      id: randomUUID(),
      policyNumber: read.value.policy_number,
      policyTypeId: read.value.policy_type_id,
      otherDetails: read.value.other_details,
      policyGroupId: null,
      agencyId,
      contactIds: [principal.contactId],
      createdAt: clock.now().toISOString(),
      version: 1,
    };
    if ((await insertExternalPolicy(record)) === 'inserted') inserted.push({ policy_id: record.id, policy_number: record.policyNumber });
    else failed.push({ index, policy_number: record.policyNumber, reason: `policy number ${record.policyNumber} already exists; external policies are insert only` });
  }
  return { inserted, failed };
}

/** delete_external_policies: data lists the numbers that could not be deleted. */
export async function deleteExternalPolicies(principal: Principal, numbers: string[]) {
  const notDeleted: string[] = [];
  const messages: string[] = [];
  for (const number of numbers) {
    const record = await findExternalPolicyByNumber(number);
    if (!record || !reaches(principal, record)) {
      notDeleted.push(number);
      messages.push(`External policy ${number} was not found`);
      continue;
    }
    await deleteExternalPolicy(record);
    messages.push(`External policy ${number} deleted`);
  }
  return new DataWithMessages(notDeleted, messages);
}

// ---------------------------------------------------------------- members

async function loadMember(principal: Principal, ref: MemberRef): Promise<LoadedMember> {
  const member = await findMember(principal, ref);
  if (!member) throw new BusinessRuleError(`${ref.external ? 'External policy' : 'Policy'} ${ref.policyId} was not found`);
  return member;
}

/** A member as read; undefined when its record is gone (a quote replaced, an external policy deleted). Out of reach is refused. */
async function findMember(principal: Principal, ref: MemberRef): Promise<LoadedMember | undefined> {
  const record = ref.external ? await getExternalPolicy(ref.policyId) : await getPolicy(ref.policyId);
  if (!record) return undefined;
  if (!reaches(principal, record)) throw new BusinessRuleError(`${ref.external ? 'External policy' : 'Policy'} ${ref.policyId} was not found`);
  return { ...ref, policyNumber: record.policyNumber, version: record.version, policyGroupId: record.policyGroupId ?? null };
}

/** The writes that move a member into a group: its membership, its record, and the membership it leaves. */
function moveWrites(member: LoadedMember, groupId: string): Write[] {
  const record = { id: member.policyId, version: member.version };
  const membership: GroupMemberRecord = { groupId, policyId: member.policyId, external: member.external };
  return [
    memberPut(membership),
    member.external ? externalGroupWrite(record, groupId) : (policyGroupChange(record, groupId) as Write),
    ...(member.policyGroupId && member.policyGroupId !== groupId ? [memberDelete(member.policyGroupId, member.policyId)] : []),
  ];
}

// ---------------------------------------------------------------- groups

/** add_policies_to_new_group: each inner list becomes one group; policies leave the group they were in. */
export async function addPoliciesToNewGroups(principal: Principal, lists: MemberRef[][]) {
  for (const [index, refs] of lists.entries()) {
    if (refs.length > MAX_GROUP_MEMBERS) throw new BusinessRuleError(`policies.${index}: a group is formed of at most ${MAX_GROUP_MEMBERS} policies at once`);
  }
  // Everything named must exist and be within reach before any group is formed.
  for (const refs of lists) for (const ref of refs) await loadMember(principal, ref);
  const groupIds: string[] = [];
  for (const refs of lists) {
    // Read again: a policy named in an earlier group of the call has moved since.
    const members = [];
    for (const ref of refs) members.push(await loadMember(principal, ref));
    const distinct = [...new Map(members.map((member) => [member.policyId, member])).values()];
    const groupId = randomUUID();
    await runGroupTransaction(
      [newGroupWrite({ id: groupId, createdAt: clock.now().toISOString(), createdBy: principal.contactId }), ...distinct.flatMap((member) => moveWrites(member, groupId))],
      `Policy group ${groupId}`,
    );
    groupIds.push(groupId);
  }
  return new DataWithMessages(
    { policy_group_ids: groupIds },
    groupIds.map((id, index) => `Policy group ${id} formed of ${new Set(lists[index].map((ref) => ref.policyId)).size} policies`),
  );
}

/** add_policies_to_existing_groups and add_external_policies_to_existing_groups. */
export async function addToExistingGroups(principal: Principal, entries: Array<MemberRef & { groupId: string }>) {
  for (const entry of entries) {
    await loadMember(principal, entry);
    if (!(await loadGroup(entry.groupId))) throw new BusinessRuleError(`Policy group ${entry.groupId} was not found`);
  }
  const messages: string[] = [];
  for (const entry of entries) {
    const member = await loadMember(principal, entry);
    if (member.policyGroupId === entry.groupId) {
      messages.push(`Policy ${member.policyNumber} is already in group ${entry.groupId}`);
      continue;
    }
    await runGroupTransaction([groupExistsCheck(entry.groupId), ...moveWrites(member, entry.groupId)], `Policy group ${entry.groupId}`);
    messages.push(`Policy ${member.policyNumber} added to group ${entry.groupId}`);
  }
  return new DataWithMessages(null, messages);
}

/**
 * update_inactive_policy_groups: a group left with fewer than two policies is deleted, and
 * its id removed from each of its policies, in one transaction; an active group is kept.
 */
/** forceRemoval (vendor parameter): delete the named groups even while they are active. */
export async function updateInactiveGroups(principal: Principal, groupIds: string[], forceRemoval = false) {
  const messages: string[] = [];
  const dissolved: string[] = [];
  for (const groupId of [...new Set(groupIds)]) {
    const found = await loadGroup(groupId);
    if (!found) {
      messages.push(`Policy group ${groupId} was not found`);
      continue;
    }
    const members: LoadedMember[] = [];
    // A member whose record is gone no longer counts; its membership goes with the group.
    const gone: string[] = [];
    for (const { policyId, external } of found.members) {
      const member = await findMember(principal, { policyId, external });
      if (member) members.push(member);
      else gone.push(policyId);
    }
    if (!forceRemoval && !isInactive(members.length)) {
      messages.push(`Policy group ${groupId} is active (${members.length} policies) and is kept`);
      continue;
    }
    await runGroupTransaction(
      [
        groupDelete(groupId),
        ...gone.map((policyId) => memberDelete(groupId, policyId)),
        ...members.flatMap((member) => [
          memberDelete(groupId, member.policyId),
          ...(member.policyGroupId === groupId
            ? [member.external ? externalGroupWrite({ id: member.policyId, version: member.version }, null) : (policyGroupChange({ id: member.policyId, version: member.version }, null) as Write)]
            : []),
        ]),
      ],
      `Policy group ${groupId}`,
    );
    dissolved.push(groupId);
    messages.push(
      isInactive(members.length)
        ? `Policy group ${groupId} had fewer than two policies and was deleted`
        : `Policy group ${groupId} (${members.length} policies) was removed on force_removal`,
    );
  }
  return new DataWithMessages({ deleted_group_ids: dissolved }, messages);
}
