/**
 * The year's claim payments to 1099-reportable vendors: from the year's listing of issued payments
 * (one partition: a voided payment leaves it), each claim payment attributed to its first payee
 * marked 1099 reportable (an insured's indemnity is not reportable; a joint payee such as the
 * mortgagee is not the one paid for services), summed per vendor, and the vendors at or above
 * the year's federal reporting threshold listed with their taxpayer id, as JSON rows and CSV.
 * A reportable vendor paid that much with no taxpayer id on file is named apart: the carrier
 * owes a W-9 request, not a 1099 without a TIN.
 */
import { taxReportingContacts, type TaxReportingContact } from '../contacts/index.js';
import { formatCents, toAmount, type Cents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { ClaimRuleError } from './model.js';
import { shown } from './money-rules.js';
import { paymentsIssuedIn } from './store.js';

/**
 * The federal threshold of a year's Form 1099 reporting of payments for services: 600.00 through
 * 2025; 2,000.00 for payments made from 2026 on (the threshold raised by the 2025 budget act). A
 * vendor is reported when paid at least this in the year, as the IRS instructions read ("$600 or more").
 */
export function federalThresholdCents(year: number): Cents {
  return year >= 2026 ? 200000 : 60000;
}

interface VendorTotal {
  contact: TaxReportingContact;
  totalCents: Cents;
  payments: Array<{ paymentId: string; claimNumber: string; issuedDate: string; amountCents: Cents; checkNumber: string | null; traceNumber: string | null }>;
}

const csvCell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export async function vendorPayments1099(principal: Principal, request: { year: string; format: 'json' | 'csv' }) {
  const year = Number(request.year);
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw new ClaimRuleError(`year: ${request.year.slice(0, 10)} is not a year`);
  const listed = (await paymentsIssuedIn(request.year)).filter((payment) => payment.kind === 'claim_payment');
  const payeeIds = [...new Set(listed.flatMap((payment) => payment.payees.filter((payee) => payee.as === 'payee').map((payee) => payee.contactId)))];
  const contacts = await taxReportingContacts(principal, payeeIds);
  const byVendor = new Map<string, VendorTotal>();
  for (const payment of listed) {
    const vendor = payment.payees.filter((payee) => payee.as === 'payee').map((payee) => contacts.get(payee.contactId)).find((contact) => contact?.reportable);
    if (!vendor) continue;
    const total = byVendor.get(vendor.contactId) ?? { contact: vendor, totalCents: 0, payments: [] };
    total.totalCents += payment.amountCents;
    total.payments.push({ paymentId: payment.paymentId, claimNumber: payment.claimNumber, issuedDate: payment.issuedDate, amountCents: payment.amountCents, checkNumber: payment.checkNumber, traceNumber: payment.traceNumber });
    byVendor.set(vendor.contactId, total);
  }
  const threshold = federalThresholdCents(year);
  const reported = [...byVendor.values()].filter((vendor) => vendor.totalCents >= threshold).sort((a, b) => a.contact.name.localeCompare(b.contact.name) || a.contact.contactId.localeCompare(b.contact.contactId));
  const rows = reported.filter((vendor) => vendor.contact.taxId !== null).map((vendor) => ({
    contact_id: vendor.contact.contactId,
    name: vendor.contact.name,
    tax_id: vendor.contact.taxId,
    tax_id_kind: vendor.contact.taxIdKind,
    address: vendor.contact.address,
    payments: vendor.payments.length,
    total: toAmount(vendor.totalCents),
    claim_payments: vendor.payments.map((payment) => ({ payment_id: payment.paymentId, claim_number: payment.claimNumber, issued_date: payment.issuedDate, amount: toAmount(payment.amountCents), check_number: payment.checkNumber, trace_number: payment.traceNumber })),
  }));
  const missingTaxId = reported.filter((vendor) => vendor.contact.taxId === null).map((vendor) => ({ contact_id: vendor.contact.contactId, name: vendor.contact.name, total: toAmount(vendor.totalCents) }));
  const answer = {
    year: request.year,
    threshold: toAmount(threshold),
    threshold_rule: `vendors paid ${shown(threshold)} or more in ${request.year} (the federal threshold for that year)`,
    vendors: rows,
    missing_tax_id: missingTaxId,
  };
  if (request.format !== 'csv') return answer;
  const head = ['contact_id', 'name', 'tax_id', 'address_line1', 'address_line2', 'city', 'state', 'zip', 'payments', 'total'];
  const lines = reported
    .filter((vendor) => vendor.contact.taxId !== null)
    .map((vendor) => {
      const address = vendor.contact.address;
      return [vendor.contact.contactId, vendor.contact.name, vendor.contact.taxId!, address?.line1 ?? '', address?.line2 ?? '', address?.city ?? '', address?.state ?? '', address?.zip ?? '', String(vendor.payments.length), formatCents(vendor.totalCents)].map(csvCell).join(',');
    });
  return { ...answer, csv: [head.join(','), ...lines].join('\n') + '\n' };
}
