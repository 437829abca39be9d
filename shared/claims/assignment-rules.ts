/**
 * Which adjuster a claim goes to, as the carrier's assignment rules (claims-rules.json
 * `assignment`) say: the first rule whose perils and states hold the claim names the eligible
 * adjusters (a role's holders, or contacts by id); a claim no rule holds goes to the holders of
 * the default role. Among them the one with the fewest open claims, ties by name, then id. Pure.
 */
import type { ClaimAssignmentRules } from '../catalog/index.js';

/** The default when a catalog was published without assignment rules. */
export const DEFAULT_ASSIGNMENT: ClaimAssignmentRules = { role: 'Claims Adjuster', rules: [] };

/** Who is eligible for a claim: the holders of a role (by name), or the contacts named; `rule` is the index of the rule that said so (null: the default). */
export type AssignmentPool = { rule: number | null; role: string } | { rule: number; adjusters: string[] };

export function assignmentPool(assignment: ClaimAssignmentRules | undefined, claim: { perilCode: string; state: string }): AssignmentPool {
  const rules = assignment ?? DEFAULT_ASSIGNMENT;
  const index = rules.rules.findIndex(
    (rule) => (!rule.perils || rule.perils.includes(claim.perilCode)) && (!rule.states || rule.states.includes(claim.state.toUpperCase())),
  );
  if (index < 0) return { rule: null, role: rules.role };
  const rule = rules.rules[index];
  return rule.adjusters ? { rule: index, adjusters: [...rule.adjusters] } : { rule: index, role: rule.role ?? rules.role };
}

export interface Candidate {
  contactId: string;
  name: string;
  openClaims: number;
}

/** The candidate with the fewest open claims; ties by name (case-insensitive), then contact id. Undefined when there is none. */
export function leastLoaded(candidates: readonly Candidate[]): Candidate | undefined {
  return [...candidates].sort((a, b) => a.openClaims - b.openClaims || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.contactId.localeCompare(b.contactId))[0];
}

/** How the pool reads in a message: `the holders of the Claims Adjuster role` or `the adjusters named by assignment rule 2`. */
export function poolDescribed(pool: AssignmentPool): string {
  const rule = pool.rule === null ? '' : ` (assignment rule ${pool.rule + 1})`;
  return 'role' in pool ? `the holders of the ${pool.role} role${rule}` : `the adjusters named by assignment rule ${pool.rule + 1}`;
}
