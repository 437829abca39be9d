/**
 * Policy numbers: `<prefix>-<YYYY>-<n>`, `n` from 1 within each calendar year of
 * the creation date (UTC), shared by quotes and policies (reference product, Carrier).
 * The creation year, not the inception year, picks the sequence: numbers then grow
 * with time, and new_policy_information can show the next number without a date.
 */
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
