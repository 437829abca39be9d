/**
 * The account item's ledger digest reads back into exactly the ledger of the account's rows:
 * the charges and credits ledgerFromEntries answers over the rows as loadAccount reads them
 * (entry id order, voided rows left out), hence the same dues on any day.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestRowsOf, ledgerFromDigest } from '../../shared/billing/ledger-digest.js';
import { ledgerFromEntries } from '../../shared/billing/ledger.js';
import { lockboxDues } from '../../shared/billing/lockbox.js';
import type { AccountEntry, AccountEntryType } from '../../shared/billing/model.js';

const day = (offset: number) => new Date(Date.UTC(2026, 0, 1 + offset)).toISOString().slice(0, 10);

function entry(fields: Partial<AccountEntry> & Pick<AccountEntry, 'id' | 'type' | 'amountCents'>): AccountEntry {
  return {
    date: day(0), postedAt: `${day(0)}T00:00:00.000Z`, summary: '', description: '', generatedBy: 'test', policyStatus: 'Active', fileKey: null,
    dueDate: null, billDate: null, cancelDate: null, schedule: null, reversesEntryId: null, allowCancel: null, waived: false, checkNumber: null, installmentNumber: null,
    ...fields,
  };
}

/** Rows of an account: invoices and fees, an endorsement billed in shares, payments and returns, NSF reversals of some payments. */
const accountRows = fc
  .record({
    charges: fc.array(fc.record({ type: fc.constantFrom<AccountEntryType>('Invoice', 'Installment Fee', 'NSF Fee'), bill: fc.integer({ min: 0, max: 300 }), due: fc.integer({ min: 0, max: 40 }), cents: fc.integer({ min: 1, max: 200_000 }) }), { maxLength: 12 }),
    shares: fc.array(fc.record({ bill: fc.integer({ min: 0, max: 300 }), cents: fc.integer({ min: 1, max: 50_000 }) }), { maxLength: 4 }),
    credits: fc.array(fc.record({ on: fc.integer({ min: 0, max: 365 }), cents: fc.integer({ min: 1, max: 300_000 }), bounced: fc.boolean(), allowCancel: fc.boolean() }), { maxLength: 10 }),
    voided: fc.array(fc.nat(), { maxLength: 3 }),
  })
  .map(({ charges, shares, credits, voided }) => {
    let next = 0;
    const id = () => `${(next++ * 7919) % 1000}`.padStart(4, '0') + `-${next}`;
    const entries: AccountEntry[] = charges.map((charge) =>
      entry({ id: id(), type: charge.type, amountCents: charge.cents, date: day(charge.bill), billDate: day(charge.bill), dueDate: day(charge.bill + charge.due) }),
    );
    if (shares.length) {
      entries.push(entry({ id: id(), type: 'Endorsement', amountCents: shares.reduce((total, share) => total + share.cents, 0), installmentShares: shares.map((share, index) => ({ installmentNumber: index + 1, billDate: day(share.bill), dueDate: day(share.bill + 20), amountCents: share.cents })) }));
    }
    for (const credit of credits) {
      const payment = entry({ id: id(), type: 'Payment', amountCents: -credit.cents, date: day(credit.on) });
      entries.push(payment);
      if (credit.bounced) entries.push(entry({ id: id(), type: 'NSF Reversal', amountCents: credit.cents, date: day(credit.on + 3), dueDate: day(credit.on + 13), reversesEntryId: payment.id, allowCancel: credit.allowCancel }));
    }
    const voidedIds = voided.filter((index) => index < charges.length).map((index) => entries[index].id);
    return { entries, voidedIds };
  });

/** The ledger as loadAccount and ledgerFromEntries make it: rows in entry id order, voided ones left out. */
const ledgerOfRows = (entries: readonly AccountEntry[], voidedIds: readonly string[]) =>
  ledgerFromEntries([...entries].filter((row) => !voidedIds.includes(row.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));

describe("an account item's ledger digest", () => {
  it('reads back into the charges and credits of the rows, whatever the order the rows were posted in', () => {
    fc.assert(
      fc.property(accountRows, fc.integer({ min: 1, max: 4 }), ({ entries, voidedIds }, postings) => {
        // Posted in several postings, each appending its rows' digest.
        const digest = Array.from({ length: postings }, (_, posting) => digestRowsOf(entries.filter((_, index) => index % postings === posting))).flat();
        expect(ledgerFromDigest(digest, voidedIds)).toEqual(ledgerOfRows(entries, voidedIds));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the lockbox the same dues on every day of the term', () => {
    fc.assert(
      fc.property(accountRows, fc.integer({ min: 0, max: 400 }), ({ entries, voidedIds }, on) => {
        const fromDigest = ledgerFromDigest(digestRowsOf(entries), voidedIds);
        const fromRows = ledgerOfRows(entries, voidedIds);
        expect(lockboxDues(fromDigest.charges, fromDigest.credits, day(on))).toEqual(lockboxDues(fromRows.charges, fromRows.credits, day(on)));
      }),
      { numRuns: 300 },
    );
  });
});
