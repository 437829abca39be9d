/** Calendar dates on the wire: `YYYY-MM-DD`, or `MM/DD/YYYY` where the spec says so. */
import { clock } from './clock.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** A real calendar date as `YYYY-MM-DD`, or undefined (2026-02-30 is not a date). */
export function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/** Reads `YYYY-MM-DD` or `MM/DD/YYYY` (also with a time after the date) into `YYYY-MM-DD`. */
export function parseDate(text: string): string | undefined {
  const trimmed = text.trim();
  const iso = ISO.exec(trimmed.slice(0, 10));
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const us = US.exec(trimmed.split(/[ T]/)[0]);
  if (us) return isoDate(Number(us[3]), Number(us[1]), Number(us[2]));
  return undefined;
}

/** `YYYY-MM-DD` to `MM/DD/YYYY`. */
export function toUsDate(iso: string | undefined | null): string | null {
  if (!iso) return null;
  const match = ISO.exec(iso.slice(0, 10));
  return match ? `${match[2]}/${match[3]}/${match[1]}` : null;
}

export function todayIso(now = clock.now()): string {
  return now.toISOString().slice(0, 10);
}

/** Adds whole months, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(iso: string, months: number): string {
  const [year, month, day] = iso.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** Days in a calendar month (month 1-12): 28 or 29 for February. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
