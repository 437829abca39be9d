/**
 * The one place where the platform's operation factory meets the auth area: every entry
 * file under functions/ takes `defineOperation` from here, so the platform itself needs
 * to know nothing of API keys, contacts or roles.
 */
import { authenticator } from './auth/authenticate.js';
import { operationFactory } from './platform/operation.js';

export const defineOperation = operationFactory(authenticator);
