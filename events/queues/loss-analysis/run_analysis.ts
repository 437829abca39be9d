/**
 * Runs the loss-analysis jobs async_request_loss_analysis queues. Running a job twice records
 * it once (runLossAnalysisJob's conditional write), so no idempotency record is needed.
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { lossAnalysisJob, runLossAnalysisJob } from '../../../shared/review/index.js';

export const handler = defineConsumer({
  queue: 'loss-analysis',
  message: lossAnalysisJob,
  // Reads the revision and the catalog, writes the report onto the revision.
  resources: { table: 'write' },
  handle: (job) => runLossAnalysisJob(job),
  // Ids only: the job's revision and outcome, nothing about the insured or the property.
  logged: (job, outcome) => ({ jobId: job.job_id, revisionId: job.revision_id, outcome }),
});
