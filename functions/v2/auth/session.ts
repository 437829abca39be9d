import * as z from 'zod/mini';
import { clearedSessionCookie, openOrConfirmSession, sessionCookie } from '../../../shared/auth/index.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { defineOperationWithoutCaller } from '../../../shared/define-operation.js';

/**
 * Authenticates itself (spec 5): an API key in the body or the Authorization header
 * opens a session, a live session cookie is confirmed, anything else gets the
 * documented permissionDenied variant rather than a 401.
 */
export const handler = defineOperationWithoutCaller({
  version: 'v2',
  name: 'session',
  summary: 'Issue a session cookie to a contact authenticated by API key, or confirm a live session cookie',
  permission: null,
  authentication: 'none',
  input: () => z.object({}),
  resources: { table: 'write' },
  handle: async (_input, { credentials }) => {
    const outcome = await openOrConfirmSession(credentials);
    switch (outcome.kind) {
      case 'opened':
        return new Reply(
          { success: true, messages: [], data: { contact_id: outcome.contactId, expires_at: outcome.expiresAt.toISOString() } },
          { cookies: [sessionCookie(outcome.token)] },
        );
      case 'continued':
        return new Reply({ success: true, messages: [`Session is active until ${outcome.expiresAt.toISOString()}`] });
      case 'denied':
        // A dead cookie is cleared so the browser stops presenting it.
        return new Reply(
          { permissionDenied: true, success: false },
          credentials.sessionToken ? { cookies: [clearedSessionCookie()] } : {},
        );
    }
  },
});
