import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { productFromRecords } from '../../shared/catalog/model.js';

const product = productFromRecords(referenceCatalogRecords());

describe('the reference product as catalog data', () => {
  it('has the fixed ids of the reference document', () => {
    expect(product.lines.map((line) => [line.id, line.name])).toEqual([['2cca63bc-f294-42ae-97b9-f548069e4336', 'Homeowners']]);
    expect(product.lines[0].effectiveDates[0]).toMatchObject({ id: '5d4d1c7b-9a8a-4a00-81c3-66d7db83ee1d', effective_date: '2020-01-01' });
    expect(product.policyTypes.map((type) => type.id)).toEqual(['d11cfc80-886b-4a1c-8e38-e77ae4256998', '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7']);
    expect(product.subLines.map((subLine) => [subLine.name, subLine.category, subLine.type])).toEqual([
      ['Section I - Property', 'property', 'property'],
      ['Section II - Liability', 'policy', 'liability'],
    ]);
    // The line's own items; the states' taxes and surcharges follow them, offered only in their state.
    expect(product.items.filter((item) => !item.charge).map((item) => item.name)).toEqual([
      'Dwelling', 'Other Structures', 'Personal Property', 'Loss of Use', 'Water Backup', 'Personal Liability', 'Medical Payments', 'Claims-Free Discount', 'Policy Fee',
    ]);
    expect(product.forms.map((form) => form.form_code)).toEqual(['HO 00 03', 'DP 00 03', 'HO 04 95']);
  });

  it('keeps every catalog record kind distinct from the entries attributes', () => {
    const kinds = new Set(referenceCatalogRecords().map((record) => record.kind));
    for (const kind of ['LINE', 'POLICYTYPE', 'SUBLINE', 'ITEM', 'QUESTION', 'FORM', 'UWRULES']) expect(kinds).toContain(kind);
    expect(product.questions.filter((question) => question.level === 'underwriting')).toHaveLength(3);
  });

  it('keeps the rating rules as data: every amount and factor is a decimal string, every step named', () => {
    const dwelling = product.items.find((item) => item.name === 'Dwelling')!;
    expect(dwelling.rating.steps.map((step) => step.name)).toEqual(['Base Rate', 'Construction', 'Protection Class', 'Deductible', 'Minimum Premium']);
    const json = JSON.stringify(product.items);
    for (const match of json.matchAll(/"(factor|amount|rate|percent|min|max)":([^,}\]]+)/g)) expect(match[2], match[0]).toMatch(/^"-?\d+(\.\d+)?"$/);
    const itemIds = new Set(product.items.map((item) => item.id));
    const questionIds = new Set(product.questions.map((question) => question.id));
    for (const item of product.items) {
      expect(product.subLines.some((subLine) => subLine.id === item.subLineId), item.name).toBe(true);
      for (const step of item.rating.steps) {
        if ('by' in step && 'answer' in step.by) expect(questionIds.has(step.by.answer), step.name).toBe(true);
        if ('of' in step && 'limitOf' in step.of && step.of.limitOf !== 'self') expect(itemIds.has(step.of.limitOf)).toBe(true);
      }
    }
  });

  it('offers each item per policy type as the reference table says', () => {
    const offer = (name: string) => product.items.find((item) => item.name === name)!.availability;
    expect(offer('Personal Property')).toEqual({ 'd11cfc80-886b-4a1c-8e38-e77ae4256998': 'mandatory', '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7': 'optional' });
    expect(offer('Claims-Free Discount')['d11cfc80-886b-4a1c-8e38-e77ae4256998']).toBe('automatic');
    expect(offer('Water Backup')['981ba39c-ae4f-4a9a-9c36-c5e4d5953af7']).toBe('optional');
  });
});
