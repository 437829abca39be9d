/**
 * The auth area's public face: what entry files and other areas may use of it. Anything not
 * exported here (its store, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { MANAGE_API_KEYS, apiKeysOf, apiKeyDescription, issueApiKeyTo, revokeApiKeyById } from './api-keys.js';
export { authenticate, authenticator } from './authenticate.js';
export { storeRolesKeepingCredentials } from './contact-access.js';
export { BOOTSTRAP_ADMINISTRATOR_ID, bootstrapAdministratorPartitions, ensureAdministrator } from './bootstrap-administrator.js';
export { permissionsOfGrant, rolesOfGrant, selectRoleOfGrant } from './grants.js';
export { newToken } from './secrets.js';
export { clearedSessionCookie, openOrConfirmSession, sessionCookie } from './sessions.js';
export { apiKeyPartitionPattern } from './store.js';
