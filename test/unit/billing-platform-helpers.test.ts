import { describe, expect, it } from 'vitest';
import { daysInMonth } from '../../shared/platform/dates.js';
import { InvalidAmountError, toCentsExactly } from '../../shared/platform/money.js';

describe('platform helpers the billing rules use', () => {
  it('reads amounts already exact to the cent, refusing a third decimal instead of rounding it away', () => {
    expect(toCentsExactly('10.5')).toBe(1050);
    expect(toCentsExactly('851.62')).toBe(85162);
    expect(toCentsExactly(851.62)).toBe(85162);
    expect(toCentsExactly('7')).toBe(700);
    expect(toCentsExactly('-0.01')).toBe(-1);
    expect(() => toCentsExactly('10.005')).toThrow(InvalidAmountError);
    expect(() => toCentsExactly('10.000')).toThrow(InvalidAmountError);
    expect(() => toCentsExactly(Number.NaN)).toThrow(InvalidAmountError);
    expect(() => toCentsExactly('1e3')).toThrow(InvalidAmountError);
  });

  it('counts the days of a month, February by leap year', () => {
    expect([1, 2, 4, 12].map((month) => daysInMonth(2026, month))).toEqual([31, 28, 30, 31]);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
  });
});
