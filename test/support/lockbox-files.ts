/** A large lockbox file over issued worked-example policies, and the answers one application of it gives. */
import { expect } from 'vitest';
import type { TestService } from './service.js';
import { issueWorkedExample } from './worked-example.js';

export async function issuedForLockbox(service: TestService, name: string) {
  const { policyId, policyNumber, termId } = await issueWorkedExample(service, name);
  return { policyId, number: policyNumber.replace(/\D/g, ''), policyNumber, termId };
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

