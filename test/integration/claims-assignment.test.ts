/**
 * Who works a claim, and whose claims a contact's aspect data lists. auto_assign_claim gives each
 * claim to the adjuster with the fewest open claims (ties by name; a terminated adjuster never),
 * a closed claim leaving his caseload; the carrier's rules send a peril to Claims Managers and a
 * peril of a state to named adjusters; a claim assigned already keeps its adjuster; a refused
 * call writes nothing. retrieveAspectData lists the claims a contact is the insured or a
 * claimant of, those the caller reaches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import type { CatalogRecord } from '../../shared/catalog/reference-data.js';
import { getCatalogRecord, writeCatalogRecords } from '../../shared/catalog/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { newAgency } from '../support/agencies.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const ADJUSTER_ROLE = '5b0e6f3a-2d4c-4b8e-9a17-c3d5e7f90a21';
const MANAGER_ROLE = '8e2d4f6a-1b3c-4d5e-8f70-a1b2c3d4e5f6';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const NAMED_INSURED_ROLE = '8626b373-c54d-498a-82bf-fd2d2f32b746';
const CLAIMANT_ROLE = 'c0546ee9-4733-4a6a-a051-0927bd73a9e8';

let service: TestService;
let policy: IssuedWorkedExample;
let agencyA: string;
let agencyB: string;
const effective = addDays(todayIso(), -200);
const people: Record<string, { contactId: string; key: string }> = {};

async function contact(name: string, roleIds: string[], extra: Record<string, unknown> = {}): Promise<{ contactId: string; key: string }> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds, agencyIds: [], createdAt: new Date().toISOString(), version: 1, ...extra });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, name);
  return { contactId, key };
}

let day = 10;
/** A claim of the policy, each on a loss date of its own (no two within the duplicate window). */
async function claim(peril: string): Promise<{ id: string; claim_number: string }> {
  day += 35;
  return ok(await service.call(`${C}/new_claim`, { policy_number: policy.policyNumber, loss_date: addDays(effective, day % 190), peril, description: `A ${peril} loss`, reported_by: { name: 'Pat Example', relation: 'insured' }, confirm_new: true }));
}
const assign = (claimId: string, apiKey?: string) => service.call(`${C}/auto_assign_claim`, { claim_id: claimId }, apiKey ? { apiKey } : {});
const changes = async (claimId: string) => ok(await service.call(`${C}/get_claim_changes`, { claim_id: claimId }));

/** The carrier's claims rules with `assignment` in their place, for the length of `run`. */
async function withAssignment(assignment: unknown, run: () => Promise<void>) {
  const rules = (await getCatalogRecord<CatalogRecord>('CLAIMSRULES'))!;
  try {
    await writeCatalogRecords([{ ...rules, ...catalogKey('CLAIMSRULES'), assignment }]);
    await run();
  } finally {
    await writeCatalogRecords([rules]);
  }
}

beforeAll(async () => {
  service = await startTestService();
  [agencyA, agencyB] = [await newAgency({ name: 'North' }), await newAgency({ name: 'South' })];
  policy = await issueWorkedExample(service, 'Pat Example', effective, { agencyId: agencyA });
  people.aaron = await contact('Aaron Ex', [ADJUSTER_ROLE], { terminated: true });
  people.casey = await contact('Casey Clark', [ADJUSTER_ROLE]);
  people.avery = await contact('Avery Adams', [ADJUSTER_ROLE]);
  people.blake = await contact('Blake Brown', [ADJUSTER_ROLE]);
  people.morgan = await contact('Morgan Manager', [MANAGER_ROLE]);
});
afterAll(async () => service?.stop());

describe('auto_assign_claim', () => {
  const claims: Record<string, { id: string; claim_number: string }> = {};

  it('gives each claim to the active adjuster with the fewest open claims, ties by name, and keeps the change', async () => {
    claims.water = await claim('WTR');
    const first = ok(await assign(claims.water.id));
    expect(first).toMatchObject({ adjuster_contact_id: people.avery.contactId, assignment: { assigned: true, adjuster_name: 'Avery Adams', rule: null, reason: 'fewest open claims (0) among the holders of the Claims Adjuster role' } });
    // The terminated adjuster is no candidate, though his name comes first.
    expect(first.assignment.candidates).toEqual([
      { contact_id: people.avery.contactId, name: 'Avery Adams', open_claims: 0 },
      { contact_id: people.blake.contactId, name: 'Blake Brown', open_claims: 0 },
      { contact_id: people.casey.contactId, name: 'Casey Clark', open_claims: 0 },
    ]);
    expect(ok(await service.call(`${C}/get_claim`, { claim_id: claims.water.id })).adjuster_contact_id).toBe(people.avery.contactId);
    expect((await changes(claims.water.id)).at(-1)).toMatchObject({ kind: 'assigned', changes: [{ field: 'adjusterContactId', from: null, to: people.avery.contactId }], reason: expect.stringContaining('fewest open claims') });

    claims.fire = await claim('FIR');
    expect(ok(await assign(claims.fire.id)).assignment.adjuster_name).toBe('Blake Brown');
    claims.theft = await claim('THF');
    expect(ok(await assign(claims.theft.id)).assignment.adjuster_name).toBe('Casey Clark');
    const byAdjuster = ok(await service.call(`${C}/search`, { adjuster_contact_id: people.blake.contactId }));
    expect(byAdjuster.claims.map((found: { claim_number: string }) => found.claim_number)).toEqual([claims.fire.claim_number]);
  });

  it("counts open claims only: a closed claim leaves its adjuster's load, a reopened one comes back", async () => {
    ok(await service.call(`${C}/update_claim`, { claim_id: claims.water.id, claim: { status: 'closed', reason: 'No damage found' } }));
    claims.vandalism = await claim('VMM');
    const answer = ok(await assign(claims.vandalism.id));
    expect(answer.assignment).toMatchObject({ adjuster_name: 'Avery Adams', reason: 'fewest open claims (0) among the holders of the Claims Adjuster role' });
    expect(answer.assignment.candidates.map((candidate: { open_claims: number }) => candidate.open_claims)).toEqual([0, 1, 1]);

    ok(await service.call(`${C}/update_claim`, { claim_id: claims.water.id, claim: { status: 'reopened', reason: 'The ceiling stain spread' } }));
    claims.lightning = await claim('LGT');
    const next = ok(await assign(claims.lightning.id));
    expect(next.assignment.candidates.map((candidate: { name: string; open_claims: number }) => [candidate.name, candidate.open_claims])).toEqual([
      ['Avery Adams', 2],
      ['Blake Brown', 1],
      ['Casey Clark', 1],
    ]);
    expect(next.assignment.adjuster_name).toBe('Blake Brown');
  });

  it('leaves a claim assigned already with its adjuster (a retry changes nothing), and refuses a closed claim', async () => {
    const before = await changes(claims.vandalism.id);
    const again = ok(await assign(claims.vandalism.id));
    expect(again).toMatchObject({ adjuster_contact_id: people.avery.contactId, assignment: { assigned: false, adjuster_name: 'Avery Adams' } });
    expect(await changes(claims.vandalism.id)).toEqual(before);

    const closed = await claim('OTH');
    ok(await service.call(`${C}/update_claim`, { claim_id: closed.id, claim: { status: 'closed', reason: 'Reported in error' } }));
    const refused = await assign(closed.id);
    expect(refused.body).toMatchObject({ success: false, messages: [expect.stringMatching(/^claim_id: claim CL-\d+-\d+ is closed; reopen it/)] });
  });

  it("follows the carrier's rules: a peril to the Claims Managers, a peril of a state to the adjusters named, whatever their load", async () => {
    await withAssignment({ role: 'Claims Adjuster', rules: [{ perils: ['LIA', 'MED'], role: 'Claims Manager' }, { states: ['NY'], perils: ['WND'], adjusters: [people.avery.contactId, people.aaron.contactId] }] }, async () => {
      claims.liability = await claim('LIA');
      expect(ok(await assign(claims.liability.id)).assignment).toMatchObject({ adjuster_contact_id: people.morgan.contactId, rule: 1, reason: 'fewest open claims (0) among the holders of the Claims Manager role (assignment rule 1)' });
      claims.wind = await claim('WND');
      const wind = ok(await assign(claims.wind.id));
      // Avery carries the most open claims, but the rule names him (and a terminated adjuster, never eligible).
      expect(wind.assignment).toMatchObject({ adjuster_contact_id: people.avery.contactId, rule: 2, candidates: [{ contact_id: people.avery.contactId, name: 'Avery Adams', open_claims: 2 }] });
    });
  });

  it('refuses when nobody the rules name may adjust claims, naming them, and writes nothing', async () => {
    await withAssignment({ role: 'Underwriter', rules: [] }, async () => {
      claims.orphan = await claim('THF');
      const before = await changes(claims.orphan.id);
      const refused = await assign(claims.orphan.id);
      expect(refused.body).toMatchObject({ success: false, messages: [expect.stringContaining('none of the holders of the Underwriter role holds the Claims Adjuster or Claims Manager role')] });
      expect(await changes(claims.orphan.id)).toEqual(before);
      expect(ok(await service.call(`${C}/get_claim`, { claim_id: claims.orphan.id })).adjuster_contact_id).toBeNull();
    });
  });

  it('is a claims worker\'s call: an adjuster assigns, an agent of the policy\'s agency may not (403), another agency\'s agent finds no claim', async () => {
    const claimId = (await claim('FIR')).id;
    const ownAgent = await contact('Owen Agent', [AGENT_ROLE], { agencyIds: [agencyA] });
    expect((await assign(claimId, ownAgent.key)).status).toBe(403);
    expect(ok(await assign(claimId, people.casey.key)).assignment.assigned).toBe(true);
  });
});

describe("a contact's aspect data", () => {
  const aspect = (id: string, roleId: string, apiKey?: string) => service.call('/api/v1/contacts/retrieveAspectData', { id, roleId, hasPermissions: true }, apiKey ? { apiKey } : {});

  it('lists the claims the contact is the insured of', async () => {
    const reported = await claim('WTR');
    const insured = ok(await service.call(`${C}/get_claim`, { claim_id: reported.id })).insured_contact_id as string;
    const data = ok(await aspect(insured, NAMED_INSURED_ROLE));
    expect(data.claims).toEqual(expect.arrayContaining([{ id: reported.id, claim_number: reported.claim_number, policy_number: policy.policyNumber, loss_date: expect.any(String), status: 'open' }]));
  });

  it("lists a claimant's claims to those who reach them, and has no claims for a contact without any", async () => {
    const reported = await claim('LIA');
    // A neighbour insured through agency B, hurt on agency A's insured's premises.
    const claimant = await contact('Tess Thirdparty', [NAMED_INSURED_ROLE], { agencyIds: [agencyB] });
    ok(await service.call(`${C}/add_claim_contact`, { claim_id: reported.id, contact_id: claimant.contactId, role: 'claimant' }));
    const seen = ok(await aspect(claimant.contactId, NAMED_INSURED_ROLE));
    expect(seen.claims).toEqual([{ id: reported.id, claim_number: reported.claim_number, policy_number: policy.policyNumber, loss_date: expect.any(String), status: 'open' }]);
    expect(ok(await aspect(claimant.contactId, NAMED_INSURED_ROLE, people.blake.key)).claims).toHaveLength(1);

    // B's agent reads his insured, not the claim of agency A's policy she is a claimant of.
    const otherAgent = await contact('Sid South', [AGENT_ROLE], { agencyIds: [agencyB] });
    const asOther = ok(await aspect(claimant.contactId, NAMED_INSURED_ROLE, otherAgent.key));
    expect(asOther).not.toHaveProperty('claims');
    expect(JSON.stringify(asOther)).not.toContain(reported.claim_number);

    const nobody = await contact('Nadia None', [CLAIMANT_ROLE]);
    expect(ok(await aspect(nobody.contactId, CLAIMANT_ROLE))).not.toHaveProperty('claims');
  });
});
