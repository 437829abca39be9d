import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flag, flagOr, uuid } from '../../../shared/platform/request-fields.js';
import { hasPermission } from '../../../shared/platform/principal.js';
import { retrieveAspectData } from '../../../shared/contacts/index.js';
import { contactClaims } from '../../../shared/claims/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveAspectData',
  summary: 'The aspect data of a contact for a role (or for all its roles), with its policies, and the claims it is a claimant or the insured of (claims, when there are any the caller may read)',
  permission: 'contacts:read',
  input: () => z.object({
    id: uuid(),
    roleId: uuid(),
    /** Typed string in the legacy schema; required, and must be true for API-key callers. */
    hasPermissions: flag(),
    all: flagOr(false),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    const data = await retrieveAspectData(input, principal);
    // Conditional (spec 2.3): present when the contact is a claimant (or the insured) of a claim the caller reaches.
    const claims = hasPermission(principal, 'claims:read') ? await contactClaims(input.id, principal) : [];
    return claims.length ? { ...data, claims } : data;
  },
});
