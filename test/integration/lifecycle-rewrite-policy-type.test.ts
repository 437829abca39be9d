/**
 * A rewrite that changes the policy type, the change an endorsement cannot make. The carrier's
 * product team drafts a product version with a second homeowners form (Homeowner - HO5, the
 * Comprehensive Form: the HO3 coverages plus a Comprehensive Form Charge of 15% of the property
 * coverages, and its form HO 00 05), tests it with the product tool (its worksheet to the cent),
 * runs its rate impact on the book and publishes it. The worked example (HO3, 826.62 a year and a
 * 25.00 fee, Full Pay, for an agency, effective 2025-02-01: a 365-day term) is then rewritten
 * remainder-of-term on day 100 as an HO5: 956.56 a year (866.25 × 15% = 129.94 more), written
 * 694.48 for the 265 days left, the old term cancelled Rewritten with its 600.14 transferred. The
 * new term's revision, Declaration, search record, commission and books carry the new type; the
 * old term's the old. Time moves with the service clock, never with the day the test runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { referencePackageDocument } from '../../shared/catalog/reference-package.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { clock } from '../../shared/platform/clock.js';
import { addDays } from '../../shared/platform/dates.js';
import { fetchFile, pdfText } from '../support/documents.js';
import { runCommand } from '../support/processes.js';
import { POLICY_TYPE } from '../support/reference-product.js';
import { newAgency } from '../support/agencies.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const L = '/api/v2/lines';
const B = '/api/v2/billing';
const HO3 = POLICY_TYPE.HO3;
const HO5 = '6f2b9c1e-4d7a-4e8b-a35c-0d9e8f7a6b51';
const COMPREHENSIVE_CHARGE = 'c4a1e8d2-5b3f-4a6c-9e7d-1f2a3b4c5d6e';
const SECTION_II = '48ce4d35-1ccf-4cd7-b67c-6eda0e204eff';
const EFFECTIVE = '2025-02-01';
const EXPIRATION = '2026-02-01';
const DAY_100 = addDays(EFFECTIVE, 100);
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents', 'rate-impact'] });
});
afterEach(() => {
  clock.startAt(undefined);
});
afterAll(async () => {
  await service?.stop();
});

const rows = (entries: ReadonlyArray<{ type: string; amountCents: number }>, type: string) => entries.filter((entry) => entry.type === type).map((entry) => entry.amountCents);
const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** The shipped product with Homeowner - HO5 added, its rates in force from `from` (a new countrywide rate version), and its worksheet. */
function withHomeownerFive(from: string): Record<string, any> {
  const document = structuredClone(referencePackageDocument()) as Record<string, any>;
  const line = document['line.json'];
  line.policyTypes.push({ id: HO5, name: 'Homeowner - HO5', lineId: line.lines[0].id, default: false, sortOrder: 3 });
  // HO5 offers what HO3 offers, on the same terms; its own rate is the Comprehensive Form Charge.
  for (const subLine of document['sub-lines.json'].subLines) subLine.availability[HO5] = subLine.availability[HO3];
  for (const item of document['items.json'].items) if (item.availability[HO3]) item.availability[HO5] = item.availability[HO3];
  const charge = {
    name: 'Comprehensive Form', op: 'percentOfPremiums', percent: '15', of: { category: 'property', type: 'coverage', scope: 'allProperties' },
  };
  document['items.json'].items.push({
    id: COMPREHENSIVE_CHARGE, name: 'Comprehensive Form Charge', description: 'HO 5: dwelling and personal property covered against open perils',
    category: 'policy', type: 'adjustment', subLineId: SECTION_II, sortOrder: 8.5, allowMultiples: false, showInBuilder: false,
    availability: { [HO5]: 'automatic' }, rating: { steps: [charge] },
  });
  document['forms.json'].forms.push({ id: '2e8d4f6a-1b3c-4d5e-8f9a-0b1c2d3e4f5a', form_code: 'HO 00 05', edition_number: '05 11', description: 'Homeowners 5 - Comprehensive Form', attachWhen: { policyType: HO5 } });
  document['states/countrywide.json'].rateVersions.push({
    id: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Homeowners rates with HO 5', newBusinessEffectiveDate: from, renewalEffectiveDate: from,
    items: { [COMPREHENSIVE_CHARGE]: { steps: [charge] } },
  });
  const worksheet = structuredClone(document['worksheets/new-york-worked-example.json']);
  worksheet.name = 'New York worked example as an HO5';
  worksheet.quote_info.policy_type_name = 'Homeowner - HO5';
  worksheet.quote_info.effective_date = from;
  worksheet.expected.items.splice(7, 0, { name: 'Comprehensive Form Charge', annual: '129.94' });
  worksheet.expected.totals = { annual_premium: '956.56', annual_fees: '25.00', annual_surcharges: '0.00', annual_total: '981.56' };
  document['worksheets/new-york-ho5.json'] = worksheet;
  return document;
}

/** The worked example (HO3) for an agency, issued on EFFECTIVE. */
async function issuedWorkedExample(agencyId: string, name: string) {
  clock.startAt(EFFECTIVE);
  return issueWorkedExample(service, name, EFFECTIVE, { agencyId });
}

async function completedImpact(runId: string): Promise<any> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const run = ok(await service.call(`${L}/retrieve_rate_impact`, { run_id: runId }));
    if (run.state === 'complete') return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`rate impact run ${runId} did not complete`);
}

/** The product version drafted as a folder, tested with the product tool, its impact run on the book, and published. */
async function publishHomeownerFive(from: string) {
  const document = withHomeownerFive(from);
  const folder = mkdtempSync(join(tmpdir(), 'ias-ho5-'));
  try {
    for (const [file, content] of Object.entries(document)) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      writeFileSync(join(folder, file), JSON.stringify(content, null, 2));
    }
    const tested = await runCommand('npx', ['tsx', 'infra/local/product.ts', 'test', folder], {});
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/ok\s+worksheets\/new-york-ho5\.json: New York worked example as an HO5/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  // Nothing in force changes: HO3 renewals rate as before.
  const impact = await completedImpact(ok(await service.call(`${L}/rate_impact`, { line_file: document })).run_id);
  expect(impact.report.policies).toBeGreaterThan(0);
  expect(impact.report.change).toBe(0);
  return ok(await service.call(`${L}/import_line_file`, { line_file: document, impact_run_id: impact.run_id }));
}

const searched = async (body: Record<string, unknown>) => ok(await service.call(`${P}/search`, body)).records as Array<Record<string, any>>;

describe('a rewrite that changes the policy type', () => {
  let agency: string;
  beforeAll(async () => {
    agency = await newAgency();
  });

  it('HO3 rewritten remainder-of-term on day 100 as the newly published HO5: rated by HO5 rates, the old term cancelled Rewritten, every side naming its own type', async () => {
    const policy = await issuedWorkedExample(agency, 'Hal Homefive');
    clock.startAt(addDays(EFFECTIVE, 90));
    const published = await publishHomeownerFive(addDays(EFFECTIVE, 90));
    expect(published.version_id).toEqual(expect.any(String));

    clock.startAt(DAY_100);
    const opened = ok(await service.call(`${P}/rewrite_policy`, { policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: DAY_100 }));
    // The structure operation that sets the policy type, on the policy's open rewrite; a type outside the catalog is refused naming the field.
    const unknown = await service.call(`${P}/update_effective_and_expiration_date`, { policy_id: policy.policyId, policy_type_id: crypto.randomUUID() });
    expect(unknown.body.success).toBe(false);
    expect(JSON.stringify(unknown.body.messages)).toContain('policy_type_id');
    const moved = ok(await service.call(`${P}/update_effective_and_expiration_date`, { policy_id: policy.policyId, policy_type_id: HO5 }));
    expect(moved).toMatchObject({ effective_date: DAY_100, expiration_date: EXPIRATION });
    // The term in force is untouched until the rewrite is issued.
    const meanwhile = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(meanwhile.active_policy_term).toMatchObject({ id: policy.termId, effective_date: EFFECTIVE, expiration_date: EXPIRATION });
    expect(meanwhile.active_revision).toMatchObject({ id: policy.revisionId, policy_type_id: HO3 });

    const rated = ok(await service.call(`${P}/rate_revision`, { revision_id: opened.revision_id }));
    expect(rated).toMatchObject({ annual_premium: 956.56, annual_fee: 25 });
    const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: opened.revision_id }));
    expect(details).toMatchObject({ policy_type_id: HO5, policy_type: 'Homeowner - HO5' });
    const annual = (name: string) => details.items.find((item: { name: string }) => item.name === name)?.annual_premium;
    expect([annual('Dwelling'), annual('Personal Liability'), annual('Medical Payments'), annual('Claims-Free Discount'), annual('Comprehensive Form Charge')]).toEqual([866.25, 35, 12, -86.63, 129.94]);

    // 826.62 x 265/365 returned; 956.56 written for 265 of 365 days, item by item (866.25 -> 628.92, 35 -> 25.41, 12 -> 8.71, -86.63 -> -62.90, 129.94 -> 94.34).
    const expected = {
      rewrite_type: 'remainder_of_term', cancel_date: DAY_100, cancel_reason: 'Rewritten', return_premium: 600.14,
      effective_date: DAY_100, expiration_date: EXPIRATION, annual_premium: 956.56, annual_fee: 25, written_premium: 694.48, written_fee: 25,
      billing: { transfer: 600.14 },
    };
    expect(ok(await service.call(`${P}/preview_revision`, { revision_id: opened.revision_id }))).toMatchObject(expected);
    const issued = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: opened.revision_id } }));
    expect(issued).toMatchObject({ ...expected, revision_id: opened.revision_id, rewritten_term_id: policy.termId });

    const after = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(after.active_policy_term).toMatchObject({ id: issued.policy_term_id, effective_date: DAY_100, expiration_date: EXPIRATION });
    expect(after.active_revision).toMatchObject({ id: opened.revision_id, policy_type_id: HO5, policy_type: 'Homeowner - HO5', annual_premium: 956.56, written_premium: 694.48 });
    expect(ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: policy.revisionId }))).toMatchObject({ policy_type_id: HO3, policy_type: 'Homeowner - HO3' });

    // The Transfer rows as for any rewrite: 600.14 out of the old term's account, into the new one's, billed 694.48 + 25.00 net of it.
    const old = (await loadAccount(policy.policyId, policy.termId))!;
    expect(rows(old.entries, 'Return Premium')).toEqual([-60014]);
    expect(rows(old.entries, 'Transfer')).toEqual([60014]);
    expect(old.account.policyStatus).toBe('Cancelled');
    const renewed = (await loadAccount(policy.policyId, issued.policy_term_id))!;
    expect(rows(renewed.entries, 'Invoice')).toEqual([71948]);
    expect(rows(renewed.entries, 'Transfer')).toEqual([-60014]);
    expect(renewed.account.balanceCents).toBe(71948 - 60014);

    // The Declaration of the new term names the new type and its form.
    await service.deliverablesRendered();
    const declaration = (await listPolicyAttachments(policy.policyId)).find((file) => file.deliverableType === 'Declaration' && file.revisionId === opened.revision_id);
    expect(declaration).toBeDefined();
    const text = pdfText((await fetchFile(service, declaration!.fileId)).bytes).replace(/\s+/g, ' ');
    expect(text).toContain('Homeowner - HO5');
    expect(text).toContain('HO 00 05');
    expect(text).not.toContain('Homeowner - HO3');
    expect(text).toContain('Comprehensive Form Charge');

    // Search finds the policy under its new type, by id and by name, and no longer under the old.
    for (const type of [HO5, 'Homeowner - HO5']) {
      expect(await searched({ search_string: policy.policyNumber, policy_types: [type] })).toEqual([expect.objectContaining({ policyId: policy.policyId, status: 'Active' })]);
    }
    expect(await searched({ search_string: policy.policyNumber, policy_types: [HO3] })).toEqual([]);

    // compare_revisions lists the type change and the charge it brought.
    const compared = ok(await service.call(`${P}/compare_revisions`, { from_revision_id: policy.revisionId, to_revision_id: opened.revision_id }));
    expect(compared.policy_type).toEqual({ field: 'policy type', from: 'Homeowner - HO3', to: 'Homeowner - HO5' });
    expect(JSON.stringify(compared)).toContain('Comprehensive Form Charge');
    const lines = ok(await service.call(`${P}/compare_revisions`, { from_revision_id: policy.revisionId, to_revision_id: opened.revision_id, format: 'text' }));
    expect(JSON.stringify(lines)).toContain('Policy type: Homeowner - HO3 → Homeowner - HO5');

    // The commission: the old term's charged back on its return premium, the new term's Rewrite row on its 694.48.
    const statement = ok(await service.call(`${B}/retrieve_commission_statement`, { agency_id: agency, month: DAY_100.slice(0, 7) }));
    const ofPolicy = statement.transactions.filter((row: { policy_number: string }) => row.policy_number === policy.policyNumber);
    expect(ofPolicy.map((row: { transaction: string; premium: number; commission: number }) => [row.transaction, row.premium, row.commission])).toEqual(
      expect.arrayContaining([['Rewrite', 694.48, 104.17]]),
    );

    // The books: the new term's premium in the HO5 group, the old term's cancellation in the HO3 group.
    const report = ok(await service.call('/api/v2/reports/premium', { from_month: DAY_100.slice(0, 7), to_month: DAY_100.slice(0, 7), group_by: ['policy_type'], agency_id: agency }));
    const group = (type: string) => report.lines.find((found: { kind: string; group: { policy_type: string } }) => found.kind === 'current' && found.group.policy_type === type);
    expect(group(HO5)).toMatchObject({ written: { rewrites: 694.48, total: 694.48 }, commission: 104.17, policies_in_force_end: 1, unearned_end: 694.48 });
    expect(group(HO3)).toMatchObject({ written: { rewrites: -600.14, new_business: 0 }, commission: -90.02, policies_in_force_end: 0 });

    // An endorsement of the new term still cannot change the type: refused naming the field, the revision unchanged.
    const endorsement = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: addDays(DAY_100, 10) }));
    const refused = await service.call(`${P}/update_effective_and_expiration_date`, { policy_id: policy.policyId, policy_type_id: HO3 });
    expect(refused.body.success).toBe(false);
    expect(JSON.stringify(refused.body.messages)).toMatch(/policy_type_id: .*endorsement.*rewrite_policy/);
    expect(ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: endorsement.revision_id }))).toMatchObject({ policy_type_id: HO5 });
    // It is an endorsement of the HO5 term, rated by HO5 rates and issued as one (not as a second rewrite): Dwelling 300,000 is 1,039.50, its charge 155.93.
    const open = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: endorsement.revision_id }));
    const dwelling = open.items.find((item: { name: string }) => item.name === 'Dwelling');
    ok(await service.call(`${P}/update_rating_information`, { revision_id: endorsement.revision_id, items: [{ id: dwelling.id, limit: 300000 }] }));
    expect(ok(await service.call(`${P}/rate_revision`, { revision_id: endorsement.revision_id })).annual_premium).toBe(1138.48);
    const endorsed = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: endorsement.revision_id } }));
    expect(endorsed.rewrite_type).toBeUndefined();
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }))).toMatchObject({
      active_policy_term: { id: issued.policy_term_id }, active_revision: { id: endorsement.revision_id, policy_type_id: HO5, annual_premium: 1138.48 },
    });
  }, 240_000);

  it('to a new account as an HO5: the new policy found under HO5, the old one under HO3', async () => {
    const policy = await issuedWorkedExample(agency, 'Nia Newtype');
    clock.startAt(DAY_100);
    const opened = ok(await service.call(`${P}/rewrite_policy`, { policy_id: policy.policyId, rewrite_type: 'remainder_of_term', effective_date: DAY_100, new_policy_number: true }));
    ok(await service.call(`${P}/update_effective_and_expiration_date`, { policy_id: policy.policyId, policy_type_id: HO5 }));
    expect(ok(await service.call(`${P}/rate_revision`, { revision_id: opened.revision_id })).annual_premium).toBe(956.56);
    const issued = ok(await service.call(`${P}/issue`, { issue_info: { revision_id: opened.revision_id } }));
    expect(issued).toMatchObject({ policy_number: opened.new_policy_number, annual_premium: 956.56, written_premium: 694.48, return_premium: 600.14 });
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: issued.policy_id })).active_revision).toMatchObject({ policy_type_id: HO5, policy_type: 'Homeowner - HO5' });

    const both = (await searched({ search_string: policy.policyNumber })).filter((record) => record.policyId === policy.policyId || record.policyId === issued.policy_id);
    expect(both).toHaveLength(2);
    expect(both.find((record) => record.policyId === issued.policy_id)).toMatchObject({ status: 'Active', policyType: 'Homeowner - HO5' });
    expect(both.find((record) => record.policyId === policy.policyId)).toMatchObject({ status: 'Cancelled', policyType: 'Homeowner - HO3' });
    expect((await searched({ search_string: opened.new_policy_number, policy_types: [HO5] })).map((record) => record.policyId)).toEqual([issued.policy_id]);
    expect((await searched({ search_string: policy.policyNumber, policy_types: ['Homeowner - HO3'] })).map((record) => record.policyId)).toEqual([policy.policyId]);
  }, 240_000);
});
