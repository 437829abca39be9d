/**
 * The impact of a new rate on the book (rate_impact, retrieve_rate_impact, `npm run product --
 * impact`): every in-force policy in scope is rated as its next renewal would be, at the rates
 * it would renew at today and at a candidate's (a line file not yet published, or a stored
 * product version), writing nothing to any policy. The policies in scope are read from the
 * renewal watch index (terms still to decide, by expiration date), never a scan: a run's cost
 * grows with the terms it reads. The run fans out in batches on the rate-impact queue; each
 * batch's policies are stored with the run, and the report is added up when it is read.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { getProductCatalog, getProductVersion, packageRecords, productFromRecords, resolveFiling, type PackageDocument, type ProductCatalog, type RateVersion } from '../catalog/index.js';
import { previewRenewal, type RenewalPreview } from '../lifecycle/index.js';
import { watchedTermPages } from '../policies/index.js';
import { clock } from '../platform/clock.js';
import { mapLimited } from '../platform/concurrency.js';
import { builtOnFirstUse } from '../platform/request-fields.js';
import { addDays, todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError, PermissionDeniedError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { sendInBatches } from '../platform/queue-sends.js';
import { rateRevision, type RatedRevision } from '../rating/index.js';
import { checkProductPackage } from './check.js';
import { impactCsv, impactReport, movedMostBy, type ImpactReport, type PolicyImpact, type RatedFigures } from './impact-report.js';
import { getRateImpactCandidate, getRateImpactRun, markRateImpactPlanned, rateImpactBatches, recordRateImpactBatch, recordRateImpactRun, type CandidateRateVersion, type RateImpactFilters, type RateImpactRun } from './impact-store.js';
import { problemsOf } from './problems.js';
import { canonical, frozen, MAX_DOCUMENT_CHARS } from './service.js';

/** Terms per queue message: each is three reads and two ratings in memory; 25 stay far inside a consumer's minute. */
export const POLICIES_PER_BATCH = 25;
const PREVIEWS_AT_ONCE = 8;
/** With no renewal window, every watched term: the watch lists only terms still to decide. */
const NO_WINDOW = '9999-12-31';

export interface RateImpactRequest {
  lineFile?: unknown;
  versionId?: string;
  filters: RateImpactFilters;
}

/** A fingerprint of a line file's content, whatever the order of its keys: what a publication checks its impact run rated. */
export const lineFileFingerprint = (document: unknown) => createHash('sha256').update(canonical(document)).digest('hex');

interface Candidate {
  product: ProductCatalog;
  versions: RateVersion[];
}

/**
 * The catalog as the candidate would make it, and the rate versions it brings: those of its
 * file not published yet (an uploaded line file), or those it introduced (a stored version),
 * each as it would rate for good (every item's steps, the state's territory table).
 */
export function candidateCatalog(document: PackageDocument, current: Pick<ProductCatalog, 'rateVersions'>, introduced?: readonly string[]): Candidate {
  const check = checkProductPackage(document, { worksheets: false });
  if (!check.package) throw new BusinessRuleError(problemsOf(check));
  const product = productFromRecords(packageRecords(check.package));
  const published = new Set(current.rateVersions.map((version) => version.id));
  const ids = new Set(introduced ?? product.rateVersions.filter((version) => !published.has(version.id)).map((version) => version.id));
  const rateVersions = product.rateVersions.map((version) => (ids.has(version.id) ? frozen(version, product) : version));
  return { product: { ...product, rateVersions }, versions: rateVersions.filter((version) => ids.has(version.id)) };
}

/** The candidate's rate version a renewal in `state` would take: its latest for the state's filing; none when it brings none there. */
function candidateVersionFor(candidate: Candidate, state: string | null): RateVersion | undefined {
  const ids = new Set(candidate.versions.map((version) => version.id));
  return resolveFiling(candidate.product, state)
    .rateVersions.filter((version) => ids.has(version.id))
    .sort((a, b) => a.renewalEffectiveDate.localeCompare(b.renewalEffectiveDate))
    .at(-1);
}

function describeVersions(versions: readonly RateVersion[]): CandidateRateVersion[] {
  return versions.map((version) => ({ id: version.id, name: version.name, state: version.state ?? 'countrywide', renewalEffectiveDate: version.renewalEffectiveDate, ...(version.renewalCapPercent ? { renewalCapPercent: version.renewalCapPercent } : {}) }));
}

async function candidateDocument(request: RateImpactRequest): Promise<{ document: PackageDocument; text: string; productVersionId?: string; introduced?: string[] }> {
  if ((request.lineFile === undefined) === (request.versionId === undefined)) throw new BusinessRuleError('line_file: give the candidate as a line_file or as a version_id (one of them)');
  if (request.versionId !== undefined) {
    const record = await getProductVersion(request.versionId);
    if (!record || record.status === undefined) throw new BusinessRuleError(`version_id: no product version ${request.versionId}`);
    return { document: JSON.parse(record.document) as PackageDocument, text: record.document, productVersionId: record.versionId, introduced: record.rateVersionIds };
  }
  let document: PackageDocument;
  try {
    document = (typeof request.lineFile === 'string' ? JSON.parse(request.lineFile) : request.lineFile) as PackageDocument;
  } catch {
    throw new BusinessRuleError('line_file: not JSON: give the package as an object of its files by their paths (line.json, items.json, states/FL.json, ...)');
  }
  const text = JSON.stringify(document);
  if (text.length > MAX_DOCUMENT_CHARS) throw new BusinessRuleError(`line_file: ${text.length} characters; a line file may have at most ${MAX_DOCUMENT_CHARS}`);
  return { document, text };
}

export interface RateImpactStarted {
  run_id: string;
  state: 'running';
  candidate_rate_versions: CandidateRateVersion[];
}

/**
 * rate_impact: the candidate checked and the run recorded, then handed to the queue, whose
 * consumer reads the policies in scope from the renewal watch and fans them out in batches (a
 * book of any size never holds the call). Refused naming the field, storing nothing.
 */
export async function startRateImpact(principal: Principal, request: RateImpactRequest, now = clock.now()): Promise<RateImpactStarted> {
  if (!principal.isAdministrator) throw new PermissionDeniedError('Only an Administrator may run a rate impact');
  const source = await candidateDocument(request);
  const current = await getProductCatalog();
  const candidate = candidateCatalog(source.document, current, source.introduced);
  if (candidate.versions.length === 0) throw new BusinessRuleError('line_file: no new rate version: the candidate must bring a rate version the catalog does not have yet (states/<state>.json rateVersions)');
  const runId = randomUUID();
  const run: RateImpactRun = {
    runId,
    requestedBy: principal.contactId,
    requestedAt: now.toISOString(),
    asOf: todayIso(now),
    candidate: source.productVersionId ? { productVersionId: source.productVersionId } : { lineFile: true },
    candidateRateVersions: describeVersions(candidate.versions),
    filters: request.filters,
    fingerprint: lineFileFingerprint(source.document),
    planned: false,
    termsRead: 0,
    batches: 0,
    batchesDone: 0,
  };
  await recordRateImpactRun(run, source.productVersionId ? undefined : source.text);
  await sendInBatches('rate-impact', [{ id: 'plan', body: { runId, plan: true } satisfies RateImpactPlanMessage }], `the plan of rate impact run ${runId}`);
  return { run_id: runId, state: 'running', candidate_rate_versions: run.candidateRateVersions };
}

/**
 * The run's plan, on the queue: the watched terms in its renewal window read (never a scan) and
 * sent in batches, then the run told how many. A plan delivered again after that does nothing;
 * one delivered again before it sends the same batches, which count once each.
 */
export async function planRateImpact(runId: string): Promise<{ terms: number; batches: number }> {
  const run = await getRateImpactRun(runId);
  if (!run) throw new NotFoundError(`Rate impact run ${runId}`);
  if (run.planned) return { terms: run.termsRead, batches: run.batches };
  const through = run.filters.renewingWithinDays === undefined ? NO_WINDOW : addDays(run.asOf, run.filters.renewingWithinDays);
  const terms: Array<{ policyId: string; termId: string }> = [];
  for await (const page of watchedTermPages(through)) terms.push(...page.map(({ policyId, termId }) => ({ policyId, termId })));
  const batches: RateImpactBatchMessage[] = [];
  for (let start = 0; start < terms.length; start += POLICIES_PER_BATCH) batches.push({ runId, batch: batches.length, terms: terms.slice(start, start + POLICIES_PER_BATCH) });
  await sendInBatches('rate-impact', batches.map((batch) => ({ id: String(batch.batch), body: batch })), `the batches of rate impact run ${runId}`);
  await markRateImpactPlanned(runId, { termsRead: terms.length, batches: batches.length });
  return { terms: terms.length, batches: batches.length };
}

/** Every batch done, and the run planned: its report can be added up. */
export const isComplete = (run: RateImpactRun) => run.planned && run.batchesDone >= run.batches;

// ---------------------------------------------------------------- the batches

export interface RateImpactBatchMessage {
  runId: string;
  batch: number;
  terms: Array<{ policyId: string; termId: string }>;
}

export interface RateImpactPlanMessage {
  runId: string;
  plan: true;
}

export type RateImpactMessage = RateImpactPlanMessage | RateImpactBatchMessage;

/** The messages of the rate-impact queue: a run to plan, or one batch of watched terms of a run (built on first use). */
export const rateImpactMessage = builtOnFirstUse(() => {
  const ref = z.string().check(z.minLength(1), z.maxLength(100));
  return z.union([
    z.object({ runId: ref, plan: z.literal(true) }),
    z.object({
      runId: ref,
      batch: z.int().check(z.nonnegative()),
      terms: z.array(z.object({ policyId: ref, termId: ref })).check(z.maxLength(POLICIES_PER_BATCH)),
    }),
  ]);
});

/** One message of the rate-impact queue: a plan, or a batch to rate. */
export async function handleRateImpactMessage(message: RateImpactMessage): Promise<Record<string, number>> {
  if ('plan' in message) return planRateImpact(message.runId);
  return rateImpactBatch(message);
}

/** The candidate of each run a container has rated for: a run's batches all read the same file. */
const candidates = new Map<string, Promise<Candidate>>();

async function candidateOfRun(run: RateImpactRun, current: ProductCatalog): Promise<Candidate> {
  let known = candidates.get(run.runId);
  if (!known) {
    known = (async () => {
      const introduced = 'productVersionId' in run.candidate ? (await getProductVersion(run.candidate.productVersionId))?.rateVersionIds : run.candidateRateVersions.map((version) => version.id);
      const text = 'productVersionId' in run.candidate ? (await getProductVersion(run.candidate.productVersionId))?.document : await getRateImpactCandidate(run.runId);
      if (!text) throw new NotFoundError(`The candidate of rate impact run ${run.runId}`);
      return candidateCatalog(JSON.parse(text) as PackageDocument, current, introduced);
    })();
    candidates.set(run.runId, known);
    if (candidates.size > 20) candidates.delete(candidates.keys().next().value!);
  }
  return known;
}

function figuresOf(rated: RatedRevision): RatedFigures {
  return {
    premiumCents: rated.totals.annualPremiumCents,
    uncappedPremiumCents: rated.renewalCap?.uncappedPremiumCents ?? rated.totals.annualPremiumCents,
    feeCents: rated.totals.annualFeeCents,
    chargeCents: rated.totals.annualChargeCents ?? 0,
    rateVersion: rated.rateVersion?.name ?? null,
  };
}

/** The territory the primary property rated in (the first item a Territory step placed); "none" for a product without territories. */
const territoryOf = (rated: RatedRevision) => rated.items.find((item) => item.territory)?.territory ?? 'none';

const stateOf = (location: RenewalPreview['location']) => (location.state ?? 'countrywide').toUpperCase();

/** Whether a term lies outside the run's filters of place and agency, as far as what was read of it tells (a skipped term not located is in). */
function outsideFilters(filters: RateImpactFilters, term: { agencyId?: string | null; location?: RenewalPreview['location'] }): boolean {
  if (filters.agencyId && term.agencyId !== undefined && term.agencyId !== filters.agencyId) return true;
  if (!term.location) return false;
  return Boolean((filters.state && stateOf(term.location) !== filters.state) || (filters.zip && term.location.zip !== filters.zip));
}

/** Rates one batch of a run: each term in scope at its current rates and at the candidate's; stores what it found, once. */
export async function rateImpactBatch(message: RateImpactBatchMessage): Promise<{ rated: number; skipped: number; outOfScope: number }> {
  const run = await getRateImpactRun(message.runId);
  if (!run) throw new NotFoundError(`Rate impact run ${message.runId}`);
  const current = await getProductCatalog();
  const candidate = await candidateOfRun(run, current);
  const { filters } = run;
  const policies: PolicyImpact[] = [];
  const skipped: Array<{ policyNumber: string; reason: string }> = [];
  let outOfScope = 0;
  await mapLimited(message.terms, PREVIEWS_AT_ONCE, async (term) => {
    // A skipped term is located only when the run is filtered by place, to leave out another state's or ZIP's.
    const preview = await previewRenewal(term, current, run.asOf, { locateSkipped: Boolean(filters.state || filters.zip) });
    if (outsideFilters(filters, preview)) return void (outOfScope += 1);
    if ('skipped' in preview) return void skipped.push({ policyNumber: preview.policyNumber, reason: preview.skipped });
    const state = stateOf(preview.location);
    try {
      const before = rateRevision(current, preview.toRate);
      if (filters.territory && territoryOf(before).toLowerCase() !== filters.territory.toLowerCase()) return void (outOfScope += 1);
      const version = candidateVersionFor(candidate, preview.location.state);
      const after = version ? rateRevision(candidate.product, { ...preview.toRate, rateVersionId: version.id }) : before;
      policies.push({ policyNumber: preview.policyNumber, state, territory: territoryOf(before), before: figuresOf(before), after: figuresOf(after), movedMostBy: movedMostBy(before.items, after.items) });
    } catch (error) {
      // A policy the rates cannot rate (a question the candidate asks that it never answered) is listed, not fatal to the run.
      if (!(error instanceof BusinessRuleError)) throw error;
      skipped.push({ policyNumber: preview.policyNumber, reason: error.message.slice(0, 200) });
    }
  });
  policies.sort((a, b) => a.policyNumber.localeCompare(b.policyNumber));
  await recordRateImpactBatch(message.runId, { batch: message.batch, policies, skipped });
  return { rated: policies.length, skipped: skipped.length, outOfScope };
}

// ---------------------------------------------------------------- reading a run

export interface RateImpactAnswer {
  run_id: string;
  state: 'running' | 'complete';
  requested_by: string;
  requested_at: string;
  as_of: string;
  candidate: { product_version_id: string } | { line_file: true };
  candidate_rate_versions: CandidateRateVersion[];
  filters: RateImpactFilters;
  terms_read: number;
  batches: number;
  batches_done: number;
  /** Present once complete. */
  report?: ImpactReport & { current_rate_versions: string[]; skipped: Array<{ policy_number: string; reason: string }> };
  /** The per-policy rows as CSV, when asked for. */
  csv?: string;
}

/** retrieve_rate_impact: a run's state, and its report once every batch is done. */
export async function retrieveRateImpact(principal: Principal, runId: string, options: { csv?: boolean } = {}): Promise<RateImpactAnswer> {
  if (!principal.isAdministrator) throw new PermissionDeniedError('Only an Administrator may read a rate impact run');
  const run = await getRateImpactRun(runId);
  if (!run) throw new NotFoundError(`Rate impact run ${runId}`);
  const complete = isComplete(run);
  const answer: RateImpactAnswer = {
    run_id: run.runId,
    state: complete ? 'complete' : 'running',
    requested_by: run.requestedBy,
    requested_at: run.requestedAt,
    as_of: run.asOf,
    candidate: 'productVersionId' in run.candidate ? { product_version_id: run.candidate.productVersionId } : { line_file: true },
    candidate_rate_versions: run.candidateRateVersions,
    filters: run.filters,
    terms_read: run.termsRead,
    batches: run.batches,
    batches_done: run.batchesDone,
  };
  if (!complete) return answer;
  const batches = await rateImpactBatches(runId);
  const policies = batches.flatMap((batch) => batch.policies).sort((a, b) => a.policyNumber.localeCompare(b.policyNumber));
  const currentVersions = [...new Set(policies.map((policy) => policy.before.rateVersion).filter((name): name is string => !!name))].sort();
  answer.report = {
    ...impactReport(policies),
    current_rate_versions: currentVersions,
    skipped: batches.flatMap((batch) => batch.skipped).map((entry) => ({ policy_number: entry.policyNumber, reason: entry.reason })),
  };
  if (options.csv) answer.csv = impactCsv(policies);
  return answer;
}

/** What publishing checks of the impact run it names: stored, done, and of this very line file. */
export async function impactRunOfLineFile(runId: string | undefined, document: unknown, rateVersions: readonly string[]): Promise<string> {
  const needed = `the carrier requires a stored rate impact run of a line file before it is published (rate versions ${rateVersions.join(', ')}): run /api/v2/lines/rate_impact with this line file and name the run as impact_run_id`;
  if (!runId) throw new BusinessRuleError(`impact_run_id: missing: ${needed}`);
  const run = await getRateImpactRun(runId);
  if (!run) throw new BusinessRuleError(`impact_run_id: no rate impact run ${runId.slice(0, 40)}: ${needed}`);
  if (!isComplete(run)) throw new BusinessRuleError(`impact_run_id: rate impact run ${runId} is still running (${run.batchesDone} of ${run.batches} batches); publish once it is complete`);
  if (run.fingerprint !== lineFileFingerprint(document)) throw new BusinessRuleError(`impact_run_id: rate impact run ${runId} rated another line file than this one: ${needed}`);
  return run.runId;
}
