/**
 * What an operator watches: per class of function (FUNCTION_CLASSES, the `FunctionClass` tag
 * every ServiceFunction carries) an alarm on Lambda errors (a 5xx of an API route is its
 * function's error or timeout) and one on throttles, as CloudWatch Metrics Insights queries over
 * that tag, so that a function added later is watched without a change here; and a dashboard of
 * the money moves (shared/platform/metrics.ts), the API's traffic and errors, the classes' errors
 * and throttles, and the dead-letter queues' depth. Every alarm notifies the alarm topic.
 *
 * Metrics Insights alarms on tags need CloudWatch's "resource tags on telemetry" turned on once
 * per account and region (docs/deploy.md, Bootstrap).
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, METRICS_SERVICE, MONEY_MOVES } from '../../shared/platform/metrics.js';
import { pascal } from '../naming.js';

/**
 * Classes of functions, by what a failure costs: `writes` (an operation that writes the table:
 * payments, issues, cancellations), `reads`, `webhook` (the signature vendor's callback),
 * `consumer` (queue consumers), `job` (scheduled jobs), `deploy` (custom resources), `site` (docs, signing page).
 */
export const FUNCTION_CLASSES = ['writes', 'reads', 'webhook', 'consumer', 'job', 'deploy', 'site'] as const;
export type FunctionClass = (typeof FUNCTION_CLASSES)[number];
export const FUNCTION_CLASS_TAG = 'FunctionClass';

/** Errors in five minutes above which a class alarms: any for what moves money or data, a few for reads. */
const ERROR_THRESHOLDS: Record<FunctionClass, number> = { writes: 0, reads: 4, webhook: 0, consumer: 0, job: 0, deploy: 0, site: 4 };

export interface ServiceMonitoringProps {
  alarmTopic: sns.ITopic;
  httpApi: apigw.IHttpApi;
  deadLetterQueues?: Record<string, sqs.IQueue>;
}

const insightsQuery = (metric: 'Errors' | 'Throttles', functionClass: FunctionClass) =>
  `SELECT SUM(${metric}) FROM SCHEMA("AWS/Lambda", FunctionName) WHERE tag.${FUNCTION_CLASS_TAG} = '${functionClass}'`;

export class ServiceMonitoring extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.CfnAlarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceMonitoringProps) {
    super(scope, id);
    const period = Duration.minutes(5);

    for (const functionClass of FUNCTION_CLASSES) {
      for (const metric of ['Errors', 'Throttles'] as const) {
        this.alarms.push(
          new cloudwatch.CfnAlarm(this, `${pascal(functionClass)}${metric}Alarm`, {
            alarmDescription: `Lambda ${metric.toLowerCase()} of the ${functionClass} functions (tag ${FUNCTION_CLASS_TAG}=${functionClass})`,
            comparisonOperator: 'GreaterThanThreshold',
            threshold: metric === 'Errors' ? ERROR_THRESHOLDS[functionClass] : 0,
            evaluationPeriods: 1,
            treatMissingData: 'notBreaching',
            metrics: [{ id: 'q', expression: insightsQuery(metric, functionClass), period: period.toSeconds(), returnData: true }],
            alarmActions: [props.alarmTopic.topicArn],
          }),
        );
      }
    }

    const moneyMoves = MONEY_MOVES.map(
      (move) => new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName: move, dimensionsMap: { service: METRICS_SERVICE }, statistic: 'Sum', period: Duration.hours(1) }),
    );
    const api = (metricName: string) => new cloudwatch.Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: props.httpApi.apiId }, statistic: 'Sum', period });
    const byClass = (metric: 'Errors' | 'Throttles') =>
      FUNCTION_CLASSES.map((functionClass) => new cloudwatch.MathExpression({ expression: insightsQuery(metric, functionClass), label: functionClass, period }));

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { defaultInterval: Duration.days(1) });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Money moves per hour', left: moneyMoves, width: 12 }),
      new cloudwatch.GraphWidget({ title: 'API requests, 4xx (429 throttled included), 5xx', left: [api('Count')], right: [api('4xx'), api('5xx')], width: 12 }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Lambda errors by function class', left: byClass('Errors'), width: 12 }),
      new cloudwatch.GraphWidget({ title: 'Lambda throttles by function class', left: byClass('Throttles'), width: 12 }),
    );
    if (props.deadLetterQueues) {
      this.dashboard.addWidgets(
        new cloudwatch.GraphWidget({
          title: 'Messages waiting in dead-letter queues',
          left: Object.entries(props.deadLetterQueues).map(([name, queue]) => queue.metricApproximateNumberOfMessagesVisible({ label: name, statistic: 'Maximum', period })),
          width: 24,
        }),
      );
    }
  }
}
