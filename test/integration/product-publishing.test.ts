/**
 * Publishing a product without a deploy, from outside: a broken line file refused with every
 * mistake named and nothing changed; an agent may not publish; a copy of the shipped product
 * with a new Florida rate version published from its folder, picked by date while an older
 * term's endorsement keeps its version; the vendor's four reads; a withdrawal before the first
 * effective date puts the earlier rates back. Dates are relative to today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePackageDocument } from '../../shared/catalog/reference-package.js';
import { seedReferenceCatalog } from '../../shared/catalog/seed-service.js';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import { writeCatalogRecords } from '../../shared/catalog/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { agentOf } from '../support/documents.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const L = '/api/v2/lines';
const DWELLING = '2deb7d04-daec-47e3-a98a-c9c075598673';
const SHIPPED_DATE = '5d4d1c7b-9a8a-4a00-81c3-66d7db83ee1d';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

async function quoteFlorida(effective: string, name: string) {
  return ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: us(effective), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '33101' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
}

const detailsOf = async (policyId: string) => {
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policyId }));
  return ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: policy.active_revision.id }));
};

/** The shipped package with a second Florida rate version: base rate 4.40, for new business from `newBusiness` and renewals a month later. */
function withNewFloridaRate(newBusiness: string): Record<string, any> {
  const document = structuredClone(referencePackageDocument()) as Record<string, any>;
  const florida = document['states/FL.json'];
  const next = structuredClone(florida.rateVersions[0]);
  next.id = crypto.randomUUID();
  next.name = 'Florida Homeowners rates 4.40';
  next.newBusinessEffectiveDate = newBusiness;
  next.renewalEffectiveDate = addDays(newBusiness, 31);
  next.items[DWELLING].steps[0].rate = '4.40';
  florida.rateVersions.push(next);
  return document;
}

describe('publishing a line file', () => {
  it('refuses a broken line file naming every mistake, and changes nothing', async () => {
    const document = withNewFloridaRate(addDays(todayIso(), 20));
    delete document['states/FL.json'].rateVersions[1].renewalEffectiveDate;
    delete document['states/FL.json'].charges[0].returned;
    document['items.json'].items[0].rating.steps[1].table.push({ equals: 'Masonry', factor: '0.95' });
    const answer = await service.call(`${L}/import_line_file`, { line_file: document });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^line_file: states\/FL\.json at rateVersions\.1\.renewalEffectiveDate: Florida Homeowners rates 4\.40: a rate version needs its renewal date/),
      expect.stringMatching(/^line_file: states\/FL\.json at charges\.0\.returned: Emergency Management Surcharge: a surcharge needs the rule for returning it/),
      expect.stringMatching(/^line_file: items\.json at items\.0\.rating\.steps\.1\.table\.3: Dwelling, step Construction: row 3 repeats row 1/),
    ]));
    expect(ok(await service.call(`${L}/get_all_effective_dates`, {})).map((date: { id: string }) => date.id)).toEqual([SHIPPED_DATE]);
  });

  it('refuses a line file whose worksheets the rates do not reproduce, naming each figure', async () => {
    const document = structuredClone(referencePackageDocument()) as Record<string, any>;
    document['states/FL.json'].rateVersions[0].items[DWELLING].steps[0].rate = '4.40';
    const answer = await service.call(`${L}/import_line_file`, { line_file: document });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages).toContain('line_file: worksheet worksheets/florida-worked-example.json (Florida worked example (the New York one at ZIP 33101, Miami, Miami-Dade)): Dwelling at location 0, step Base Rate: expected 1050.00, rated 1100.00');
  });

  it('is for Administrators only', async () => {
    const agent = await agentOf([]);
    const answer = await service.call(`${L}/import_line_file`, { line_file: withNewFloridaRate(addDays(todayIso(), 20)) }, { apiKey: agent.apiKey });
    expect(answer.status).toBe(403);
  });

  it('publishes a new Florida rate that quotes pick by date, keeps an older term’s endorsement on its version, answers the vendor’s reads, and can be withdrawn before it starts', async () => {
    const today = todayIso();
    const starts = addDays(today, 20);
    // A Florida policy issued today, under the shipped rates.
    const older = await quoteFlorida(today, 'Olga Older');
    expect(older.total.annual_premium).toBe(1543.88);
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: older.policy_id } }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: older.policy_id } }));

    const published = ok(await service.call(`${L}/import_line_file`, { line_file: withNewFloridaRate(starts) }));
    expect(published).toMatchObject({ effective_dates: { new_business: starts, renewal: addDays(starts, 31) }, rate_versions: [{ name: 'Florida Homeowners rates 4.40', state: 'FL' }] });

    // Quotes by date: before the new rates 1543.88; from them Dwelling 1,742.40, premium 1,615.16.
    expect((await quoteFlorida(addDays(starts, -1), 'Bea Before')).total.annual_premium).toBe(1543.88);
    const after = await quoteFlorida(starts, 'Ann After');
    expect(after.total).toMatchObject({ annual_premium: 1615.16, annual_surcharges: 18.15, annual_fees: 43.15, annual_total: 1658.31 });
    const afterDetails = await detailsOf(after.policy_id);
    expect(afterDetails.rate_version.name).toBe('Florida Homeowners rates 4.40');
    expect(afterDetails.product_version).toBe(published.version_id);
    // New York is untouched.
    const [y, m, d] = starts.split('-');
    const york = ok(await service.call(`${P}/create_quote_extended`, { quote_info: { effective_date: `${m}/${d}/${y}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Yves York' }], underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }], locations: [{ address_zip: '10001' }], items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }] } }));
    expect(york.total.annual_premium).toBe(826.62);
    // The bootstrap seed run again (a redeploy) writes nothing over the published version.
    expect(await seedReferenceCatalog()).toBe(0);
    expect((await quoteFlorida(starts, 'Sid Seeded')).total.annual_premium).toBe(1615.16);

    // The older term's endorsement after the new rates start keeps its version: Dwelling 300,000 at 4.20 in Miami-Dade = 1,995.84.
    const revisionId = ok(await service.call(`${P}/new_revision`, { policy_id: older.policy_id, revision_date: addDays(starts, 5) })).revision_id;
    const open = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    const dwelling = open.items.find((item: { name: string }) => item.name === 'Dwelling');
    ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
    const endorsed = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    expect(endorsed.rate_version.name).toBe('Florida Homeowners rates 2020');
    expect(endorsed.items.find((item: { name: string }) => item.name === 'Dwelling').annual_premium).toBe(1995.84);

    // The vendor's reads.
    const dates = ok(await service.call(`${L}/get_all_effective_dates`, {}));
    expect(dates.map((date: { id: string }) => date.id)).toEqual([SHIPPED_DATE, published.version_id]);
    expect(dates[1]).toMatchObject({ effective_date: starts, creation_date: today, override_lock: false, change_history: [{ action: 'published', at: expect.any(String), by: expect.any(String) }] });
    const states = ok(await service.call(`${L}/get_all_states`, { effective_date_id: published.version_id }));
    expect(states).toEqual(expect.arrayContaining([
      { id: 'FL', name: 'Florida', abbreviation: 'FL', written: true },
      { id: 'TX', name: 'Texas', abbreviation: 'TX', written: false },
      { id: 'NY', name: 'New York', abbreviation: 'NY', written: true },
    ]));
    expect(ok(await service.call(`${L}/get_all_lines`, { effective_date_id: published.version_id, location_id: 'TX' }))).toEqual([]);
    expect(ok(await service.call(`${L}/get_all_lines`, { effective_date_id: published.version_id, location_id: 'FL' }))).toEqual([
      expect.objectContaining({ id: '2cca63bc-f294-42ae-97b9-f548069e4336', name: 'Homeowners', filed_as: 'FL', policy_types: [expect.objectContaining({ name: 'Homeowner - HO3' }), expect.objectContaining({ name: 'Dwelling Fire - DP3' })] }),
    ]);
    // data is the line file as a JSON-encoded string, which the vendor's client decodes itself (issue 44).
    const exported = ok(await service.call(`${L}/get_export_line_file`, { effective_date_id: published.version_id }));
    expect(typeof exported).toBe('string');
    expect(JSON.parse(exported)['states/FL.json'].rateVersions[1].items[DWELLING].steps[0].rate).toBe('4.40');
    expect(Object.keys(JSON.parse(ok(await service.call(`${L}/get_export_line_file`, { effective_date_id: SHIPPED_DATE }))))).toContain('states/TX.json');
    // The vendor's client names the fields curr_eff_date_id, curr_line_id and curr_state_id: the same file.
    const HOMEOWNERS = '2cca63bc-f294-42ae-97b9-f548069e4336';
    expect(ok(await service.call(`${L}/get_export_line_file`, { curr_eff_date_id: published.version_id, curr_line_id: HOMEOWNERS, curr_state_id: 'FL' }))).toBe(exported);
    const otherLine = await service.call(`${L}/get_export_line_file`, { curr_eff_date_id: published.version_id, curr_line_id: SHIPPED_DATE, curr_state_id: 'FL' });
    expect(otherLine.body).toMatchObject({ success: false, messages: [`curr_line_id: the effective date ${published.version_id} has no line ${SHIPPED_DATE}; get_all_lines lists them`] });
    expect((await service.call(`${L}/get_export_line_file`, { curr_eff_date_id: published.version_id, curr_state_id: 'ZZ' })).body.messages).toEqual(['curr_state_id: no state ZZ; get_all_states lists them']);
    expect((await service.call(`${L}/get_export_line_file`, {})).body).toMatchObject({ success: false, messages: ['effective_date_id: give effective_date_id or curr_eff_date_id'] });

    // Withdrawn before it starts: the earlier rates quote again; the change is recorded.
    expect(ok(await service.call(`${L}/withdraw_line_file`, { version_id: published.version_id }))).toEqual({ version_id: published.version_id, status: 'withdrawn', restored_version_id: null });
    expect((await quoteFlorida(starts, 'Wes Withdrawn')).total.annual_premium).toBe(1543.88);
    const [, withdrawn] = ok(await service.call(`${L}/get_all_effective_dates`, {}));
    expect(withdrawn).toMatchObject({ override_lock: true, change_history: [{ action: 'published' }, { action: 'withdrawn' }] });
    const again = await service.call(`${L}/withdraw_line_file`, { version_id: published.version_id });
    expect(again.body.success).toBe(false);
    // A quote made under the withdrawn rates keeps them.
    expect((await detailsOf(after.policy_id)).rate_version.name).toBe('Florida Homeowners rates 4.40');
  });

  it('finishes a publication that failed midway when the same file is sent again', async () => {
    const starts = addDays(todayIso(), 40);
    const document = withNewFloridaRate(starts);
    const rates = document['states/FL.json'].rateVersions[1];
    // What a publication written in batches leaves when it fails before its version record: its new rates stamped with a version never recorded.
    await writeCatalogRecords([{ ...catalogKey('RATEVERSION', rates.id), kind: 'RATEVERSION', catalogVersion: 'unrecorded', ...rates, state: 'FL', productVersion: crypto.randomUUID() }]);
    const published = ok(await service.call(`${L}/import_line_file`, { line_file: document }));
    expect(published.rate_versions).toEqual([{ id: rates.id, name: 'Florida Homeowners rates 4.40', state: 'FL' }]);
    const quoted = await quoteFlorida(starts, 'Rhea Retry');
    expect(quoted.total.annual_premium).toBe(1615.16);
    expect((await detailsOf(quoted.policy_id)).product_version).toBe(published.version_id);
  });
});
