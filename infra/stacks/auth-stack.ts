/**
 * Cognito: the user pool that issues the OAuth access tokens operations accept as
 * `Authorization: Bearer <JWT>` (verified in shared/auth/authenticate.ts with
 * aws-jwt-verify), a resource server `insurance-admin` with an `api` scope, a
 * client-credentials app client for machine callers, and the hosted domain that serves
 * the token endpoint. Which contact and role a client acts for is kept in the table
 * (shared/auth/store.ts ensureOAuthClient), keyed by the app client id.
 *
 * Given the table, the stack also bootstraps access on deploy (BootstrapAdministrator):
 * the Administrator contact, its API key from a generated secret, and the app client
 * mapped to it, so that the deployed API has a first caller.
 */
import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import type { FunctionBundles } from '../bundles.js';
import { BootstrapAdministrator } from '../constructs/bootstrap-administrator.js';
import type { DataResources } from '../constructs/service-function.js';

export const RESOURCE_SERVER_IDENTIFIER = 'insurance-admin';
export const API_SCOPE = 'api';

export interface AuthStackProps extends StackProps {
  /** Prefix of the Cognito hosted domain; unique in its region. Default `insurance-admin-<account>`. */
  domainPrefix?: string;
  /** The service's data: when given, the bootstrap Administrator is ensured on deploy. */
  data?: DataResources;
  bundles?: FunctionBundles;
}

export class AuthStack extends Stack {
  readonly userPool: cognito.UserPool;
  readonly serviceClient: cognito.UserPoolClient;
  readonly domain: cognito.UserPoolDomain;
  readonly bootstrapAdministrator?: BootstrapAdministrator;

  constructor(scope: Construct, id: string, props: AuthStackProps = {}) {
    super(scope, id, props);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      passwordPolicy: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: false },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const apiScope = new cognito.ResourceServerScope({ scopeName: API_SCOPE, scopeDescription: 'Call the insurance administration API' });
    const resourceServer = this.userPool.addResourceServer('ResourceServer', {
      identifier: RESOURCE_SERVER_IDENTIFIER,
      userPoolResourceServerName: 'Insurance administration API',
      scopes: [apiScope],
    });

    this.serviceClient = this.userPool.addClient('ServiceClient', {
      userPoolClientName: 'insurance-admin-service-client',
      generateSecret: true,
      authFlows: {},
      oAuth: {
        flows: { clientCredentials: true },
        scopes: [cognito.OAuthScope.resourceServer(resourceServer, apiScope)],
      },
      accessTokenValidity: Duration.hours(1),
      preventUserExistenceErrors: true,
    });

    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: props.domainPrefix ?? `insurance-admin-${Aws.ACCOUNT_ID}` },
    });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'ServiceClientId', { value: this.serviceClient.userPoolClientId });
    new CfnOutput(this, 'TokenEndpoint', { value: `${this.domain.baseUrl()}/oauth2/token` });
    new CfnOutput(this, 'TokenScope', { value: `${RESOURCE_SERVER_IDENTIFIER}/${API_SCOPE}` });

    if (props.data) {
      this.bootstrapAdministrator = new BootstrapAdministrator(this, 'BootstrapAdministrator', {
        data: props.data,
        serviceClientId: this.serviceClient.userPoolClientId,
        bundles: props.bundles,
      });
      new CfnOutput(this, 'AdministratorApiKeySecretArn', {
        description: 'aws secretsmanager get-secret-value --secret-id <this> --query SecretString --output text',
        value: this.bootstrapAdministrator.apiKeySecret.secretArn,
      });
    }
  }
}
