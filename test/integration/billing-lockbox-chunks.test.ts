/**
 * The chunks of a large lockbox file applied by hand, as the lockbox-chunks consumer would (no
 * consumer runs here): a chunk delivered twice, or interrupted after its postings and delivered
 * again, posts nothing twice and answers each line as the first time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLockboxChunk, lockboxChunks, lockboxFileId, lockboxRunResult, startLockboxRun } from '../../shared/billing/lockbox-runs.js';
import { lockboxChunkDoneKey, lockboxLineKey } from '../../shared/billing/keys.js';
import { loadAccount } from '../../shared/billing/store.js';
import { batchWriteAll } from '../../shared/platform/dynamo.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;

async function issued(name: string) {
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
function fileFor(policies: Array<{ number: string }>) {
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

const expectAnswers = (results: Array<{ result: string; detail: string }>, expected: Array<{ result: string; detail: string | RegExp }>) => {
  expect(results).toHaveLength(expected.length);
  results.forEach((answer, line) => {
    expect(answer.result, `line ${line}`).toBe(expected[line].result);
    if (expected[line].detail instanceof RegExp) expect(answer.detail, `line ${line}`).toMatch(expected[line].detail);
    else expect(answer.detail, `line ${line}`).toBe(expected[line].detail);
  });
};

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents'] });
});
afterAll(async () => {
  await service?.stop();
});

describe('a chunk of a lockbox file', () => {
  it('posts nothing twice when a chunk is delivered twice or interrupted after its postings, and answers the same', async () => {
    const policies = await Promise.all(['Otto Twice', 'Pia Twice', 'Quin Twice'].map(issued));
    const { lines, expected } = fileFor(policies);
    // Started with its own key, its chunks are applied here by hand, as the consumer would.
    const fileId = lockboxFileId(service.administratorApiKey, 'by-hand');
    await startLockboxRun(lines, 'tester', fileId);
    const chunks = lockboxChunks(lines);
    const first = { fileId, chunk: 0, lines: chunks[0] };
    await applyLockboxChunk(first);
    const balances = async () => Promise.all(policies.map(async (policy) => (await loadAccount(policy.policyId, policy.termId))!.account.balanceCents));
    const after = await balances();
    // Delivered twice: nothing more.
    expect(await applyLockboxChunk(first)).toEqual({ applied: 0, alreadyAnswered: chunks[0].length });
    expect(await balances()).toEqual(after);
    // Interrupted after its postings (its refusals and its done mark never written), delivered again.
    const refused = chunks[0].filter((line) => expected[line].result === 'error');
    await batchWriteAll([...refused.map((line) => ({ DeleteRequest: { Key: lockboxLineKey(fileId, line) } })), { DeleteRequest: { Key: lockboxChunkDoneKey(fileId, 0) } }]);
    await applyLockboxChunk(first);
    expect(await balances()).toEqual(after);
    for (const [chunk, chunkLines] of chunks.entries()) if (chunk > 0) await applyLockboxChunk({ fileId, chunk, lines: chunkLines });
    const result = await lockboxRunResult(fileId, { contactId: 'tester', isAdministrator: false });
    expect(result.status).toBe('done');
    expectAnswers((result as { results: Array<{ result: string; detail: string }> }).results, expected);
  }, 240_000);
});
