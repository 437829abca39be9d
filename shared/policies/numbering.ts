/**
 * Policy numbers: `<prefix>-<YYYY>-<n>`, `n` from 1 within each calendar year of
 * the creation date (UTC), shared by quotes and policies (reference product, Carrier).
 * The creation year, not the inception year, picks the sequence: numbers then grow
 * with time, and new_policy_information can show the next number without a date.
 * A number typed by hand may already hold a place of the sequence: the allocator
 * passes over it (see new-policy-service.ts). No I/O.
 */
import type { NumberSequence } from './model.js';

export function formatPolicyNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${sequence}`;
}

export function numberingYear(now: Date): number {
  return now.getUTCFullYear();
}

/** The lockbox form of a policy number: its digits only (`10-2026-7` -> `1020267`). */
export function lockboxForm(policyNumber: string): string {
  return policyNumber.replace(/\D/g, '');
}

/**
 * The first number of a sequence after `last` that is not taken. `isTaken` is asked in
 * order, at most `limit` times; undefined when every one asked was taken.
 */
export async function firstFreeNumber(
  sequence: NumberSequence,
  last: number,
  isTaken: (policyNumber: string) => Promise<boolean>,
  limit: number,
): Promise<{ policyNumber: string; position: number } | undefined> {
  for (let position = last + 1; position <= last + limit; position += 1) {
    const policyNumber = formatPolicyNumber(sequence.prefix, sequence.year, position);
    if (!(await isTaken(policyNumber))) return { policyNumber, position };
  }
  return undefined;
}
