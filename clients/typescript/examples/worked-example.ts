import { createInsuranceClient } from '@insurance-admin/client';

/** The worked example: quote, bind, issue and pay a Homeowner - HO3 policy. */
export async function workedExample(baseUrl: string, apiKey: string) {
  const client = createInsuranceClient({ baseUrl, credential: apiKey });
  const quote = await client.call('/api/v2/policies/create_quote_extended', {
    quote_info: {
      effective_date: new Date().toISOString().slice(0, 10),
      line_name: 'Homeowners',
      policy_type_name: 'Homeowner - HO3',
      named_insureds: [{ name: 'Pat Example' }],
      underwriting_questions: [{ questionId: 'e29555d3-7101-4947-a3af-a279d8774c09', yesNoAnswer: 'no' }],
      locations: [{ address_line1: '1 Main St', address_zip: '10001' }],
      items: [
        { name: 'Dwelling', limit: 250000, deductible: 1000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } },
        { name: 'Personal Liability', limit: 300000 },
        { name: 'Medical Payments', limit: 5000 },
      ],
    },
  });
  const policyNumber: string = quote.quote_number; // 10-2026-1; quote.total.annual_total is 851.62
  await client.call('/api/v2/policies/bind', { bind_info: { policy_number: policyNumber } });
  await client.call('/api/v2/policies/issue', { issue_info: { policy_number: policyNumber } });
  // A retry with the same Idempotency-Key answers the first payment and posts nothing.
  const key = `pay-${policyNumber}-1`;
  await client.call('/api/v1/payments/makeManualPolicyPayment', { policyNumber, amount: '851.62' }, { idempotencyKey: key });
  await client.call('/api/v1/payments/makeManualPolicyPayment', { policyNumber, amount: '851.62' }, { idempotencyKey: key });
  const history = await client.call('/api/v2/policies/retrieve_account_history', { policy_id: quote.policy_id });
  return { policyId: quote.policy_id as string, policyNumber, balance: history.records[0].balance as number, annualTotal: quote.total.annual_total as number };
}
