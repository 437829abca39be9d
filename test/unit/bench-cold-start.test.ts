import { describe, expect, it } from 'vitest';
import { meetsTarget, median, pairedRatio, selectTargets, yardstickOf, type ColdStartTarget } from '../../test/bench/cold-start.js';

const target = (name: string): ColdStartTarget => ({ name, kind: name.startsWith('events/') ? 'worker' : 'operation', entry: `/x${name}.ts` });
const TARGETS = ['/api/v2/policies/create_policy', '/api/v2/policies/create_policy_from_externalquote', '/api/v2/auth/session', 'events/bootstrap/seed-reference-product'].map(target);

describe('the cold-start benchmark', () => {
  it('selects functions by exact operation name, or by any part of the path when the name holds a slash', () => {
    expect(selectTargets(TARGETS, ['create_policy']).map((t) => t.name)).toEqual(['/api/v2/policies/create_policy']);
    expect(selectTargets(TARGETS, ['v2/policies/', 'session']).map((t) => t.name)).toEqual([
      '/api/v2/policies/create_policy',
      '/api/v2/policies/create_policy_from_externalquote',
      '/api/v2/auth/session',
    ]);
    expect(selectTargets(TARGETS, ['events/']).map((t) => t.kind)).toEqual(['worker']);
    expect(selectTargets(TARGETS, [])).toHaveLength(4);
    expect(() => selectTargets(TARGETS, ['nope'])).toThrow(/matches no function/);
  });

  it('compares each import with the bare import run just before it, and takes the median of those ratios', () => {
    // A noisy second pair (both slow) does not move the ratio.
    expect(pairedRatio([120, 240, 130], [100, 200, 100])).toBe(1.2);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('holds functions without the ZIP table to 1.3× and 120 KiB, and ZIP functions to 1.5× whatever their size', () => {
    expect(meetsTarget({ zipTable: false, importRatio: 1.3, overBareKiB: 120 })).toBe(true);
    expect(meetsTarget({ zipTable: false, importRatio: 1.31, overBareKiB: 50 })).toBe(false);
    expect(meetsTarget({ zipTable: false, importRatio: 1.1, overBareKiB: 121 })).toBe(false);
    expect(meetsTarget({ zipTable: true, importRatio: 1.5, overBareKiB: 500 })).toBe(true);
    expect(meetsTarget({ zipTable: true, importRatio: 1.51, overBareKiB: 0 })).toBe(false);
    expect(meetsTarget({ zipTable: false, renders: true, importRatio: 1.7, overBareKiB: 300 })).toBe(true);
    expect(meetsTarget({ zipTable: false, renders: true, importRatio: 1.71, overBareKiB: 0 })).toBe(false);
  });

  it('allows an operation taking an Idempotency-Key 160 KiB over the bare bundle, at the same 1.3× import', () => {
    expect(meetsTarget({ zipTable: false, idempotent: true, importRatio: 1.3, overBareKiB: 160 })).toBe(true);
    expect(meetsTarget({ zipTable: false, idempotent: true, importRatio: 1.3, overBareKiB: 161 })).toBe(false);
    expect(meetsTarget({ zipTable: false, idempotent: true, importRatio: 1.31, overBareKiB: 100 })).toBe(false);
  });

  it('measures a function against the bare handler carrying the S3 client and the tracer it bundles, and a renderer against the bare one', () => {
    const s3 = '/p/node_modules/@aws-sdk/client-s3/dist-es/S3Client.js';
    const tracer = '/p/node_modules/@aws-lambda-powertools/tracer/lib/esm/Tracer.js';
    const own = '/p/shared/billing/service.ts';
    expect(yardstickOf([own], false)).toBe('bare');
    expect(yardstickOf([own, s3], false)).toBe('S3');
    expect(yardstickOf([own, tracer], false)).toBe('traced');
    expect(yardstickOf([own, s3, tracer], false)).toBe('S3+traced');
    expect(yardstickOf([own, s3], true)).toBe('bare');
  });
});
