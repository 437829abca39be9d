/**
 * A claim's letters through the HTTP API, as the insured and the print vendor see them: the
 * acknowledgement at first notice (New York's wording; Florida's with the Homeowner Claims Bill
 * of Rights), the Denial letter with its reason, the Closing letter, a Reservation of Rights;
 * each listed on the claim, printed through getToBePrinted only with include_claims and by the
 * nightly print run, and e-mailed to the agency's claimActivityChosenEmail; create_deliverable
 * making a claim's letter by hand, and refusing one without claim_id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { RESERVATION_OF_RIGHTS } from '../../shared/claims/index.js';
import { RESERVATION_OF_RIGHTS_MOVE } from '../../shared/documents/claim-letter-moves.js';
import { runPrintJob } from '../../shared/documents/index.js';
import { mailingBatchesOf } from '../../shared/documents/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { AGENCY_ROLE } from '../support/agencies.js';
import { fetchFile, pdfText } from '../support/documents.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const ADJUSTER_ROLE = '5b0e6f3a-2d4c-4b8e-9a17-c3d5e7f90a21';
const NY_WORDING = 'As New York regulation 64 requires, we acknowledge it and begin our investigation within 15 business days.';

let service: TestService;
let newYork: IssuedWorkedExample;
let florida: IssuedWorkedExample;
let adjuster: string;
let agencyId: string;
const agencyEmail = 'claims@summit-agency.example';
const effective = addDays(todayIso(), -70);

/** One line of text, as a reader reads the PDF (pdftotext's layout breaks lines and pads columns). */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const report = (policyNumber: string, body: Record<string, unknown> = {}) =>
  service.call(`${C}/new_claim`, { policy_number: policyNumber, loss_date: addDays(effective, 60), peril: 'WTR', description: 'A pipe burst in the kitchen', reported_by: { name: 'Pat Example', relation: 'insured' }, ...body }, { apiKey: adjuster });
const claimOf = async (claimId: string) => ok(await service.call(`${C}/get_claim`, { claim_id: claimId }, { apiKey: adjuster }));
const letterText = async (fileId: string) => {
  const file = await fetchFile(service, fileId);
  expect(file.status).toBe(200);
  expect(file.contentType).toBe('application/pdf');
  return pdfText(file.bytes);
};
/** What a refusal says (v1 answers `message`, v2 `messages`). */
const said = (answer: { body: { message?: string[]; messages?: string[] } }) => (answer.body.messages ?? answer.body.message ?? []).join(' ');
const documentOf = (claim: any, type: string, copy = false) => claim.documents.find((document: any) => document.deliverable_type === type && (document.delivery === 'email') === copy);

beforeAll(async () => {
  service = await startTestService();
  adjuster = newToken('ias');
  const adjusterId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: adjusterId, name: 'Alex Adjuster', type: 'individual', roleIds: [ADJUSTER_ROLE], agencyIds: [], createdAt: new Date().toISOString(), version: 1 });
  await ensureApiKey(adjusterId, adjuster, 'claims documents adjuster');
  // An agency that chose where claim activity is e-mailed (one of its own addresses, by id).
  agencyId = crypto.randomUUID();
  const emailId = crypto.randomUUID();
  await createContactProfileIfAbsent({
    id: agencyId, name: 'Summit Agency', type: 'organization', roleIds: [AGENCY_ROLE], agencyIds: [], createdAt: new Date().toISOString(), version: 1,
    emailAddresses: [{ id: crypto.randomUUID(), email: 'front-desk@summit-agency.example' }, { id: emailId, email: agencyEmail }],
  } as Parameters<typeof createContactProfileIfAbsent>[0]);
  ok(await service.call('/api/v1/contacts/storeRoles', { contactId: agencyId, roleId: AGENCY_ROLE, notices: { claimActivityChosenEmail: emailId, ccClaimEmail: 'adjusting@summit-agency.example' } }));
  newYork = await issueWorkedExample(service, 'Pat Example', effective, { agencyId });
  florida = await issueWorkedExample(service, 'Flora Example', effective, { zip: '33101' });
});
afterAll(async () => service?.stop());

describe("a claim's letters", () => {
  let claimId: string;
  let claimNumber: string;

  it("acknowledges a New York claim at first notice in New York's wording, listed on the claim, its copy e-mailed to the agency", async () => {
    const answer = ok(await report(newYork.policyNumber));
    claimId = answer.id;
    claimNumber = answer.claim_number;
    // Requested in the report's own transaction: listed at once, made by the documents consumer.
    const requested = documentOf(await claimOf(claimId), 'Claim Acknowledgement');
    // The consumer may have rendered it already on a busy machine; until it has, it is listed as requested.
    expect(requested).toMatchObject({ deliverable_type: 'Claim Acknowledgement', file_id: expect.any(String) });
    expect(requested.print_state === 'requested' ? requested.created_at : null).toBeNull();
    expect(['requested', 'tbd']).toContain(requested.print_state);
    await service.deliverablesRendered();
    const claim = await claimOf(claimId);
    const letter = documentOf(claim, 'Claim Acknowledgement');
    expect(letter).toMatchObject({ file_id: requested.file_id, title: `Claim Acknowledgement - ${claimNumber}`, print_state: 'tbd', delivery: 'mail', created_at: expect.stringMatching(/^\d{4}-/) });
    const text = flat(await letterText(letter.file_id));
    expect(text).toContain(`Claim Number ${claimNumber}`);
    expect(text).toContain(NY_WORDING);
    expect(text).toContain('Dear Pat Example,');
    expect(text).toContain(newYork.policyNumber);
    expect(text).toContain('Water Damage');
    expect(text).toContain('Summit Agency');
    const copy = documentOf(claim, 'Claim Acknowledgement', true);
    expect(copy).toMatchObject({ title: `Claim Acknowledgement (agency copy) - ${claimNumber}`, delivery: 'email', email_to: agencyEmail, print_state: 'tbd' });
    expect(flat(await letterText(copy.file_id))).toContain(NY_WORDING);
  });

  it('answers a rendered letter once: the documents consumer renders it again to the same file', async () => {
    const { renderRequestedDeliverable } = await import('../../shared/documents/index.js');
    const claim = await claimOf(claimId);
    expect(await renderRequestedDeliverable(documentOf(claim, 'Claim Acknowledgement').file_id)).toBe('already rendered');
    expect((await claimOf(claimId)).documents).toHaveLength(2);
  });

  it('sends the Denial letter with its reason when update_claim records a denial', async () => {
    const reason = 'Seepage over many months is excluded by the policy (Section I Exclusions)';
    ok(await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { denial_reason: reason } }, { apiKey: adjuster }));
    await service.deliverablesRendered();
    const denial = documentOf(await claimOf(claimId), 'Denial');
    expect(denial).toMatchObject({ title: `Denial - ${claimNumber}`, print_state: 'tbd' });
    const text = flat(await letterText(denial.file_id));
    expect(text).toContain('Reason for the denial');
    expect(text).toContain(reason);
    expect(text).toContain(`We have completed our review of claim ${claimNumber}`);
  });

  it('sends the Closing letter when the claim closes, and none for a change that asks for no letter', async () => {
    ok(await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { description: 'A pipe burst under the kitchen sink' } }, { apiKey: adjuster }));
    ok(await service.call(`${C}/update_claim`, { claim_id: claimId, claim: { status: 'closed', reason: 'Denied: nothing to pay' } }, { apiKey: adjuster }));
    await service.deliverablesRendered();
    const claim = await claimOf(claimId);
    expect(claim.documents.filter((document: any) => document.delivery === 'mail').map((document: any) => document.deliverable_type)).toEqual(['Claim Acknowledgement', 'Denial', 'Closing']);
    const text = flat(await letterText(documentOf(claim, 'Closing').file_id));
    expect(text).toContain(`We have closed claim ${claimNumber}`);
    expect(text).toContain('Denied: nothing to pay');
  });

  it("acknowledges a Florida claim in Florida's wording with the Homeowner Claims Bill of Rights as a page of the letter", async () => {
    const answer = ok(await report(florida.policyNumber));
    await service.deliverablesRendered();
    const claim = await claimOf(answer.id);
    expect(claim.state).toBe('FL');
    // No agency chose an address for this policy's claims: the insured's letter alone.
    expect(claim.documents).toEqual([expect.objectContaining({ deliverable_type: 'Claim Acknowledgement', delivery: 'mail' })]);
    const pages = (await letterText(claim.documents[0].file_id)).split('\f').slice(0, -1).map(flat);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('acknowledge it within 7 days, as Florida law requires');
    expect(pages[0]).toContain('Enclosed: Florida Homeowner Claims Bill of Rights');
    expect(pages[1]).toContain('Florida Homeowner Claims Bill of Rights');
    expect(pages[1]).toContain('YOU HAVE THE RIGHT TO:');
    expect(pages[1]).toContain('Receive from your insurance company an acknowledgment of your reported claim within 7 days');
    expect(pages[1]).toContain('Page 2 of 2');
  });
});

describe('a reservation of rights', () => {
  it('is a claim move: the reason kept with the change, and the letter giving it to the insured', async () => {
    expect(RESERVATION_OF_RIGHTS_MOVE).toBe(RESERVATION_OF_RIGHTS);
    const { id } = ok(await report(newYork.policyNumber, { loss_date: addDays(effective, 20), peril: 'THF', confirm_new: true }));
    await service.deliverablesRendered();
    const reason = 'The theft was reported five months after it happened; the policy asks for prompt notice';
    const answer = ok(await service.call(`${C}/request_reservation_of_rights`, { claim_id: id, reason }, { apiKey: adjuster }));
    expect(answer.reservation_of_rights).toMatchObject({ reason });
    await service.deliverablesRendered();
    const claim = await claimOf(id);
    const letter = documentOf(claim, 'Reservation of Rights');
    expect(letter).toMatchObject({ print_state: 'tbd' });
    expect(documentOf(claim, 'Reservation of Rights', true)).toMatchObject({ email_to: agencyEmail });
    const text = flat(await letterText(letter.file_id));
    expect(text).toContain('under a reservation of rights');
    expect(text).toContain(reason);
    const changes = ok(await service.call(`${C}/get_claim_changes`, { claim_id: id }, { apiKey: adjuster }));
    expect(changes.at(-1)).toMatchObject({ kind: 'reservation_of_rights', reason, changes: [{ field: 'reservation_of_rights', from: null, to: reason }] });
  });

  it('is refused on a closed claim, writing nothing (no letter asked for)', async () => {
    const { id } = ok(await report(newYork.policyNumber, { loss_date: addDays(effective, 30), peril: 'FIR' }));
    ok(await service.call(`${C}/update_claim`, { claim_id: id, claim: { status: 'closed', reason: 'Withdrawn by the insured' } }, { apiKey: adjuster }));
    await service.deliverablesRendered();
    const before = await claimOf(id);
    const refused = await service.call(`${C}/request_reservation_of_rights`, { claim_id: id, reason: 'Late notice' }, { apiKey: adjuster });
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages.join(' ')).toMatch(/claim_id: claim .* is closed/);
    const after = await claimOf(id);
    expect(after.documents).toEqual(before.documents);
    expect(after.updated_at).toBe(before.updated_at);
  });
});

describe("a claim's letters in the print queue", () => {
  it('are listed by getToBePrinted only with include_claims, the agency copy with its address, and go into envelopes in the nightly print run', async () => {
    const { id, claim_number: number } = ok(await report(newYork.policyNumber, { loss_date: addDays(effective, 40), peril: 'LGT' }));
    await service.deliverablesRendered();
    const claim = await claimOf(id);
    const letter = documentOf(claim, 'Claim Acknowledgement');
    const copy = documentOf(claim, 'Claim Acknowledgement', true);
    const printDate = letter.print_date;
    const listed = async (extra: Record<string, unknown>) => {
      const answer = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: printDate, to_date: printDate, ...extra } });
      expect(answer.body.success).toBe(true);
      return new Map<string, any>(answer.body.files.map((file: any) => [file.file_id, file]));
    };
    const without = await listed({});
    expect(without.has(letter.file_id)).toBe(false);
    expect(without.has(copy.file_id)).toBe(false);
    const withClaims = await listed({ include_claims: true, include_address_fields: true });
    expect(withClaims.get(letter.file_id)).toMatchObject({
      policy_number: newYork.policyNumber, print_date: printDate, print_state: 'tbd', label: 'Claim Acknowledgement', title: `Claim Acknowledgement - ${number}`, recipient_name: 'Pat Example', address_zip: '10001',
    });
    expect(withClaims.get(letter.file_id)).not.toHaveProperty('email_to');
    expect(withClaims.get(copy.file_id)).toMatchObject({ label: 'Claim Acknowledgement (agency copy)', contact_id: agencyId, email_to: agencyEmail, email_cc: 'adjusting@summit-agency.example' });
    // The e-delivery vendor's call finds the agency's copy, not the insured's paper letter.
    const electronic = await listed({ include_claims: true, only_electronic_delivery: true });
    expect(electronic.has(copy.file_id)).toBe(true);
    expect(electronic.has(letter.file_id)).toBe(false);

    await runPrintJob(printDate);
    const batches = await mailingBatchesOf(printDate);
    expect(batches.some((batch) => batch.fileIds.includes(letter.file_id))).toBe(true);
    ok(await service.call('/api/v1/printing/markAsPrinted', { file_ids: [letter.file_id] }));
    expect(documentOf(await claimOf(id), 'Claim Acknowledgement')).toMatchObject({ print_state: 'printed' });
    expect((await listed({ include_claims: true })).has(letter.file_id)).toBe(false);
  });
});

describe('create_deliverable for a claim', () => {
  it("renders a claim's letter with reference_type claims and its claim_id (the claim's revision at loss, no revision_id needed), listed on the claim", async () => {
    const { id, claim_number: number } = ok(await report(newYork.policyNumber, { loss_date: addDays(effective, 50), peril: 'VMM' }));
    await service.deliverablesRendered();
    const claim = await claimOf(id);
    const made = ok(
      await service.call('/api/v1/deliverables/create_deliverable', { reference_type: 'claims', claim_id: id, claim_number: number, claim_loss_date: claim.loss_date, deliverable_type: 'Claim Acknowledgement' }),
    );
    expect(made.deliverable_url.path).toMatch(new RegExp(`/files/${made.file_id}/$`));
    const text = flat(await letterText(made.file_id));
    expect(text).toContain(`Claim Number ${number}`);
    expect(text).toContain(NY_WORDING);
    const listed = (await claimOf(id)).documents.filter((document: any) => document.deliverable_type === 'Claim Acknowledgement' && document.delivery === 'mail');
    expect(listed.map((document: any) => document.file_id)).toEqual(expect.arrayContaining([made.file_id]));
    expect(listed).toHaveLength(2);
    // A policy document filed with the claim: the revision in force on the loss date.
    const declaration = ok(await service.call('/api/v1/deliverables/create_deliverable', { reference_type: 'claims', claim_id: id, deliverable_type: 'Declaration' }));
    expect(flat(await letterText(declaration.file_id))).toContain(newYork.policyNumber);
    expect((await claimOf(id)).documents.map((document: any) => document.file_id)).toContain(declaration.file_id);
  });

  it('refuses reference_type claims without claim_id, naming it, and a claim_number that is not the claim\'s; writing nothing', async () => {
    const missing = await service.call('/api/v1/deliverables/create_deliverable', { reference_type: 'claims', deliverable_type: 'Claim Acknowledgement', revision_id: newYork.revisionId });
    expect(missing.status).toBe(200);
    expect(missing.body.success).toBe(false);
    expect(said(missing)).toMatch(/^claim_id: is required when reference_type is claims/);
    const { id } = ok(await report(newYork.policyNumber, { loss_date: addDays(effective, 55), peril: 'OTH' }));
    await service.deliverablesRendered();
    const before = await claimOf(id);
    const wrong = await service.call('/api/v1/deliverables/create_deliverable', { reference_type: 'claims', claim_id: id, claim_number: 'CL-1999-1', deliverable_type: 'Claim Acknowledgement' });
    expect(wrong.body.success).toBe(false);
    expect(said(wrong)).toMatch(/^claim_number: CL-1999-1 is not the number of claim/);
    const unstated = await service.call('/api/v1/deliverables/create_deliverable', { reference_type: 'claims', claim_id: id, deliverable_type: 'Reservation of Rights' });
    expect(said(unstated)).toMatch(/^reason: a Reservation of Rights letter says why/);
    expect((await claimOf(id)).documents).toEqual(before.documents);
    // A claim's letter is a claim's: asked for as a policy's it is refused, naming what to send.
    const asPolicy = await service.call('/api/v1/deliverables/create_deliverable', { revision_id: newYork.revisionId, deliverable_type: 'Denial' });
    expect(said(asPolicy)).toMatch(/^deliverable_type: a Denial is a claim's letter: send reference_type claims and the claim_id/);
    const noRevision = await service.call('/api/v1/deliverables/create_deliverable', { deliverable_type: 'Declaration' });
    expect(said(noRevision)).toMatch(/^revision_id: is required/);
  });
});
