/** How documents print amounts, dates and addresses: one place, for the PDF and the HTML alike. */
import { formatCents, type Cents } from '../platform/money.js';
import { toUsDate } from '../platform/dates.js';
import type { DeliverableType, MailingAddress } from './model.js';

/** Cents as printed money: 2500000 -> "25,000.00", -8663 -> "-86.63" (no float on the way). */
export function formatMoney(cents: Cents): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${cents} is not a whole number of cents`);
  const [whole, fraction] = formatCents(cents).replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${cents < 0 ? '-' : ''}${grouped}.${fraction}`;
}

/** An optional amount: a dash where a coverage has no limit or deductible. */
export function formatOptionalMoney(cents: Cents | undefined): string {
  return cents === undefined ? '-' : formatMoney(cents);
}

/** Documents print US dates (`MM/DD/YYYY`), as the insured reads them. */
export function formatDocumentDate(iso: string): string {
  return toUsDate(iso) ?? iso;
}

/** The address as envelope lines: street, optional second line, `City, ST 12345`. */
export function addressLines(address: MailingAddress): string[] {
  const lines = [address.line1, address.line2 ?? ''].map((line) => line.trim()).filter((line) => line !== '');
  return [...lines, `${address.city}, ${address.state} ${address.zip}`.trim()];
}

export function singleLineAddress(address: MailingAddress): string {
  return addressLines(address).join(', ');
}

/** A quote is not yet a policy, so its number is printed as the quote number. */
export function numberLabel(type: DeliverableType): string {
  return type === 'Quote Summary' ? 'Quote Number' : 'Policy Number';
}
