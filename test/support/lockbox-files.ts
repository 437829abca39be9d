/** A large lockbox file over issued worked-example policies, and the answers one application of it gives. */
import { expect } from 'vitest';
import { UNDERWRITING_QUESTION } from './reference-product.js';
import { successData as ok, type TestService } from './service.js';

const P = '/api/v2/policies';

export async function issuedForLockbox(service: TestService, name: string) {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: new Date().toISOString().slice(0, 10), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id } }));
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id }));
  return { policyId: data.policy_id as string, number: (data.quote_number as string).replace(/\D/g, ''), policyNumber: data.quote_number as string, termId: policy.active_policy_term.id as string };
}

/** 1,200 lines over three policies: every tenth check repeats the one before it, and some lines are refused outright. */
export function lockboxFileFor(policies: Array<{ number: string }>) {
  const lines: Array<Record<string, unknown>> = [];
  const expected: Array<{ result: string; detail: string | RegExp }> = [];
  for (let index = 0; index < 1200; index += 1) {
    const policy = policies[index % 3];
    if (index % 97 === 0) {
      lines.push({ policy: '999999999', check: `x${index}`, payment: '900.00' });
      expected.push({ result: 'error', detail: 'No policy matches lockbox number 999999999' });
    } else if (index % 89 === 0) {
      lines.push({ policy: policy.number, check: `y${index}`, payment: 'ten dollars' });
      expected.push({ result: 'error', detail: /is not an amount/ });
    } else if (index % 10 === 9) {
      // The same check as this policy's line three lines earlier.
      const check = String(lines[index - 3].check);
      lines.push({ policy: policy.number, check, payment: '900.00' });
      const repeats = expected[index - 3].result === 'success';
      expected.push(repeats ? { result: 'error', detail: `Check ${check} was already posted to policy ${(policy as { policyNumber?: string }).policyNumber}` } : { result: 'success', detail: '' });
    } else {
      lines.push({ policy: policy.number, check: `c${index}`, payment: '900.00' });
      expected.push({ result: 'success', detail: '' });
    }
  }
  return { lines, expected };
}

export const expectAnswers = (results: Array<{ result: string; detail: string }>, expected: Array<{ result: string; detail: string | RegExp }>) => {
  expect(results).toHaveLength(expected.length);
  results.forEach((answer, line) => {
    expect(answer.result, `line ${line}`).toBe(expected[line].result);
    if (expected[line].detail instanceof RegExp) expect(answer.detail, `line ${line}`).toMatch(expected[line].detail);
    else expect(answer.detail, `line ${line}`).toBe(expected[line].detail);
  });
};

