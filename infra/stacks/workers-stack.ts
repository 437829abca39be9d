/**
 * Queue consumers and nightly jobs, one function each, found in the events/ tree
 * (see infra/workers.ts for the convention). A consumer reads its queue in the batches its
 * row of shared/platform/queues.ts says and reports partial batch failures; a message that keeps failing moves to the queue's
 * dead-letter queue (DataStack alarms on it). A job runs on an EventBridge schedule and
 * alarms when it fails.
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { FunctionBundles } from '../bundles.js';
import { ServiceFunction, type DataResources } from '../constructs/service-function.js';
import { QUEUES } from '../../shared/platform/queues.js';
import { CONSUMER_TIMEOUT, JOB_TIMEOUT, type QueueConsumerSpec, type ScheduledJobSpec } from '../workers.js';

export interface WorkersStackProps extends StackProps {
  data: DataResources;
  alarmTopic: sns.ITopic;
  consumers: QueueConsumerSpec[];
  jobs: ScheduledJobSpec[];
  bundles?: FunctionBundles;
  /** The sealing key (URL_OVERRIDE_ENCRYPTION_KEY) for consumers and jobs declaring `secrets: ['data-key']`. */
  dataKey?: secretsmanager.ISecret;
}

export class WorkersStack extends Stack {
  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    // A dynamic reference resolved into the environment, as the API stack does for its operations.
    const dataKey = props.dataKey?.secretValue.unsafeUnwrap();

    for (const consumer of props.consumers) {
      const { function: fn } = new ServiceFunction(this, consumer.id, {
        entry: consumer.entry,
        description: `Consumes ${consumer.queue} (${consumer.name})`,
        functionClass: 'consumer',
        data: props.data,
        resources: consumer.resources,
        traced: consumer.traced,
        timeout: CONSUMER_TIMEOUT,
        ...(dataKey && consumer.resources.secrets?.includes('data-key') ? { environment: { URL_OVERRIDE_ENCRYPTION_KEY: dataKey } } : {}),
        bundles: props.bundles,
      });
      // Grants receive/delete on the queue to the function's role.
      fn.addEventSource(
        new SqsEventSource(props.data.queues[consumer.queue], {
          batchSize: QUEUES[consumer.queue].batchSize,
          reportBatchItemFailures: true,
        }),
      );
    }

    for (const job of props.jobs) {
      const { function: fn } = new ServiceFunction(this, job.id, {
        entry: job.entry,
        description: `Scheduled job ${job.name}: ${job.schedule}`,
        functionClass: 'job',
        data: props.data,
        resources: job.resources,
        timeout: JOB_TIMEOUT,
        ...(dataKey && job.resources.secrets?.includes('data-key') ? { environment: { URL_OVERRIDE_ENCRYPTION_KEY: dataKey } } : {}),
        bundles: props.bundles,
      });
      new events.Rule(this, `${job.id}Schedule`, {
        description: `Runs ${job.name}`,
        schedule: events.Schedule.expression(job.schedule),
        targets: [new targets.LambdaFunction(fn, { retryAttempts: 2, maxEventAge: Duration.hours(2) })],
      });
      new cloudwatch.Alarm(this, `${job.id}FailureAlarm`, {
        alarmDescription: `Scheduled job ${job.name} failed`,
        metric: fn.metricErrors({ period: Duration.minutes(15), statistic: 'Sum' }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new actions.SnsAction(props.alarmTopic));
    }
  }
}
