import { describe, expect, it } from 'vitest';
import { InvalidPrintScheduleError, isBusinessDay, isFederalHoliday, printDate } from '../../shared/documents/print-dates.js';

describe('the print date of a deliverable', () => {
  it('is the go date plus the delay when that is a business day', () => {
    expect(printDate('2026-07-07')).toBe('2026-07-07');
    expect(printDate('2026-07-07', 2)).toBe('2026-07-09');
    expect(printDate('07/07/2026', 1)).toBe('2026-07-08');
  });

  it('moves over a weekend to Monday', () => {
    expect(printDate('2026-07-10', 1)).toBe('2026-07-13'); // Friday + 1 = Saturday
    expect(printDate('2026-07-12')).toBe('2026-07-13'); // Sunday
  });

  it('skips July 4th observed on the Friday before when it falls on a Saturday (2026)', () => {
    expect(isFederalHoliday('2026-07-03')).toBe(true);
    expect(printDate('2026-07-02', 1)).toBe('2026-07-06');
    expect(printDate('2026-07-03')).toBe('2026-07-06');
  });

  it('skips July 4th observed on the Monday after when it falls on a Sunday (2027)', () => {
    expect(isFederalHoliday('2027-07-05')).toBe(true);
    expect(printDate('2027-07-02', 1)).toBe('2027-07-06');
  });

  it('skips Thanksgiving (the fourth Thursday of November)', () => {
    expect(printDate('2026-11-25', 1)).toBe('2026-11-27');
    expect(printDate('2027-11-25')).toBe('2027-11-26');
  });

  it("skips New Year's Day, also when it is observed on December 31 of the year before", () => {
    expect(printDate('2026-12-31', 1)).toBe('2027-01-04'); // Friday the 1st, then the weekend
    expect(isFederalHoliday('2021-12-31')).toBe(true); // 2022-01-01 was a Saturday
    expect(printDate('2021-12-30', 1)).toBe('2022-01-03');
  });

  it('skips Christmas observed on Friday when it falls on a Saturday (2027)', () => {
    expect(printDate('2027-12-24')).toBe('2027-12-27');
    expect(isBusinessDay('2027-12-23')).toBe(true);
  });

  it('refuses a go date that is not a date and a delay that is negative, fractional or absurd', () => {
    expect(() => printDate('2026-02-30')).toThrow(InvalidPrintScheduleError);
    expect(() => printDate('2026-07-07', -1)).toThrow(InvalidPrintScheduleError);
    expect(() => printDate('2026-07-07', 1.5)).toThrow(InvalidPrintScheduleError);
    expect(() => printDate('2026-07-07', 10_000)).toThrow(InvalidPrintScheduleError);
  });
});
