/**
 * The ledger of a term's account: what is owed (charges, by due date) and what paid it
 * (credits, applied to the oldest charge first). A payment reversed for non-sufficient
 * funds is treated as never made. The account-history rows are the ledger's only record.
 */
import { sum, type Cents } from '../platform/money.js';
import type { AccountEntry, Charge, ChargeStanding, Credit } from './model.js';

/** Which credits count: those dated on or before `through`, or strictly before `before`. */
export interface CreditWindow {
  through?: string;
  before?: string;
}

function counts(credit: Credit, window: CreditWindow): boolean {
  if (credit.reversal) return false;
  if (window.through !== undefined && credit.date > window.through) return false;
  if (window.before !== undefined && credit.date >= window.before) return false;
  return true;
}

/** Oldest due first; charges due the same day in the order they were billed. */
export function inDueOrder<T extends Charge>(charges: readonly T[]): T[] {
  return charges
    .map((charge, index) => ({ charge, index }))
    .sort((a, b) => a.charge.dueDate.localeCompare(b.charge.dueDate) || a.charge.billDate.localeCompare(b.charge.billDate) || a.index - b.index)
    .map(({ charge }) => charge);
}

/** How much of each charge is paid, applying the counted credits to the oldest charges first. */
export function chargeStandings(
  charges: readonly Charge[],
  credits: readonly Credit[],
  window: CreditWindow = {},
): { charges: ChargeStanding[]; unappliedCents: Cents } {
  let available = sum(credits.filter((credit) => counts(credit, window)).map((credit) => credit.amountCents));
  const standings = inDueOrder(charges).map((charge) => {
    const paidCents = Math.max(0, Math.min(charge.amountCents, available));
    available -= paidCents;
    return { ...charge, paidCents, openCents: charge.amountCents - paidCents };
  });
  return { charges: standings, unappliedCents: available };
}

/**
 * The ledger of account-history rows: a positive row is a charge, a negative one a credit;
 * a payment that an NSF reversal row names carries that reversal and no longer counts.
 */
export function ledgerFromEntries(entries: readonly AccountEntry[]): { charges: Charge[]; credits: Credit[] } {
  const reversals = new Map<string, AccountEntry>();
  for (const entry of entries) if (entry.type === 'NSF Reversal' && entry.reversesEntryId) reversals.set(entry.reversesEntryId, entry);
  const charges: Charge[] = [];
  const credits: Credit[] = [];
  for (const entry of entries) {
    if (entry.type === 'NSF Reversal') continue;
    if (entry.amountCents < 0 && entry.installmentShares?.length) {
      // A reversal's return premium takes back, installment by installment, what the change it reverses added.
      entry.installmentShares.forEach((share, index) => charges.push({ id: `${entry.id}#${index + 1}`, kind: entry.type, billDate: share.billDate, dueDate: share.dueDate, amountCents: share.amountCents }));
    } else if (entry.amountCents > 0 && entry.installmentShares?.length) {
      // An endorsement's additional premium is owed installment by installment, as it is billed.
      entry.installmentShares.forEach((share, index) => charges.push({ id: `${entry.id}#${index + 1}`, kind: entry.type, billDate: share.billDate, dueDate: share.dueDate, amountCents: share.amountCents }));
    } else if (entry.amountCents > 0) {
      const billDate = entry.billDate ?? entry.date;
      charges.push({ id: entry.id, kind: entry.type, billDate, dueDate: entry.dueDate ?? billDate, amountCents: entry.amountCents });
    } else if (entry.amountCents < 0) {
      const reversal = reversals.get(entry.id);
      credits.push({
        id: entry.id,
        date: entry.date,
        amountCents: -entry.amountCents,
        reversal: reversal ? { dueDate: reversal.dueDate, allowCancel: reversal.allowCancel ?? true } : null,
      });
    }
  }
  return { charges: nettedTakeBacks(charges), credits };
}

/** Negative installment shares (a reversal's) cancel the positive shares of the same installment, latest first; any rest is dropped from what is owed. */
function nettedTakeBacks(charges: Charge[]): Charge[] {
  const takeBacks = charges.filter((charge) => charge.amountCents < 0);
  if (!takeBacks.length) return charges;
  const owed = charges.filter((charge) => charge.amountCents >= 0).map((charge) => ({ ...charge }));
  for (const takeBack of takeBacks) {
    let left = -takeBack.amountCents;
    for (const charge of [...owed].reverse()) {
      if (left === 0) break;
      if (charge.kind !== takeBack.kind || charge.dueDate !== takeBack.dueDate) continue;
      const taken = Math.min(left, charge.amountCents);
      charge.amountCents -= taken;
      left -= taken;
    }
  }
  return owed.filter((charge) => charge.amountCents > 0);
}
