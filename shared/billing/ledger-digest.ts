/**
 * An account's ledger as its account item carries it (`ledgerDigest`): the lockbox matchfile
 * works out what every owing account may be paid from the account items alone, pages of about a
 * thousand accounts, instead of reading each account's rows (2,200 owing accounts took 4.2 s).
 *
 * Each posting appends the digest of its rows in the same update that moves the balance
 * (`list_append`, so two postings of one account never overwrite each other), and an account
 * created with its rows starts with theirs and `ledgerDigestComplete`. Read back, the digest
 * gives exactly the charges and credits `ledgerFromEntries` gives over the account's rows as
 * loadAccount reads them (in entry id order, voided rows left out): the test compares them.
 * An account written before the digest has none (or only its later rows) and no completeness
 * flag: its rows are read, and the nightly billing run completes its digest.
 */
import type { Cents } from '../platform/money.js';
import type { AccountEntry, AccountEntryType, Charge, Credit } from './model.js';

/** A charge (entry id, or `<entry id>#<share>` for an endorsement's installment share). */
type ChargeRow = readonly ['C', string, AccountEntryType, string, string, Cents];
/** A credit: a payment or a return of premium. */
type CreditRow = readonly ['P', string, string, Cents];
/** An NSF reversal: its own entry id, the payment it reverses, its due date and whether missing it may still cancel. */
type ReversalRow = readonly ['R', string, string, string | null, boolean];
export type DigestRow = ChargeRow | CreditRow | ReversalRow;

/** The digest rows of an account's new rows, as ledgerFromEntries reads each. */
export function digestRowsOf(entries: readonly AccountEntry[]): DigestRow[] {
  const rows: DigestRow[] = [];
  for (const entry of entries) {
    if (entry.type === 'NSF Reversal') {
      if (entry.reversesEntryId) rows.push(['R', entry.id, entry.reversesEntryId, entry.dueDate, entry.allowCancel ?? true]);
    } else if (entry.amountCents > 0 && entry.installmentShares?.length) {
      entry.installmentShares.forEach((share, index) => rows.push(['C', `${entry.id}#${index + 1}`, entry.type, share.billDate, share.dueDate, share.amountCents]));
    } else if (entry.amountCents > 0) {
      const billDate = entry.billDate ?? entry.date;
      rows.push(['C', entry.id, entry.type, billDate, entry.dueDate ?? billDate, entry.amountCents]);
    } else if (entry.amountCents < 0) {
      rows.push(['P', entry.id, entry.date, -entry.amountCents]);
    }
  }
  return rows;
}

/** The entry a row came from (a share's row names its endorsement's entry). */
const entryIdOf = (row: DigestRow) => row[1].split('#')[0];

/** The charges and credits of a digest, as ledgerFromEntries answers them over the same rows. */
export function ledgerFromDigest(rows: readonly DigestRow[], voidedEntryIds: readonly string[] = []): { charges: Charge[]; credits: Credit[] } {
  const voided = new Set(voidedEntryIds);
  // loadAccount reads rows in entry id order; an entry's shares stay in their order.
  const ordered = rows
    .map((row, index) => ({ row, index, entryId: entryIdOf(row) }))
    .filter(({ entryId }) => !voided.has(entryId))
    .sort((a, b) => (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : a.index - b.index))
    .map(({ row }) => row);
  const reversals = new Map<string, ReversalRow>();
  for (const row of ordered) if (row[0] === 'R') reversals.set(row[2], row);
  const charges: Charge[] = [];
  const credits: Credit[] = [];
  for (const row of ordered) {
    if (row[0] === 'C') charges.push({ id: row[1], kind: row[2], billDate: row[3], dueDate: row[4], amountCents: row[5] });
    else if (row[0] === 'P') {
      const reversal = reversals.get(row[1]);
      credits.push({ id: row[1], date: row[2], amountCents: row[3], reversal: reversal ? { dueDate: reversal[3], allowCancel: reversal[4] } : null });
    }
  }
  return { charges, credits };
}
