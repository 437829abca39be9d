/** The commissions area's operations: an agency's schedule set (Administrators), its monthly statement read (within reach). */
import { getProductCatalog } from '../catalog/index.js';
import { idempotentFileId, storePartyStatement, type PartyStatement } from '../documents/index.js';
import { AGENCY_ROLE_ID, getContact } from '../contacts/index.js';
import { clock } from '../platform/clock.js';
import { BusinessRuleError, NotFoundError, PermissionDeniedError } from '../platform/errors.js';
import { formatCents, sum, toAmount, toCents } from '../platform/money.js';
import { todayIso } from '../platform/dates.js';
import type { Principal } from '../platform/principal.js';
import type { CommissionPayment, CommissionRow } from './model.js';
import { monthOf, previousMonth } from './rules.js';
import { CommissionPaymentReferenceTakenError, commissionBefore, monthPayments, monthRows, paidBefore, putSchedule, recordPayment } from './store.js';
import { randomUUID } from 'node:crypto';

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

const paymentToWire = (payment: CommissionPayment) => ({ payment_id: payment.paymentId, paid_on: payment.paidOn, amount: toAmount(payment.amountCents), reference: payment.reference });

export interface CommissionPaymentRequest {
  agencyId: string;
  amount: string | number;
  paidOn: string;
  reference: string;
}

/**
 * A commission payment made to an agency (Administrators): on the statement of the month paid on,
 * as paid, lowering the balance carried forward. A reference is recorded once per agency.
 */
export async function recordCommissionPayment(principal: Principal, request: CommissionPaymentRequest) {
  if (!principal.isAdministrator) throw new PermissionDeniedError('Only an Administrator may record a commission payment');
  const amountCents = toCents(String(request.amount).replace(/[,\s+]/g, ''));
  if (amountCents <= 0) throw new BusinessRuleError('amount: must be more than 0.00');
  const today = todayIso(clock.now());
  if (request.paidOn > today) throw new BusinessRuleError(`paid_on: ${request.paidOn} is after today (${today})`);
  const agency = await getContact(request.agencyId);
  if (!agency || !agency.roleIds.includes(AGENCY_ROLE_ID)) throw new BusinessRuleError(`agency_id: ${request.agencyId.slice(0, 40)} is not an agency`);
  const payment: CommissionPayment = {
    paymentId: randomUUID(), agencyId: request.agencyId, month: monthOf(request.paidOn), paidOn: request.paidOn, amountCents,
    reference: request.reference, recordedBy: principal.contactId, recordedAt: clock.now().toISOString(),
  };
  try {
    await recordPayment(payment);
  } catch (error) {
    if (error instanceof CommissionPaymentReferenceTakenError) throw new BusinessRuleError(`reference: a payment ${request.reference.slice(0, 40)} is already recorded for this agency`);
    throw error;
  }
  return { agency_id: payment.agencyId, ...paymentToWire(payment) };
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
  /** The payments made to the agency in the month (by the day paid). */
  payments: CommissionPayment[];
  previousBalanceCents: number;
  paidCents: number;
  premiumCents: number;
  commissionCents: number;
  balanceCents: number;
}

/** The agency-month's statement: its rows, the balance brought forward from the months before, what was paid, the balance owed. */
export async function commissionStatement(agencyId: string, month: string): Promise<CommissionStatement> {
  const [rows, before, payments, paidEarlier] = await Promise.all([monthRows(agencyId, month), commissionBefore(agencyId, month), monthPayments(agencyId, month), paidBefore(agencyId, month)]);
  const previousBalanceCents = sum(before) - sum(paidEarlier);
  const paidCents = sum(payments.map((payment) => payment.amountCents));
  const commissionCents = sum(rows.map((row) => row.commissionCents));
  return {
    agencyId, month, rows, payments, previousBalanceCents, paidCents,
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
  for (const payment of statement.payments) lines.push([`Payment ${payment.reference}`, '', '', payment.paidOn, '', '', formatCents(-payment.amountCents)].map(csvCell).join(','));
  lines.push(['Paid', '', '', '', '', '', formatCents(statement.paidCents)].join(','));
  lines.push(['Balance', '', '', '', '', '', formatCents(statement.balanceCents)].join(','));
  return `${lines.join('\n')}\n`;
}

export async function retrieveCommissionStatement(principal: Principal, request: { agencyId: string; month: string; format: 'json' | 'csv' | 'pdf' }) {
  requireReach(principal, request.agencyId);
  if (request.month > monthOf(clock.now().toISOString().slice(0, 10))) throw new BusinessRuleError(`month: ${request.month} has not begun`);
  const statement = await commissionStatement(request.agencyId, request.month);
  const totals = {
    premium: toAmount(statement.premiumCents),
    commission: toAmount(statement.commissionCents),
    previous_balance: toAmount(statement.previousBalanceCents),
    paid: toAmount(statement.paidCents),
    balance: toAmount(statement.balanceCents),
  };
  const answer = {
    agency_id: statement.agencyId, month: statement.month, previous_month: previousMonth(statement.month), transactions: statement.rows.map(rowToWire),
    payments: statement.payments.map(paymentToWire), totals,
  };
  if (request.format === 'pdf') return { ...answer, deliverable: await statementDeliverable(statement) };
  return request.format === 'csv' ? { ...answer, csv: statementCsv(statement) } : answer;
}

const RIGHT = 'right' as const;

/**
 * The statement as a PDF in the documents area, a file of the agency queued for print or e-mail
 * like any deliverable. Its file is named by what it says (its rows and payments): asked for again
 * unchanged it answers the same file; changed since (a later move of the month), a new one.
 */
async function statementDeliverable(statement: CommissionStatement) {
  const agency = await getContact(statement.agencyId);
  const today = todayIso(clock.now());
  const address = (agency as { addresses?: Array<{ addressLine1: string; addressLine2?: string; addressCity?: string; addressState?: string; addressZip?: string }> } | undefined)?.addresses?.[0];
  const document: PartyStatement = {
    title: 'Commission Statement',
    reference: `${statement.agencyId.slice(0, 8)}-${statement.month}`,
    party: {
      id: statement.agencyId,
      name: agency?.name ?? `Agency ${statement.agencyId.slice(0, 8)}`,
      ...(address ? { address: { line1: address.addressLine1, ...(address.addressLine2 ? { line2: address.addressLine2 } : {}), city: address.addressCity ?? '', state: address.addressState ?? '', zip: address.addressZip ?? '' } } : {}),
    },
    heading: [{ label: 'Period', value: statement.month }, { label: 'Statement Date', value: today }],
    columns: [
      { header: 'Policy', width: 0.14 }, { header: 'Insured', width: 0.2 }, { header: 'Transaction', width: 0.15 }, { header: 'Effective', width: 0.13 },
      { header: 'Premium', width: 0.14, align: RIGHT }, { header: 'Rate %', width: 0.09, align: RIGHT }, { header: 'Commission', width: 0.15, align: RIGHT },
    ],
    rows: statement.rows.map((row) => [row.policyNumber, row.insured, row.transaction, row.effectiveDate, formatCents(row.premiumCents), row.rate, formatCents(row.commissionCents)]),
    payments: {
      title: 'Payments',
      columns: [{ header: 'Paid On', width: 0.3 }, { header: 'Reference', width: 0.4 }, { header: 'Amount', width: 0.3, align: RIGHT }],
      rows: statement.payments.map((payment) => [payment.paidOn, payment.reference, formatCents(payment.amountCents)]),
    },
    summary: [
      { label: 'Previous balance', value: formatCents(statement.previousBalanceCents) },
      { label: 'Commission this period', value: formatCents(statement.commissionCents) },
      { label: 'Paid', value: formatCents(statement.paidCents) },
      { label: 'Balance', value: formatCents(statement.balanceCents) },
    ],
    issueDate: today,
  };
  const says = [...statement.rows.map((row) => row.rowId), ...statement.payments.map((payment) => payment.paymentId)].join(',');
  return storePartyStatement(document, { fileId: idempotentFileId(statement.agencyId, 'commission_statement', `${statement.month}:${says}`), goDate: today });
}
