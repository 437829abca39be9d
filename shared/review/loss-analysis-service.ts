/**
 * Loss analysis as a job: async_request_loss_analysis records a job on the revision and
 * queues it; the consumer (events/queues/loss-analysis/) asks the vendor and records the
 * report on the revision once, whatever the number of deliveries: the recording write is
 * conditional on the revision still waiting for that very job.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { type ProductCatalog, getProductCatalog } from '../catalog/index.js';
import { sendInBatches } from '../platform/queue-sends.js';
import type { Principal } from '../platform/principal.js';
import { revisionWithinReach, type RevisionSnapshot, loadRevision, recordLossAnalysisResult, recordUnderwriting, underwritingOf } from '../policies/index.js';
import { builtInLossAnalysisVendor, type LossAnalysisRequest, type LossAnalysisVendor } from '../underwriting/index.js';
import { clock } from '../platform/clock.js';
import { builtOnFirstUse } from '../platform/request-fields.js';

/** The message of one job on the loss-analysis queue (built on first use). */
export const lossAnalysisJob = builtOnFirstUse(() => z.object({ job_id: z.guid(), revision_id: z.string().check(z.minLength(1), z.maxLength(100)) }));
export type LossAnalysisJob = z.infer<ReturnType<typeof lossAnalysisJob>>;

export async function requestLossAnalysis(principal: Principal, revisionId: string, now = clock.now()): Promise<{ job_id: string }> {
  const snapshot = await revisionWithinReach(principal, revisionId, { open: true });
  const jobId = randomUUID();
  const underwriting = underwritingOf(snapshot.header.underwriting);
  // Recorded before it is queued, so the consumer always finds the job it is handed; a newer request supersedes it.
  await recordUnderwriting(snapshot.header, { ...underwriting, lossAnalysis: { jobId, status: 'requested', requestedAt: now.toISOString(), completedAt: null, result: null } });
  const job: LossAnalysisJob = { job_id: jobId, revision_id: revisionId };
  await sendInBatches('loss-analysis', [{ id: 'job', body: job }], 'the loss analysis job');
  return { job_id: jobId };
}

const answerNamed = (product: ProductCatalog, answers: Readonly<Record<string, string>>, name: string) => {
  const question = product.questions.find((candidate) => candidate.name === name);
  return question ? answers[question.id] : undefined;
};

/** What the vendor is told: each property's place and construction, named without its address. */
export function analysisRequestFor(product: ProductCatalog, snapshot: RevisionSnapshot): LossAnalysisRequest {
  return {
    properties: snapshot.risks.map((risk) => {
      const field = (value: string | null | undefined) => (value ? value : undefined);
      return {
        name: risk.name,
        addressLine1: field(risk.address_line1),
        addressZip: field(risk.address_zip),
        addressState: field(risk.address_state),
        yearBuilt: field(risk.year_built),
        construction: answerNamed(product, risk.questions ?? {}, 'Construction Type'),
        protectionClass: answerNamed(product, risk.questions ?? {}, 'Protection Class'),
      };
    }),
  };
}

export type JobOutcome = 'recorded' | 'already-recorded' | 'superseded' | 'revision-gone';

/** Runs one job. Safe to run any number of times: only the first run that finds the job waiting records it. */
export async function runLossAnalysisJob(job: LossAnalysisJob, vendor: LossAnalysisVendor = builtInLossAnalysisVendor, now = () => clock.now()): Promise<JobOutcome> {
  const snapshot = await loadRevision(job.revision_id);
  if (!snapshot) return 'revision-gone';
  const waiting = snapshot.header.underwriting?.lossAnalysis;
  if (!waiting || waiting.jobId !== job.job_id) return 'superseded';
  if (waiting.status !== 'requested') return 'already-recorded';
  const report = await vendor.analyse(analysisRequestFor(await getProductCatalog(), snapshot));
  const recorded = await recordLossAnalysisResult(job.revision_id, job.job_id, { completedAt: now().toISOString(), result: report });
  return recorded ? 'recorded' : 'already-recorded';
}
