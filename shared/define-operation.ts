/**
 * The one place where the platform's operation factory meets the auth area: every entry
 * file under functions/ takes `defineOperation` from here, so the platform itself needs
 * to know nothing of API keys, contacts or roles. Here too the factory of idempotent
 * operations is given the table's idempotency store.
 */
import { authenticator } from './auth/authenticate.js';
import { dynamoDbIdempotencyStore } from './platform/idempotency-dynamodb.js';
import { idempotencyOver } from './platform/idempotent-operations.js';
import { operationFactory, type DefineOperation } from './platform/operation.js';
import type { Authenticator } from './platform/principal.js';

export const defineOperation = /* @__PURE__ */ operationFactory(authenticator);

/**
 * For an operation that declares `idempotent` (a write that moves money or documents): the same
 * factory with the idempotency step over the table's store. Only the functions that take it
 * bundle the lifecycle and the store; defining one without `idempotent`, or an idempotent one
 * with `defineOperation`, fails when the module loads.
 */
export const defineIdempotentOperation = /* @__PURE__ */ operationFactory(authenticator, { idempotency: /* @__PURE__ */ idempotencyOver(dynamoDbIdempotencyStore) });

/** Judges no credential: the factory below never asks it (its operations have authentication 'none'). */
const noAuthenticator: Authenticator = {
  authenticate: async () => {
    throw new Error('an operation defined with defineOperationWithoutCaller asked for its caller');
  },
};
const withoutCaller = /* @__PURE__ */ operationFactory(noAuthenticator);

/**
 * For an operation reached without a credential (authentication 'none': the signature vendor's
 * webhook, the session that checks its own): the same factory without the authenticator, so the
 * function does not bundle the JWT verifier and the auth and contacts stores it never runs.
 * Defining one that needs a caller fails when the module loads, not at its first request.
 */
export const defineOperationWithoutCaller: DefineOperation = (definition) => {
  if (definition.authentication !== 'none') throw new Error(`${definition.version}/${definition.name}: defineOperationWithoutCaller is for operations with authentication 'none'; use defineOperation`);
  return withoutCaller(definition);
};
