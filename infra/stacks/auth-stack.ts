/**
 * Cognito: the user pool that issues the OAuth access tokens operations accept as
 * `Authorization: Bearer <JWT>` (verified in shared/auth/authenticate.ts with
 * aws-jwt-verify), a resource server `insurance-admin` with an `api` scope, a
 * client-credentials app client for machine callers, and the hosted domain that serves
 * the token endpoint.
 *
 * Clients that know the API by its address ask for the scope `https://<host>/api`. When the
 * API has a custom domain (prop or context `apiDomainName`: `-c apiDomainName=api.example.com`),
 * a second resource server named by that origin makes `https://<apiDomainName>/api` a valid
 * scope of the same app client, beside `insurance-admin/api`. Which contact and role a client acts for is kept in the table
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

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export interface AuthStackProps extends StackProps {
  /** Prefix of the Cognito hosted domain; unique in its region. Default `insurance-admin-<account>`. */
  domainPrefix?: string;
  /** The API's custom domain (host name only); default: context `apiDomainName`. */
  apiDomainName?: string;
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
    const apiDomainName = apiDomainNameOf(this, props.apiDomainName);
    const domainResourceServer = apiDomainName
      ? this.userPool.addResourceServer('DomainResourceServer', {
          identifier: `https://${apiDomainName}`,
          userPoolResourceServerName: `Insurance administration API at ${apiDomainName}`,
          scopes: [apiScope],
        })
      : undefined;

    this.serviceClient = this.userPool.addClient('ServiceClient', {
      userPoolClientName: 'insurance-admin-service-client',
      generateSecret: true,
      authFlows: {},
      oAuth: {
        flows: { clientCredentials: true },
        scopes: [resourceServer, ...(domainResourceServer ? [domainResourceServer] : [])].map((server) => cognito.OAuthScope.resourceServer(server, apiScope)),
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
    if (apiDomainName) new CfnOutput(this, 'DomainTokenScope', { value: `https://${apiDomainName}/${API_SCOPE}` });

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

/** The API's custom domain from the prop or context `apiDomainName`: a bare host name, or undefined. */
function apiDomainNameOf(scope: Construct, given: string | undefined): string | undefined {
  const value = given ?? scope.node.tryGetContext('apiDomainName');
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !HOST_NAME.test(value)) {
    throw new Error(`apiDomainName must be a host name such as api.example.com (no scheme, port or path), not ${JSON.stringify(value)}`);
  }
  return value.toLowerCase();
}
