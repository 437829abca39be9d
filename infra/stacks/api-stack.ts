/**
 * The HTTP API: one route `POST /api/<version>/<module>/<name>` and one function per file
 * under functions/. The API, its stage, access log and 5xx alarm live here; the operations
 * live in nested stacks, one per module (or per shard of a large module, see
 * MODULE_SHARDS), so that no template comes near CloudFormation's 500-resource limit.
 * The API's description (`GET /api/openapi.json`, `GET /docs`) is served by one site
 * function added with addApiDocs().
 *
 * The stage throttles every route (DEFAULT_API_THROTTLE, or context `apiRateLimit` /
 * `apiBurstLimit`: `cdk deploy -c apiRateLimit=200 -c apiBurstLimit=400`), so that one
 * runaway client cannot spend the account's Lambda concurrency; API Gateway answers 429
 * beyond it. Bodies are limited by API Gateway (10 MB) and Lambda (6 MB), and the operation
 * factory answers 413 over BODY_LIMIT_BYTES.
 */
import { CfnOutput, Duration, NestedStack, Stack, type NestedStackProps, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { FunctionBundles } from '../bundles.js';
import { ApiDocsSite } from '../constructs/api-docs-site.js';
import { ServiceFunction, type DataResources } from '../constructs/service-function.js';
import { ServiceMonitoring, type FunctionClass } from '../constructs/service-monitoring.js';
import { SigningPage } from '../constructs/signing-page.js';
import { pascal } from '../naming.js';
import { groupOperations, type OperationSpec } from '../operations.js';

export interface ApiStackProps extends StackProps {
  data: DataResources;
  userPool: cognito.IUserPool;
  alarmTopic: sns.ITopic;
  operations: OperationSpec[];
  bundles?: FunctionBundles;
  /** The data key: seals URL overrides' shared secrets and contacts' personal identifiers; given to those operations only. */
  urlOverrideEncryptionKey?: secretsmanager.ISecret;
  /** The built-in signature vendor's webhook secret; given to the functions that declare `secrets: ['signature-vendor']` and the signing page. */
  signatureVendorSecret?: secretsmanager.ISecret;
  /** For the dashboard: each queue's dead-letter queue, by queue name. */
  deadLetterQueues?: Record<string, sqs.IQueue>;
  /** Default: context `apiRateLimit` and `apiBurstLimit`, else DEFAULT_API_THROTTLE. */
  throttle?: apigw.ThrottleSettings;
}

/**
 * Requests per second the stage lets through, steady and in a burst: far above what agents,
 * portals and vendors of one carrier send, far below the account's default of 10,000.
 */
export const DEFAULT_API_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const satisfies apigw.ThrottleSettings;

/** The stage's throttle from context (`-c apiRateLimit=... -c apiBurstLimit=...`), each part defaulted. */
export function throttleFromContext(scope: Construct): apigw.ThrottleSettings {
  const read = (key: string, fallback: number): number => {
    const value = scope.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return fallback;
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw new Error(`Context ${key} must be a whole number of requests per second, not ${JSON.stringify(value)}`);
    return number;
  };
  return { rateLimit: read('apiRateLimit', DEFAULT_API_THROTTLE.rateLimit), burstLimit: read('apiBurstLimit', DEFAULT_API_THROTTLE.burstLimit) };
}

/** The three classes of routes, throttled each on its own (stage route settings). */
export type RouteClass = Extract<FunctionClass, 'writes' | 'reads' | 'webhook'>;

/**
 * An operation's class: the signature vendor's callback (no caller credential, the vendor's
 * secret) is `webhook`; an operation that writes the table (payments, issues, cancellations,
 * every money move) is `writes`; the rest `reads`.
 */
export function routeClassOf(operation: Pick<OperationSpec, 'authentication' | 'resources'>): RouteClass {
  if (operation.authentication === 'none' && operation.resources.secrets?.includes('signature-vendor')) return 'webhook';
  return operation.resources.table === 'write' ? 'writes' : 'reads';
}

/**
 * Requests per second each route of a class lets through, steady and in a burst, below the
 * stage's DEFAULT_API_THROTTLE: a retry storm on money writes or a vendor replaying its webhooks
 * is cut off before it spends the Lambda concurrency the reads need.
 */
export const ROUTE_CLASS_THROTTLE: Record<RouteClass, { rateLimit: number; burstLimit: number }> = {
  writes: { rateLimit: 50, burstLimit: 100 },
  reads: { rateLimit: 100, burstLimit: 200 },
  webhook: { rateLimit: 20, burstLimit: 40 },
};

/**
 * The modules (`<version>/<module>`) whose operations seal or open values with the data key
 * (shared/platform/sealing.ts): URL overrides' shared secrets, contacts' personal identifiers.
 */
export const URL_OVERRIDE_MODULES: readonly string[] = ['v1/custom_ui', 'v1/contacts'];

export class ApiStack extends Stack {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly operationStacks: OperationsStack[];
  readonly signingPage?: SigningPage;
  readonly monitoring: ServiceMonitoring;
  apiDocs?: ApiDocsSite;
  private readonly data: DataResources;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    this.data = props.data;

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      apiName: 'insurance-admin',
      description: 'Insurance administration service',
      createDefaultStage: false,
    });

    // Never the body or headers: requests carry credentials.
    const throttle = props.throttle ?? throttleFromContext(this);
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            sourceIp: '$context.identity.sourceIp',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    new cloudwatch.Alarm(this, 'ServerErrorAlarm', {
      alarmDescription: 'The HTTP API answered with 5xx status codes',
      metric: this.httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 5,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(new actions.SnsAction(props.alarmTopic));

    // The vendor's pages and webhooks point at this API; its secret stays out of the template
    // (a dynamic reference, readable by whoever may read these functions' configuration).
    const signatureVendorEnvironment = props.signatureVendorSecret
      ? { SIGNATURE_VENDOR_SECRET: props.signatureVendorSecret.secretValue.unsafeUnwrap(), PUBLIC_BASE_URL: this.httpApi.apiEndpoint }
      : undefined;
    this.operationStacks = groupOperations(props.operations).map(
      (group) =>
        new OperationsStack(this, `${pascal(group.key)}Operations`, {
          description: `Operations ${group.key} of the insurance administration API`,
          httpApi: this.httpApi,
          data: props.data,
          userPoolId: props.userPool.userPoolId,
          operations: group.operations,
          bundles: props.bundles,
          // A dynamic reference that CloudFormation resolves into the functions' environment:
          // the key stays out of the template, but whoever may read these functions'
          // configuration (lambda:GetFunctionConfiguration) can read it.
          urlOverrideEncryptionKey: props.urlOverrideEncryptionKey?.secretValue.unsafeUnwrap(),
          signatureVendorEnvironment,
        }),
    );
    if (signatureVendorEnvironment) {
      this.signingPage = new SigningPage(this, 'SigningPage', { httpApi: this.httpApi, data: props.data, environment: signatureVendorEnvironment, bundles: props.bundles });
    }

    // Each operation's route throttled by its class; the stage needs the routes (in the nested stacks) to exist first.
    const stage = this.stage.node.defaultChild as apigw.CfnStage;
    stage.routeSettings = Object.fromEntries(
      props.operations.map((operation) => {
        // A class never lets through more than the stage does (-c apiRateLimit lowers every class with it).
        // RouteSettings is a JSON map in CloudFormation: its keys are written as CloudFormation spells them.
        const limit = ROUTE_CLASS_THROTTLE[routeClassOf(operation)];
        return [
          `POST ${operation.path}`,
          { ThrottlingRateLimit: Math.min(limit.rateLimit, throttle.rateLimit ?? limit.rateLimit), ThrottlingBurstLimit: Math.min(limit.burstLimit, throttle.burstLimit ?? limit.burstLimit) },
        ];
      }),
    );
    for (const operations of this.operationStacks) this.stage.node.addDependency(operations);

    this.monitoring = new ServiceMonitoring(this, 'Monitoring', { alarmTopic: props.alarmTopic, httpApi: this.httpApi, deadLetterQueues: props.deadLetterQueues });

    new CfnOutput(this, 'ApiUrl', { value: this.stage.url });
  }

  /**
   * Serves the OpenAPI document and the interactive docs. The document is generated from the
   * operation modules, which is a synth-time cost: give it when `bundlingRequired`.
   */
  addApiDocs(openApiDocument: Record<string, unknown> | undefined): ApiDocsSite {
    if (this.apiDocs) throw new Error('The API docs are already added');
    this.apiDocs = new ApiDocsSite(this, 'ApiDocs', { httpApi: this.httpApi, data: this.data, openApiDocument });
    return this.apiDocs;
  }
}

export interface OperationsStackProps extends NestedStackProps {
  httpApi: apigw.IHttpApi;
  data: DataResources;
  userPoolId: string;
  operations: OperationSpec[];
  bundles?: FunctionBundles;
  /** URL_OVERRIDE_ENCRYPTION_KEY of the URL_OVERRIDE_MODULES operations. */
  urlOverrideEncryptionKey?: string;
  /** SIGNATURE_VENDOR_SECRET and PUBLIC_BASE_URL, for operations declaring `secrets: ['signature-vendor']`. */
  signatureVendorEnvironment?: Record<string, string>;
}

/** The functions and routes of one group of operations. */
export class OperationsStack extends NestedStack {
  constructor(scope: Construct, id: string, props: OperationsStackProps) {
    super(scope, id, props);
    for (const operation of props.operations) {
      const routeKey = `POST ${operation.path}`;
      const { function: fn } = new ServiceFunction(this, operation.name, {
        entry: operation.entry,
        description: routeKey,
        functionClass: routeClassOf(operation),
        data: props.data,
        resources: operation.resources,
        traced: operation.traced,
        authenticates: operation.authentication === 'required',
        environment: {
          COGNITO_USER_POOL_ID: props.userPoolId,
          ...(props.urlOverrideEncryptionKey && (URL_OVERRIDE_MODULES.includes(`${operation.version}/${operation.module}`) || operation.resources.secrets?.includes('data-key'))
            ? { URL_OVERRIDE_ENCRYPTION_KEY: props.urlOverrideEncryptionKey }
            : {}),
          ...(props.signatureVendorEnvironment && operation.resources.secrets?.includes('signature-vendor') ? props.signatureVendorEnvironment : {}),
        },
        bundles: props.bundles,
      });
      new apigw.HttpRoute(this, `${operation.name}Route`, {
        httpApi: props.httpApi,
        routeKey: apigw.HttpRouteKey.with(operation.path, apigw.HttpMethod.POST),
        integration: new HttpLambdaIntegration(`${operation.name}Integration`, fn),
      });
    }
  }
}
