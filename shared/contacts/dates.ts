/** Dates that clients send either whole or as Year/Month/Day parts. */
import { isoDate, parseDate } from '../platform/dates.js';

export type DateResult = { date?: string; message?: string };

const blank = (value: unknown) => value === undefined || value === null || value === '';

/**
 * A date from its parts: all three or none. `field` names the date in messages
 * (`content.dob` reports `content.dobYear` etc. as given).
 */
export function dateFromParts(field: string, year?: string | null, month?: string | null, day?: string | null): DateResult {
  const parts = [year, month, day];
  if (parts.every(blank)) return {};
  if (parts.some(blank)) return { message: `${field}: give the year, the month and the day (${field}Year, ${field}Month, ${field}Day)` };
  const numbers = parts.map((part) => (/^\d{1,4}$/.test(String(part).trim()) ? Number(part) : NaN));
  const date = numbers.some(Number.isNaN) ? undefined : isoDate(numbers[0], numbers[1], numbers[2]);
  return date ? { date } : { message: `${field}: ${year}-${month}-${day} is not a date` };
}

/** A whole date (`YYYY-MM-DD` or `MM/DD/YYYY`). */
export function wholeDate(field: string, text?: string | null): DateResult {
  if (blank(text)) return {};
  const date = parseDate(String(text));
  return date ? { date } : { message: `${field}: ${JSON.stringify(text)} is not a date (expected YYYY-MM-DD)` };
}

/** The first of several ways a date may be given; a malformed one is reported even if another is fine. */
export function firstDate(...results: DateResult[]): DateResult {
  const message = results.find((result) => result.message)?.message;
  if (message) return { message };
  return results.find((result) => result.date) ?? {};
}

/** Agency dates: the termination must not predate the inception (spec 7.7). */
export function agencyDatesMessage(inception?: string, termination?: string, field = 'agencyDates'): string | undefined {
  if (inception && termination && termination < inception) {
    return `${field}: the agency termination date ${termination} is before the agency inception date ${inception}`;
  }
  return undefined;
}
