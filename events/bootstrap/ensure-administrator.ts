/**
 * CloudFormation custom resource (custom-resources Provider onEvent handler) that gives a
 * fresh deployment its first caller: the bootstrap Administrator contact, its API key and
 * the Cognito client-credentials app client acting for it (shared/auth/bootstrap-administrator.ts).
 * Wired by infra/constructs/bootstrap-administrator.ts.
 *
 * The key arrives as the `AdministratorApiKey` property, a `{{resolve:secretsmanager:...}}`
 * dynamic reference that CloudFormation resolves on the way in: the template holds only the
 * reference, and the Provider's framework function does not log events (its log level is
 * FATAL). This handler never logs its event or the key. Deleting the resource leaves the
 * Administrator in place: the table outlives the stack, and so must its first key.
 */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { ensureAdministrator } from '../../shared/auth/index.js';

export const PHYSICAL_RESOURCE_ID = 'bootstrap-administrator';

/** A generated key is 48 characters; anything much shorter was not made by the stack. */
export const MINIMUM_API_KEY_LENGTH = 32;

export interface EnsureAdministratorResponse {
  PhysicalResourceId: string;
  Data?: { ContactId: string };
}

export class InvalidBootstrapPropertyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidBootstrapPropertyError';
  }
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<EnsureAdministratorResponse> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const { AdministratorApiKey: apiKey, ServiceClientId: clientId } = event.ResourceProperties as Record<string, unknown>;
  if (typeof apiKey !== 'string' || apiKey.length < MINIMUM_API_KEY_LENGTH) {
    // Says what is wrong without echoing the value: the error reaches CloudFormation's events.
    throw new InvalidBootstrapPropertyError(`AdministratorApiKey must be a string of at least ${MINIMUM_API_KEY_LENGTH} characters`);
  }
  if (typeof clientId !== 'string' || clientId.length === 0) {
    throw new InvalidBootstrapPropertyError('ServiceClientId must be the Cognito app client id');
  }
  const { contactId } = await ensureAdministrator({ apiKey, oauthClient: { clientId } });
  console.log(JSON.stringify({ message: 'bootstrap administrator ensured', requestType: event.RequestType, contactId, clientId }));
  return { PhysicalResourceId: PHYSICAL_RESOURCE_ID, Data: { ContactId: contactId } };
}
