/**
 * When a deliverable prints: its go date plus the requested delay, moved forward to a
 * business day, because the print vendor mails nothing on weekends or US federal holidays.
 * Holidays are the observed dates (July 4th on a Saturday is observed on Friday the 3rd).
 */
import { allForYear } from '@18f/us-federal-holidays';
import { addDays, parseDate } from '../platform/dates.js';

export class InvalidPrintScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPrintScheduleError';
  }
}

/** Longest delay accepted: a year; anything longer is a typo, not a plan. */
export const MAX_DELAY_PRINT_DAYS = 366;

const observedByYear = new Map<number, Set<string>>();

/** Observed federal holidays falling in `year` (New Year's Day of the next year may be observed on December 31). */
function observedHolidays(year: number): Set<string> {
  let holidays = observedByYear.get(year);
  if (!holidays) {
    const dates = [...allForYear(year), ...allForYear(year + 1)].map((holiday) => holiday.dateString);
    holidays = new Set(dates.filter((date) => date.startsWith(`${year}-`)));
    observedByYear.set(year, holidays);
  }
  return holidays;
}

export function isFederalHoliday(iso: string): boolean {
  return observedHolidays(Number(iso.slice(0, 4))).has(iso);
}

export function isBusinessDay(iso: string): boolean {
  const weekday = new Date(`${iso}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isFederalHoliday(iso);
}

/** The day itself when it is a business day, else the next one. */
export function nextBusinessDay(iso: string): string {
  let day = iso;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** The print date of a deliverable: `go_date + delay_print_days`, on a business day. */
export function printDate(goDate: string, delayPrintDays = 0): string {
  const go = parseDate(goDate);
  if (!go) throw new InvalidPrintScheduleError(`go_date ${JSON.stringify(goDate.slice(0, 20))} is not a date`);
  if (!Number.isInteger(delayPrintDays) || delayPrintDays < 0 || delayPrintDays > MAX_DELAY_PRINT_DAYS) {
    throw new InvalidPrintScheduleError(`delay_print_days must be a whole number from 0 to ${MAX_DELAY_PRINT_DAYS}`);
  }
  return nextBusinessDay(addDays(go, delayPrintDays));
}
