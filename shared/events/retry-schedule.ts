/**
 * When a delivery is tried again, as data: after each failed attempt, the wait before the next.
 * The waits add up to just under 24 hours; an attempt that fails with no wait left marks the
 * delivery failed (kept, and replayable with redeliver). A subscriber that answers 2xx is
 * delivered; anything else (another status, no answer within the timeout) is a failed attempt.
 */
export const RETRY_WAITS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 8 * 3600, 8 * 3600] as const;

/** How long one attempt waits for the subscriber's answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** The instant of the next attempt after `failedAttempts` failures in this round, or undefined: give up. */
export function nextAttemptAfter(failedAttempts: number, at: Date): Date | undefined {
  const wait = RETRY_WAITS_SECONDS[failedAttempts - 1];
  return wait === undefined ? undefined : new Date(at.getTime() + wait * 1000);
}
