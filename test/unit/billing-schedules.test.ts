import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { productFromRecords } from '../../shared/catalog/model.js';
import type { BillableItem, Installment } from '../../shared/billing/model.js';
import { billingSettingsFromRecords } from '../../shared/billing/settings.js';
import { billableItems, billingScheduleOptions, installmentsFor, scheduleProblems } from '../../shared/billing/schedules.js';
import { toCents } from '../../shared/platform/money.js';

const settings = billingSettingsFromRecords(referenceCatalogRecords());
const schedule = (label: string) => settings.schedules.find((candidate) => candidate.label === label)!;
const premium = (amount: string): BillableItem => ({ itemId: 'premium', name: 'Premium', kind: 'premium', earning: 'proRata', writtenCents: toCents(amount) });
const policyFee: BillableItem = { itemId: '7f42b86a-e8b3-4655-96fa-7ccacbd3b502', name: 'Policy Fee', kind: 'fee', earning: 'fullyEarned', writtenCents: 2500 };

const amountsDue = (installments: Installment[]) => installments.map((installment) => installment.amountDueCents);
const premiums = (installments: Installment[]) =>
  installments.map((installment) => installment.details.find((detail) => detail.type === 'Premium')!.amountCents);
const total = (amounts: number[]) => amounts.reduce((a, b) => a + b, 0);

describe('billing settings from the catalog', () => {
  it('reads the reference schedules fewest installments first, with the billing calendar and fees', () => {
    expect(settings.schedules.map((candidate) => [candidate.label, candidate.id])).toEqual([
      ['Full Pay', '6166af2a-7070-45b8-a722-d84dc6b765b4'],
      ['Two Pay', 'e3645365-e835-4022-973d-43e9cba798df'],
      ['Quarterly', 'e91fa1cc-c2b6-4599-8df4-063145fc0750'],
      ['Monthly', '6b7798d6-de59-4819-803e-6778a2cdc5d9'],
    ]);
    expect(settings.rules).toEqual({ billDaysBeforeDue: 20, nonPaymentCancelDaysAfterDue: 15, firstInstallmentBilledOnEffectiveDate: true });
    expect(settings.minimumEarnedPremiumCents).toBe(10000);
    expect(settings.nsfFeeCents).toBe(2500);
    expect(settings.cancelReasons.map((reason) => reason.name)).toEqual(["Insured's Request", 'Non-Payment of Premium', 'Underwriting Reasons', 'Rewritten']);
  });

  it('finds every reference schedule billable and names what is wrong with a broken one', () => {
    for (const candidate of settings.schedules) expect(scheduleProblems(candidate), candidate.label).toEqual([]);
    const broken = { id: 'x', label: 'Broken', installments: [
      { factor: '0.50', monthsAfterEffective: 1, installmentFee: '0.00' },
      { factor: '0.40', monthsAfterEffective: 1, installmentFee: '-1.00' },
    ] };
    expect(scheduleProblems(broken)).toEqual([
      'Broken: the factors do not add up to 1',
      'Broken: the first installment is not due on the effective date',
      'Broken: installment 2 is not due after installment 1',
      'Broken: installment 2 has a negative fee',
    ]);
  });
});

describe('installment schedules', () => {
  it('bills the worked example (826.62 premium, 25.00 policy fee) on every schedule, adding up to 851.62 plus installment fees', () => {
    const items = [premium('826.62'), policyFee];
    const options = billingScheduleOptions(settings.schedules, settings.rules, items, '2026-03-15');
    expect(options.map((option) => [option.label, option.installments.map((installment) => installment.amountDue)])).toEqual([
      ['Full Pay', [851.62]],
      ['Two Pay', [438.31, 418.31]],
      ['Quarterly', [355.65, 169.32, 169.32, 169.33]],
      ['Monthly', [107.66, 85.66, 85.66, 85.66, 85.66, 85.66, 85.66, 85.66, 85.66, 85.68]],
    ]);
    for (const candidate of settings.schedules) {
      const installments = installmentsFor(candidate, settings.rules, items, '2026-03-15');
      const fees = total(candidate.installments.map((definition) => toCents(definition.installmentFee)));
      expect(total(amountsDue(installments)), candidate.label).toBe(85162 + fees);
      expect(total(premiums(installments)), candidate.label).toBe(82662);
    }
  });

  it('puts the fully earned policy fee whole on the first installment and the installment fee on the later ones', () => {
    const [first, second] = installmentsFor(schedule('Quarterly'), settings.rules, [premium('826.62'), policyFee], '2026-03-15');
    expect(first.details).toEqual([
      { type: 'Premium', amountCents: 33065 },
      { type: 'Custom Fee Fully Earned', amountCents: 2500 },
    ]);
    expect(second.details).toEqual([
      { type: 'Premium', amountCents: 16532 },
      { type: 'Installment Fee', amountCents: 400 },
    ]);
    const wire = billingScheduleOptions([schedule('Full Pay')], settings.rules, [premium('826.62'), policyFee], '2026-03-15')[0];
    expect(wire).toEqual({
      id: '6166af2a-7070-45b8-a722-d84dc6b765b4',
      label: 'Full Pay',
      installments: [{
        amountDue: 851.62, billDate: '2026-03-15', dueDate: '2026-03-15',
        details: [{ amount: 826.62, type: 'Premium' }, { amount: 25, type: 'Custom Fee Fully Earned' }],
      }],
    });
  });

  it('adds up exactly for awkward totals: 1000.01 Monthly, 0.03 Quarterly, 851.62 on every schedule', () => {
    expect(premiums(installmentsFor(schedule('Monthly'), settings.rules, [premium('1000.01')], '2026-01-01'))).toEqual([
      10000, 10000, 10000, 10000, 10000, 10000, 10000, 10000, 10000, 10001,
    ]);
    expect(premiums(installmentsFor(schedule('Quarterly'), settings.rules, [premium('0.03')], '2026-01-01'))).toEqual([1, 1, 1, 0]);
    const byLabel = Object.fromEntries(
      settings.schedules.map((candidate) => [candidate.label, premiums(installmentsFor(candidate, settings.rules, [premium('851.62')], '2026-01-01'))]),
    );
    expect(byLabel).toEqual({
      'Full Pay': [85162],
      'Two Pay': [42581, 42581],
      Quarterly: [34065, 17032, 17032, 17033],
      Monthly: [8516, 8516, 8516, 8516, 8516, 8516, 8516, 8516, 8516, 8518],
    });
  });

  it('never loses or invents a cent, whatever the total', () => {
    for (const candidate of settings.schedules) {
      for (let cents = 0; cents <= 2000; cents += 7) {
        const items = [{ ...premium('0'), writtenCents: cents * 137 + 3 }];
        expect(total(premiums(installmentsFor(candidate, settings.rules, items, '2026-01-01')))).toBe(cents * 137 + 3);
      }
    }
  });

  it('dues the first installment on the effective date and bills it that day; later ones are billed 20 days before they fall due', () => {
    const installments = installmentsFor(schedule('Monthly'), settings.rules, [premium('1200.00')], '2026-03-15');
    expect(installments.slice(0, 3).map((installment) => [installment.billDate, installment.dueDate])).toEqual([
      ['2026-03-15', '2026-03-15'],
      ['2026-03-26', '2026-04-15'],
      ['2026-04-25', '2026-05-15'],
    ]);
  });

  it('clamps due dates to the end of shorter months, from the effective date each time (Jan 31 gives Feb 28, then Mar 31)', () => {
    const dues = (effectiveDate: string) =>
      installmentsFor(schedule('Monthly'), settings.rules, [premium('1200.00')], effectiveDate).map((installment) => installment.dueDate);
    expect(dues('2026-01-31')).toEqual([
      '2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31', '2026-08-31', '2026-09-30', '2026-10-31',
    ]);
    expect(dues('2028-01-31')[1]).toBe('2028-02-29');
    const leap = installmentsFor(schedule('Monthly'), settings.rules, [premium('1200.00')], '2028-01-31')[1];
    expect(leap.billDate).toBe('2028-02-09');
    expect(installmentsFor(schedule('Two Pay'), settings.rules, [premium('1200.00')], '2026-08-31')[1].dueDate).toBe('2027-02-28');
  });

  it('reads every number from the schedule data: other factors, months, fees and bill days bill differently', () => {
    const custom = { id: 'c', label: 'Custom', installments: [
      { factor: '0.25', monthsAfterEffective: 0, installmentFee: '1.50' },
      { factor: '0.75', monthsAfterEffective: 2, installmentFee: '2.25' },
    ] };
    const rules = { billDaysBeforeDue: 10, nonPaymentCancelDaysAfterDue: 15, firstInstallmentBilledOnEffectiveDate: false };
    const installments = installmentsFor(custom, rules, [premium('100.01')], '2026-01-10');
    expect(installments.map((installment) => [installment.billDate, installment.dueDate, installment.amountDueCents])).toEqual([
      ['2025-12-31', '2026-01-10', 2500 + 150],
      ['2026-02-28', '2026-03-10', 7501 + 225],
    ]);
  });

  it('bills line items by their catalog earning: the Policy Fee fully earned, coverages pro-rata', () => {
    const product = productFromRecords(referenceCatalogRecords());
    const items = billableItems(
      [
        { itemId: '2deb7d04-daec-47e3-a98a-c9c075598673', name: 'Dwelling', writtenPremiumCents: 86625, writtenFeeCents: null },
        { itemId: 'cb8a78f6-ceb8-472e-b993-958dddbd8fa4', name: 'Claims-Free Discount', writtenPremiumCents: -8663, writtenFeeCents: 0 },
        { itemId: '7f42b86a-e8b3-4655-96fa-7ccacbd3b502', name: 'Policy Fee', writtenPremiumCents: null, writtenFeeCents: 2500 },
      ],
      product.items,
    );
    expect(items.map((item) => [item.name, item.kind, item.earning, item.writtenCents])).toEqual([
      ['Dwelling', 'premium', 'proRata', 86625],
      ['Claims-Free Discount', 'premium', 'proRata', -8663],
      ['Policy Fee', 'fee', 'fullyEarned', 2500],
    ]);
    expect(installmentsFor(schedule('Full Pay'), settings.rules, items, '2026-01-01')[0].amountDueCents).toBe(77962 + 2500);
  });
});
