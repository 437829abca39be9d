/**
 * When a deliverable prints: its go date plus the requested delay, moved forward to a
 * business day, because the print vendor mails nothing on weekends or US federal holidays.
 * Holidays are the observed dates (July 4th on a Saturday is observed on Friday the 3rd).
 */
import { addDays, parseDate } from '../platform/dates.js';
import { nextBusinessDay } from '../platform/business-days.js';

export { isBusinessDay, isFederalHoliday, nextBusinessDay } from '../platform/business-days.js';

export class InvalidPrintScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPrintScheduleError';
  }
}

/** Longest delay accepted: a year; anything longer is a typo, not a plan. */
export const MAX_DELAY_PRINT_DAYS = 366;

/** The print date of a deliverable: `go_date + delay_print_days`, on a business day. */
export function printDate(goDate: string, delayPrintDays = 0): string {
  const go = parseDate(goDate);
  if (!go) throw new InvalidPrintScheduleError(`go_date ${JSON.stringify(goDate.slice(0, 20))} is not a date`);
  if (!Number.isInteger(delayPrintDays) || delayPrintDays < 0 || delayPrintDays > MAX_DELAY_PRINT_DAYS) {
    throw new InvalidPrintScheduleError(`delay_print_days must be a whole number from 0 to ${MAX_DELAY_PRINT_DAYS}`);
  }
  return nextBusinessDay(addDays(go, delayPrintDays));
}
