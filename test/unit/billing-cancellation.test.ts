import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { cancellationBalanceChange, InvalidCancelDateError, returnPremium } from '../../shared/billing/cancellation.js';
import type { BillableItem } from '../../shared/billing/model.js';
import { billingSettingsFromRecords } from '../../shared/billing/settings.js';
import { addDays } from '../../shared/platform/dates.js';
import { toCents } from '../../shared/platform/money.js';

const settings = billingSettingsFromRecords(referenceCatalogRecords());
const rules = settings.cancellation;
const minimum = settings.minimumEarnedPremiumCents;
const premium = (amount: string, itemId = 'dwelling'): BillableItem => ({ itemId, name: itemId, kind: 'premium', earning: 'proRata', writtenCents: toCents(amount) });
const policyFee: BillableItem = { itemId: 'policy-fee', name: 'Policy Fee', kind: 'fee', earning: 'fullyEarned', writtenCents: 2500 };
const term = { effectiveDate: '2026-01-01', expirationDate: '2027-01-01' };
const after = (days: number) => addDays(term.effectiveDate, days);

describe('cancellation return premium', () => {
  it('returns 698.63 and keeps 2301.37 earned on 3000.00 for a 365-day term cancelled after 280 days', () => {
    const figures = returnPremium({ ...term, cancelDate: after(280), items: [premium('3000.00'), policyFee] }, rules, minimum);
    expect(figures).toMatchObject({
      flat: false, daysInTerm: 365, daysReturned: 85,
      writtenPremiumCents: 300000, returnedPremiumCents: 69863, earnedPremiumCents: 230137,
      writtenFeesCents: 2500, returnedFeesCents: 0, minimumEarnedAdjustmentCents: 0,
    });
    expect(figures.items.map((item) => [item.name, item.returnedCents])).toEqual([['dwelling', 69863], ['Policy Fee', 0]]);
  });

  it('returns all premium on a flat cancellation (on the effective date), and still keeps the fee', () => {
    const figures = returnPremium({ ...term, cancelDate: term.effectiveDate, items: [premium('3000.00'), policyFee] }, rules, minimum);
    expect(figures).toMatchObject({ flat: true, returnedPremiumCents: 300000, earnedPremiumCents: 0, returnedFeesCents: 0 });
  });

  it('keeps the minimum earned premium 100.00 when cancelled after 2 days', () => {
    const figures = returnPremium({ ...term, cancelDate: after(2), items: [premium('3000.00'), policyFee] }, rules, minimum);
    // Pro-rata would return 2983.56 and keep only 16.44.
    expect(figures.items[0].returnedCents).toBe(298356);
    expect(figures).toMatchObject({ returnedPremiumCents: 290000, earnedPremiumCents: 10000, minimumEarnedAdjustmentCents: -8356 });
  });

  it('keeps the whole premium when it is smaller than the minimum earned premium', () => {
    const figures = returnPremium({ ...term, cancelDate: after(2), items: [premium('80.00')] }, rules, minimum);
    expect(figures).toMatchObject({ returnedPremiumCents: 0, earnedPremiumCents: 8000 });
  });

  it('leaves the return alone once more than the minimum is earned', () => {
    const figures = returnPremium({ ...term, cancelDate: after(13), items: [premium('3000.00')] }, rules, minimum);
    expect(figures).toMatchObject({ returnedPremiumCents: 289315, earnedPremiumCents: 10685, minimumEarnedAdjustmentCents: 0 });
  });

  it('prorates each item and rounds each to the cent, a discount returning its negative share', () => {
    const figures = returnPremium(
      { ...term, cancelDate: after(100), items: [premium('866.25', 'dwelling'), premium('35.00', 'liability'), premium('-86.63', 'discount'), policyFee] },
      rules,
      minimum,
    );
    expect(figures.items.map((item) => [item.itemId, item.returnedCents])).toEqual([
      ['dwelling', 62892], ['liability', 2541], ['discount', -6290], ['policy-fee', 0],
    ]);
    expect(figures.returnedPremiumCents).toBe(62892 + 2541 - 6290);
  });

  it('reads the minimum and the fee earning from the data: another carrier returns pro-rata fees and keeps 50.00', () => {
    const proRataFee: BillableItem = { ...policyFee, itemId: 'service-fee', earning: 'proRata', writtenCents: 3650 };
    const items = [premium('3000.00'), policyFee, proRataFee];
    const figures = returnPremium({ ...term, cancelDate: after(2), items }, { ...rules, feesReturned: true }, toCents('50.00'));
    expect(figures).toMatchObject({ returnedPremiumCents: 295000, earnedPremiumCents: 5000, returnedFeesCents: 3630 });
    expect(figures.items.map((item) => item.returnedCents)).toEqual([298356, 0, 3630]);
  });

  it('refuses a cancel date outside the term', () => {
    const cancel = (cancelDate: string) => () => returnPremium({ ...term, cancelDate, items: [premium('3000.00')] }, rules, minimum);
    expect(cancel('2025-12-31')).toThrow(InvalidCancelDateError);
    expect(cancel('2027-01-02')).toThrow('cancel_date 2027-01-02 is outside the term 2026-01-01 to 2027-01-01');
    expect(returnPremium({ ...term, cancelDate: '2027-01-01', items: [premium('3000.00')] }, rules, minimum).returnedPremiumCents).toBe(0);
  });
});

describe('the account change of a cancellation', () => {
  it('credits the return premium on a term billed in full', () => {
    const figures = returnPremium({ ...term, cancelDate: after(280), items: [premium('3000.00'), policyFee] }, rules, minimum);
    expect(cancellationBalanceChange(figures, { premiumCents: 0, feesCents: 0 })).toBe(-69863);
  });

  it('charges earned premium not yet billed when installments lag behind the earning', () => {
    // Monthly, two installments billed (600.00 of premium), 2,400.00 still to bill, cancelled after 100 days: 821.92 earned.
    const figures = returnPremium({ ...term, cancelDate: after(100), items: [premium('3000.00'), policyFee] }, rules, minimum);
    expect(figures.earnedPremiumCents).toBe(82192);
    expect(cancellationBalanceChange(figures, { premiumCents: 240000, feesCents: 0 })).toBe(22192);
  });
});
