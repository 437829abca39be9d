/**
 * A rate impact run's work (rate_impact records the run and sends its plan): the plan reads the
 * watched terms in the run's window and sends them in batches; each batch rates its terms in
 * scope at their current rates and at the candidate's, stored with the run. A batch delivered
 * again finds its results stored and counts nothing twice; a plan delivered again sends nothing
 * new.
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { handleRateImpactMessage, rateImpactMessage } from '../../../shared/products/index.js';

export const handler = defineConsumer({
  queue: 'rate-impact',
  message: rateImpactMessage,
  resources: { table: 'write', queues: ['rate-impact'] },
  handle: (message) => handleRateImpactMessage(message),
  logged: (message, counts) => ({ runId: message.runId, ...('batch' in message ? { batch: message.batch } : { plan: true }), ...counts }),
});
