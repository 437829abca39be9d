/**
 * The Powertools Metrics emitter of the money moves (about 12 KiB bundled), loaded by the first
 * money move a function commits (shared/platform/metrics.ts): a cold start does not parse it.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, METRICS_SERVICE, type MoneyMove } from './metrics.js';

let metrics: Metrics | undefined;

export function publishMoneyMove(move: MoneyMove, count: number): void {
  metrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
  metrics.addMetric(move, MetricUnit.Count, count);
  metrics.publishStoredMetrics();
}
