/**
 * The Administrator that exists from the first start, so that anyone can call the API at
 * all: a contact holding the Administrator role, an API key handed to the operator out of
 * band, and optionally the OAuth client that acts for it. The local bootstrap
 * (infra/local/bootstrap.ts) and the deploy-time seed (events/bootstrap/ensure-administrator.ts)
 * both call ensureAdministrator; every step is idempotent, so it runs on every start or deploy.
 */
import { accessProfileOf, contactCreationPartitions, createContactProfileIfAbsent, type ContactProfile, ADMINISTRATOR_ROLE_ID } from '../contacts/index.js';
import { credentialSeedPartitions, ensureApiKey, ensureOAuthClient } from './store.js';
import { clock } from '../platform/clock.js';

/** Fixed, so that a restart or a redeploy finds the same contact again. */
export const BOOTSTRAP_ADMINISTRATOR_ID = '00000000-0000-4000-8000-00000000a001';

export function bootstrapAdministratorProfile(createdAt = clock.now().toISOString()): ContactProfile {
  return {
    id: BOOTSTRAP_ADMINISTRATOR_ID,
    name: 'Bootstrap Administrator',
    type: 'individual',
    roleIds: [ADMINISTRATOR_ROLE_ID],
    agencyIds: [],
    createdAt,
    version: 1,
  };
}

/**
 * The partitions (IAM `dynamodb:LeadingKeys` patterns) ensureAdministrator writes, by action: the
 * contact by Put and the listing counters it joins by Update; the API key and its id pointer by
 * Put; the OAuth client record by Update. The deploy-time seed's role is scoped to exactly these.
 */
export function bootstrapAdministratorPartitions(clientId: string): { put: string[]; update: string[]; check: string[] } {
  const contact = contactCreationPartitions(bootstrapAdministratorProfile());
  const credentials = credentialSeedPartitions(clientId, BOOTSTRAP_ADMINISTRATOR_ID);
  // The key's and the client's copies of the contact's access are checked against the contact's version (ConditionCheck).
  return { put: [...contact.put, ...credentials.put], update: [...contact.update, ...credentials.update], check: contact.put };
}

export interface BootstrapAdministratorOptions {
  apiKey: string;
  /** Without a secret the client is authenticated elsewhere (Cognito in AWS). */
  oauthClient?: { clientId: string; clientSecret?: string };
}

/**
 * Makes sure the bootstrap Administrator exists and that `apiKey` works for it; binds the
 * OAuth client to it when one is given. An existing contact is left as it is, and a key
 * already issued stays valid (a changed key is added, not swapped).
 */
export async function ensureAdministrator(options: BootstrapAdministratorOptions): Promise<{ contactId: string }> {
  const profile = bootstrapAdministratorProfile();
  const created = await createContactProfileIfAbsent(profile);
  // The seed may read nothing: the key and the client carry a copy of the contact's access only when it
  // is the profile just created (its version checked as they commit); for a contact created on an
  // earlier run they carry none, and are judged by reading the contact (as keys issued before copies existed).
  const known = created ? accessProfileOf(profile as unknown as Record<string, unknown>, BOOTSTRAP_ADMINISTRATOR_ID) : null;
  await ensureApiKey(BOOTSTRAP_ADMINISTRATOR_ID, options.apiKey, 'bootstrap administrator key', known);
  if (options.oauthClient) {
    await ensureOAuthClient(options.oauthClient.clientId, BOOTSTRAP_ADMINISTRATOR_ID, options.oauthClient.clientSecret, known);
  }
  return { contactId: BOOTSTRAP_ADMINISTRATOR_ID };
}
