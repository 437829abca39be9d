/**
 * The positive-pay file a bank matches presented claim checks against: one row per check issued
 * (number, issue date, amount, payees). Kept apart from the money moves so only the export bundles it.
 */
import { formatCents, type Cents } from '../platform/money.js';

export interface PositivePayCheck {
  checkNumber: string;
  issuedDate: string;
  amountCents: Cents;
  payees: readonly string[];
}

/** A field as CSV writes it: quoted when it holds a comma, a quote or a line break. */
const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function positivePayCsv(checks: readonly PositivePayCheck[]): string {
  const rows = checks.map((check) => [check.checkNumber, check.issuedDate, formatCents(check.amountCents), check.payees.join(' and ')].map(field).join(','));
  return ['check_number,issue_date,amount,payee', ...rows].join('\r\n') + '\r\n';
}
