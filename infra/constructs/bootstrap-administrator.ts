/**
 * Gives a fresh deployment its first caller: a CloudFormation custom resource backed by
 * events/bootstrap/ensure-administrator.ts ensures the bootstrap Administrator contact, an
 * API key for it whose value is a Secrets Manager secret the stack generates, and the
 * mapping of the Cognito client-credentials app client to that contact.
 *
 * The key never appears in the template or in logs: the resource's property is a
 * `{{resolve:secretsmanager:...}}` dynamic reference that CloudFormation resolves when it
 * calls the provider, whose framework function logs nothing below FATAL. An operator reads
 * the key with `aws secretsmanager get-secret-value --secret-id <AdministratorApiKeySecretArn>`.
 */
import { join } from 'node:path';
import { CustomResource, Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { bootstrapAdministratorPartitions, BOOTSTRAP_ADMINISTRATOR_ID } from '../../shared/auth/index.js';
import type { FunctionBundles } from '../bundles.js';
import { PROJECT_ROOT, ServiceFunction, type DataResources } from './service-function.js';

export const ENSURE_ADMINISTRATOR_ENTRY = join(PROJECT_ROOT, 'events', 'bootstrap', 'ensure-administrator.ts');

/** Length of the generated key: letters and digits, about 285 bits. */
export const ADMINISTRATOR_API_KEY_LENGTH = 48;

/**
 * The partitions (`dynamodb:LeadingKeys` patterns) the seed writes, by action: the
 * Administrator's own contact partition and the listing counters it joins are created by
 * Put and Update; an API key and its id pointer by Put (their digest and id are not known
 * before the run); the one OAuth client record by Update; the contact's list of credentials by Put
 * and Update, and the contact itself by ConditionCheck (the copies of its access the key and the
 * client carry are taken from the profile just created, checked against its version).
 */
export function bootstrapAdministratorWrites(clientId: string): { put: string[]; update: string[]; check: string[] } {
  return bootstrapAdministratorPartitions(clientId);
}

export interface BootstrapAdministratorProps {
  data: DataResources;
  /** The Cognito app client whose tokens act as the Administrator. */
  serviceClientId: string;
  bundles?: FunctionBundles;
}

export class BootstrapAdministrator extends Construct {
  /** Holds the Administrator's API key. */
  readonly apiKeySecret: secretsmanager.Secret;
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: BootstrapAdministratorProps) {
    super(scope, id);

    this.apiKeySecret = new secretsmanager.Secret(this, 'ApiKey', {
      description: 'API key of the bootstrap Administrator of the insurance administration service',
      generateSecretString: { passwordLength: ADMINISTRATOR_API_KEY_LENGTH, excludePunctuation: true, includeSpace: false },
    });

    const seed = new ServiceFunction(this, 'Handler', {
      entry: ENSURE_ADMINISTRATOR_ENTRY,
      description: 'Ensures the bootstrap Administrator, its API key and the service client on deploy',
      functionClass: 'deploy',
      data: props.data,
      resources: {},
      timeout: Duration.minutes(1),
      environment: { TABLE_NAME: props.data.table.tableName },
      bundles: props.bundles,
    });
    // Exactly the records ensureAdministrator writes; no reads, no deletes, no secret access
    // (CloudFormation resolves the secret with the deployer's permissions).
    const writes = bootstrapAdministratorWrites(props.serviceClientId);
    seed.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'CreateAdministratorRecords',
        actions: ['dynamodb:PutItem'],
        resources: [props.data.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': writes.put } },
      }),
    );
    seed.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'UpdateCountersAndServiceClient',
        actions: ['dynamodb:UpdateItem'],
        resources: [props.data.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': writes.update } },
      }),
    );

    // The copies of the new contact's access that its key and client carry are checked against its version as they commit.
    seed.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'CheckAdministratorVersion',
        actions: ['dynamodb:ConditionCheckItem'],
        resources: [props.data.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': writes.check } },
      }),
    );

    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: seed.function,
      // The event carries the resolved key: the framework must not log it (FATAL is also the default).
      frameworkLambdaLoggingLevel: lambda.ApplicationLogLevel.FATAL,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: logs.RetentionDays.ONE_MONTH }),
    });
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::BootstrapAdministrator',
      properties: {
        ContactId: BOOTSTRAP_ADMINISTRATOR_ID,
        ServiceClientId: props.serviceClientId,
        // Deliberately unwrapped: a dynamic reference, resolved by CloudFormation, not a value.
        AdministratorApiKey: this.apiKeySecret.secretValue.unsafeUnwrap(),
      },
    });
  }
}
