/** Creating a policy, as pure rules: who it belongs to, its term, its structure, what refuses it, and its numbering. */
import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { productFromRecords } from '../../shared/catalog/model.js';
import { externalTotals } from '../../shared/policies/external-quote.js';
import type { CreatePolicyInput, ExternalQuoteParts, PolicyCreator, ZipAnswer } from '../../shared/policies/model.js';
import { agencyOfRecord, contactIdsOf, contactRoles, draftPolicy, policyContactsFor, policyRecordsFor } from '../../shared/policies/new-policy.js';
import { firstFreeNumber } from '../../shared/policies/numbering.js';
import { ITEM, POLICY_TYPE } from '../support/reference-product.js';

const product = productFromRecords(referenceCatalogRecords());
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
const NOW = new Date('2026-03-01T10:00:00Z');

const zipTable: Record<string, ZipAnswer> = {
  '90210': { valid: true, zip: '90210', stateAbbr: 'CA', cities: ['Beverly Hills'], counties: [{ name: 'Los Angeles', fips: '06037', id: 'county-la' }] },
};
function services() {
  let counter = 0;
  return { newId: () => `id-${++counter}`, lookupZip: (zip: string) => zipTable[zip] ?? { valid: false, zip, stateAbbr: null, cities: [], counties: [] } };
}
const input = (given: Partial<CreatePolicyInput> = {}): CreatePolicyInput => ({
  manual_policy_number: false,
  term_type: '1 Year',
  renewal_term_type: '1 Year',
  is_renewal: false,
  as_agent: false,
  ...given,
});
const administrator: PolicyCreator = { contactId: 'admin', isAgent: false, asAgent: false, agencyIds: [] };

describe('who a new policy belongs to', () => {
  it("an agent's policy belongs to its agency, the default one when it has several", () => {
    expect(agencyOfRecord({ contactId: 'a', isAgent: true, asAgent: false, agencyIds: ['x'] })).toBe('x');
    expect(agencyOfRecord({ contactId: 'a', isAgent: true, asAgent: false, agencyIds: ['x', 'y'], defaultAgency: 'y' })).toBe('y');
    expect(agencyOfRecord({ contactId: 'a', isAgent: true, asAgent: false, agencyIds: ['x', 'y'], defaultAgency: 'gone' })).toBe('x');
  });

  it('never to the agent alone, even when the agent is one of its own agencies', () => {
    expect(agencyOfRecord({ contactId: 'a', isAgent: true, asAgent: true, agencyIds: ['a', 'x'], defaultAgency: 'a' })).toBe('x');
    expect(() => agencyOfRecord({ contactId: 'a', isAgent: true, asAgent: true, agencyIds: ['a'] })).toThrow('An agent creates policies for its agency, and this agent belongs to no agency');
  });

  it('an agency, or anyone else, keeps its first agency, or none', () => {
    expect(agencyOfRecord({ contactId: 'g', isAgent: false, asAgent: false, agencyIds: ['g'] })).toBe('g');
    expect(agencyOfRecord(administrator)).toBeNull();
  });

  it('names the agent when an agent creates it or anyone asks as_agent, and links each contact once', () => {
    const byAgent = policyContactsFor({ contactId: 'a', isAgent: true, asAgent: false, agencyIds: ['x'] });
    expect(byAgent).toEqual({ creatorId: 'a', agentId: 'a', agencyId: 'x', namedInsuredIds: [], additionalInterestIds: [] });
    expect(policyContactsFor({ ...administrator, asAgent: true }).agentId).toBe('admin');
    expect(policyContactsFor(administrator).agentId).toBeNull();
    expect(contactIdsOf(byAgent)).toEqual(['a', 'x']);
    const shared = { ...byAgent, namedInsuredIds: ['n', 'n', 'a'] };
    expect(contactRoles(shared)).toEqual([
      { contactId: 'a', roleId: AGENT_ROLE },
      { contactId: 'x', roleId: AGENCY_ROLE },
      { contactId: 'n', roleId: '8626b373-c54d-498a-82bf-fd2d2f32b746' },
    ]);
  });
});

describe('a new policy drafted before it is numbered', () => {
  it('starts an HO3 quote with its first year, Section II and no property, totals unrated', () => {
    const draft = draftPolicy(product, input({ inception_date: '2026-03-01' }), administrator, undefined, NOW, services());
    expect(draft).toMatchObject({ policyTypeName: 'Homeowner - HO3', term: { inceptionDate: '2026-03-01', effectiveDate: '2026-03-01', expirationDate: '2027-03-01', termLength: 12 } });
    expect(draft.risks).toEqual([]);
    expect(draft.items.map((item) => item.name)).toEqual(['Personal Liability', 'Medical Payments', 'Claims-Free Discount', 'Policy Fee']);
    const { policy, revision, term } = policyRecordsFor(draft, '10-2026-1');
    expect(policy).toMatchObject({ policyNumber: '10-2026-1', manualPolicyNumber: false, inceptionDate: '2026-03-01', activeRevisionId: draft.revisionId });
    expect(revision).toMatchObject({ policyNumber: '10-2026-1', revisionState: 'open', builderPending: true, annualPremiumCents: 0, riskSequence: 0, decDescription: 'New Business' });
    expect(term).toMatchObject({ termType: '1 Year', renewalType: '1 Year', revisionIds: [draft.revisionId] });
  });

  it('a property_zip starts the quote with Property #1 located from the ZIP, primary', () => {
    const draft = draftPolicy(product, input({ property_zip: '90210' }), administrator, undefined, NOW, services());
    expect(draft.risks).toEqual([expect.objectContaining({ name: 'Property #1', primary: true, address_state: 'CA', address_city: 'Beverly Hills' })]);
    expect(policyRecordsFor(draft, 'n').revision.riskSequence).toBe(1);
  });

  it.each([
    [{ term_type: 'Custom' as const }, 'expiration_date: is required when term_type is Custom'],
    [{ inception_date: '2026-03-01', term_type: 'Custom' as const, expiration_date: '2026-02-01' }, 'expiration_date: must be after the effective date'],
    [{ policy_type_id: 'nope' }, 'policy_type_id: nope is not a policy type of the catalog'],
    [{ inception_date: '2019-06-01' }, 'effective_date: the Homeowners line has no rates effective on 2019-06-01'],
    [{ underwriting_questions: [{ questionId: 'nope', yesNoAnswer: 'yes', explanation: '' }] }, 'underwriting_questions.0.questionId: nope is not an underwriting question of the catalog'],
    [{ property_zip: '00000' }, /00000 is not a known US ZIP code/],
  ])('refuses %j before any number is taken', (given, message) => {
    expect(() => draftPolicy(product, input(given), administrator, undefined, NOW, services())).toThrow(message);
  });

  it("keeps an external quote's items and figures, and refuses one that does not add up to amounts", () => {
    const quote: ExternalQuoteParts = {
      transactionType: 'rewrite',
      risks: [{ address_zip: '90210', items: [{ item_id: ITEM.DWELLING, limit: 250000, premium: '866.25' }] }],
      items: [{ name: 'Policy Fee', premium: '25.00' }],
      premiums: { annual_premium: '966.25' },
      fields: {},
    };
    const draft = draftPolicy(product, input(), administrator, quote, NOW, services());
    expect(draft.totals).toEqual({ annualPremiumCents: 96625, writtenPremiumCents: 96625, annualFeeCents: 2500, writtenFeeCents: 2500, builderPending: false });
    const byName = Object.fromEntries(draft.items.map((item) => [item.name, item]));
    expect(byName.Dwelling).toMatchObject({ limitCents: 25000000, annualPremiumCents: 86625, premiumSource: 'external' });
    expect(byName['Other Structures'].limitCents).toBe(2500000);
    expect(policyRecordsFor(draft, 'n').revision).toMatchObject({ decDescription: 'Rewrite', description: 'Created from an externally rated quote' });
    expect(() => draftPolicy(product, input(), administrator, { ...quote, premiums: { written_fee: 'lots' } }, NOW, services())).toThrow('quote.premiums.written_fee: must be a decimal amount');
  });

  it('sums the items of a quote that states no totals', () => {
    const items = draftPolicy(product, input({ policy_type_id: POLICY_TYPE.HO3 }), administrator, undefined, NOW, services()).items.map((item) =>
      item.name === 'Personal Liability' ? { ...item, annualPremiumCents: 3500, writtenPremiumCents: 1750 } : item,
    );
    expect(externalTotals({ transactionType: 'new_business', risks: [], items: [], premiums: {}, fields: {} }, items)).toMatchObject({ annualPremiumCents: 3500, writtenPremiumCents: 1750 });
  });
});

describe('numbering', () => {
  it('the first free number after the last allocated passes over numbers typed by hand', async () => {
    const taken = new Set(['10-2026-4', '10-2026-5']);
    const isTaken = async (policyNumber: string) => taken.has(policyNumber);
    expect(await firstFreeNumber({ prefix: '10', year: 2026 }, 3, isTaken, 10)).toEqual({ policyNumber: '10-2026-6', position: 6 });
    expect(await firstFreeNumber({ prefix: '10', year: 2026 }, 0, isTaken, 10)).toEqual({ policyNumber: '10-2026-1', position: 1 });
    expect(await firstFreeNumber({ prefix: '10', year: 2026 }, 3, isTaken, 2)).toBeUndefined();
  });
});
