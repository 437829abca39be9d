/** The rules of groups and external policies, as plain functions. */
import type { ExternalPolicyInput } from './model.js';

/** A group needs at least this many policies to stay active (spec 8). */
export const MIN_ACTIVE_MEMBERS = 2;
/** Members of one group written at once: each takes a member item and its policy's update, with room for the group and old memberships. */
export const MAX_GROUP_MEMBERS = 30;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads one posted external policy; a reason when it fails validation (it is then listed under `failed`). */
export function readExternalPolicy(entry: unknown): { value: ExternalPolicyInput } | { reason: string } {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return { reason: 'must be an object with a policy_number' };
  const fields = entry as Record<string, unknown>;
  const number = typeof fields.policy_number === 'number' ? String(fields.policy_number) : fields.policy_number;
  if (typeof number !== 'string' || number.trim() === '') return { reason: 'policy_number is required' };
  if (number.trim().length > 128) return { reason: 'policy_number must be at most 128 characters' };
  const type = fields.policy_type_id;
  if (type !== undefined && type !== null && type !== '' && (typeof type !== 'string' || !UUID.test(type))) return { reason: 'policy_type_id must be a UUID' };
  const details = fields.other_details;
  if (details !== undefined && details !== null && (typeof details !== 'object' || Array.isArray(details))) return { reason: 'other_details must be an object' };
  return {
    value: {
      policy_number: number.trim(),
      policy_type_id: typeof type === 'string' && type !== '' ? type.toLowerCase() : null,
      other_details: (details as Record<string, unknown> | null | undefined) ?? {},
    },
  };
}

/** Whether a group with this many members is dissolved. */
export const isInactive = (members: number) => members < MIN_ACTIVE_MEMBERS;
