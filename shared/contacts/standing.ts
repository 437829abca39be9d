/**
 * A contact's standing (reference-product.md, "Standing"): whether it is terminated, whether
 * an agency is inactive, which agencies it works for and its login. These decide who may
 * call the service at all, so who may change them is narrower than who may change the rest
 * of a contact. Plain rules over plain data.
 */
import type { Principal } from '../platform/principal.js';
import type { ContactRecord, RoleAspects } from './model.js';
import { UNDERWRITER_ROLE_ID, worksForAgencies } from './roles.js';

/** The storeRoles keys that make up a contact's standing; `password` is loginInformation's password alone. */
export type StandingKey = 'termination' | 'agencyInactive' | 'agencies' | 'defaultAgency' | 'loginInformation' | 'password';

export interface StandingState {
  contact: Pick<ContactRecord, 'agencyIds' | 'defaultAgency' | 'agencyInactive' | 'login'>;
  aspects: RoleAspects;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** The standing keys a change alters; giving a key its current value alters nothing. */
export function standingChanges(before: StandingState, after: StandingState, passwordGiven: boolean): StandingKey[] {
  const changed: StandingKey[] = [];
  if (!same(before.aspects.termination, after.aspects.termination)) changed.push('termination');
  if ((before.contact.agencyInactive ?? false) !== (after.contact.agencyInactive ?? false)) changed.push('agencyInactive');
  if (!sameSet(before.contact.agencyIds, after.contact.agencyIds)) changed.push('agencies');
  if (!same(before.contact.defaultAgency, after.contact.defaultAgency)) changed.push('defaultAgency');
  if (!same(before.contact.login, after.contact.login)) changed.push('loginInformation');
  if (passwordGiven) changed.push('password');
  return changed;
}

const FIELD: Record<StandingKey, string> = {
  termination: 'termination',
  agencyInactive: 'agencyInactive',
  agencies: 'agencies',
  defaultAgency: 'defaultAgency',
  loginInformation: 'loginInformation',
  password: 'loginInformation.roleLoginPassword',
};

/**
 * Who may make the changes: nobody to itself except its own password; to another contact an
 * Administrator, or an Underwriter when the contact is an agent or an agency. One message
 * per refused key.
 */
export function standingChangeRefusals(
  principal: Pick<Principal, 'contactId' | 'isAdministrator' | 'roleIds'>,
  target: { id: string; roleIds: readonly string[] },
  changes: readonly StandingKey[],
): string[] {
  if (target.id === principal.contactId) {
    return changes
      .filter((key) => key !== 'password')
      .map((key) => (key === 'loginInformation' ? 'loginInformation: of your own login you may change only the password' : `${FIELD[key]}: you may not change your own`));
  }
  if (principal.isAdministrator) return [];
  if (principal.roleIds.includes(UNDERWRITER_ROLE_ID) && worksForAgencies(target.roleIds)) return [];
  return changes.map((key) => `${FIELD[key]}: only an Administrator, or an Underwriter for agents and agencies, may change it`);
}

/** Whether any role of the contact says it is terminated (storeRoles' `termination.isTerminated`). */
export function isTerminated(aspectsByRole: Iterable<RoleAspects>): boolean {
  for (const aspects of aspectsByRole) {
    if ((aspects.termination as { isTerminated?: unknown } | undefined)?.isTerminated === true) return true;
  }
  return false;
}

/**
 * Whether a contact in this standing may authenticate: not when terminated, and not when it
 * works for agencies (its roles give it an agency's reach) and one of them is inactive.
 */
export function standingAdmits(standing: { terminated: boolean; worksForAgencies: boolean; anyAgencyInactive: boolean }): boolean {
  if (standing.terminated) return false;
  return !(standing.worksForAgencies && standing.anyAgencyInactive);
}
