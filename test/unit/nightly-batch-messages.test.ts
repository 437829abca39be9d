import { describe, expect, it } from 'vitest';
import { nightlyBatchMessage } from '../../shared/billing/index.js';
import { renewalBatchMessage } from '../../shared/lifecycle/index.js';

const ref = { policyId: 'p-1', termId: 't-1' };

describe('the nightly jobs queue messages', () => {
  it('reads a billing batch of accounts and a renewal batch of terms, each under its own list', () => {
    const billing = { job: 'billing', date: '2026-11-29', runId: 'run-1', batch: 0, accounts: [ref] };
    const renewals = { job: 'renewals', date: '2026-11-29', runId: 'run-2', batch: 3, terms: [ref, ref] };
    expect(nightlyBatchMessage().parse(billing)).toEqual(billing);
    expect(renewalBatchMessage().parse(renewals)).toEqual(renewals);
  });

  it('refuses a message of the other job, a missing list, an empty reference, or more terms than one batch carries, naming the field', () => {
    const renewals = { job: 'renewals', date: '2026-11-29', runId: 'run-2', batch: 0, terms: [ref] };
    const path = (message: unknown) => renewalBatchMessage().safeParse(message).error?.issues[0]?.path.join('.');
    expect(path({ ...renewals, job: 'billing' })).toBe('job');
    expect(path({ ...renewals, terms: undefined, accounts: [ref] })).toBe('terms');
    expect(path({ ...renewals, terms: [{ policyId: '', termId: 't' }] })).toBe('terms.0.policyId');
    expect(path({ ...renewals, terms: Array.from({ length: 26 }, () => ref) })).toBe('terms');
    expect(path({ ...renewals, date: '29/11/2026' })).toBe('date');
    expect(nightlyBatchMessage().safeParse({ ...renewals, job: 'billing', accounts: Array.from({ length: 101 }, () => ref) }).success).toBe(false);
  });
});
