/**
 * The reference product's worked example (HO3, A = 250,000, premium 826.62, fees 25.00) as
 * documents of every type: for previews of the layout and for tests that must show the
 * reference figures. The parties and addresses are made up.
 */
import { addDays, addMonths, daysBetween } from '../../shared/platform/dates.js';
import { allocate, prorate, toCents, type Cents } from '../../shared/platform/money.js';
import { totalsFromParts, type BillingDetails, type DeliverableType, type PolicyDocument } from '../../shared/documents/model.js';

const EFFECTIVE = '2026-07-01';
const EXPIRATION = '2027-07-01';

const WORKED_EXAMPLE: Omit<PolicyDocument, 'type' | 'totals'> = {
  carrier: {
    name: 'Sample Mutual Insurance Company',
    address: { line1: '100 Main Street', line2: 'Suite 400', city: 'Springfield', state: 'IL', zip: '62701' },
    phone: '(217) 555-0100',
  },
  policyNumber: '10-2026-1',
  policyType: 'Homeowner - HO3',
  namedInsureds: [{ name: 'Jordan Avery', mailingAddress: { line1: '42 Maple Avenue', city: 'Springfield', state: 'IL', zip: '62704' } }],
  producer: { agencyName: 'Prairie State Insurance Agency', agentName: 'Pat Lee', phone: '(217) 555-0142' },
  term: { effectiveDate: EFFECTIVE, expirationDate: EXPIRATION },
  properties: [
    {
      name: 'Property #1',
      address: { line1: '42 Maple Avenue', city: 'Springfield', state: 'IL', zip: '62704' },
      yearBuilt: '1998',
      construction: 'Frame',
      protectionClass: '3',
      coverages: [
        { name: 'Coverage A - Dwelling', limit: toCents('250000'), deductible: toCents('1000'), premium: toCents('866.25') },
        { name: 'Coverage B - Other Structures', limit: toCents('25000'), premium: 0 },
        { name: 'Coverage C - Personal Property', limit: toCents('125000'), premium: 0 },
        { name: 'Coverage D - Loss of Use', limit: toCents('50000'), premium: 0 },
      ],
    },
  ],
  policyCoverages: [
    { name: 'Coverage E - Personal Liability', limit: toCents('300000'), premium: toCents('35.00') },
    { name: 'Coverage F - Medical Payments', limit: toCents('5000'), premium: toCents('12.00') },
  ],
  adjustments: [{ name: 'Claims-Free Discount', amount: toCents('-86.63') }],
  fees: [{ name: 'Policy Fee', amount: toCents('25.00') }],
  forms: [{ code: 'HO 00 03', edition: '05 11', description: 'Homeowners 3 - Special Form' }],
  issueDate: '2026-06-15',
};

/** Full Pay: the premium and the fee, due on the effective date. */
function fullPay(premium: Cents, fees: Cents): BillingDetails {
  return { scheduleLabel: 'Full Pay', installments: [{ number: 1, billDate: EFFECTIVE, dueDate: EFFECTIVE, amount: premium + fees }] };
}

/** Monthly: ten installments of 10%, the fee on the first, 3.00 on each later one. */
function monthly(premium: Cents, fees: Cents): BillingDetails {
  const parts = allocate(premium, Array.from({ length: 10 }, () => '0.10'));
  const installments = parts.map((part, index) => {
    const dueDate = addMonths(EFFECTIVE, index);
    return { number: index + 1, billDate: index === 0 ? dueDate : addDays(dueDate, -20), dueDate, amount: part + (index === 0 ? fees : toCents('3.00')) };
  });
  return { scheduleLabel: 'Monthly', installments, amountDue: installments[0].amount, amountDueDate: EFFECTIVE };
}

/** The worked example as a document of `type`, with what that type needs. */
export function workedExampleDocument(type: DeliverableType = 'Declaration'): PolicyDocument {
  const totals = totalsFromParts(WORKED_EXAMPLE);
  const document: PolicyDocument = structuredClone({ ...WORKED_EXAMPLE, type, totals });
  if (type === 'Installment Billing Statement' || type === 'Renewal Billing Statement') document.billing = monthly(totals.premium, totals.fees);
  else if (type !== 'Notice of Cancellation') document.billing = fullPay(totals.premium, totals.fees);
  if (type === 'Notice of Cancellation') {
    const cancelDate = '2027-01-01';
    const returnPremium = prorate(totals.premium, daysBetween(cancelDate, EXPIRATION), daysBetween(EFFECTIVE, EXPIRATION));
    document.cancellation = { reason: "Insured's Request", cancelDate, returnPremium };
    document.issueDate = '2026-12-15';
  }
  if (type === 'Notice of Non-Renewal') document.renewalNotice = { kind: 'non-renewal', expirationDate: EXPIRATION, reason: 'Loss History', description: 'Three water losses in the term' };
  if (type === 'Notice of Reinstatement') document.reinstatement = { cancelDate: '2027-01-01', reinstatementDate: '2027-01-11', lapseDays: 10 };
  if (type === 'Conditional Renewal Notice') document.renewalNotice = { kind: 'conditional', expirationDate: EXPIRATION, previousPremium: 82662, renewalPremium: 95000, changePercent: '14.93' };
  return document;
}
