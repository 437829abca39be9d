/**
 * The policy groups' and external policies' stored records, declared once (shared/platform/records.ts).
 * A group's partition holds its header and one item per member, so one Query reads a group whole;
 * an external policy is keyed by its id, its number by a uniqueness item. Only the area's store
 * imports this module.
 */
import { defineRecord } from '../platform/records.js';
import type { ExternalPolicyNumberRecord, ExternalPolicyRecord, GroupMemberRecord, PolicyGroupRecord } from './model.js';

/** A policy another system keeps: id, policyNumber, policyTypeId, otherDetails, policyGroupId, agencyId and contactIds (reach: the poster's first agency and the poster), version. */
export const externalPolicyRecord = /* @__PURE__ */ defineRecord<ExternalPolicyRecord>({
  entity: 'ExternalPolicy',
  key: { pk: 'EXTPOLICY#${id}', sk: 'EXTPOLICY' },
});

/** An external policy's number: externalPolicyId; uniqueness and lookup by number. */
export const externalPolicyNumberRecord = /* @__PURE__ */ defineRecord<ExternalPolicyNumberRecord>({
  entity: 'ExternalPolicyNumber',
  key: { pk: 'EXTPOLICYNUMBER#${policyNumber}', sk: 'EXTPOLICYNUMBER' },
});

/** A group's header: id, createdAt, createdBy. */
export const policyGroupRecord = /* @__PURE__ */ defineRecord<PolicyGroupRecord>({
  entity: 'PolicyGroup',
  key: { pk: 'PGROUP#${id}', sk: 'GROUP' },
});

/** A policy (ours or external) in a group: policyId, external. */
export const groupMemberRecord = /* @__PURE__ */ defineRecord<GroupMemberRecord>({
  entity: 'PolicyGroupMember',
  key: { pk: 'PGROUP#${groupId}', sk: 'MEMBER#${policyId}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const POLICY_GROUPS_RECORDS = [externalPolicyRecord, externalPolicyNumberRecord, policyGroupRecord, groupMemberRecord] as const;
