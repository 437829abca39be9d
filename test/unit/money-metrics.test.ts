/**
 * The money moves' metrics (shared/platform/metrics.ts): one CloudWatch embedded-metric line per
 * committed move, written before the move answers, by an emitter loaded on the first move.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordMoneyMove } from '../../shared/platform/metrics.js';

describe('money move metrics', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('writes the move\'s count as an embedded metric line in the service\'s namespace by the time the call resolves', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (String(chunk).includes('CloudWatchMetrics')) return lines.push(String(chunk)) > 0;
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write);
    await recordMoneyMove('PaymentsPosted', 3);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'InsuranceAdmin', Metrics: [{ Name: 'PaymentsPosted', Unit: 'Count' }] });
    expect(line.PaymentsPosted).toBe(3);
    expect(line.service).toBe('insurance-admin');
  });

  it('counts nothing for no moves', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const spy = vi.spyOn(process.stdout, 'write');
    await recordMoneyMove('PoliciesIssued', 0);
    expect(spy.mock.calls.filter(([chunk]) => String(chunk).includes('CloudWatchMetrics'))).toEqual([]);
  });
});
