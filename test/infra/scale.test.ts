import { afterAll, describe, expect, it } from 'vitest';
import { SITE_ROUTE_PATHS } from '../../infra/constructs/api-docs-site.js';
import { groupOperations, loadOperations, MAX_OPERATIONS_PER_STACK } from '../../infra/operations.js';
import { listOperationRoutes } from '../../infra/routes.js';
import { operationSource, removeScratch, resourcesOf, SCRATCH, synthesize, writeTree } from './helpers.js';

afterAll(removeScratch);

/** Well below CloudFormation's 500. */
const RESOURCE_BUDGET = 200;

/** The operations of the interface (spec/interface.md section 4), about 85. */
const MODULES: Record<string, string[]> = {
  'v1/contacts': ['lookupContactByName', 'retrieveAddressInfoFromZip', 'retrieveAspectData', 'retrieveContactList', 'storeNewContact', 'storeRoles'],
  'v1/custom_ui': ['createURLOverride', 'updateURLOverride', 'deleteURLOverride', 'retrieveURLOverrides'],
  'v1/deliverables': ['create_deliverable'],
  'v1/notes': ['removeNote'],
  'v1/payments': ['makeManualPolicyPayment'],
  'v1/policies': ['getInspection', 'getInspectionPrimaryCoverageOptions', 'newCustomDeliverable', 'retrievePropertyInfoFromZip', 'storeNSF'],
  'v1/printing': ['getAttachment', 'getToBePrinted'],
  'v2/auth': ['retrieve_my_permissions', 'retrieve_my_roles', 'select_my_role', 'session', 'create_api_key', 'list_api_keys', 'revoke_api_key'],
  'v2/utils': ['get_release_info'],
  'v2/policies': `create_policy create_policy_from_externalquote new_policy_information retrieve_policy retrieve_policy_terms
    retrieve_revision_details retrieve_revision_analysis async_request_loss_analysis get_policies search issue bind cancel_policy
    update_effective_and_expiration_date create_quote create_quote_extended requote_extended update_underwriting_questions
    update_underwriting_options rate_revision rate_risk reset_revision_premium reset_risk_premium retrieve_rates_for_quote create_risk
    copy_risk retrieve_risks retrieve_risk_details update_property_location update_primary_property update_property_sub_line_name
    update_rating_information update_builder_ready_to_rate add_line_item add_sub_line copy_sub_line update_mortgagee_information
    update_policy_last_visited update_review_workflow retrieve_account_history retrieve_billing_schedule_options
    retrieve_potential_policies_payors post_external_policies delete_external_policies add_external_policies_to_existing_groups
    add_policies_to_existing_groups add_policies_to_new_group update_inactive_policy_groups request_deliverable_signature
    retrieve_signature_requests retrieve_files_pending_signature cancel_signature_request application_signature_event_callback
    mark_file_as_signed apply_lockbox_payment_transactions retrieve_lockbox_matchfile_info get_signable_deliverable_names
    get_policies_by_contact_id_db_query get_policies_with_active_current_revision`.split(/\s+/),
};

function interfaceTree(extra: Record<string, string> = {}, base?: string): string {
  const files: Record<string, string> = { ...extra };
  for (const [module, names] of Object.entries(MODULES)) {
    const version = module.split('/')[0];
    for (const name of names) files[`${module}/${name}.ts`] = operationSource(version, name, { table: 'write', bucket: 'write', queues: ['print-batches'] });
  }
  return writeTree(files, 'infra-interface-', base);
}

describe('stack split for the whole interface', () => {
  it('keeps every stack, nested or not, far below the CloudFormation resource limit with all ~85 operations', async () => {
    const functionsDir = interfaceTree({}, SCRATCH);
    const synth = await synthesize({ functionsDir });
    expect(synth.service.operations.length).toBeGreaterThanOrEqual(85);

    let routes = 0;
    for (const [path, stack] of synth.stacks) {
      const resources = resourcesOf(synth.template(stack));
      expect(Object.keys(resources).length, path).toBeLessThan(RESOURCE_BUDGET);
      routes += Object.values(resources).filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route').length;
    }
    // + the site's routes and the signing page's GET and POST
    expect(routes).toBe(synth.service.operations.length + SITE_ROUTE_PATHS.length + 2);
  }, 180_000);

  it("places an operation by its own module and name only, so adding one never moves another's route", async () => {
    const before = groupOperations(listOperationRoutes(interfaceTree()));
    const after = groupOperations(listOperationRoutes(interfaceTree({ 'v2/policies/zz_new_operation.ts': operationSource('v2', 'zz_new_operation') })));
    const placement = (groups: typeof before) => new Map(groups.flatMap((group) => group.operations.map((op) => [op.id, group.key] as const)));
    const placedAfter = placement(after);
    for (const [id, key] of placement(before)) expect(placedAfter.get(id), id).toBe(key);
    for (const group of after) expect(group.operations.length).toBeLessThanOrEqual(MAX_OPERATIONS_PER_STACK);
  });

  it('refuses an entry file whose declared name is not its path', async () => {
    const functionsDir = writeTree({ 'v2/utils/get_thing.ts': operationSource('v2', 'other_name') });
    await expect(loadOperations(functionsDir)).rejects.toThrow(/get_thing\.ts declares v2\/other_name/);
  });
});
