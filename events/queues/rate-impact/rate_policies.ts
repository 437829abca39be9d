/**
 * Rates the policies of rate impact batches (fanned out by rate_impact): each watched term in
 * scope at its current rates and at the candidate's, stored with the run. A batch delivered
 * again finds its results stored and counts nothing twice.
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { rateImpactBatch, rateImpactMessage } from '../../../shared/products/impact.js';

export const handler = defineConsumer({
  queue: 'rate-impact',
  message: rateImpactMessage,
  resources: { table: 'write' },
  handle: (batch) => rateImpactBatch(batch),
  logged: (batch, counts) => ({ runId: batch.runId, batch: batch.batch, ...counts }),
});
