/**
 * Business metrics of the money moves, as CloudWatch embedded metric format lines in the
 * function's log (Powertools Metrics): CloudWatch turns them into metrics of METRICS_NAMESPACE
 * with the dimension `service`, which the dashboard and alarms (infra/constructs/service-monitoring.ts)
 * read. Published at once, after the move's transaction committed: a move that failed counts nothing.
 * Tests and the local server set POWERTOOLS_METRICS_DISABLED.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'InsuranceAdmin';
export const METRICS_SERVICE = 'insurance-admin';

/** The money moves counted; each is a metric name. */
export const MONEY_MOVES = ['PaymentsPosted', 'PoliciesIssued', 'RenewalsCreated'] as const;
export type MoneyMove = (typeof MONEY_MOVES)[number];

let metrics: Metrics | undefined;

export function recordMoneyMove(move: MoneyMove, count = 1): void {
  if (count <= 0) return;
  metrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
  metrics.addMetric(move, MetricUnit.Count, count);
  metrics.publishStoredMetrics();
}
