/**
 * Issue 16's bundle budgets, held by every change: what a function's cold start parses, over the
 * bare handler carrying the same heavy pieces (the S3 client, the tracer), stays within +120 KiB
 * (+160 KiB with the idempotency store). Sizes only, built exactly as the CDK app builds them;
 * the import times of the same table are the bench's (`npm run bench -- --quick`), never a test's.
 */
import { describe, expect, it } from 'vitest';
import { coldStartTargets, measureBundleSizes } from '../bench/cold-start.js';

describe('function bundles', () => {
  it('stay within their budget over the bare handler, so no function parses at a cold start what it does not run', () => {
    const sizes = measureBundleSizes(coldStartTargets());
    expect(sizes.length).toBeGreaterThan(100);
    const over = sizes.filter((size) => size.budgetKiB !== undefined && size.overBareKiB > size.budgetKiB).map((size) => `${size.name}: +${size.overBareKiB} KiB over the bare ${size.yardstick} handler, budget ${size.budgetKiB}`);
    expect(over).toEqual([]);
  }, 300_000);
});
