/**
 * The service's business-day calendar: weekdays that are not US federal holidays (observed dates:
 * July 4th on a Saturday is observed on Friday the 3rd). The print vendor mails on it and the
 * states' claims clocks that count business days count on it.
 */
import { allForYear } from '@18f/us-federal-holidays';
import { addDays } from './dates.js';

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

/** `days` business days after `iso` (the day itself not counted): 15 business days after a Monday is the third Monday after, holidays pushing it on. */
export function addBusinessDays(iso: string, days: number): string {
  let day = iso;
  for (let counted = 0; counted < days; ) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) counted += 1;
  }
  return day;
}
