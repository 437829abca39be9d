import { describe, expect, it } from 'vitest';
import { planStoreRoles } from '../../shared/contacts/aspects.js';
import { ADMINISTRATOR_ROLE_ID, AGENCY_ROLE_ID, AGENT_ROLE_ID, NAMED_INSURED_ROLE_ID, UNDERWRITER_ROLE_ID } from '../../shared/contacts/roles.js';
import { storeRolesInput } from '../../functions/v1/contacts/storeRoles.js';
import { isTerminated, standingAdmits, standingChangeRefusals, standingChanges, type StandingState } from '../../shared/contacts/standing.js';
import type { ContactRecord } from '../../shared/contacts/model.js';

const state = (contact: Partial<StandingState['contact']> = {}, aspects: StandingState['aspects'] = {}): StandingState => ({
  contact: { agencyIds: ['g1'], ...contact },
  aspects,
});
const caller = (contactId: string, roleIds: string[]) => ({ contactId, roleIds, isAdministrator: roleIds.includes(ADMINISTRATOR_ROLE_ID) });

describe('what a storeRoles call changes of a standing', () => {
  it('names each standing key whose value changes, and none given its current value', () => {
    const before = state({ login: { username: 'dana' } }, { termination: { isTerminated: false } });
    expect(standingChanges(before, before, false)).toEqual([]);
    const after = state({ agencyIds: ['g1', 'g2'], defaultAgency: 'g2', agencyInactive: true, login: { username: 'dana', accessLevel: 'x' } }, { termination: { isTerminated: true } });
    expect(standingChanges(before, after, true)).toEqual(['termination', 'agencyInactive', 'agencies', 'defaultAgency', 'loginInformation', 'password']);
  });

  it('sees agencies given in another order as the same agencies', () => {
    expect(standingChanges(state({ agencyIds: ['g1', 'g2'] }), state({ agencyIds: ['g2', 'g1'] }), false)).toEqual([]);
  });
});

describe('who may change a standing', () => {
  const agent = { id: 'agent-1', roleIds: [AGENT_ROLE_ID] };
  const insured = { id: 'insured-1', roleIds: [NAMED_INSURED_ROLE_ID] };

  it('lets nobody change its own standing but its password, Administrators included', () => {
    expect(standingChangeRefusals(caller('agent-1', [AGENT_ROLE_ID]), agent, ['password'])).toEqual([]);
    expect(standingChangeRefusals(caller('agent-1', [AGENT_ROLE_ID]), agent, ['termination', 'loginInformation'])).toEqual([
      'termination: you may not change your own',
      'loginInformation: of your own login you may change only the password',
    ]);
    expect(standingChangeRefusals(caller('admin-1', [ADMINISTRATOR_ROLE_ID]), { id: 'admin-1', roleIds: [ADMINISTRATOR_ROLE_ID] }, ['agencies'])).toEqual([
      'agencies: you may not change your own',
    ]);
  });

  it("lets an Administrator change anyone's, and an Underwriter those of agents and agencies only", () => {
    expect(standingChangeRefusals(caller('admin-1', [ADMINISTRATOR_ROLE_ID]), insured, ['termination', 'password'])).toEqual([]);
    const underwriter = caller('uw-1', [UNDERWRITER_ROLE_ID]);
    expect(standingChangeRefusals(underwriter, agent, ['termination', 'agencies', 'loginInformation'])).toEqual([]);
    expect(standingChangeRefusals(underwriter, { id: 'agency-1', roleIds: [AGENCY_ROLE_ID] }, ['agencyInactive'])).toEqual([]);
    expect(standingChangeRefusals(underwriter, insured, ['termination'])).toEqual(['termination: only an Administrator, or an Underwriter for agents and agencies, may change it']);
  });

  it("lets an agent change nobody else's standing, not even a password", () => {
    expect(standingChangeRefusals(caller('agent-1', [AGENT_ROLE_ID]), insured, ['password', 'agencies'])).toEqual([
      'loginInformation.roleLoginPassword: only an Administrator, or an Underwriter for agents and agencies, may change it',
      'agencies: only an Administrator, or an Underwriter for agents and agencies, may change it',
    ]);
  });
});

describe('standing and authentication', () => {
  it('bars a terminated contact, and an agent of an inactive agency, and nobody else', () => {
    expect(standingAdmits({ terminated: false, worksForAgencies: true, anyAgencyInactive: false })).toBe(true);
    expect(standingAdmits({ terminated: true, worksForAgencies: false, anyAgencyInactive: false })).toBe(false);
    expect(standingAdmits({ terminated: false, worksForAgencies: true, anyAgencyInactive: true })).toBe(false);
    // A named insured of an inactive agency is no agent: it keeps its own reach.
    expect(standingAdmits({ terminated: false, worksForAgencies: false, anyAgencyInactive: true })).toBe(true);
  });

  it('reads termination from any role of the contact', () => {
    expect(isTerminated([{}, { termination: { reasonTerminated: 'x' } }])).toBe(false);
    expect(isTerminated([{}, { termination: { isTerminated: true } }])).toBe(true);
  });

  it('keeps the terminated flag on the contact in step with the aspects of all its roles', () => {
    const contact: ContactRecord = { id: 'c1', name: 'Dana', type: 'individual', roleIds: [AGENT_ROLE_ID], agencyIds: ['g1'], createdAt: '2026-01-01T00:00:00Z', version: 1 };
    const input = (termination: Record<string, unknown>) =>
      storeRolesInput().parse({ contactId: '6a1f0c2e-1111-4222-8333-944455556666', roleId: AGENT_ROLE_ID, termination });
    const facts = { existingAgencies: new Set<string>(), mayAttach: () => true, isAgency: false, terminatedInOtherRoles: false };
    const terminated = planStoreRoles(input({ isTerminated: 'true', reasonTerminated: 'licence lapsed' }), contact, {}, facts);
    expect(terminated.ok && terminated.contact.terminated).toBe(true);
    const restored = planStoreRoles(input({ isTerminated: false }), { ...contact, terminated: true }, { termination: { isTerminated: true } }, facts);
    expect(restored.ok && restored.contact).not.toHaveProperty('terminated');
    const stillByAnotherRole = planStoreRoles(input({ isTerminated: false }), { ...contact, terminated: true }, {}, { ...facts, terminatedInOtherRoles: true });
    expect(stillByAnotherRole.ok && stillByAnotherRole.contact.terminated).toBe(true);
  });
});
