/**
 * Business metrics of the money moves, as CloudWatch embedded metric format lines in the
 * function's log (Powertools Metrics): CloudWatch turns them into metrics of METRICS_NAMESPACE
 * with the dimension `service`, which the dashboard and alarms (infra/constructs/service-monitoring.ts)
 * read. Published at once, after the move's transaction committed: a move that failed counts nothing.
 * Tests and the local server set POWERTOOLS_METRICS_DISABLED.
 */
import { moduleOnFirstUse } from './modules-on-first-use.js';

export const METRICS_NAMESPACE = 'InsuranceAdmin';
export const METRICS_SERVICE = 'insurance-admin';

/** The money moves counted; each is a metric name. */
export const MONEY_MOVES = ['PaymentsPosted', 'PoliciesIssued', 'RenewalsCreated'] as const;
export type MoneyMove = (typeof MONEY_MOVES)[number];

/** The emitter, a module of its own beside the bundle (shared/platform/modules-on-first-use.ts). */
const emitter = /* @__PURE__ */ moduleOnFirstUse<typeof import('./money-metrics.js')>(new URL('./money-metrics.mjs', import.meta.url), new URL('./money-metrics.ts', import.meta.url));

/**
 * Counts a committed money move. Awaited by the move, so that the line is written before its
 * answer (a function frozen after answering would hold it); a metric that cannot be written is
 * said on the log, never made the committed move's failure.
 */
export async function recordMoneyMove(move: MoneyMove, count = 1): Promise<void> {
  if (count <= 0) return;
  try {
    (await emitter()).publishMoneyMove(move, count);
  } catch (error) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'money move metric not written', move, count, error: error instanceof Error ? error.message : String(error) }));
  }
}
