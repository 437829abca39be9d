/**
 * The impact of a new rate on the book, through HTTP: a small book of New York and Florida
 * policies (Miami-Dade, Broward, Palm Beach and the rest of Florida) rated against a candidate
 * that raises the Florida Dwelling base rate 4.20 → 4.50 and Miami-Dade's territory 1.60 →
 * 1.70. Every expected figure is worked out here from the rating arithmetic of the filing
 * (base rate per thousand, then each factor, each rounded half-up to the cent), from the
 * premiums the policies were issued at, never copied from the run. A capped version's renewal
 * is capped to the cent; a carrier requiring a run before publishing gets the run named.
 * Dates are relative to the service's today.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePackageDocument } from '../../shared/catalog/reference-package.js';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import { getCatalogRecord, writeCatalogRecords } from '../../shared/catalog/store.js';
import type { RateImpactRun } from '../../shared/products/impact-store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { agentOf } from '../support/documents.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { runCommand } from '../support/processes.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const L = '/api/v2/lines';
const DWELLING = '2deb7d04-daec-47e3-a98a-c9c075598673';
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ consumers: ['documents', 'rate-impact'] });
});
afterAll(async () => {
  await service?.stop();
});

const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

// ------------------------------------------------------------ the worked arithmetic

/** Half-up to the cent of an amount in cents that may have a fraction (positive amounts). */
const halfUp = (cents: number) => Math.floor(cents + 0.5 + 1e-9);
const CONSTRUCTION: Record<string, number> = { Frame: 1.1, Masonry: 1.0, Superior: 0.85 };
const protection = (pc: number) => (pc <= 4 ? 0.9 : pc <= 8 ? 1.0 : pc === 9 ? 1.25 : 1.5);

/** The Dwelling premium in cents by the Florida filing's steps: base rate per thousand, construction, protection class, territory, deductible 1,000 (1.00), minimum 250. */
function floridaDwelling(house: House, baseRate: number, territoryFactor: number): number {
  let cents = halfUp((house.limit / 1000) * baseRate * 100);
  cents = halfUp(cents * CONSTRUCTION[house.construction]);
  cents = halfUp(cents * protection(house.pc));
  cents = halfUp(cents * territoryFactor);
  return Math.max(cents, 25000);
}

interface House {
  name: string;
  zip: string;
  territory: string;
  limit: number;
  construction: 'Frame' | 'Masonry' | 'Superior';
  pc: number;
}

const TERRITORY_BEFORE: Record<string, number> = { 'Miami-Dade': 1.6, Broward: 1.45, 'Palm Beach': 1.35, 'Rest of Florida': 1.0 };
const TERRITORY_AFTER: Record<string, number> = { ...TERRITORY_BEFORE, 'Miami-Dade': 1.7 };

const BOOK: House[] = [
  { name: 'Ana Miami', zip: '33101', territory: 'Miami-Dade', limit: 250000, construction: 'Frame', pc: 3 },
  { name: 'Ben Miami', zip: '33101', territory: 'Miami-Dade', limit: 400000, construction: 'Masonry', pc: 6 },
  { name: 'Cal Broward', zip: '33301', territory: 'Broward', limit: 300000, construction: 'Frame', pc: 3 },
  { name: 'Dee PalmBeach', zip: '33401', territory: 'Palm Beach', limit: 200000, construction: 'Superior', pc: 5 },
  { name: 'Eve Orlando', zip: '32801', territory: 'Rest of Florida', limit: 150000, construction: 'Masonry', pc: 3 },
  { name: 'Fay York', zip: '10001', territory: 'New York', limit: 250000, construction: 'Frame', pc: 3 },
  { name: 'Gus York', zip: '10001', territory: 'New York', limit: 350000, construction: 'Masonry', pc: 7 },
];

interface Issued extends House {
  policyNumber: string;
  policyId: string;
  premium: number;
  surcharges: number;
  fees: number;
  /** Premiums of the property coverages other than the Dwelling, which the claims-free discount also reads. */
  otherPropertyCoverage: number;
  dwelling: number;
}

const cents = (amount: number) => Math.round(amount * 100);

async function issue(house: House): Promise<Issued> {
  const quote = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: us(todayIso()), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: house.name }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_line1: '1 Main St', address_zip: house.zip }],
        items: [{ name: 'Dwelling', limit: house.limit, deductible: 1000, questions: { 'Construction Type': house.construction, 'Protection Class': String(house.pc) } }],
      },
    }),
  );
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: quote.policy_id } }));
  ok(await service.call(`${P}/issue`, { issue_info: { policy_id: quote.policy_id } }));
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: quote.policy_id }));
  const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: policy.active_revision.id }));
  const annual = (name: string) => cents(details.items.find((item: { name: string }) => item.name === name)?.annual_premium ?? 0);
  return {
    ...house,
    policyNumber: policy.policy_number,
    policyId: quote.policy_id,
    premium: cents(quote.total.annual_premium),
    surcharges: cents(quote.total.annual_surcharges ?? 0),
    fees: cents(quote.total.annual_fees),
    otherPropertyCoverage: annual('Other Structures') + annual('Personal Property') + annual('Water Backup'),
    dwelling: annual('Dwelling'),
  };
}

/** The premium after the candidate, worked out: the Dwelling at 4.50 (and 1.70 in Miami-Dade), the claims-free discount (−10% of the property coverages) with it. */
function expectedAfter(policy: Issued, territories = TERRITORY_AFTER): number {
  if (policy.territory === 'New York') return policy.premium;
  const before = floridaDwelling(policy, 4.2, TERRITORY_BEFORE[policy.territory]);
  expect(before, `${policy.name}: the Dwelling as issued is the filing's arithmetic`).toBe(policy.dwelling);
  const after = floridaDwelling(policy, 4.5, territories[policy.territory]);
  const discount = (dwelling: number) => -halfUp((policy.otherPropertyCoverage + dwelling) * 0.1);
  return policy.premium - before - discount(before) + after + discount(after);
}

/** The band of a change as the report names it, each holding its lower bound. */
function bandOf(before: number, after: number): string {
  const percent = ((after - before) * 100) / before;
  if (percent < -10) return 'below -10%';
  if (percent < -5) return '-10% to -5%';
  if (percent < 0) return '-5% to 0%';
  if (percent < 5) return '0% to 5%';
  if (percent < 10) return '5% to 10%';
  if (percent < 25) return '10% to 25%';
  return 'above 25%';
}

/** The shipped package with a candidate Florida rate version: base rate `rate`, Miami-Dade 1.70, from `from` (new business) and a day later (renewals). */
function candidate(from: string, options: { rate?: string; cap?: string; name?: string; renewal?: string; territoryUnchanged?: boolean } = {}): Record<string, any> {
  const document = structuredClone(referencePackageDocument()) as Record<string, any>;
  const florida = document['states/FL.json'];
  const next = structuredClone(florida.rateVersions[0]);
  next.id = crypto.randomUUID();
  next.name = options.name ?? 'Florida Homeowners rates 4.50';
  next.newBusinessEffectiveDate = from;
  next.renewalEffectiveDate = options.renewal ?? addDays(from, 1);
  next.items[DWELLING].steps[0].rate = options.rate ?? '4.50';
  if (options.cap) next.renewalCapPercent = options.cap;
  florida.rateVersions.push(next);
  if (!options.territoryUnchanged) florida.territories.byCounty.find((row: { county: string }) => row.county === 'Miami-Dade').factor = '1.70';
  return document;
}

async function completed(runId: string): Promise<any> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const run = ok(await service.call(`${L}/retrieve_rate_impact`, { run_id: runId }));
    if (run.state === 'complete') return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`rate impact run ${runId} did not complete`);
}

const dollars = (amount: number) => Math.round(amount) / 100;

describe('the impact of a new rate on the book', () => {
  let book: Issued[];

  beforeAll(async () => {
    book = [];
    for (const house of BOOK) book.push(await issue(house));
  });

  it('rates every policy as its renewal would be at the current and the candidate rates, writing nothing to any policy', async () => {
    const started = ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)) }));
    expect(started).toMatchObject({ state: 'running', candidate_rate_versions: [{ name: 'Florida Homeowners rates 4.50', state: 'FL' }] });
    const run = await completed(started.run_id);
    expect(run).toMatchObject({ terms_read: BOOK.length, batches: 1, batches_done: 1, as_of: todayIso() });
    const report = run.report;

    const after = new Map(book.map((policy) => [policy.policyNumber, expectedAfter(policy)]));
    const before = book.reduce((all, policy) => all + policy.premium, 0);
    const afterTotal = [...after.values()].reduce((all, value) => all + value, 0);
    expect(report).toMatchObject({ policies: BOOK.length, premium_before: dollars(before), premium_after: dollars(afterTotal), change: dollars(afterTotal - before), capped_policies: 0 });
    expect(report.skipped).toEqual([]);

    // Bands: counted and added up from the worked figures.
    const expectedBands = new Map<string, { policies: number; change: number }>();
    for (const policy of book) {
      const band = bandOf(policy.premium, after.get(policy.policyNumber)!);
      const entry = expectedBands.get(band) ?? { policies: 0, change: 0 };
      expectedBands.set(band, { policies: entry.policies + 1, change: entry.change + after.get(policy.policyNumber)! - policy.premium });
    }
    for (const band of report.bands) {
      const expected = expectedBands.get(band.band) ?? { policies: 0, change: 0 };
      expect({ band: band.band, policies: band.policies, change: band.change }).toEqual({ band: band.band, policies: expected.policies, change: dollars(expected.change) });
    }

    // By state and territory: New York unchanged, Miami-Dade moved by its territory as well as the base rate.
    expect(report.by_state.NY).toMatchObject({ policies: 2, change: 0 });
    expect(report.by_state.FL.policies).toBe(5);
    expect(Object.keys(report.by_territory)).toEqual(expect.arrayContaining(['FL Miami-Dade', 'FL Broward', 'FL Palm Beach', 'FL Rest of Florida']));
    expect(report.by_territory['FL Miami-Dade'].policies).toBe(2);

    // The largest changes, largest first, with the step that moved each most.
    const ranked = [...book].sort((a, b) => Math.abs(after.get(b.policyNumber)! - b.premium) - Math.abs(after.get(a.policyNumber)! - a.premium));
    expect(report.largest_changes.map((change: { policy_number: string }) => change.policy_number).slice(0, 5)).toEqual(ranked.slice(0, 5).map((policy) => policy.policyNumber));
    for (const change of report.largest_changes) {
      const policy = book.find((entry) => entry.policyNumber === change.policy_number)!;
      expect(change.change).toBe(dollars(after.get(policy.policyNumber)! - policy.premium));
      if (policy.territory === 'Miami-Dade') expect(change.moved_most_by).toBe('Dwelling: Territory');
      else if (policy.territory !== 'New York') expect(change.moved_most_by).toBe('Dwelling: Base Rate');
      else expect(change.moved_most_by).toBeNull();
    }

    // Fees and surcharges apart from premium: Florida's guaranty fund is 1% of the premium, with it.
    const surchargesBefore = book.reduce((all, policy) => all + policy.surcharges, 0);
    expect(report.surcharges_before).toBe(dollars(surchargesBefore));
    const floridaAfter = book.filter((policy) => policy.territory !== 'New York').map((policy) => 200 + halfUp(after.get(policy.policyNumber)! * 0.01));
    expect(report.surcharges_after).toBe(dollars(floridaAfter.reduce((all, value) => all + value, 0)));

    // Nothing written to a policy: each still reads its premium as issued.
    for (const policy of book) {
      const stored = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
      const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: stored.active_revision.id }));
      expect(cents(details.items.find((item: { name: string }) => item.name === 'Dwelling').annual_premium)).toBe(policy.dwelling);
    }

    // Stored: read again, the same, with who and when.
    const again = ok(await service.call(`${L}/retrieve_rate_impact`, { run_id: started.run_id, csv: true }));
    expect(again.report).toEqual(report);
    expect(again.requested_by).toEqual(expect.any(String));
    expect(again.csv.split('\n')[0]).toMatch(/^policy_number,state,territory,premium_before,premium_after/);
    expect(again.csv.trim().split('\n')).toHaveLength(BOOK.length + 1);
  });

  it('keeps to its filters: Florida, Miami-Dade, one ZIP', async () => {
    const florida = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)), filters: { state: 'FL' } })).run_id);
    expect(florida.report.policies).toBe(5);
    const miami = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)), filters: { territory: 'Miami-Dade', renewing_within_days: 400 } })).run_id);
    expect(miami.report.policies).toBe(2);
    const broward = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)), filters: { zip: '33301' } })).run_id);
    expect(broward.report.policies).toBe(1);
    const soon = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)), filters: { renewing_within_days: 30 } })).run_id);
    expect(soon.report.policies).toBe(0);
  });

  it('shows capped and uncapped figures for a version that caps renewals', async () => {
    const run = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30), { cap: '5' }) })).run_id);
    const capped = book.filter((policy) => policy.territory !== 'New York' && expectedAfter(policy) > policy.premium + halfUp(policy.premium * 0.05));
    expect(run.report.capped_policies).toBe(capped.length);
    expect(capped.length).toBeGreaterThan(0);
    const uncappedTotal = book.reduce((all, policy) => all + expectedAfter(policy), 0);
    expect(run.report.premium_after_uncapped).toBe(dollars(uncappedTotal));
    for (const policy of capped) {
      const row = run.report.largest_changes.find((change: { policy_number: string }) => change.policy_number === policy.policyNumber);
      expect(row).toMatchObject({ capped: true, premium_after: dollars(policy.premium + halfUp(policy.premium * 0.05)), premium_after_uncapped: dollars(expectedAfter(policy)) });
    }
  });

  it('runs from the product tool on a package folder: the report, and one CSV line a policy', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ias-impact-'));
    try {
      for (const [file, content] of Object.entries(candidate(addDays(todayIso(), 30)))) {
        mkdirSync(dirname(join(folder, file)), { recursive: true });
        writeFileSync(join(folder, file), JSON.stringify(content, null, 2));
      }
      const tool = (...args: string[]) => runCommand('npx', ['tsx', 'infra/local/product.ts', 'impact', folder, '--url', service.url, '--api-key', service.administratorApiKey, ...args], {});
      const report = await tool('--state', 'FL', '--renewing-within', '400');
      expect(report.code, report.stderr).toBe(0);
      const florida = book.filter((policy) => policy.territory !== 'New York');
      const before = florida.reduce((all, policy) => all + policy.premium, 0);
      const after = florida.reduce((all, policy) => all + expectedAfter(policy), 0);
      expect(report.stdout).toContain(`5 policies: premium ${(before / 100).toFixed(2)} -> ${(after / 100).toFixed(2)}`);
      expect(report.stdout).toMatch(/FL Miami-Dade\s+2 policies/);
      const csv = await tool('--csv');
      expect(csv.code, csv.stderr).toBe(0);
      const lines = csv.stdout.trim().split('\n');
      expect(lines).toHaveLength(BOOK.length + 1);
      const ana = book.find((policy) => policy.name === 'Ana Miami')!;
      expect(lines.find((line) => line.startsWith(`${ana.policyNumber},`))).toContain(`,FL,Miami-Dade,${(ana.premium / 100).toFixed(2)},${(expectedAfter(ana) / 100).toFixed(2)},`);
      const wrong = await tool('--renewing-within', 'soon');
      expect(wrong.code).toBe(2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses a bad call naming the field and storing nothing, and is for Administrators only', async () => {
    const neither = await service.call(`${L}/rate_impact`, {});
    expect(neither.body.success).toBe(false);
    expect(neither.body.messages.join(' ')).toMatch(/line_file/);
    const badState = await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)), filters: { state: 'Florida' } });
    expect(badState.body.success).toBe(false);
    expect(badState.body.messages.join(' ')).toMatch(/filters\.state/);
    const noNew = await service.call(`${L}/rate_impact`, { line_file: referencePackageDocument() });
    expect(noNew.body.messages.join(' ')).toMatch(/^line_file: no new rate version/);
    const unknown = await service.call(`${L}/retrieve_rate_impact`, { run_id: crypto.randomUUID() });
    expect(unknown.body.success).toBe(false);
    const agent = await agentOf([]);
    expect((await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)) }, { apiKey: agent.apiKey })).status).toBe(403);
  });

  it('caps a renewal of a capped version to the cent, saying so in the trace; publishing names the impact run when the carrier requires one', async () => {
    // New business far ahead and the territories as shipped (the worksheets keep rating at the shipped rates), renewals from today.
    const document = candidate(addDays(todayIso(), 3 * 365), { cap: '5', name: 'Florida Homeowners rates 4.50 capped', renewal: todayIso(), territoryUnchanged: true });
    // The carrier requires a run first: refused naming the missing run, then published naming it.
    const carrier = (await getCatalogRecord<Record<string, any>>('CARRIER'))!;
    await writeCatalogRecords([{ ...catalogKey('CARRIER', 'CARRIER'), ...carrier, advancedSettings: { ...carrier.advancedSettings, 'rate-impact-required-before-publish': true } } as any]);
    try {
      const refused = await service.call(`${L}/import_line_file`, { line_file: document });
      expect(refused.body.success).toBe(false);
      expect(refused.body.messages.join(' ')).toMatch(/^impact_run_id: missing: the carrier requires a stored rate impact run/);
      const run = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: document })).run_id);
      const published = ok(await service.call(`${L}/import_line_file`, { line_file: document, impact_run_id: run.run_id }));
      expect(published.impact_run_id).toBe(run.run_id);
      // A stored version can be the candidate too: published, renewals already take it, so nothing moves.
      const stored = await completed(ok(await service.call(`${L}/rate_impact`, { version_id: published.version_id })).run_id);
      expect(stored).toMatchObject({ candidate: { product_version_id: published.version_id }, candidate_rate_versions: [{ name: 'Florida Homeowners rates 4.50 capped', renewalCapPercent: '5' }] });
      expect(stored.report).toMatchObject({ policies: BOOK.length, change: 0 });
      expect((await service.call(`${L}/rate_impact`, { version_id: crypto.randomUUID() })).body.messages[0]).toMatch(/^version_id: no product version/);
    } finally {
      await writeCatalogRecords([{ ...catalogKey('CARRIER', 'CARRIER'), ...carrier } as any]);
    }

    const ana = book.find((policy) => policy.name === 'Ana Miami')!;
    const renewed = ok(await service.call(`${P}/process_renewals`, { policy_number: ana.policyNumber, renew_date: todayIso() }));
    expect(renewed.decision).toBe('renewed');
    const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: renewed.renewal_revision_id }));
    // 5% over the expiring premium, to the cent; uncapped it would be more.
    const cap = ana.premium + halfUp(ana.premium * 0.05);
    expect(expectedAfter(ana, TERRITORY_BEFORE)).toBeGreaterThan(cap);
    expect(cents(renewed.renewal_premium)).toBe(cap);
    const premiums = details.items.filter((item: { annual_premium?: number; name: string }) => !/Fee|Surcharge/.test(item.name)).reduce((all: number, item: { annual_premium?: number }) => all + cents(item.annual_premium ?? 0), 0);
    expect(premiums).toBe(cap);
    const dwelling = details.items.find((item: { name: string }) => item.name === 'Dwelling');
    expect(JSON.stringify(dwelling)).toMatch(/Renewal Cap/);
    // Florida's surcharges stay on the renewal, apart from premium.
    expect(details.items.map((item: { name: string }) => item.name)).toEqual(expect.arrayContaining(['Guaranty Fund Surcharge', 'Emergency Management Surcharge']));
  });
});

describe('a term the run cannot preview', () => {
  it("is listed as skipped, unless the run's filters leave its state out", async () => {
    const york = await issue({ name: 'Hal York', zip: '10001', territory: 'New York', limit: 200000, construction: 'Frame', pc: 3 });
    // The insured's request, flat: the term stays watched, and has no renewal to preview.
    ok(await service.call(`${P}/cancel_policy`, { policy_id: york.policyId, cancel_date: todayIso(), cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797' }));
    const everywhere = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)) })).run_id);
    expect(everywhere.report.skipped).toEqual(expect.arrayContaining([{ policy_number: york.policyNumber, reason: expect.any(String) }]));
    const florida = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)), filters: { state: 'FL' } })).run_id);
    expect(florida.report.skipped.map((entry: { policy_number: string }) => entry.policy_number)).not.toContain(york.policyNumber);
    const newYork = await completed(ok(await service.call(`${L}/rate_impact`, { line_file: candidate(addDays(todayIso(), 30)), filters: { state: 'NY' } })).run_id);
    expect(newYork.report.skipped.map((entry: { policy_number: string }) => entry.policy_number)).toContain(york.policyNumber);
  });
});

describe('a rate impact batch delivered again (the queue delivers at least once)', () => {
  it('is stored and counted once, and a run id taken twice is refused without touching the first run', async () => {
    const { getRateImpactCandidate, getRateImpactRun, rateImpactBatches, recordRateImpactBatch, recordRateImpactRun } = await import('../../shared/products/impact-store.js');
    const { RecordChangedError } = await import('../../shared/platform/transactions.js');
    const runId = crypto.randomUUID();
    const run: RateImpactRun = { runId, requestedBy: 'test', requestedAt: '2026-11-28T10:00:00.000Z', asOf: '2026-11-28', candidate: { lineFile: true }, candidateRateVersions: [], filters: {}, fingerprint: 'f', planned: false, termsRead: 0, batches: 0, batchesDone: 0 };
    await recordRateImpactRun(run, 'the line file');
    await expect(recordRateImpactRun({ ...run, requestedBy: 'someone else' }, 'another file')).rejects.toBeInstanceOf(RecordChangedError);
    expect((await getRateImpactRun(runId))?.requestedBy).toBe('test');
    expect(await getRateImpactCandidate(runId)).toBe('the line file');

    const batch = { batch: 1, policies: [], skipped: [{ policyNumber: '10-2026-1', reason: 'not watched' }] };
    expect(await recordRateImpactBatch(runId, batch)).toBe('recorded');
    expect(await recordRateImpactBatch(runId, { ...batch, skipped: [] })).toBe('already');
    expect((await getRateImpactRun(runId))?.batchesDone).toBe(1);
    expect(await rateImpactBatches(runId)).toEqual([batch]);
  });
});
