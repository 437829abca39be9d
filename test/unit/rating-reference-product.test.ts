import { describe, expect, it } from 'vitest';
import { productFromRecords } from '../../shared/catalog/model.js';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { formatCents } from '../../shared/platform/money.js';
import { rateRevision } from '../../shared/rating/engine.js';
import { formsAttached } from '../../shared/rating/forms.js';
import { RatingInputError, type PropertyToRate, type RatedLineItem, type RevisionToRate } from '../../shared/rating/model.js';

const product = productFromRecords(referenceCatalogRecords());
const HO3 = 'd11cfc80-886b-4a1c-8e38-e77ae4256998';
const DP3 = '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7';
const ITEM = {
  dwelling: '2deb7d04-daec-47e3-a98a-c9c075598673',
  otherStructures: '3d53c2b9-6b16-4cd3-99b6-6021399257cb',
  personalProperty: '5509dee8-a3c3-433b-aa92-1a7c6a241082',
  lossOfUse: '582e1ab5-8278-400a-a035-504b52e85e71',
  waterBackup: '52f30227-604e-4559-9a60-544998a62893',
  personalLiability: 'a53d092d-7a2d-42fc-a5b1-8927ae163edf',
  medicalPayments: '35d0d678-4008-45a2-b28e-dd483d8a4c04',
  claimsFree: 'cb8a78f6-ceb8-472e-b993-958dddbd8fa4',
  policyFee: '7f42b86a-e8b3-4655-96fa-7ccacbd3b502',
};
const QUESTION = {
  construction: '640841e5-3bf8-445e-ae51-607bd2aa9589',
  protectionClass: '771ae8ec-8b3e-4125-8f7a-6b5e504782f2',
  losses: 'e29555d3-7101-4947-a3af-a279d8774c09',
};

/** The worked example's property: A = 250,000, Frame, protection class 3, deductible 1000, defaults elsewhere. */
function exampleProperty(number: number, extraItems: PropertyToRate['items'] = []): PropertyToRate {
  return {
    id: `property-${number}`,
    name: `Property #${number}`,
    answers: { [QUESTION.construction]: 'Frame', [QUESTION.protectionClass]: '3' },
    fields: { year_built: '1990' },
    items: [
      { id: `dwelling-${number}`, itemId: ITEM.dwelling, limitCents: 250_000_00, deductibleCents: 1000_00 },
      { id: `other-structures-${number}`, itemId: ITEM.otherStructures },
      { id: `personal-property-${number}`, itemId: ITEM.personalProperty },
      { id: `loss-of-use-${number}`, itemId: ITEM.lossOfUse },
      ...extraItems,
    ],
  };
}

function exampleRevision(overrides: Partial<RevisionToRate> = {}): RevisionToRate {
  return {
    policyTypeId: HO3,
    termStart: '2026-01-01',
    termEnd: '2027-01-01',
    answers: { [QUESTION.losses]: 'no' },
    properties: [exampleProperty(1)],
    policyItems: [
      { id: 'liability', itemId: ITEM.personalLiability, limitCents: 300_000_00 },
      { id: 'medical', itemId: ITEM.medicalPayments, limitCents: 5000_00 },
      { id: 'claims-free', itemId: ITEM.claimsFree },
      { id: 'fee', itemId: ITEM.policyFee },
    ],
    ...overrides,
  };
}

const byName = (items: readonly RatedLineItem[], name: string) => items.find((item) => item.name === name)!;
const amount = (cents: number) => formatCents(cents);

describe('the worked example of the reference product, to the cent', () => {
  const rated = rateRevision(product, exampleRevision());

  it('shows the Dwelling running totals after each named step', () => {
    const details = byName(rated.items, 'Dwelling').ratingDetails.map((detail) => [detail.name, amount(detail.runningTotalCents)]);
    expect(details).toEqual([
      ['Base Rate', '875.00'],
      ['Construction', '962.50'],
      ['Protection Class', '866.25'],
      ['Deductible', '866.25'],
      ['Minimum Premium', '866.25'],
    ]);
  });

  it('rates every other item as the reference says', () => {
    const premiums = Object.fromEntries(rated.items.map((item) => [item.name, amount(item.annualPremiumCents)]));
    expect(premiums).toEqual({
      Dwelling: '866.25',
      'Other Structures': '0.00',
      'Personal Property': '0.00',
      'Loss of Use': '0.00',
      'Personal Liability': '35.00',
      'Medical Payments': '12.00',
      'Claims-Free Discount': '-86.63',
      'Policy Fee': '0.00',
    });
    expect(amount(byName(rated.items, 'Policy Fee').annualFeeCents)).toBe('25.00');
    expect(byName(rated.items, 'Claims-Free Discount').ratingDetails).toEqual([{ name: 'Claims-Free Discount', runningTotalCents: -8663, basis: 'Losses in past 3 years: no' }]);
  });

  it('gives no Claims-Free Discount when losses are answered yes, the trace naming the answer and its explanation: 913.25', () => {
    const withLosses = rateRevision(product, exampleRevision({ answers: { [QUESTION.losses]: 'yes' }, answerNotes: { [QUESTION.losses]: 'CL-2026-1 (loss date 2026-03-02)' } }));
    expect(byName(withLosses.items, 'Claims-Free Discount').ratingDetails).toEqual([{ name: 'Claims-Free Discount', runningTotalCents: 0, basis: 'Losses in past 3 years: yes (CL-2026-1 (loss date 2026-03-02))' }]);
    expect(amount(withLosses.totals.annualPremiumCents)).toBe('913.25');
    const unanswered = rateRevision(product, exampleRevision({ answers: {} }));
    expect(byName(unanswered.items, 'Claims-Free Discount').ratingDetails).toEqual([{ name: 'Claims-Free Discount', runningTotalCents: 0, basis: 'Losses in past 3 years: unanswered' }]);
  });

  it('totals 826.62 premium, 25.00 fees and 851.62 in all; a full term writes the annual figures', () => {
    expect(rated.totals).toEqual({
      annualPremiumCents: 826_62,
      annualFeeCents: 25_00,
      annualTotalCents: 851_62,
      writtenPremiumCents: 826_62,
      writtenFeeCents: 25_00,
      writtenTotalCents: 851_62,
    });
    for (const item of rated.items) expect(item.writtenPremiumCents, item.name).toBe(item.annualPremiumCents);
    expect([rated.daysInTerm, rated.daysInForce]).toEqual([365, 365]);
  });

  it('applies the default limits: 10%, 50% and 20% of the Dwelling limit, and the default deductible elsewhere', () => {
    expect(byName(rated.items, 'Other Structures').limitCents).toBe(25_000_00);
    expect(byName(rated.items, 'Personal Property').limitCents).toBe(125_000_00);
    expect(byName(rated.items, 'Loss of Use').limitCents).toBe(50_000_00);
    expect(byName(rated.items, 'Loss of Use').ratingDetails).toEqual([]);
  });

  it('keeps the fee apart from the premium with its item category and type', () => {
    expect(byName(rated.items, 'Policy Fee')).toMatchObject({ category: 'policy', type: 'fee', annualPremiumCents: 0, annualFeeCents: 25_00 });
    expect(byName(rated.items, 'Dwelling')).toMatchObject({ category: 'property', type: 'coverage', propertyId: 'property-1' });
  });

  it('adds the totals per sub line instance', () => {
    expect(rated.subLines.map((subLine) => [subLine.propertyId, amount(subLine.annualPremiumCents), amount(subLine.annualFeeCents)])).toEqual([
      [null, '-39.63', '25.00'],
      ['property-1', '866.25', '0.00'],
    ]);
  });

  it('attaches the HO3 form', () => {
    expect(rated.forms).toEqual([{ form_code: 'HO 00 03', edition_number: '05 11', description: 'Homeowners 3 - Special Form' }]);
  });
});

describe('rating the reference product beyond the worked example', () => {
  it('writes half the premium for half the term, and the fully earned fee whole', () => {
    const rated = rateRevision(product, exampleRevision({ termStart: '2026-01-01', termEnd: '2026-12-31', daysInForce: 182 }));
    expect(rated.daysInTerm).toBe(364);
    // Dwelling 866.25 / 2 = 433.125 -> 433.13; discount -86.63 / 2 = -43.315 -> -43.32; liability 17.50; medical 6.00.
    expect(amount(byName(rated.items, 'Dwelling').writtenPremiumCents)).toBe('433.13');
    expect(amount(byName(rated.items, 'Claims-Free Discount').writtenPremiumCents)).toBe('-43.32');
    expect(rated.totals).toMatchObject({ annualPremiumCents: 826_62, writtenPremiumCents: 413_31, writtenFeeCents: 25_00, writtenTotalCents: 438_31 });
  });

  it('gives no claims-free discount when there were losses, nor when the question is unanswered', () => {
    for (const answers of [{ [QUESTION.losses]: 'yes' }, {}]) {
      const rated = rateRevision(product, exampleRevision({ answers }));
      expect(byName(rated.items, 'Claims-Free Discount').annualPremiumCents).toBe(0);
      expect(rated.totals.annualPremiumCents).toBe(913_25);
    }
  });

  it.each([
    [1, '826.62', '-86.63'],
    [10, '7843.25', '-866.25'],
    [100, '78009.50', '-8662.50'],
  ])('rates %i properties, the discount over all of their coverages', (count, premium, discount) => {
    const properties = Array.from({ length: count }, (_, index) => exampleProperty(index + 1));
    const rated = rateRevision(product, exampleRevision({ properties }));
    expect(rated.items).toHaveLength(4 + 4 * count);
    expect(amount(rated.totals.annualPremiumCents)).toBe(premium);
    expect(amount(byName(rated.items, 'Claims-Free Discount').annualPremiumCents)).toBe(discount);
  });

  it('rates Water Backup by its limit option and attaches its form', () => {
    const waterBackup = { id: 'water', itemId: ITEM.waterBackup, limitCents: 10_000_00 };
    const rated = rateRevision(product, exampleRevision({ properties: [exampleProperty(1, [waterBackup])] }));
    expect(amount(byName(rated.items, 'Water Backup').annualPremiumCents)).toBe('65.00');
    // The discount reads every property coverage: -(866.25 + 65.00) x 10% = -93.125 -> -93.13.
    expect(amount(byName(rated.items, 'Claims-Free Discount').annualPremiumCents)).toBe('-93.13');
    expect(rated.forms.map((form) => `${form.form_code} ${form.edition_number}`)).toEqual(['HO 00 03 05 11', 'HO 04 95 01 14']);
  });

  it('charges extra limit above the default share of the Dwelling and the minimum premium on a small dwelling', () => {
    const property = exampleProperty(1);
    property.items = [
      { id: 'd', itemId: ITEM.dwelling, limitCents: 50_000_00, deductibleCents: 500_00 },
      { id: 'os', itemId: ITEM.otherStructures, limitCents: 10_000_00 },
      { id: 'pp', itemId: ITEM.personalProperty, limitCents: 20_000_00 },
    ];
    const rated = rateRevision(product, exampleRevision({ properties: [property] }));
    // 50,000 / 1000 x 3.50 = 175.00 x 1.10 = 192.50 x 0.90 = 173.25 x 1.08 = 187.11, at least 250.00.
    expect(byName(rated.items, 'Dwelling').ratingDetails.map((detail) => amount(detail.runningTotalCents))).toEqual(['175.00', '192.50', '173.25', '187.11', '250.00']);
    expect(amount(byName(rated.items, 'Other Structures').annualPremiumCents)).toBe('10.00');
    // A limit below its default share is a credit the Floor step takes back to 0.00.
    expect(byName(rated.items, 'Personal Property').ratingDetails.map((detail) => amount(detail.runningTotalCents))).toEqual(['-7.50', '0.00']);
  });

  it('names the property and item when a rating answer is missing', () => {
    const property = exampleProperty(1);
    property.answers = { [QUESTION.protectionClass]: '3' };
    const attempt = () => rateRevision(product, exampleRevision({ properties: [property] }));
    expect(attempt).toThrow(RatingInputError);
    expect(attempt).toThrow('Cannot rate Property #1, Dwelling: the answer to Construction Type');
  });

  it('names the property when the Dwelling limit that other limits follow is missing', () => {
    const property = exampleProperty(1);
    property.items = property.items.filter((item) => item.itemId !== ITEM.dwelling);
    expect(() => rateRevision(product, exampleRevision({ properties: [property] }))).toThrow(
      'Cannot rate Property #1, Other Structures: the limit of Dwelling, which is not on the property',
    );
    const withoutLimit = exampleProperty(1);
    withoutLimit.items = [{ id: 'd', itemId: ITEM.dwelling }, ...withoutLimit.items.slice(1)];
    expect(() => rateRevision(product, exampleRevision({ properties: [withoutLimit] }))).toThrow('Cannot rate Property #1, Dwelling: its limit');
  });

  it('refuses a value the tables do not cover rather than guessing', () => {
    const property = exampleProperty(1);
    property.answers = { ...property.answers, [QUESTION.protectionClass]: '11' };
    expect(() => rateRevision(product, exampleRevision({ properties: [property] }))).toThrow(
      'Protection Class has no entry for the answer to Protection Class "11"',
    );
  });
});

describe('forms attached by the reference product', () => {
  it('attaches the policy type form, and the Water Backup form only while it is selected', () => {
    const codes = (policyTypeId: string, items: string[]) => formsAttached(product, policyTypeId, items).map((form) => form.form_code);
    expect(codes(HO3, [ITEM.dwelling])).toEqual(['HO 00 03']);
    expect(codes(DP3, [ITEM.dwelling])).toEqual(['DP 00 03']);
    expect(codes(DP3, [ITEM.dwelling, ITEM.waterBackup])).toEqual(['DP 00 03', 'HO 04 95']);
  });
});
