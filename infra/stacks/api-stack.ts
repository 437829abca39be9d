/**
 * The HTTP API: one route `POST /api/<version>/<module>/<name>` and one function per file
 * under functions/. The API, its stage, access log and 5xx alarm live here; the operations
 * live in nested stacks, one per module (or per shard of a large module, see
 * MODULE_SHARDS), so that no template comes near CloudFormation's 500-resource limit.
 */
import { CfnOutput, Duration, NestedStack, Stack, type NestedStackProps, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { FunctionBundles } from '../bundles.js';
import { ServiceFunction, type DataResources } from '../constructs/service-function.js';
import { pascal } from '../naming.js';
import { groupOperations, type OperationSpec } from '../operations.js';

export interface ApiStackProps extends StackProps {
  data: DataResources;
  userPool: cognito.IUserPool;
  alarmTopic: sns.ITopic;
  operations: OperationSpec[];
  bundles?: FunctionBundles;
}

export class ApiStack extends Stack {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly operationStacks: OperationsStack[];

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      apiName: 'insurance-admin',
      description: 'Insurance administration service',
      createDefaultStage: false,
    });

    // Never the body or headers: requests carry credentials.
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
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

    this.operationStacks = groupOperations(props.operations).map(
      (group) =>
        new OperationsStack(this, `${pascal(group.key)}Operations`, {
          description: `Operations ${group.key} of the insurance administration API`,
          httpApi: this.httpApi,
          data: props.data,
          userPoolId: props.userPool.userPoolId,
          operations: group.operations,
          bundles: props.bundles,
        }),
    );

    new CfnOutput(this, 'ApiUrl', { value: this.stage.url });
  }
}

export interface OperationsStackProps extends NestedStackProps {
  httpApi: apigw.IHttpApi;
  data: DataResources;
  userPoolId: string;
  operations: OperationSpec[];
  bundles?: FunctionBundles;
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
        data: props.data,
        resources: operation.resources,
        authenticates: operation.authentication === 'required',
        environment: { COGNITO_USER_POOL_ID: props.userPoolId },
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
