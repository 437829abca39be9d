/**
 * The OpenAPI description of the interface, generated from the same zod schemas the
 * operations validate with, for every operation file under functions/.
 */
import { pathToFileURL } from 'node:url';
import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod/mini';
import { addDays, todayIso } from '../shared/platform/dates.js';
import { errorResponse } from '../shared/platform/error-mapping.js';
import { AuthenticationError, MalformedBodyError, PayloadTooLargeError, PermissionDeniedError } from '../shared/platform/errors.js';
import { IdempotencyKeyInProgressError } from '../shared/platform/idempotency.js';
import { BODY_LIMIT_BYTES, type OperationHandler, type OperationMetadata } from '../shared/platform/operation.js';
import { listOperationRoutes, type OperationRoute } from './routes.js';

export const OPENAPI_VERSION_LABEL = '2.0.0';

export async function loadOperationMetadata(route: OperationRoute): Promise<OperationMetadata> {
  const module = (await import(pathToFileURL(route.entry).href)) as { handler?: OperationHandler };
  if (!module.handler?.operation) throw new Error(`${route.entry} does not export a handler made by defineOperation`);
  return module.handler.operation;
}

/**
 * The README's worked example, by field name: what /docs shows for these fields in every
 * operation, over the generic examples of the request vocabulary (shared/platform/request-fields.ts).
 */
export const WORKED_EXAMPLE_VALUES: Record<string, unknown> = {
  policy_number: '10-2026-1',
  policyNumber: '10-2026-1',
  quote_number: '10-2026-1',
  policy_id: '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b',
  policyId: '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b',
  effective_date: '11/25/2026',
  cancel_date: '2026-12-25',
  cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797',
  billing_schedule_id: 'e3645365-e835-4022-973d-43e9cba798df',
  line_name: 'Homeowners',
  policy_type_name: 'Homeowner - HO3',
  name: 'Pat Example',
  search_string: 'pat exa',
  questionId: 'e29555d3-7101-4947-a3af-a279d8774c09',
  yesNoAnswer: 'no',
  address_line1: '1 Main St',
  address_zip: '10001',
  zip: '10001',
  limit: 250000,
  deductible: 1000,
  amount: '851.62',
  // Values the schemas check by rule rather than by type, so that each operation's example passes as given.
  revision_id: '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b',
  role: 'Named Insured',
  claim_number: 'CL-2026-1',
  claim_date_type: 'proof_of_loss_received',
  peril: 'WTR',
};

/** The worked example's values that depend on where the field sits: an item's name is a coverage's. */
const WORKED_EXAMPLE_VALUES_IN: Record<string, Record<string, unknown>> = {
  items: { name: 'Dwelling' },
};

/** Values that depend on the operation: a state's id where the lines are read by state, the shipped product's version and line. */
const SHIPPED_VERSION_ID = '5d4d1c7b-9a8a-4a00-81c3-66d7db83ee1d';
const HOMEOWNERS_LINE_ID = '2cca63bc-f294-42ae-97b9-f548069e4336';
const WORKED_EXAMPLE_VALUES_OF: Record<string, Record<string, unknown>> = {
  get_all_lines: { location_id: 'NY', effective_date_id: SHIPPED_VERSION_ID },
  get_all_states: { effective_date_id: SHIPPED_VERSION_ID },
  get_export_line_file: { effective_date_id: SHIPPED_VERSION_ID, curr_eff_date_id: SHIPPED_VERSION_ID, curr_line_id: HOMEOWNERS_LINE_ID, curr_state_id: 'NY' },
  // A conflict's field is an item's id and what of it changed, as preview_revision and issue name it.
  resolve_oos_conflicts: { field: '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b.limit' },
  add_claim_contact: { role: 'claimant' },
  remove_claim_contact: { role: 'claimant' },
  declare_catastrophe: { states: ['FL'], counties: ['12086'], pcs_number: '2611', title: 'Hurricane Ana' },
  // The worked claim's expense payment: the independent adjuster's invoice; checks numbered by the service.
  make_payment: { invoice_number: 'ACE-1001' },
  make_multi_exposures_payment: { invoice_number: 'ACE-1001' },
  export_claim_payments: { check_number: 'auto_assign' },
};

/**
 * Where the id an example shows comes from: the call that makes it (or lists it), so that a
 * reader of /docs replaces the example's fixed id with a real one. By field name, and for a
 * field whose id depends on the operation (`id`), by operation.
 */
const QUOTE = 'create_quote_extended (or create_quote) answers it';
const ID_SOURCES: Record<string, string> = {
  policy_id: `${QUOTE} as data.policy_id`,
  policyId: `${QUOTE} as data.policy_id`,
  policy_number: `${QUOTE} as data.quote_number (10-2026-1 is the first policy of a fresh .data/)`,
  policyNumber: `${QUOTE} as data.quote_number (10-2026-1 is the first policy of a fresh .data/)`,
  quote_number: `${QUOTE} as data.quote_number`,
  number: `${QUOTE} as data.quote_number`,
  new_policy_number: 'a policy number of your own numbering, not yet used',
  revision_id: 'retrieve_policy answers the revision in force as data.active_revision.id; new_revision answers a new one as data.revision_id',
  revisionId: 'retrieve_policy answers the revision in force as data.active_revision.id; new_revision answers a new one as data.revision_id',
  from_revision_id: 'retrieve_policy_terms answers each term\'s revisions with their ids',
  to_revision_id: 'retrieve_policy_terms answers each term\'s revisions with their ids',
  policy_term_id: 'retrieve_policy answers the term in force as data.active_policy_term.id',
  cancel_reason_id: "the reference product's cancel reason Insured's Request (shared/catalog/reference/cancel-reasons.json lists them)",
  renewal_status_reason: "a non-renewal reason of the reference product's renewal rules",
  billing_schedule_id: "the reference product's Two Pay schedule; retrieve_billing_schedule_options answers each schedule's id",
  questionId: "the reference product's underwriting question Losses in past 3 years; retrieve_revision_details answers a revision's questions",
  optionId: "an underwriting option of the product; retrieve_revision_details answers a revision's options",
  agency_id: "storeNewContact answers a new agency's id (an organization with the Agency role); lookupContactByName finds one",
  agencyId: "storeNewContact answers a new agency's id (an organization with the Agency role); lookupContactByName finds one",
  agency: "storeNewContact answers a new agency's id; lookupContactByName finds one",
  agency_number: "storeNewContact answers a new agency's id; lookupContactByName finds one",
  agent_id: "storeNewContact answers a new agent's id; lookupContactByName finds one",
  contact_id: 'storeNewContact answers a new contact\'s id; lookupContactByName and retrieveContactList find one',
  contactId: 'storeNewContact answers a new contact\'s id; lookupContactByName and retrieveContactList find one',
  to_contact_id: 'storeNewContact answers a new contact\'s id; lookupContactByName finds one',
  x_contact_reference: 'storeNewContact answers a new contact\'s id; lookupContactByName finds one',
  defaultSurplusLineProducerId: "storeNewContact answers a new contact's id",
  stateId: 'get_all_states answers the states\' ids',
  roleId: 'retrieve_my_roles answers the roles with their ids',
  role_id: 'retrieve_my_roles answers the roles with their ids',
  risk_id: 'retrieve_risks (or retrieve_revision_details) answers a revision\'s properties with their ids; create_risk answers a new one',
  from_risk_id: 'retrieve_risks answers a revision\'s properties with their ids',
  to_risk_id: 'retrieve_risks answers a revision\'s properties with their ids',
  property_id: 'retrieve_risks (or retrieve_revision_details) answers a revision\'s properties with their ids; create_risk answers a new one',
  propertyId: 'retrieve_risks answers a revision\'s properties with their ids',
  propId: 'retrieve_risks answers a revision\'s properties with their ids',
  primaryCoverageId: 'getInspectionPrimaryCoverageOptions answers the coverages with their ids',
  item_id: "a line item of the product (retrieve_revision_details answers each item's item_id)",
  line_item_id: "retrieve_revision_details answers the revision's items with their ids; add_line_item answers a new one",
  link_id: "retrieve_revision_details answers the item that links it, with its id",
  sub_line_id: "a sub line of the product (retrieve_revision_details answers each sub line's sub_line_id)",
  sub_line_instance_id: 'add_sub_line answers the sub line added, with its id',
  property_sub_line_id: 'add_sub_line answers the sub line added, with its id',
  policy_type_id: "a policy type of the product; get_all_lines answers each line's policy types with their ids",
  line_id: 'get_all_lines answers the lines with their ids',
  curr_line_id: 'get_all_lines answers the lines with their ids (this one is the shipped Homeowners line)',
  effective_date_id: 'get_all_effective_dates answers the product versions with their ids (this one is the shipped product)',
  curr_eff_date_id: 'get_all_effective_dates answers the product versions with their ids (this one is the shipped product)',
  version_id: 'import_line_file answers it as data.version_id; get_all_effective_dates lists them',
  run_id: 'rate_impact answers it as data.run_id',
  impact_run_id: 'rate_impact answers it as data.run_id',
  refund_id: 'list_refunds answers each refund\'s refund_id',
  moratorium_id: 'declare_moratorium answers it as data.moratorium_id; list_moratoriums lists them',
  key_id: 'create_api_key and list_api_keys answer it as key_id',
  delivery_id: 'list_deliveries answers each delivery\'s delivery_id',
  subscription_id: 'events/create answers it as data.subscription_id; events/list lists them',
  signature_request_id: 'request_deliverable_signature answers it; retrieve_signature_requests lists them',
  policy_group_id: 'add_policies_to_new_group answers each group formed with its policy_group_id',
  file_id: "getToBePrinted answers each file's file_id; retrieve_files_pending_signature those waiting for a signature",
  paymentId: 'retrieve_account_history answers each row with its id (a Payment row)',
  invoice_id: 'retrieve_account_history answers each row with its id (an Invoice row)',
  return_premium_id: 'retrieve_account_history answers each row with its id (a Return Premium row)',
  claim_id: 'claims/new_claim answers it as data.id; claims/search lists claims with their ids',
  claim_number: 'claims/new_claim answers it as data.claim_number (CL-2026-1 is the first claim of a fresh .data/), or your own external number',
  exposure_id: 'claim_exposures/create_exposure answers it as data.id; claim_exposures/list_exposures lists them',
  payment_id: 'claim_exposures/make_payment answers it as data.id; claims/get_claim_payments lists them',
  transaction_id: "claim_exposures/get_exposure_transactions lists them; a payment's id or its line's transaction_id (claims/get_claim_payments)",
  claimant_contact_id: "storeNewContact answers a new contact's id (the claimant); the insured when absent",
  adjuster_contact_id: "a contact holding the Claims Adjuster or Claims Manager role (storeNewContact, storeRoles)",
  cat_id: 'claims/declare_catastrophe answers it as data.id; claims/get_all_catastrophes lists them',
  pcs_number: "the catastrophe's number from Property Claim Services, as they publish it",
  lastQuoteWizardStepId: "a step of your own quote wizard, by your own id",
  external_system_reference: "your own system's reference, kept as given",
};
const REVISION_ITEM = "retrieve_revision_details answers the revision's items with their ids";
const ID_SOURCES_OF: Record<string, Record<string, string>> = {
  getAttachment: { id: "getToBePrinted answers each file's file_id (file_id is accepted as this field's other name)" },
  add_sub_line: { id: "an optional item of the sub line, by the product's item id (retrieve_revision_details answers each item's item_id)" },
  copy_sub_line: { id: "an optional item of the sub line, by the product's item id (retrieve_revision_details answers each item's item_id)" },
  create_policy_from_externalquote: { id: "a line item of the product, by its id (retrieve_revision_details answers each item's item_id)" },
  retrieve_rates_for_quote: { id: REVISION_ITEM },
  update_rating_information: { id: REVISION_ITEM },
  update_property_location: { id: "retrieve_risks answers a revision's properties with their ids" },
  resolve_oos_conflicts: { field: "preview_revision (and a refused issue) answer each conflict's field: an item's id and what of it changed" },
  create_deliverable: { location_id: "retrieve_risks answers a revision's properties (its business locations) with their ids", claim_number: 'a claim of the policy, by its number' },
  removeNote: { id: 'a note of the policy, by its id' },
  export_claim_payments: { id: 'claim_exposures/make_payment answers it as data.id; claims/get_claim_payments lists them' },
  retrieveAspectData: { id: 'storeNewContact answers a new contact\'s id; lookupContactByName finds one' },
};

/** Whether an example is one of the fixed ids: a UUID, or the worked example's policy number. */
const isFixedId = (value: unknown) => typeof value === 'string' && (/^[0-9a-f]{8}-[0-9a-f]{4}-/.test(value) || value === WORKED_EXAMPLE_VALUES.policy_number);

/** For text fields the worked example does not name: a value of the kind their name says. */
const EXAMPLES_BY_NAME: Array<[RegExp, unknown]> = [
  [/(^|_)id$|Id$|_ids?$/, '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b'],
  [/date$|Date$/, '2026-11-25'],
  [/email/i, 'pat@example.com'],
  [/phone/i, '212-555-0100'],
  [/city$/i, 'New York'],
  [/state$/i, 'NY'],
  [/zip|postal/i, '10001'],
  [/number$|Number$/, '10-2026-1'],
  [/name$|Name$/, 'Pat Example'],
  [/address/i, '1 Main St'],
  [/reason$|description$/i, "Insured's request"],
];

const isText = (property: Record<string, unknown>) =>
  property.type === 'string' || (Array.isArray(property.anyOf) && property.anyOf.some((option) => (option as { type?: string }).type === 'string'));

/**
 * Puts the worked example's value on each property it names, through nested objects, lists and
 * alternatives. `within` is the nearest property the schema sits under (an item of `items`).
 */
function withWorkedExample(schema: unknown, operation: string, within?: string): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) return schema.forEach((option) => withWorkedExample(option, operation, within));
  const node = schema as Record<string, unknown>;
  const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
  const here = { ...(WORKED_EXAMPLE_VALUES_OF[operation] ?? {}), ...((within && WORKED_EXAMPLE_VALUES_IN[within]) || {}) };
  for (const [field, property] of Object.entries(properties ?? {})) {
    if (!property || typeof property !== 'object' || 'properties' in property || 'items' in property) continue;
    if (field in here) property.examples = [here[field]];
    else if (field in WORKED_EXAMPLE_VALUES) property.examples = [WORKED_EXAMPLE_VALUES[field]];
    else if (!property.examples && !property.enum && isText(property)) {
      const byName = EXAMPLES_BY_NAME.find(([pattern]) => pattern.test(field));
      if (byName) property.examples = [byName[1]];
    }
    const example = Array.isArray(property.examples) ? property.examples[0] : undefined;
    const source = ID_SOURCES_OF[operation]?.[field] ?? ID_SOURCES[field];
    if (isFixedId(example) && source) {
      property.description = `${typeof property.description === 'string' ? `${property.description} ` : ''}Example ${example as string}: ${source}.`;
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'examples' || key === 'default') continue;
    if (key === 'properties') for (const [field, property] of Object.entries(value as Record<string, unknown>)) withWorkedExample(property, operation, field);
    else withWorkedExample(value, operation, within);
  }
}

/** The worked example's quote (README, /docs, `npm run demo`), effective on `effectiveDate` in the form the caller sends. */
export function workedExampleQuoteInfo(effectiveDate: string) {
  return {
    effective_date: effectiveDate,
    line_name: 'Homeowners',
    policy_type_name: 'Homeowner - HO3',
    named_insureds: [{ name: 'Pat Example' }],
    underwriting_questions: [{ questionId: 'e29555d3-7101-4947-a3af-a279d8774c09', yesNoAnswer: 'no' }],
    locations: [{ address_line1: '1 Main St', address_zip: '10001' }],
    items: [
      { name: 'Dwelling', limit: 250000, deductible: 1000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } },
      { name: 'Personal Liability', limit: 300000 },
      { name: 'Medical Payments', limit: 5000 },
    ],
  };
}

/**
 * The README's worked example, call by call: the body /docs offers for these operations, so
 * that "Try it out" after Authorize makes the worked example's calls (dated from `today`).
 */
export function workedExampleCalls(today: string): Record<string, Record<string, unknown>> {
  const policy = { policy_number: WORKED_EXAMPLE_VALUES.policy_number, policy_id: WORKED_EXAMPLE_VALUES.policy_id };
  return {
    '/api/v2/policies/create_quote_extended': { quote_info: workedExampleQuoteInfo(today) },
    '/api/v2/policies/bind': { bind_info: { policy_number: policy.policy_number } },
    '/api/v2/policies/issue': { issue_info: { policy_number: policy.policy_number } },
    '/api/v1/payments/makeManualPolicyPayment': { policyNumber: policy.policy_number, amount: '851.62' },
    '/api/v2/policies/retrieve_account_history': { policy_id: policy.policy_id },
    // Through a week ahead: a Declaration issued on a weekend or a holiday prints on the next business day.
    '/api/v1/printing/getToBePrinted': { json_dict: { to_date: addDays(today, 7) } },
    '/api/v2/policies/search': { search_string: 'pat exa' },
    '/api/v2/policies/cancel_policy': { policy_id: policy.policy_id, cancel_reason_id: WORKED_EXAMPLE_VALUES.cancel_reason_id, cancel_date: addDays(today, 30) },
  };
}

/**
 * Bodies for operations whose schema cannot show what a caller sends: free-form entries (checked
 * line by line by the operation), or one of two optional fields (a body built from the schema
 * would name neither and be refused).
 */
function explicitCalls(today: string): Record<string, Record<string, unknown>> {
  const inForce = { policies: [WORKED_EXAMPLE_VALUES.policy_number] };
  // A lockbox line names the policy by its number's digits (10-2026-1 is 1020261).
  const lockbox = { transactions: [{ policy: '1020261', check: '1001', payment: '851.62' }] };
  return {
    '/api/v2/policies/apply_lockbox_payment_transactions': lockbox,
    '/api/v2/policies/apply_pnc_lockbox_payment_transactions': lockbox,
    '/api/v2/policies/post_external_policies': { policies: [{ policy_number: 'EXT-100', other_details: { carrier: 'Other Mutual' } }] },
    '/api/v2/policies/get_policies_with_active_current_revision': inForce,
    '/api/v2/utils/get_policies_with_active_current_revision': inForce,
    // One of check_number and ach_trace is required; a month is YYYY-MM.
    '/api/v2/billing/mark_refund_issued': { refund_id: '5b1e7c52-3f0a-4c55-9d7e-2f6f3c1a9b10', check_number: '10001' },
    '/api/v2/billing/retrieve_commission_statement': { agency_id: '7d3c2a1b-4e5f-4a6b-8c7d-9e0f1a2b3c4d', month: today.slice(0, 7), format: 'json' },
    // The books: months as YYYY-MM (a month closes once it has ended: the month before this one).
    '/api/v2/reports/premium': { from_month: today.slice(0, 7), to_month: today.slice(0, 7), group_by: ['state', 'agency'], format: 'json' },
    '/api/v2/reports/close_month': { month: new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 1)).toISOString().slice(0, 7) },
    '/api/v2/reports/journal': { from_date: `${today.slice(0, 7)}-01`, to_date: today, format: 'json' },
    // One of state and policy_id is required.
    '/api/v2/billing/list_refunds': { state: 'pending' },
    // Paid on a day not after today.
    '/api/v2/billing/record_commission_payment': { agency_id: '7d3c2a1b-4e5f-4a6b-8c7d-9e0f1a2b3c4d', amount: '123.99', paid_on: today, reference: 'CHK-20001' },
    // One of effective_date_id and curr_eff_date_id (the vendor's name for it) is required.
    '/api/v2/lines/get_export_line_file': { effective_date_id: SHIPPED_VERSION_ID },
    // One of id and file_id (getToBePrinted's name for it) is required.
    '/api/v1/printing/getAttachment': { json_dict: { file_id: '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b' } },
    '/api/v1/deliverables/create_deliverable': { revision_id: WORKED_EXAMPLE_VALUES.revision_id, deliverable_type: 'Declaration', go_date: today },
  };
}

type JsonSchema = Record<string, unknown>;

const DAYS_FROM_TODAY: Record<string, number> = { effective_date: 0, cancel_date: 30 };

const isNullType = (schema: JsonSchema) => schema.type === 'null';

/**
 * A value for a schema that its operation accepts: its example, else its first allowed value,
 * else one of its type. Objects carry their required fields and the fields the worked example
 * names, nothing else: an optional field's placeholder ("string" for a status) is what made
 * "Try it out" fail.
 */
function exampleValue(schema: JsonSchema | undefined, today: string, field = ''): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  // The worked example's dates are days from today (the quote is effective today), not the day it was written.
  if (field in DAYS_FROM_TODAY) return addDays(today, DAYS_FROM_TODAY[field]);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (!Array.isArray(options)) continue;
    const option = options.find((candidate) => !isNullType(candidate));
    if (option) return exampleValue(option, today, field);
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((candidate) => candidate !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const body: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (!required.has(name) && !(name in WORKED_EXAMPLE_VALUES)) continue;
      const value = exampleValue(property, today, name);
      if (value !== undefined) body[name] = value;
    }
    return body;
  }
  if (type === 'array') {
    const minItems = Number(schema.minItems ?? 0);
    const item = exampleValue(schema.items as JsonSchema | undefined, today, field);
    return item === undefined ? [] : Array.from({ length: Math.max(minItems, 1) }, () => item);
  }
  if (type === 'string') {
    const byName = EXAMPLES_BY_NAME.find(([pattern]) => pattern.test(field));
    return byName ? byName[1] : 'Pat Example';
  }
  if (type === 'integer' || type === 'number') return Math.max(Number(schema.minimum ?? 1), 1);
  if (type === 'boolean') return false;
  // A free-form value (an underwriting option's answer): any JSON is accepted.
  return type === undefined ? 'yes' : undefined;
}

/** The body "Try it out" sends as given: the worked example's call, else one built from the schema. */
function requestExample(metadata: OperationMetadata, schema: JsonSchema, path: string, today: string): Record<string, unknown> {
  const given = workedExampleCalls(today)[path] ?? explicitCalls(today)[path];
  if (given) return given;
  const flat = (exampleValue(schema, today) ?? {}) as Record<string, unknown>;
  return metadata.wrapper ? { [metadata.wrapper]: flat } : flat;
}

const quietLogger = { error: () => undefined } as unknown as Logger;
const EXAMPLE_REQUEST_ID = '0f9c2b1e-5d4a-4c3b-9a8e-7f6d5c4b3a21';

/** What the service answers for each failure status, made by the one error mapping the operations use. */
function failureExamples(metadata: OperationMetadata): Record<string, unknown> {
  const answer = (error: Error) =>
    JSON.parse(String(errorResponse(error, metadata.version, EXAMPLE_REQUEST_ID, quietLogger, undefined, metadata.messageShape).body)) as unknown;
  return {
    '400': answer(new MalformedBodyError()),
    '401': answer(new AuthenticationError()),
    '403': answer(new PermissionDeniedError()),
    '409': answer(new IdempotencyKeyInProgressError('A request sent earlier with this Idempotency-Key is still being processed', 5)),
    '413': answer(new PayloadTooLargeError(BODY_LIMIT_BYTES)),
    '500': answer(new Error('an unexpected fault')),
  };
}

function requestSchema(metadata: OperationMetadata): { schema: JsonSchema; input: JsonSchema } {
  const schema = z.toJSONSchema(metadata.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  withWorkedExample(schema, metadata.name);
  const properties = { ...((schema.properties as Record<string, unknown>) ?? {}) };
  // Accepted for existing clients; /docs sends the key given to Authorize instead, so no example carries it.
  properties.api_key = { type: 'string', description: 'API key (one of the accepted credentials)', writeOnly: true };
  const flat = { ...schema, properties };
  if (!metadata.wrapper) return { schema: flat, input: schema };
  // v1 operations with a wrapper accept the wrapped form and the flat form alike.
  return { schema: { oneOf: [{ type: 'object', properties: { [metadata.wrapper]: schema, api_key: properties.api_key }, required: [metadata.wrapper] }, flat] }, input: schema };
}

const envelope = (version: string) => ({
  type: 'object',
  required: ['success', version === 'v1' ? 'message' : 'messages'],
  properties: {
    success: { type: 'boolean' },
    [version === 'v1' ? 'message' : 'messages']: { type: 'array', items: { type: 'string' } },
    data: {},
  },
});

/**
 * `today` dates the worked example's calls (its quote is effective today): the local server
 * passes its own day; the deployed document carries the day it was built.
 */
export async function buildOpenApiDocument(routes = listOperationRoutes(), options: { today?: string } = {}): Promise<Record<string, unknown>> {
  const today = options.today ?? todayIso();
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    const metadata = await loadOperationMetadata(route);
    const request = requestSchema(metadata);
    const examples = failureExamples(metadata);
    const failure = (status: keyof typeof examples, description: string) => ({
      description,
      content: { 'application/json': { schema: envelope(route.version), example: examples[status] } },
    });
    paths[route.path] = {
      post: {
        operationId: route.id,
        summary: metadata.summary,
        tags: [`${route.version} ${route.module}`],
        ...(metadata.permission ? { description: `Requires the permission \`${metadata.permission}\`.` } : {}),
        ...(metadata.authentication === 'none' ? { security: [] } : {}),
        requestBody: {
          required: false,
          content: { 'application/json': { schema: request.schema, example: requestExample(metadata, request.input, route.path, today) } },
        },
        responses: {
          '200': { description: 'Success, or a business or validation failure (`success: false`)', content: { 'application/json': { schema: envelope(route.version) } } },
          '400': failure('400', 'The body is not JSON'),
          '401': failure('401', 'No valid credential'),
          '403': failure('403', 'The caller lacks the permission'),
          '409': failure('409', 'A request sent earlier with the same Idempotency-Key is still running: retry after the `Retry-After` header\'s seconds for its answer'),
          '413': failure('413', 'The body is over the limit'),
          '500': failure('500', 'Unexpected fault; the message carries a request id'),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Insurance administration service',
      version: OPENAPI_VERSION_LABEL,
      description: 'JSON-over-HTTP operations for quoting, rating, binding, issuing, billing, cancelling and printing homeowners policies.',
    },
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An API key as the whole Authorization header: give it to Authorize and every "Try it out" sends it (existing clients may put `api_key` in the body instead). A local run keeps its key in `.data/admin-api-key`.' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'OAuth 2.0 client-credentials access token' },
        session: { type: 'apiKey', in: 'cookie', name: 'ias_session', description: 'Session cookie minted by /api/v2/auth/session' },
      },
    },
    security: [{ apiKeyHeader: [] }, { bearer: [] }, { session: [] }],
    paths,
  };
}
