/**
 * The chunks of a large lockbox file applied by hand, as the lockbox-chunks consumer would (no
 * consumer runs here): a chunk delivered twice, or interrupted after its postings and delivered
 * again, posts nothing twice and answers each line as the first time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLockboxChunk, lockboxChunks, lockboxRunResult, startLockboxRun } from '../../shared/billing/lockbox-runs.js';
import { lockboxFileId } from '../../shared/billing/large-lockbox-files.js';
import { lockboxChunkAnswersQuery, lockboxChunkDoneKey } from '../../shared/billing/keys.js';
import { loadAccount } from '../../shared/billing/store.js';
import { config } from '../../shared/platform/config.js';
import { batchWriteAll, queryAll } from '../../shared/platform/dynamo.js';
import { expectAnswers, issuedForLockbox, lockboxFileFor } from '../support/lockbox-files.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents'] });
});
afterAll(async () => {
  await service?.stop();
});

describe('a chunk of a lockbox file', () => {
  it('posts nothing twice when a chunk is delivered twice or interrupted after its postings, and answers the same', async () => {
    const policies = await Promise.all(['Otto Twice', 'Pia Twice', 'Quin Twice'].map((name) => issuedForLockbox(service, name)));
    const { lines, expected } = lockboxFileFor(policies);
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
    const refusals = (await queryAll<{ pk: string; sk: string }>(lockboxChunkAnswersQuery(config.tableName(), fileId, 0))).filter((item) => item.sk.endsWith('#refused'));
    expect(refusals.length).toBeGreaterThan(0);
    await batchWriteAll([...refusals.map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } })), { DeleteRequest: { Key: lockboxChunkDoneKey(fileId, 0) } }]);
    await applyLockboxChunk(first);
    expect(await balances()).toEqual(after);
    for (const [chunk, chunkLines] of chunks.entries()) if (chunk > 0) await applyLockboxChunk({ fileId, chunk, lines: chunkLines });
    const result = await lockboxRunResult(fileId, { contactId: 'tester', isAdministrator: false });
    expect(result.status).toBe('done');
    expectAnswers((result as { results: Array<{ result: string; detail: string }> }).results, expected);
  }, 240_000);
});
