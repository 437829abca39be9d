import { afterEach, describe, expect, it } from 'vitest';
import { anchoredClockSetting, clock, clockStart } from '../../shared/platform/clock.js';
import { todayIso } from '../../shared/platform/dates.js';

const saved = process.env.SERVICE_CLOCK;
afterEach(() => {
  clock.startAt(undefined);
  if (saved === undefined) delete process.env.SERVICE_CLOCK;
  else process.env.SERVICE_CLOCK = saved;
});

describe('the service clock', () => {
  it('is the real time when nothing sets it (as in AWS)', () => {
    delete process.env.SERVICE_CLOCK;
    const before = Date.now();
    const now = clock.nowMs();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(clock.isShifted()).toBe(false);
  });

  it('SERVICE_CLOCK=<date> starts the service on that day, and today() and todayIso() say so', () => {
    process.env.SERVICE_CLOCK = '2026-12-25';
    expect(clock.today()).toBe('2026-12-25');
    expect(todayIso()).toBe('2026-12-25');
    expect(clock.isShifted()).toBe(true);
    // A date starts at noon UTC: an hour either side is still that day.
    expect(Math.abs(clock.nowMs() - Date.parse('2026-12-25T12:00:00Z'))).toBeLessThan(60_000);
  });

  it('runs on at the real pace from where it was started, so durations (TTLs, retry delays) keep their length', async () => {
    process.env.SERVICE_CLOCK = '2026-11-29T08:00:00Z';
    const first = clock.nowMs();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = clock.nowMs();
    expect(second - first).toBeGreaterThanOrEqual(25);
    expect(second - first).toBeLessThan(10_000);
    expect(first).toBeGreaterThanOrEqual(Date.parse('2026-11-29T08:00:00Z'));
  });

  it('a test in the service process starts it with startAt, which wins over SERVICE_CLOCK until handed back', () => {
    process.env.SERVICE_CLOCK = '2026-11-28';
    clock.startAt('2026-11-29');
    expect(clock.today()).toBe('2026-11-29');
    clock.startAt(undefined);
    expect(clock.today()).toBe('2026-11-28');
  });

  it('pinned to the real instant it started at, it is one clock for every process that reads it later', async () => {
    const pinned = anchoredClockSetting('2026-11-29', Date.now());
    expect(pinned).toMatch(/^2026-11-29T12:00:00\.000Z@\d{4}-\d{2}-\d{2}T/);
    await new Promise((resolve) => setTimeout(resolve, 40));
    // A process reading it 40 ms later sees the clock 40 ms on, not starting again.
    process.env.SERVICE_CLOCK = pinned;
    expect(clock.nowMs() - Date.parse('2026-11-29T12:00:00Z')).toBeGreaterThanOrEqual(35);
    expect(anchoredClockSetting(pinned)).toBe(pinned);
    expect(() => anchoredClockSetting('2026-11-29@soon')).toThrow(/after @ comes the real instant/);
  });

  it('refuses a setting that is not a date or an instant, naming the variable', () => {
    expect(() => clockStart('saturday')).toThrow(/SERVICE_CLOCK=saturday is not a date/);
    expect(() => clockStart('2026-02-30x')).toThrow(/not a date/);
  });
});
