/** The commissions area's operations: an agency's schedule set (Administrators), its monthly statement read (within reach). */
import { getProductCatalog } from '../catalog/index.js';
import { AGENCY_ROLE_ID, getContact } from '../contacts/index.js';
import { clock } from '../platform/clock.js';
import { BusinessRuleError, NotFoundError, PermissionDeniedError } from '../platform/errors.js';
import { formatCents, sum, toAmount } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import type { CommissionRow } from './model.js';
import { monthOf, previousMonth } from './rules.js';
import { commissionBefore, monthRows, putSchedule } from './store.js';

export interface ScheduleRequest {
  agencyId: string;
  lineId?: string;
  state?: string;
  newBusinessRate: number;
  renewalRate: number;
}

const rateText = (rate: number) => String(Number(rate.toFixed(4)));

export async function setCommissionSchedule(principal: Principal, request: ScheduleRequest) {
  if (!principal.isAdministrator) throw new PermissionDeniedError('Only an Administrator may set a commission schedule');
  const state = (request.state ?? '*').toUpperCase();
  if (state !== '*' && !/^[A-Z]{2}$/.test(state)) throw new BusinessRuleError('state: must be a two-letter state or *');
  const [agency, catalog] = await Promise.all([getContact(request.agencyId), request.lineId ? getProductCatalog() : undefined]);
  if (!agency || !agency.roleIds.includes(AGENCY_ROLE_ID)) throw new BusinessRuleError(`agency_id: ${request.agencyId.slice(0, 40)} is not an agency`);
  if (catalog && !catalog.lines.some((line) => line.id === request.lineId)) throw new BusinessRuleError(`line_id: ${request.lineId!.slice(0, 40)} is not a line of the catalog`);
  const schedule = {
    agencyId: request.agencyId, lineId: request.lineId ?? '*', state,
    newBusinessRate: rateText(request.newBusinessRate), renewalRate: rateText(request.renewalRate),
    setBy: principal.contactId, setAt: clock.now().toISOString(),
  };
  await putSchedule(schedule);
  return {
    agency_id: schedule.agencyId, line_id: schedule.lineId, state: schedule.state,
    new_business_rate: Number(schedule.newBusinessRate), renewal_rate: Number(schedule.renewalRate),
  };
}

/** An agent reads his own agencies' statements; another agency's reads as not found, as every record out of reach does. */
function requireReach(principal: Principal, agencyId: string) {
  if (principal.isAdministrator || principal.scope === 'all') return;
  if (principal.scope === 'agency' && principal.agencyIds.includes(agencyId)) return;
  throw new NotFoundError(`Agency ${agencyId.slice(0, 40)}`);
}

const rowToWire = (row: CommissionRow) => ({
  policy_number: row.policyNumber,
  insured: row.insured,
  transaction: row.transaction,
  effective_date: row.effectiveDate,
  premium: toAmount(row.premiumCents),
  rate: Number(row.rate),
  commission: toAmount(row.commissionCents),
});

const CSV_HEADER = ['policy_number', 'insured', 'transaction', 'effective_date', 'premium', 'rate', 'commission'];
const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

export interface CommissionStatement {
  agencyId: string;
  month: string;
  rows: CommissionRow[];
  previousBalanceCents: number;
  paidCents: number;
  premiumCents: number;
  commissionCents: number;
  balanceCents: number;
}

/** The agency-month's statement: its rows, the balance brought forward from the months before, what was paid, the balance owed. */
export async function commissionStatement(agencyId: string, month: string): Promise<CommissionStatement> {
  const [rows, before] = await Promise.all([monthRows(agencyId, month), commissionBefore(agencyId, month)]);
  const previousBalanceCents = sum(before);
  // No commission payment is recorded by the service yet: nothing reads as paid.
  const paidCents = 0;
  const commissionCents = sum(rows.map((row) => row.commissionCents));
  return {
    agencyId, month, rows, previousBalanceCents, paidCents,
    premiumCents: sum(rows.map((row) => row.premiumCents)),
    commissionCents,
    balanceCents: previousBalanceCents - paidCents + commissionCents,
  };
}

export function statementCsv(statement: CommissionStatement): string {
  const lines = [CSV_HEADER.join(',')];
  for (const row of statement.rows) {
    lines.push([row.policyNumber, row.insured, row.transaction, row.effectiveDate, formatCents(row.premiumCents), row.rate, formatCents(row.commissionCents)].map(csvCell).join(','));
  }
  lines.push(['Total', '', '', '', formatCents(statement.premiumCents), '', formatCents(statement.commissionCents)].join(','));
  lines.push(['Previous balance', '', '', '', '', '', formatCents(statement.previousBalanceCents)].join(','));
  lines.push(['Paid', '', '', '', '', '', formatCents(statement.paidCents)].join(','));
  lines.push(['Balance', '', '', '', '', '', formatCents(statement.balanceCents)].join(','));
  return `${lines.join('\n')}\n`;
}

export async function retrieveCommissionStatement(principal: Principal, request: { agencyId: string; month: string; format: 'json' | 'csv' | 'pdf' }) {
  requireReach(principal, request.agencyId);
  if (request.month > monthOf(clock.now().toISOString().slice(0, 10))) throw new BusinessRuleError(`month: ${request.month} has not begun`);
  if (request.format === 'pdf') throw new BusinessRuleError('format: pdf is not available yet; ask for json or csv');
  const statement = await commissionStatement(request.agencyId, request.month);
  const totals = {
    premium: toAmount(statement.premiumCents),
    commission: toAmount(statement.commissionCents),
    previous_balance: toAmount(statement.previousBalanceCents),
    paid: toAmount(statement.paidCents),
    balance: toAmount(statement.balanceCents),
  };
  const answer = { agency_id: statement.agencyId, month: statement.month, previous_month: previousMonth(statement.month), transactions: statement.rows.map(rowToWire), totals };
  return request.format === 'csv' ? { ...answer, csv: statementCsv(statement) } : answer;
}
