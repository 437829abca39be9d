/**
 * Exact money: amounts are integer cents inside the service, rounded half-up
 * (away from zero) to the cent at every step, and numbers with two decimals on
 * the wire. Factors and rates are decimal strings so that no binary fraction
 * ever reaches an amount (0.1 + 0.2 is not a premium).
 */

/** An amount of money in whole cents. */
export type Cents = number;

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** A decimal given as a string or a number, as a scaled integer: value = units / 10^scale. */
interface ScaledDecimal {
  units: bigint;
  scale: number;
}

export class InvalidAmountError extends Error {
  constructor(value: unknown) {
    super(`${JSON.stringify(value)} is not a decimal amount`);
    this.name = 'InvalidAmountError';
  }
}

function scaled(value: string | number): ScaledDecimal {
  // A JS number's shortest round-trip text is what the caller wrote (0.1 stays "0.1").
  const text = typeof value === 'number' ? numberText(value) : value.trim().replace(/,/g, '');
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new InvalidAmountError(value);
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2] || '0'}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new InvalidAmountError(value);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent form (1e-7, 1e21): expand it exactly enough for money.
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/** Divides and rounds half away from zero. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (2n * d);
  return negative ? -quotient : quotient;
}

function toSafeCents(value: bigint): Cents {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('The amount is too large');
  }
  return Number(value);
}

/** Whether `value` reads as a decimal amount. */
export function isDecimal(value: unknown): value is string | number {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  try {
    scaled(value);
    return true;
  } catch {
    return false;
  }
}

/** `"826.625"`, `826.62` or `"1,000"` to cents, rounded half-up to the cent. */
export function toCents(value: string | number): Cents {
  const { units, scale } = scaled(value);
  return toSafeCents(divideHalfUp(units * 100n, 10n ** BigInt(scale)));
}

/**
 * An amount that must already be exact to the cent ("10.5" -> 1050): more than two
 * decimals are refused rather than rounded, for amounts a person or a bank wrote.
 */
export function toCentsExactly(value: string | number): Cents {
  const { units, scale } = scaled(value);
  if (scale > 2) throw new InvalidAmountError(value);
  return toSafeCents(units * 10n ** BigInt(2 - scale));
}

/** Cents as a wire number with (at most) two decimals: 87500 -> 875, 82662 -> 826.62. */
export function toAmount(cents: Cents): number {
  return Number(formatCents(cents));
}

/** Cents as a two-decimal string: 87500 -> "875.00". */
export function formatCents(cents: Cents): string {
  const negative = cents < 0;
  const absolute = Math.abs(Math.round(cents));
  const whole = Math.floor(absolute / 100);
  const fraction = String(absolute % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** cents x factor (a decimal string such as "1.10"), rounded half-up to the cent. */
export function multiply(cents: Cents, factor: string | number): Cents {
  const { units, scale } = scaled(factor);
  return toSafeCents(divideHalfUp(BigInt(cents) * units, 10n ** BigInt(scale)));
}

/** cents x numerator / denominator (pro-rata by days), rounded half-up to the cent. */
export function prorate(cents: Cents, numerator: number, denominator: number): Cents {
  if (denominator === 0) throw new RangeError('Cannot prorate over zero days');
  return toSafeCents(divideHalfUp(BigInt(cents) * BigInt(numerator), BigInt(denominator)));
}

/** `percent` (a decimal such as "10" or "-10") of an amount, rounded half-up to the cent. */
export function percentOf(cents: Cents, percent: string | number): Cents {
  const { units, scale } = scaled(percent);
  return toSafeCents(divideHalfUp(BigInt(cents) * units, 100n * 10n ** BigInt(scale)));
}

/** A rate per 1000 of an amount: `amount / 1000 x rate`, rounded half-up to the cent. */
export function perThousand(amountCents: Cents, rate: string | number): Cents {
  const { units, scale } = scaled(rate);
  return toSafeCents(divideHalfUp(BigInt(amountCents) * units, 1000n * 10n ** BigInt(scale)));
}

export function sum(amounts: readonly Cents[]): Cents {
  return amounts.reduce((total, amount) => total + amount, 0);
}

/**
 * Splits `total` by factors (decimal strings) so that the parts add up to it exactly:
 * each part is rounded half-up, and the last part takes the remainder.
 */
export function allocate(total: Cents, factors: readonly (string | number)[]): Cents[] {
  if (factors.length === 0) return [];
  const parts = factors.slice(0, -1).map((factor) => multiply(total, factor));
  return [...parts, total - sum(parts)];
}

/** Compares two decimals exactly (for limits and answers given as text or numbers). */
export function sameAmount(a: string | number, b: string | number): boolean {
  try {
    const x = scaled(a);
    const y = scaled(b);
    const scale = Math.max(x.scale, y.scale);
    return x.units * 10n ** BigInt(scale - x.scale) === y.units * 10n ** BigInt(scale - y.scale);
  } catch {
    return false;
  }
}

/** Orders two decimals exactly: -1, 0 or 1 (for table ranges and thresholds given as text). */
export function compareAmounts(a: string | number, b: string | number): -1 | 0 | 1 {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  const left = x.units * 10n ** BigInt(scale - x.scale);
  const right = y.units * 10n ** BigInt(scale - y.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * A ratio of two amounts in cents to four decimals, half away from zero, in integer arithmetic (no
 * float drift); null over nothing. The loss ratios of the books and of a loss run both come from here.
 */
export function ratioOfCents(numeratorCents: Cents, denominatorCents: Cents): number | null {
  if (denominatorCents === 0) return null;
  const sign = Math.sign(numeratorCents) * Math.sign(denominatorCents);
  const [n, d] = [Math.abs(numeratorCents), Math.abs(denominatorCents)];
  const tenThousandths = Math.floor((n * 10000 * 2 + d) / (2 * d));
  return (sign * tenThousandths) / 10000;
}
