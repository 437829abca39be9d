/**
 * Policy groups and external policies (policies another system keeps, named here so that
 * they can be grouped with the carrier's own). A group holds policies of either kind; one
 * with fewer than two is inactive and is dissolved by update_inactive_policy_groups.
 */

export interface ExternalPolicyRecord {
  id: string;
  policyNumber: string;
  policyTypeId: string | null;
  otherDetails: Record<string, unknown>;
  policyGroupId: string | null;
  /** Reach: the agency of the contact that posted it (none for staff), and that contact. */
  agencyId: string | null;
  contactIds: string[];
  createdAt: string;
  version: number;
}

/** The uniqueness item of an external policy's number, naming the policy. */
export interface ExternalPolicyNumberRecord {
  policyNumber: string;
  externalPolicyId: string;
}

export interface PolicyGroupRecord {
  id: string;
  createdAt: string;
  createdBy: string;
}

export interface GroupMemberRecord {
  groupId: string;
  policyId: string;
  external: boolean;
}

/** An external policy as posted, once its fields are read. */
export interface ExternalPolicyInput {
  policy_number: string;
  policy_type_id: string | null;
  other_details: Record<string, unknown>;
}

/** A member named by a request: a policy of ours, or an external one. */
export interface MemberRef {
  policyId: string;
  external: boolean;
}

/** A member as read, with what moving it needs: its version and current group. */
export interface LoadedMember extends MemberRef {
  policyNumber: string;
  version: number;
  policyGroupId: string | null;
}
