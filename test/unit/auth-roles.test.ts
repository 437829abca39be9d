import { describe, expect, it } from 'vitest';
import type { Role } from '../../shared/catalog/model.js';
import { BusinessRuleError } from '../../shared/platform/errors.js';
import { assertRoleSelectable, availableRoles, effectiveRoleIds, permissionsOf, selectionInForce, widestScope } from '../../shared/auth/roles.js';

const catalog: Role[] = [
  { id: 'admin', name: 'Administrator', scope: 'all', permissions: ['*'] },
  { id: 'uw', name: 'Underwriter', scope: 'all', permissions: ['reviews:*', 'policies:*', 'contacts:read'] },
  { id: 'agent', name: 'Agent', scope: 'agency', permissions: ['policies:read', 'policies:bind', 'contacts:read'] },
  { id: 'insured', name: 'Named Insured', scope: 'own', permissions: ['policies:read'] },
];

describe('roles in force for a call', () => {
  it('uses only the selected role while the contact holds it', () => {
    expect(effectiveRoleIds(['agent', 'uw'], 'agent')).toEqual(['agent']);
    expect(selectionInForce(['agent', 'uw'], 'agent')).toBe('agent');
  });

  it('uses every held role when none is selected, or the selected one was taken away', () => {
    expect(effectiveRoleIds(['agent', 'uw'])).toEqual(['agent', 'uw']);
    expect(effectiveRoleIds(['agent'], 'uw')).toEqual(['agent']);
    expect(selectionInForce(['agent'], 'uw')).toBeUndefined();
  });

  it('unites the permissions of the roles, sorted and without repeats', () => {
    expect(permissionsOf(catalog, ['agent', 'uw'])).toEqual(['contacts:read', 'policies:*', 'policies:bind', 'policies:read', 'reviews:*']);
    expect(permissionsOf(catalog, ['agent'])).toEqual(['contacts:read', 'policies:bind', 'policies:read']);
    expect(permissionsOf(catalog, ['unknown-role'])).toEqual([]);
  });

  it('reaches as widely as the widest role', () => {
    expect(widestScope(catalog, ['insured'])).toBe('own');
    expect(widestScope(catalog, ['insured', 'agent'])).toBe('agency');
    expect(widestScope(catalog, ['agent', 'uw'])).toBe('all');
    expect(widestScope(catalog, [])).toBe('own');
  });
});

describe('roles a grant may choose from', () => {
  it('lists the held catalog roles by name, marking the selection in force', () => {
    expect(availableRoles(catalog, ['uw', 'agent', 'not-in-catalog'], 'uw')).toEqual([
      { id: 'agent', name: 'Agent', selected: false },
      { id: 'uw', name: 'Underwriter', selected: true },
    ]);
    expect(availableRoles(catalog, ['agent'], 'uw')).toEqual([{ id: 'agent', name: 'Agent', selected: false }]);
  });

  it('lets a contact select a role it holds', () => {
    expect(assertRoleSelectable(catalog, ['agent', 'uw'], 'agent')).toMatchObject({ id: 'agent', name: 'Agent' });
  });

  it('refuses a role the contact does not hold, or that is not in the catalog, naming role_id', () => {
    for (const [held, roleId] of [
      [['agent'], 'admin'],
      [['agent', 'ghost'], 'ghost'],
    ] as const) {
      expect(() => assertRoleSelectable(catalog, held, roleId)).toThrow(BusinessRuleError);
      expect(() => assertRoleSelectable(catalog, held, roleId)).toThrow(`role_id: ${roleId}`);
    }
  });
});
