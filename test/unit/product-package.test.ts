/**
 * The product package (docs/products.md) as an analyst works with it: the shipped package is
 * valid and its worksheets (the New York and Florida worked examples among them) reproduce to
 * the cent through the quote path and the real engine; a broken package is refused with every
 * mistake named by file, path and problem; a changed rate is a difference an analyst reads.
 */
import { describe, expect, it } from 'vitest';
import { diffPackages } from '../../shared/catalog/package-diff.js';
import { readPackage, type PackageDocument } from '../../shared/catalog/package-schema.js';
import { referencePackageDocument } from '../../shared/catalog/reference-package.js';
import { checkProductPackage } from '../../shared/products/check.js';

const DWELLING = '2deb7d04-daec-47e3-a98a-c9c075598673';
const copy = (): Record<string, any> => structuredClone(referencePackageDocument()) as Record<string, any>;

describe('the shipped product package', () => {
  const check = checkProductPackage(referencePackageDocument());

  it('is valid: every file, every reference, no known filing mistake', () => {
    expect(check.problems).toEqual([]);
    expect(check.package!.filings.map((filing) => filing.state)).toEqual(['countrywide', 'FL', 'TX']);
  });

  it('reproduces every worksheet to the cent, the two worked examples among them', () => {
    expect(check.worksheets.map((run) => run.name)).toEqual([expect.stringMatching(/^Florida worked example/), expect.stringMatching(/^New York worked example/)]);
    for (const run of check.worksheets) {
      expect(run.differences, run.name).toEqual([]);
      expect(run.figures).toBeGreaterThan(15);
    }
    expect(check.passed).toBe(true);
  });
});

describe('a worksheet that the rates no longer reproduce', () => {
  it('names every figure that differs, expected against rated', () => {
    const document = copy();
    document['states/FL.json'].rateVersions[0].items[DWELLING].steps[0].rate = '4.40';
    const check = checkProductPackage(document as PackageDocument);
    expect(check.passed).toBe(false);
    const florida = check.worksheets.find((run) => run.name.startsWith('Florida'))!;
    expect(florida.differences).toContainEqual({ figure: 'Dwelling at location 0, step Base Rate', expected: '1050.00', actual: '1100.00' });
    expect(florida.differences).toContainEqual({ figure: 'annual total', expected: '1586.32', actual: expect.stringMatching(/^16\d\d\.\d\d$/) });
    expect(check.worksheets.find((run) => run.name.startsWith('New York'))!.differences).toEqual([]);
  });
});

describe('a broken package', () => {
  it('is refused with every mistake at once, each naming the file, the path in it and what is wrong', () => {
    const document = copy();
    const florida = document['states/FL.json'];
    delete florida.rateVersions[0].renewalEffectiveDate;
    florida.rateVersions.push({ ...structuredClone(florida.rateVersions[0]), id: '11111111-2222-4333-8444-555555555555', name: 'Florida rates again', renewalEffectiveDate: '2020-01-01' });
    delete florida.territories.default;
    delete florida.charges[1].returned;
    const construction = document['items.json'].items[0].rating.steps[1];
    construction.table.push({ equals: 'frame', factor: '1.20' });
    document['items.json'].items[1].subLineId = 'no-such-sub-line';
    document['items.json'].items[0].rating.steps[2].by = { answer: 'no-such-question' };
    document['forms.json'].forms[2].attachWhen.item = 'no-such-item';
    document['states/countrywide.json'].rateVersions[0].newBusinessEffectiveDate = '2021-01-01';

    const check = checkProductPackage(document as PackageDocument);
    expect(check.passed).toBe(false);
    const problems = check.problems.map((problem) => `${problem.file} ${problem.path}: ${problem.problem}`);
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/^states\/FL\.json rateVersions\.0\.renewalEffectiveDate: Florida Homeowners rates 2020: a rate version needs its renewal date/),
      expect.stringMatching(/^states\/FL\.json rateVersions\.1\.newBusinessEffectiveDate: Florida rates again overlaps Florida Homeowners rates 2020/),
      expect.stringMatching(/^states\/FL\.json territories: 64 counties of Florida in no territory and no default: Alachua, Baker/),
      expect.stringMatching(/^states\/FL\.json charges\.1\.returned: Guaranty Fund Surcharge: a surcharge needs the rule for returning it/),
      expect.stringMatching(/^items\.json items\.0\.rating\.steps\.1\.table\.3: Dwelling, step Construction: row 3 repeats row 0/),
      expect.stringMatching(/^items\.json items\.1\.subLineId: Other Structures: no sub line no-such-sub-line/),
      expect.stringMatching(/^items\.json items\.0\.rating\.steps\.2\.by\.answer: Dwelling, step Protection Class: no question no-such-question/),
      expect.stringMatching(/^forms\.json forms\.2\.attachWhen\.item: HO 04 95: no item no-such-item/),
      expect.stringMatching(/^states\/countrywide\.json rateVersions\.0\.newBusinessEffectiveDate: a gap: the line is written for new business from 1900-01-01 but the first rates/),
    ]));
    expect(check.worksheets).toEqual([]);
  });

  it('takes a renewal cap of a rate version as a percent above 0 and at most 100, naming a wrong one', () => {
    const capped = (cap: unknown) => {
      const document = copy();
      document['states/FL.json'].rateVersions[0].renewalCapPercent = cap;
      return checkProductPackage(document as PackageDocument, { worksheets: false }).problems.map((problem) => `${problem.file} ${problem.path}: ${problem.problem}`);
    };
    expect(capped('15')).toEqual([]);
    expect(capped('150')).toEqual([expect.stringMatching(/^states\/FL\.json rateVersions\.0\.renewalCapPercent: Florida Homeowners rates 2020: a renewal cap is a percent above 0 and at most 100 of the expiring premium \(given 150\)/)]);
    expect(capped('0')).toHaveLength(1);
    expect(capped(15)[0]).toMatch(/^states\/FL\.json rateVersions\.0\.renewalCapPercent: /);
  });

  it('names shape errors by file and path, and a file that is not part of a package', () => {
    const document = copy();
    document['items.json'].items[0].rating.steps[0].rate = 4.2;
    document['states/FL.json'].noticeDays.nonRenewal = 'soon';
    delete document['questions.json'];
    document['notes.json'] = {};
    const problems = readPackage(document as PackageDocument).problems.map((problem) => `${problem.file} ${problem.path}`);
    expect(problems).toEqual(expect.arrayContaining(['items.json items.0.rating.steps.0.rate', 'states/FL.json noticeDays.nonRenewal', 'questions.json ', 'notes.json ']));
  });
});

describe('diff', () => {
  it('says what changed by state, item and step', () => {
    const before = readPackage(referencePackageDocument()).package!;
    const document = copy();
    document['states/FL.json'].rateVersions[0].items[DWELLING].steps[0].rate = '4.40';
    document['states/FL.json'].territories.byCounty[1].factor = '1.50';
    document['states/FL.json'].noticeDays.nonRenewal = 90;
    const after = readPackage(document as PackageDocument).package!;
    expect(diffPackages(before, after)).toEqual([
      { where: 'Florida', change: 'notice days for non renewal: 120 → 90' },
      { where: 'Florida', change: 'territory of county Broward: Broward 1.45 → Broward 1.50' },
      { where: 'Florida', change: 'rate version Florida Homeowners rates 2020, Dwelling, step Base Rate: rate 4.20 → 4.40' },
    ]);
    expect(diffPackages(before, before)).toEqual([]);
  });
});
