/**
 * The auth area's authenticator: resolves the caller of a request from the credentials it
 * presents (picked out by shared/platform/credentials.ts): an API key, a bearer JWT of an
 * OAuth client, or a session cookie. The operation factory is given it through
 * shared/define-operation.ts.
 */
import { listRoles } from '../catalog/index.js';
import { getContactAccessProfile, inactiveAgencies, type ContactAccessProfile, ADMINISTRATOR_ROLE_ID, worksForAgencies, standingAdmits } from '../contacts/index.js';
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import type { PresentedCredentials } from '../platform/credentials.js';
import type { Authenticator, CredentialKind, Principal } from '../platform/principal.js';
import { effectiveRoleIds, permissionsOf, selectionInForce, widestScope } from './roles.js';
import type { AccessCopy } from './credentials-store.js';
import { findActiveApiKey, findLiveSession, getOAuthClient, recordApiKeyUse } from './store.js';
import { clock } from '../platform/clock.js';

/** How finely an API key's last use is recorded. */
const API_KEY_USE_RESOLUTION_MS = 60_000;

/** The caller, or undefined when no presented credential is valid. */
export async function authenticate(credentials: PresentedCredentials): Promise<Principal | undefined> {
  if (credentials.bearerToken) {
    const claims = await verifyBearerToken(credentials.bearerToken);
    if (!claims) return undefined;
    const client = await getOAuthClient(claims.clientId);
    if (!client) return undefined;
    return principalBy(client.contactId, client.access, 'bearer', { grantId: client.clientId, ...(client.selectedRoleId ? { selectedRoleId: client.selectedRoleId } : {}) });
  }
  if (credentials.apiKey) {
    const key = await findActiveApiKey(credentials.apiKey);
    if (!key) return undefined;
    return principalOfKey(key);
  }
  if (credentials.sessionToken) {
    const session = await findLiveSession(credentials.sessionToken);
    return session ? principalOfSession(session) : undefined;
  }
  return undefined;
}

/** The caller of an API key just read, its last use recorded when stale (beside the contact's read, for a key that needs one). */
export async function principalOfKey(key: NonNullable<Awaited<ReturnType<typeof findActiveApiKey>>>): Promise<Principal | undefined> {
  // The key record just read says whether its last use is stale: most calls then skip the write.
  const now = clock.now();
  const stale = !key.lastUsedAt || Date.parse(key.lastUsedAt) < now.getTime() - API_KEY_USE_RESOLUTION_MS;
  const [principal] = await Promise.all([principalBy(key.contactId, key.access, 'api_key', { apiKeyId: key.keyId }), stale ? recordApiKeyUse(key.digest, now) : undefined]);
  return principal;
}

/** The caller of a live session just read. */
export function principalOfSession(session: NonNullable<Awaited<ReturnType<typeof findLiveSession>>>): Promise<Principal | undefined> {
  return principalBy(session.contactId, session.access, 'session', {});
}

type PrincipalExtra = { grantId?: string; selectedRoleId?: string; apiKeyId?: string };

/**
 * The caller from the copy of its contact's access that the credential's record carries (kept
 * true by every change of it, shared/auth/credentials-store.ts): no second read. A credential
 * written before copies existed carries none: its contact is read, on each call (migration: such
 * keys, sessions and OAuth clients keep working, one read slower, until they are issued again).
 */
function principalBy(contactId: string, access: AccessCopy | undefined, credential: CredentialKind, extra: PrincipalExtra): Promise<Principal | undefined> {
  return access ? principalFrom({ ...access, contactId }, credential, extra) : principalOf(contactId, credential, extra);
}

/** The contact as a caller with this credential; undefined when it no longer exists or its standing bars it. */
export async function principalOf(contactId: string, credential: CredentialKind, extra: PrincipalExtra = {}): Promise<Principal | undefined> {
  const profile = await getContactAccessProfile(contactId);
  return profile ? principalFrom(profile, credential, extra) : undefined;
}

async function principalFrom(profile: ContactAccessProfile, credential: CredentialKind, extra: PrincipalExtra): Promise<Principal | undefined> {
  if (profile.terminated) return undefined;
  const contactId = profile.contactId;
  const catalog = await listRoles();
  const held = profile.roleIds;
  if (!(await agenciesAdmit(profile))) return undefined;
  const effective = effectiveRoleIds(held, extra.selectedRoleId);
  const selectedRoleId = selectionInForce(held, extra.selectedRoleId);
  return {
    contactId,
    credential,
    roleIds: effective,
    heldRoleIds: held,
    permissions: new Set(permissionsOf(catalog, effective)),
    agencyIds: profile.agencyIds,
    scope: widestScope(catalog, effective),
    isAdministrator: effective.includes(ADMINISTRATOR_ROLE_ID),
    ...(extra.grantId ? { grantId: extra.grantId } : {}),
    ...(selectedRoleId ? { selectedRoleId } : {}),
    ...(extra.apiKeyId ? { apiKeyId: extra.apiKeyId } : {}),
  };
}

/**
 * The agencies' side of a contact's standing, read on every call (one more read, and only
 * for agents): an agent of an inactive agency is let in by no credential. An agency
 * contact is among its own agencies; its flag is on the profile already read.
 */
async function agenciesAdmit(profile: ContactAccessProfile): Promise<boolean> {
  if (!worksForAgencies(profile.roleIds)) return true;
  const itselfInactive = profile.agencyInactive && profile.agencyIds.includes(profile.contactId);
  const others = profile.agencyIds.filter((agencyId) => agencyId !== profile.contactId);
  const anyAgencyInactive = itselfInactive || (await inactiveAgencies(others)).size > 0;
  return standingAdmits({ terminated: profile.terminated, worksForAgencies: true, anyAgencyInactive });
}

/**
 * The bearer token verifier (aws-jwt-verify, about 20 KiB), loaded by the first bearer call a
 * function answers: callers with an API key or a session cookie never run it, so a cold start
 * does not parse it (a module of its own beside the bundle, shared/platform/modules-on-first-use.ts).
 */
const bearerTokens = /* @__PURE__ */ moduleOnFirstUse<typeof import('./bearer-tokens.js')>(new URL('./bearer-tokens.mjs', import.meta.url), new URL('./bearer-tokens.ts', import.meta.url));

async function verifyBearerToken(token: string): Promise<{ clientId: string } | undefined> {
  return (await bearerTokens()).verifyBearerToken(token);
}

export const authenticator: Authenticator = { authenticate };
