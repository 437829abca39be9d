/**
 * A policy whose premium is exactly 3000.00 (Dwelling 850,000 Masonry class 5: 2975.00;
 * Personal Liability 100,000: 20.00; Medical Payments 1,000: 5.00; losses, so no discount)
 * plus the 25.00 fee, for the 365-day term 2025-01-01 to 2026-01-01, Full Pay: the cancellation
 * and reinstatement figures are worked from it.
 */
import { expect } from 'vitest';
import { UNDERWRITING_QUESTION } from './reference-product.js';
import { successData as ok, type TestService } from './service.js';

const P = '/api/v2/policies';

export async function issued3000(service: TestService, name: string): Promise<{ policyId: string; policyNumber: string; termId: string }> {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: '01/01/2025', line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'yes' }],
        locations: [{ address_zip: '10001' }],
        items: [
          { name: 'Dwelling', limit: 850000, questions: { 'Construction Type': 'Masonry', 'Protection Class': '5' } },
          { name: 'Personal Liability', limit: 100000 },
          { name: 'Medical Payments', limit: 1000 },
        ],
      },
    }),
  );
  expect(data.total).toMatchObject({ annual_premium: 3000, annual_fees: 25 });
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id } }));
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id }));
  return { policyId: data.policy_id, policyNumber: data.quote_number, termId: policy.active_policy_term.id };
}
