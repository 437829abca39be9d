/** Billing an endorsement: one Endorsement row; Full Pay invoices it on its own; a return premium credits, and refunds above the threshold. */
import { describe, expect, it } from 'vitest';
import { accountEntry } from '../../shared/billing/account-history.js';
import { endorsementBilling } from '../../shared/billing/endorsement.js';
import { chargeStandings, ledgerFromEntries } from '../../shared/billing/ledger.js';

const endorsed = (premiumChangeCents: number) => ({ revisionDate: '2026-07-02', commitDate: '2026-06-15', committedAt: '2026-06-15T10:00:00.000Z', premiumChangeCents, feeChangeCents: 0 });
const invoice = (number: number, billDate: string, dueDate: string, amountCents: number) =>
  accountEntry({ id: `i${number}`, postedAt: '2026-01-01T00:00:00.000Z', generatedBy: 'system', policyStatus: 'Active' }, { type: 'Invoice', date: billDate, amountCents, summary: '', billDate, dueDate, installmentNumber: number });
const rules = { billDaysBeforeDue: 20, refundThresholdCents: 25_00 };
const context = { id: 'e1', generatedBy: 'system' };

describe('endorsementBilling', () => {
  it('Full Pay: the additional premium is one row, invoiced on its own and due in the usual days', () => {
    const billing = endorsementBilling(endorsed(78_18), { balanceCents: 851_62, policyStatus: 'Active' }, [invoice(1, '2026-01-01', '2026-01-01', 851_62)], rules, context);
    expect(billing.row).toMatchObject({ type: 'Endorsement', amountCents: 78_18, date: '2026-06-15', billDate: '2026-06-15', dueDate: '2026-07-05', description: 'Additional premium 78.18 invoiced, due 2026-07-05' });
    expect(billing.shares).toEqual([]);
  });

  it('installments: the additional premium is owed with the unbilled ones, the shares adding up to the row', () => {
    const entries = [invoice(1, '2026-01-01', '2026-01-01', 107_66), invoice(7, '2026-06-11', '2026-07-01', 82_66), invoice(8, '2026-07-12', '2026-08-01', 82_66), invoice(9, '2026-08-12', '2026-09-01', 82_66)];
    const billing = endorsementBilling(endorsed(10_01), { balanceCents: 355_64, policyStatus: 'Active' }, entries, rules, context);
    expect(billing.shares.map((share) => [share.number, share.shareCents, share.amountCents])).toEqual([[8, 5_01, 87_67], [9, 5_00, 87_66]]);
    const owed = chargeStandings(ledgerFromEntries([...entries, billing.row]).charges, []).charges.filter((charge) => charge.kind === 'Endorsement');
    expect(owed.map((charge) => [charge.dueDate, charge.amountCents])).toEqual([['2026-08-01', 5_01], ['2026-09-01', 5_00]]);
  });

  it('a return premium credits the account; the credit beyond what is owed is refunded only above the threshold', () => {
    const small = endorsementBilling(endorsed(-30_00), { balanceCents: 10_00, policyStatus: 'Active' }, [], rules, context);
    expect(small).toMatchObject({ creditCents: 20_00, refundCents: 0, row: { amountCents: -30_00, description: 'Return premium 30.00 credited' } });
    const large = endorsementBilling(endorsed(-130_00), { balanceCents: 0, policyStatus: 'Active' }, [], rules, context);
    expect(large).toMatchObject({ creditCents: 130_00, refundCents: 130_00, row: { description: 'Return premium 130.00 credited; 130.00 to be refunded as return premium' } });
  });
});
