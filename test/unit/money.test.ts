import { describe, expect, it } from 'vitest';
import { allocate, formatCents, multiply, percentOf, perThousand, prorate, sameAmount, toAmount, toCents } from '../../shared/platform/money.js';

describe('money', () => {
  it('reads amounts exactly, rounding half-up to the cent', () => {
    expect(toCents('826.62')).toBe(82662);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents('1,000')).toBe(100000);
    expect(toCents('0.005')).toBe(1);
    expect(toCents('-0.005')).toBe(-1);
    expect(toCents(250000)).toBe(25000000);
    expect(() => toCents('ten')).toThrow(/not a decimal amount/);
  });

  it('writes two-decimal wire numbers and strings', () => {
    expect(toAmount(87500)).toBe(875);
    expect(toAmount(-8663)).toBe(-86.63);
    expect(formatCents(87500)).toBe('875.00');
    expect(formatCents(-5)).toBe('-0.05');
  });

  it('reproduces the Dwelling steps of the worked example', () => {
    const base = perThousand(toCents(250000), '3.50');
    expect(base).toBe(87500);
    const construction = multiply(base, '1.10');
    expect(construction).toBe(96250);
    const protection = multiply(construction, '0.90');
    expect(protection).toBe(86625);
    expect(multiply(protection, '1.00')).toBe(86625);
    expect(percentOf(86625, '-10')).toBe(-8663);
  });

  it('prorates by days and allocates installments that add up exactly', () => {
    expect(prorate(300000, 85, 365)).toBe(69863);
    const parts = allocate(82662, ['0.40', '0.20', '0.20', '0.20']);
    expect(parts).toEqual([33065, 16532, 16532, 16533]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(82662);
  });

  it('compares decimals exactly', () => {
    expect(sameAmount('5000', 5000)).toBe(true);
    expect(sameAmount('5000.00', '5000')).toBe(true);
    expect(sameAmount('5000.01', '5000')).toBe(false);
  });
});
