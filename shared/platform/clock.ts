/**
 * The service's one clock: every business date and stored time reads it, never `new Date()`.
 *
 * In AWS it is the real time (nothing sets it). The local runtime and the tests may start it
 * elsewhere: `SERVICE_CLOCK=2026-11-28` (noon UTC of that day) or `SERVICE_CLOCK=2026-11-28T23:59:00Z`
 * starts it there when the process first reads it, and it then runs at the real pace, so TTLs,
 * retry delays and idempotency windows keep their lengths. Tests in the service's process may
 * `clock.startAt(...)` instead, and `clock.startAt(undefined)` to go back to the variable.
 * Measurements of elapsed time (latency, deadlines, caches) keep `Date.now()`: a shift cancels out.
 */

export const CLOCK_VARIABLE = 'SERVICE_CLOCK';

interface Shift {
  /** The setting the shift was taken from: a new setting starts the clock again. */
  setting: string;
  offsetMs: number;
}

let fromVariable: Shift | undefined;
let fromTest: Shift | undefined;

/** The instant a setting names: a date is noon UTC of that day, so that hours either side stay in it. */
export function clockStart(setting: string): number {
  const text = setting.trim();
  const instant = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T12:00:00Z` : text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(instant)) {
    throw new Error(`${CLOCK_VARIABLE}=${text.slice(0, 40)} is not a date (YYYY-MM-DD) or an instant (YYYY-MM-DDTHH:MM:SSZ)`);
  }
  return instant;
}

/**
 * The setting pinned to the real instant its clock starts at, `<instant>@<real instant>`: every
 * process given it (the local runtime's children, the rehearsal's function workers) reads one
 * clock, where each would otherwise start its own at its first read.
 */
export function anchoredClockSetting(setting: string, realNow = Date.now()): string {
  if (setting.includes('@')) {
    offsetOf(setting); // refuses a malformed one here, at start
    return setting;
  }
  return `${new Date(clockStart(setting)).toISOString()}@${new Date(realNow).toISOString()}`;
}

function offsetOf(setting: string): number {
  const [start, anchor] = setting.split('@');
  const anchoredAt = anchor === undefined ? Date.now() : Date.parse(anchor);
  if (Number.isNaN(anchoredAt)) throw new Error(`${CLOCK_VARIABLE}=${setting.slice(0, 60)}: after @ comes the real instant the clock started at`);
  return clockStart(start) - anchoredAt;
}

function offsetMs(): number {
  if (fromTest) return fromTest.offsetMs;
  const setting = process.env[CLOCK_VARIABLE];
  if (!setting) return 0;
  if (fromVariable?.setting !== setting) fromVariable = { setting, offsetMs: offsetOf(setting) };
  return fromVariable.offsetMs;
}

export const clock = {
  /** Now, as the service sees it. */
  now: (): Date => new Date(Date.now() + offsetMs()),
  /** Now in epoch milliseconds, as the service sees it. */
  nowMs: (): number => Date.now() + offsetMs(),
  /** The service's today, `YYYY-MM-DD` (UTC). */
  today: (): string => new Date(Date.now() + offsetMs()).toISOString().slice(0, 10),
  /** Whether the clock is started elsewhere than the real time. */
  isShifted: (): boolean => fromTest !== undefined || Boolean(process.env[CLOCK_VARIABLE]),
  /** Starts the clock at `setting` (as SERVICE_CLOCK reads it) now; `undefined` hands it back to SERVICE_CLOCK or the real time. */
  startAt(setting: string | undefined): void {
    fromTest = setting === undefined ? undefined : { setting, offsetMs: offsetOf(setting) };
  },
};
