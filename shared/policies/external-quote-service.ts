/** create_policy_from_externalquote: a policy built from a quote another system rated, keeping its premiums. */
import type { Principal } from './access.js';
import type { ExternalQuoteRequest } from './model.js';
import { createPolicy } from './new-policy-service.js';

export async function createPolicyFromExternalQuote(principal: Principal, input: ExternalQuoteRequest) {
  const { quote, transaction_type: transactionType, ...parameters } = input;
  // A premium sent as null is a premium not stated.
  const premiums = Object.fromEntries(Object.entries(quote.premiums).filter(([, value]) => value !== null && value !== undefined)) as Record<string, string | number>;
  return createPolicy(
    principal,
    { ...parameters, policy_type_id: input.policy_type_id ?? quote.policy_type_id, is_renewal: false, underwriting_questions: quote.underwriting_questions },
    { transactionType, risks: quote.risks, items: quote.items, premiums, fields: quote.fields },
  );
}
