/**
 * The loss run: a policy's or an agency's claims with losses in a period, each valued as of a date
 * (a claim transaction recorded after it is not counted), their totals, the premium they are set
 * against (the books') and the loss ratios. The claims come from the claim listings of the policy
 * or agency (one partition each, never a scan), each claim's money from its own partition; its
 * figures from loss-run-rules.ts over money-rules.ts. As JSON, CSV text, or a PDF the documents
 * area renders (loaded on the first PDF asked for).
 */
import { agencyPremiumForPeriod, policyPremiumForPeriod, type LossRunPremium } from '../books/index.js';
import { getClaimsRules } from '../catalog/index.js';
import { renderReportPdf, type PartyStatement } from '../documents/index.js';
import { todayIso } from '../platform/dates.js';
import { formatCents, toAmount, type Cents } from '../platform/money.js';
import { reaches, type Principal } from '../platform/principal.js';
import { policyWithinReach } from '../policies/index.js';
import { ClaimNotFoundError, ClaimRuleError, type ClaimStatus, type ClaimSummary } from './model.js';
import { claimFiguresAsOf, knownBy, ratioOf, statusAsOf, type ClaimFiguresAsOf } from './loss-run-rules.js';
import { shown } from './money-rules.js';
import { getClaimWhole, listingPage } from './store.js';

export interface LossRunRequest {
  policyNumber?: string;
  agencyId?: string;
  /** The valuation date. */
  asOf: string;
  /** The loss dates the run covers. */
  from: string;
  to: string;
  format: 'json' | 'csv' | 'pdf';
}

interface LossRunLine {
  claimId: string;
  claimNumber: string;
  policyNumber: string;
  lossDate: string;
  perilCode: string;
  peril: string;
  status: ClaimStatus;
  figures: ClaimFiguresAsOf;
}

/** How many claims' partitions are read at once. */
const READ_CONCURRENCY = 8;
/** Listings read per page of the claim listings. */
const LISTING_PAGE = 200;

/** Every claim listed under one dimension with a loss date in the range, within the caller's reach (the listing's partition, page by page). */
async function listedClaims(dimension: 'policy' | 'agency', value: string, range: { from: string; to: string }, principal: Principal): Promise<ClaimSummary[]> {
  const all: ClaimSummary[] = [];
  let after: string | undefined;
  do {
    const page = await listingPage(dimension, value, range, (summary) => reaches(principal, summary), LISTING_PAGE, after);
    all.push(...page.summaries);
    after = page.next;
  } while (after);
  return all;
}

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  return results;
}

/** The agency a loss run asking for neither field is of: an agent's own, when he belongs to one agency only. */
function ownAgencyOf(principal: Principal): string {
  if (principal.scope === 'agency' && principal.agencyIds.length === 1) return principal.agencyIds[0]!;
  if (principal.scope === 'agency' && principal.agencyIds.length > 1) throw new ClaimRuleError(`agency_id: give the agency_id, one of your ${principal.agencyIds.length} agencies, or the policy_number`);
  throw new ClaimRuleError('policy_number: give the policy_number or the agency_id');
}

export async function lossRun(principal: Principal, request: LossRunRequest) {
  if (request.policyNumber !== undefined && request.agencyId !== undefined) throw new ClaimRuleError('policy_number: give the policy_number or the agency_id, one of the two');
  if (request.policyNumber === undefined && request.agencyId === undefined) request = { ...request, agencyId: ownAgencyOf(principal) };
  if (request.to < request.from) throw new ClaimRuleError(`to: ${request.to} is before from ${request.from}`);
  if (request.asOf > todayIso()) throw new ClaimRuleError(`as_of: ${request.asOf} is after today; a loss run is valued as of a day that has been`);
  const period = { from: request.from, to: request.to, asOf: request.asOf };

  let summaries: ClaimSummary[];
  let premium: LossRunPremium;
  let subject: { policy_number: string } | { agency_id: string };
  if (request.policyNumber !== undefined) {
    // Not found for a policy out of the caller's reach (another agency's), as every policy read answers.
    const { policy, terms } = await policyWithinReach(principal, { policyNumber: request.policyNumber });
    const inPeriod = terms.filter((term) => term.effectiveDate <= request.to && term.expirationDate > request.from);
    [summaries, premium] = await Promise.all([listedClaims('policy', policy.id, period, principal), policyPremiumForPeriod(inPeriod.map((term) => term.id), period)]);
    subject = { policy_number: policy.policyNumber };
  } else {
    const agencyId = request.agencyId!;
    if (!reaches(principal, { agencyId })) throw new ClaimNotFoundError(`Agency ${agencyId.slice(0, 60)}`);
    [summaries, premium] = await Promise.all([listedClaims('agency', agencyId, period, principal), agencyPremiumForPeriod(principal, agencyId, period)]);
    subject = { agency_id: agencyId };
  }

  const rules = await getClaimsRules();
  const perilName = (code: string) => rules.perils.find((peril) => peril.code === code)?.name ?? code;
  const read = await inBatches(summaries, READ_CONCURRENCY, (summary) => getClaimWhole(summary.claimId));
  const lines: LossRunLine[] = [];
  for (const whole of read) {
    if (!whole || !knownBy(whole.claim, request.asOf)) continue;
    const { claim } = whole;
    lines.push({
      claimId: claim.claimId, claimNumber: claim.claimNumber, policyNumber: claim.policyNumber, lossDate: claim.lossDate, perilCode: claim.perilCode, peril: perilName(claim.perilCode),
      status: statusAsOf(claim, request.asOf), figures: claimFiguresAsOf(whole.transactions, whole.payments, request.asOf),
    });
  }
  lines.sort((a, b) => a.lossDate.localeCompare(b.lossDate) || a.claimNumber.localeCompare(b.claimNumber, undefined, { numeric: true }));

  const answer = answerOf(subject, request, lines, premium);
  if (request.format === 'csv') return { ...answer, csv: lossRunCsv(answer) };
  if (request.format === 'pdf') {
    const pdf = await renderReportPdf(lossRunStatement(answer, lines, premium));
    return { ...answer, content_type: 'application/pdf', pdf_base64: Buffer.from(pdf).toString('base64') };
  }
  return answer;
}

function totalsOf(lines: readonly LossRunLine[]) {
  const sum = (pick: (figures: ClaimFiguresAsOf) => Cents) => lines.reduce((total, line) => total + pick(line.figures), 0);
  return {
    paidLoss: sum((f) => f.loss.paidCents), paidExpense: sum((f) => f.expense.paidCents), paid: sum((f) => f.paidCents), outstanding: sum((f) => f.outstandingCents),
    recovered: sum((f) => f.recoveredCents), incurredLoss: sum((f) => f.loss.incurredCents), incurred: sum((f) => f.incurredCents),
  };
}

function answerOf(subject: { policy_number: string } | { agency_id: string }, request: LossRunRequest, lines: readonly LossRunLine[], premium: LossRunPremium) {
  const totals = totalsOf(lines);
  return {
    ...subject,
    as_of: request.asOf,
    from: request.from,
    to: request.to,
    claims: lines.map((line) => ({
      claim_id: line.claimId, claim_number: line.claimNumber, policy_number: line.policyNumber, loss_date: line.lossDate, peril: line.perilCode, peril_name: line.peril, status: line.status,
      paid_loss: toAmount(line.figures.loss.paidCents), paid_expense: toAmount(line.figures.expense.paidCents), paid: toAmount(line.figures.paidCents),
      outstanding: toAmount(line.figures.outstandingCents), recovered: toAmount(line.figures.recoveredCents),
      incurred_loss: toAmount(line.figures.loss.incurredCents), incurred: toAmount(line.figures.incurredCents),
    })),
    totals: {
      claims: lines.length, paid_loss: toAmount(totals.paidLoss), paid_expense: toAmount(totals.paidExpense), paid: toAmount(totals.paid), outstanding: toAmount(totals.outstanding),
      recovered: toAmount(totals.recovered), incurred_loss: toAmount(totals.incurredLoss), incurred: toAmount(totals.incurred),
    },
    premium: { written: toAmount(premium.writtenCents), earned: toAmount(premium.earnedCents), basis: premium.basis },
    // Incurred loss over earned premium; with expense (LAE), the loss-and-expense ratio (as the books' loss report divides).
    loss_ratio: ratioOf(totals.incurredLoss, premium.earnedCents),
    loss_and_expense_ratio: ratioOf(totals.incurred, premium.earnedCents),
    format: request.format,
  };
}

type LossRunAnswer = ReturnType<typeof answerOf>;

const CSV_COLUMNS = ['claim_number', 'policy_number', 'loss_date', 'peril', 'status', 'paid_loss', 'paid_expense', 'paid', 'outstanding', 'recovered', 'incurred_loss', 'incurred'] as const;
const MONEY_COLUMNS = new Set(['paid_loss', 'paid_expense', 'paid', 'outstanding', 'recovered', 'incurred_loss', 'incurred']);
const csvCell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
/** A wire amount printed with its two decimals again (8100 -> 8100.00), from its cents. */
const money = (value: number) => formatCents(Math.round(value * 100));

/** The run as CSV: a line per claim, then a TOTAL line; amounts with two decimals. */
export function lossRunCsv(answer: Pick<LossRunAnswer, 'claims' | 'totals'>): string {
  const rows = answer.claims.map((claim) => CSV_COLUMNS.map((column) => csvCell(MONEY_COLUMNS.has(column) ? money(claim[column] as number) : String(claim[column]))).join(','));
  const total = CSV_COLUMNS.map((column, index) => (index === 0 ? 'TOTAL' : MONEY_COLUMNS.has(column) ? money(answer.totals[column as keyof typeof answer.totals] as number) : '')).join(',');
  return [CSV_COLUMNS.join(','), ...rows, total].join('\n') + '\n';
}

/** The run as the documents area's statement layout: its heading, a row per claim, the totals, premium and ratios. */
function lossRunStatement(answer: LossRunAnswer, lines: readonly LossRunLine[], premium: LossRunPremium): PartyStatement {
  const totals = totalsOf(lines);
  const reference = 'policy_number' in answer ? answer.policy_number : answer.agency_id;
  const ratio = (value: number | null) => (value === null ? 'n/a' : value.toFixed(4));
  const right = 'right' as const;
  return {
    title: 'Loss Run',
    reference,
    numberLabel: 'policy_number' in answer ? 'Policy' : 'Agency',
    party: { id: reference, name: 'policy_number' in answer ? `Policy ${reference}` : `Agency ${reference}` },
    heading: [
      { label: 'Valued as of', value: answer.as_of },
      { label: 'Losses from', value: `${answer.from} to ${answer.to}` },
    ],
    tableTitle: 'Claims',
    emptyText: 'No claims with losses in this period.',
    columns: [
      { header: 'Claim', width: 0.16 }, { header: 'Loss date', width: 0.12 }, { header: 'Peril', width: 0.14 }, { header: 'Status', width: 0.1 },
      { header: 'Paid', width: 0.12, align: right }, { header: 'Outstanding', width: 0.12, align: right }, { header: 'Recovered', width: 0.12, align: right }, { header: 'Incurred', width: 0.12, align: right },
    ],
    rows: lines.map((line) => [line.claimNumber, line.lossDate, line.peril, line.status, shown(line.figures.paidCents), shown(line.figures.outstandingCents), shown(line.figures.recoveredCents), shown(line.figures.incurredCents)]),
    summary: [
      { label: 'Paid', value: shown(totals.paid) },
      { label: 'Outstanding', value: shown(totals.outstanding) },
      { label: 'Recovered', value: shown(totals.recovered) },
      { label: 'Written premium', value: shown(premium.writtenCents) },
      { label: 'Earned premium', value: shown(premium.earnedCents) },
      { label: 'Loss ratio', value: ratio(answer.loss_ratio) },
      { label: 'Incurred', value: shown(totals.incurred) },
    ],
    issueDate: answer.as_of,
  };
}
