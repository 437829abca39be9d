/**
 * The authorization probe of claims: every operation the served API description lists, probed by
 * itself (a new operation is covered without a line here), against the roles of the reference
 * carrier (shared/catalog/carrier/roles.json).
 *
 * - A Claims Adjuster is refused (403) every operation whose permission his role does not grant:
 *   endorsing, issuing, cancelling or reinstating a policy, taking a payment; the policy is as it
 *   was. Every claims operation his role grants answers him (200): he reads and works claims.
 * - An agent of another agency, sent every claims operation with a body naming the claim, its
 *   exposure and its policy, never reads the claim (403 or not found, or an answer without it)
 *   and changes nothing; his own agency's agent reads it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { hasPermission } from '../../shared/platform/principal.js';
import { newAgency } from '../support/agencies.js';
import { startTestService, successData as ok, type ApiAnswer, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const X = '/api/v2/claim_exposures';
const P = '/api/v2/policies';
const ROLES = JSON.parse(readFileSync(new URL('../../shared/catalog/carrier/roles.json', import.meta.url), 'utf8')) as { roles: Array<{ id: string; name: string; permissions: string[] }> };
const role = (name: string) => ROLES.roles.find((candidate) => candidate.name === name)!;
const isClaimsOperation = (path: string) => path.startsWith(`${C}/`) || path.startsWith(`${X}/`);

let service: TestService;
let policy: IssuedWorkedExample;
/** Every operation of the served description and the permission it requires (null: none). */
let operations: Array<{ path: string; permission: string | null }>;
let adjuster: { contactId: string; key: string };
let ownAgent: { contactId: string; key: string };
let otherAgent: { contactId: string; key: string };
let witness: string;
let claimId: string;
let claimNumber: string;
let exposureId: string;
const today = todayIso();
const effective = addDays(today, -90);

async function keyFor(name: string, roleId: string, agencyIds: string[] = []) {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name, type: 'individual', roleIds: [roleId], agencyIds, createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, name);
  return { contactId, key };
}

/** One body every claims operation finds what it reads in: the claim, its exposure, its policy, a person, a date. */
const probeBody = () => ({
  claim_id: claimId,
  exposure_id: exposureId,
  claim_number: claimNumber,
  policy_number: policy.policyNumber,
  contact_id: witness,
  role: 'witness',
  coverage: 'Loss of Use',
  claim: { description: 'Probed' },
  claim_date_type: 'inspection',
  claim_date: today,
  status: 'reopened',
  reason: 'Probed',
  loss_date: addDays(effective, 30),
  peril: 'FIR',
  description: 'Probed',
  reported_by: { name: 'Probe', relation: 'agent' },
  confirm_new: true,
  title: 'Probe storm',
  states: ['NY'],
  from: today,
  to: today,
});

/** What can be seen of the claim: its record, its changes and the policy's claims, as an Administrator reads them. */
const claimAsItStands = async () => ({
  claim: ok(await service.call(`${C}/get_claim`, { claim_id: claimId })),
  changes: ok(await service.call(`${C}/get_claim_changes`, { claim_id: claimId })),
  policyClaims: ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).britecore_claims,
});

beforeAll(async () => {
  service = await startTestService();
  const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as { paths: Record<string, { post: { description?: string } }> };
  operations = Object.entries(document.paths).map(([path, item]) => ({ path, permission: /Requires the permission `([^`]+)`/.exec(item.post.description ?? '')?.[1] ?? null }));
  const [agencyA, agencyB] = [await newAgency({ name: 'Own' }), await newAgency({ name: 'Other' })];
  policy = await issueWorkedExample(service, 'Pat Example', effective, { agencyId: agencyA });
  adjuster = await keyFor('Alex Adjuster', role('Claims Adjuster').id);
  ownAgent = await keyFor('Olive Own', role('Agent').id, [agencyA]);
  otherAgent = await keyFor('Oscar Other', role('Agent').id, [agencyB]);
  witness = (await keyFor('Wanda Witness', role('Claimant').id)).contactId;
  const reported = ok(await service.call(`${C}/new_claim`, { policy_number: policy.policyNumber, loss_date: addDays(effective, 20), peril: 'WTR', description: 'A pipe burst', reported_by: { name: 'Pat Example', relation: 'insured' } }));
  [claimId, claimNumber] = [reported.id, reported.claim_number];
  exposureId = ok(await service.call(`${X}/create_exposure`, { claim_id: claimId, coverage: 'Dwelling' })).id;
});
afterAll(async () => service?.stop());

describe('the probe', () => {
  it('reads the permission of every operation from the served description, the claims operations among them', () => {
    const claims = operations.filter((operation) => isClaimsOperation(operation.path));
    expect(claims.map((operation) => operation.path)).toEqual(expect.arrayContaining([`${C}/get_claim`, `${C}/update_claim`, `${C}/auto_assign_claim`, `${X}/create_exposure`]));
    for (const operation of claims) expect(operation.permission, operation.path).toMatch(/^claims:/);
  });
});

describe('a Claims Adjuster', () => {
  const granted = () => ({ permissions: new Set(role('Claims Adjuster').permissions) });

  it("is refused (403) every operation his role does not grant: he cannot endorse, issue, cancel, reinstate or rewrite a policy, nor take a payment; the policy is as it was", async () => {
    const before = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    const refused = operations.filter((operation) => operation.permission && !hasPermission(granted(), operation.permission));
    expect(refused.map((operation) => operation.path)).toEqual(
      expect.arrayContaining([
        `${P}/new_revision`, `${P}/update_rating_information`, `${P}/issue`, `${P}/cancel_policy`, `${P}/reinstate_policy`, `${P}/rewrite_policy`,
        `${P}/update_underwriting_questions`, `${P}/process_renewals`, '/api/v1/payments/makeManualPolicyPayment', `${C}/declare_catastrophe`,
      ]),
    );
    const answered: Array<[string, number]> = [];
    for (const operation of refused) {
      const answer = await service.call(operation.path, { policy_id: policy.policyId, policy_number: policy.policyNumber, revision_id: policy.revisionId }, { apiKey: adjuster.key });
      answered.push([operation.path, answer.status]);
    }
    expect(answered.filter(([, status]) => status !== 403)).toEqual([]);
    const after = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(after.active_revision).toEqual(before.active_revision);
  }, 120_000);

  it('is answered by every claims operation his role grants (reads and works claims)', async () => {
    const allowed = operations.filter((operation) => isClaimsOperation(operation.path) && operation.permission && hasPermission(granted(), operation.permission));
    expect(allowed.length).toBeGreaterThan(10);
    const answers: Array<[string, number]> = [];
    for (const operation of allowed) answers.push([operation.path, (await service.call(operation.path, probeBody(), { apiKey: adjuster.key })).status]);
    expect(answers.filter(([, status]) => status !== 200)).toEqual([]);
  }, 60_000);

  it('reads the claim, changes it, opens an exposure, records a date and assigns it', async () => {
    const as = { apiKey: adjuster.key };
    expect(ok(await service.call(`${C}/get_claim`, { claim_id: claimId }, as))).toMatchObject({ claim_number: claimNumber });
    expect(ok(await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { description: 'A pipe burst under the sink' } }, as))).toMatchObject({ description: 'A pipe burst under the sink' });
    expect(ok(await service.call(`${X}/create_exposure`, { claim_id: claimId, coverage: 'Other Structures' }, as))).toMatchObject({ coverage: 'Other Structures', status: 'open' });
    expect(ok(await service.call(`${C}/create_claim_date`, { claim_id: claimId, claim_date_type: 'inspection', claim_date: today }, as))).toMatchObject({ claim_date_type: 'inspection' });
    const assigned = ok(await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { adjuster_contact_id: adjuster.contactId } }, as));
    expect(assigned.adjuster_contact_id).toBe(adjuster.contactId);
    const changes = ok(await service.call(`${C}/get_claim_changes`, { claim_id: claimId }, as));
    expect(changes.filter((change: { by: string }) => change.by === adjuster.contactId).map((change: { kind: string }) => change.kind)).toEqual(expect.arrayContaining(['updated', 'exposure_created', 'date_recorded']));
  });
});

describe("an agent of another agency", () => {
  /** Whether an answer's data shows anything of the claim (a message may echo the id it was given: "Claim <id> was not found"). */
  const shows = (answer: ApiAnswer) => [claimId, claimNumber, exposureId].some((secret) => JSON.stringify(answer.body.data ?? null).includes(secret));

  it('never reads the claim through any claims operation, and changes nothing', async () => {
    const before = await claimAsItStands();
    const claims = operations.filter((operation) => isClaimsOperation(operation.path));
    const leaks: string[] = [];
    for (const operation of claims) {
      const answer = await service.call(operation.path, probeBody(), { apiKey: otherAgent.key });
      if (answer.status !== 403 && answer.status !== 200) leaks.push(`${operation.path}: status ${answer.status}`);
      if (shows(answer)) leaks.push(`${operation.path}: ${JSON.stringify(answer.body).slice(0, 200)}`);
    }
    expect(leaks).toEqual([]);
    for (const read of ['get_claim', 'get_claim_changes', 'get_claim_contacts']) {
      const answer = await service.call(`${C}/${read}`, { claim_id: claimId }, { apiKey: otherAgent.key });
      expect(answer.body, read).toMatchObject({ success: false, messages: [expect.stringMatching(/was not found/)] });
    }
    expect(await claimAsItStands()).toEqual(before);
  }, 60_000);

  it("is told 403 where his role grants nothing (working a claim); his own agency's agent reads the claim but may not work it either", async () => {
    expect((await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { description: 'x' } }, { apiKey: otherAgent.key })).status).toBe(403);
    expect(ok(await service.call(`${C}/get_claim`, { claim_id: claimId }, { apiKey: ownAgent.key }))).toMatchObject({ claim_number: claimNumber });
    expect((await service.call(`${C}/auto_assign_claim`, { claim_id: claimId }, { apiKey: ownAgent.key })).status).toBe(403);
  });
});
