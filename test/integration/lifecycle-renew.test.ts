/**
 * A policy's next year, from outside: the nightly renewal run (planner → nightly-renewals
 * queue → consumer) renews the worked example at 826.62 + 25.00 with its invoice and
 * documents, puts the renewal in force when its term begins, and a day run twice changes
 * nothing; a Non-Renewal queues its notice and the policy expires; a renewal whose premium
 * rises past the carrier's threshold is held until an underwriter approves it;
 * reinstate_expired_policy gives an expired policy its renewal; agents are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as planRenewals } from '../../events/schedules/nightly_renewals.js';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import { getCatalogRecord, writeCatalogRecords } from '../../shared/catalog/store.js';
import type { CatalogRecord } from '../../shared/catalog/reference-data.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { getNightlyRun } from '../../shared/platform/nightly-runs.js';
import { addDays, todayIso } from '../../shared/platform/dates.js';
import { agentOf, fetchFile, pdfText } from '../support/documents.js';
import { ITEM } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const LOSS_HISTORY = 'e5a9f172-3b8c-4d61-a0f4-8c7b5e2d9a03';
let service: TestService;

/** The worked example (826.62 premium, 25.00 fee, Full Pay), issued effective `effective` (YYYY-MM-DD). */
async function issued(effective: string, name: string): Promise<{ policyId: string; policyNumber: string; termId: string; revisionId: string }> {
  const { quote, ...issued } = await issueWorkedExample(service, name, effective);
  expect(quote.total).toMatchObject({ annual_premium: 826.62, annual_fees: 25 });
  return issued;
}

/** Runs the renewal job for a day, as the schedule would, and waits until every batch is decided. */
async function nightly(date: string) {
  const run = await planRenewals({ date });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const progress = await getNightlyRun<{ policyNumber: string; decision: string; detail: string }>('renewals', date, run.runId);
    if (progress && progress.batchesDone >= progress.batches) return progress.decisions ?? [];
    if (Date.now() > deadline) throw new Error(`renewal run ${run.runId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const terms = async (policyId: string) => ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policyId }));
const policyOf = async (policyId: string) => ok(await service.call(`${P}/retrieve_policy`, { policy_id: policyId }));
const decisionsFor = (decisions: Array<{ policyNumber: string; decision: string }>, policyNumber: string) => decisions.filter((decided) => decided.policyNumber === policyNumber).map((decided) => decided.decision);

beforeAll(async () => {
  service = await startTestService({ consumers: true });
});
afterAll(async () => {
  await service?.stop();
});

describe('the nightly renewal run', () => {
  it('renews the worked example at 826.62 + 25.00 with its invoice and documents, puts it in force at the term end, and a day run twice changes nothing', async () => {
    const policy = await issued('2025-01-01', 'Rena Renewal');
    // 46 days before the end: not yet within the 45 lead days.
    expect(decisionsFor(await nightly('2025-11-16'), policy.policyNumber)).toEqual([]);
    expect(await terms(policy.policyId)).toHaveLength(1);

    const decided = await nightly('2025-11-17');
    expect(decisionsFor(decided, policy.policyNumber)).toEqual(['renewed']);
    const [expiring, renewal] = await terms(policy.policyId);
    expect(expiring).toMatchObject({ id: policy.termId, renewal: { policy_term_id: renewal.id, state: 'committed', decided_on: '2025-11-17' } });
    expect(renewal).toMatchObject({ effective_date: '2026-01-01', expiration_date: '2027-01-01', is_renewal: true, term_type: '1 Year', renewed_from_term_id: policy.termId });
    expect(renewal.revisions).toHaveLength(1);
    expect(renewal.revisions[0]).toMatchObject({ revision_state: 'committed', policy_status: 'Active', annual_premium: 826.62, annual_fee: 25, written_premium: 826.62, commit_date: '2025-11-17' });
    const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: renewal.revisions[0].id }));
    expect(details.items.find((item: { item_id: string }) => item.item_id === ITEM.DWELLING).annual_premium).toBe(866.25);

    // The renewal term's own account, on the expiring term's schedule (Full Pay): one invoice of 851.62.
    const account = (await loadAccount(policy.policyId, renewal.id))!;
    expect(account.account).toMatchObject({ balanceCents: 85162, effectiveDate: '2026-01-01', scheduleId: (await loadAccount(policy.policyId, policy.termId))!.account.scheduleId });
    expect(account.entries.map((entry) => [entry.type, entry.amountCents])).toEqual([['Invoice', 85162]]);
    await service.deliverablesRendered();
    const files = await listPolicyAttachments(policy.policyId);
    expect(files.map((file) => file.deliverableType).sort()).toEqual(['Declaration', 'Renewal Billing Statement', 'Renewal Declaration']);
    const declaration = files.find((file) => file.deliverableType === 'Renewal Declaration')!;
    const text = pdfText((await fetchFile(service, declaration.fileId)).bytes);
    expect(text).toContain('Renewal Declaration');
    expect(text).toMatch(/Total Premium\s+826\.62/);
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.text)).toEqual([
      `Policy ${policy.policyNumber} renewed 2026-01-01 to 2027-01-01: premium 826.62, fees 25.00 (0.00% from 826.62)`,
    ]);

    // The same day again, and a later day before the end: nothing more.
    expect(decisionsFor(await nightly('2025-11-17'), policy.policyNumber)).toEqual([]);
    expect(decisionsFor(await nightly('2025-12-01'), policy.policyNumber)).toEqual([]);
    expect(await terms(policy.policyId)).toHaveLength(2);
    expect((await loadAccount(policy.policyId, renewal.id))!.entries).toHaveLength(1);
    await service.deliverablesRendered();
    expect(await listPolicyAttachments(policy.policyId)).toHaveLength(3);

    // Payments go to the earliest account owing: the expiring term's invoice, then the renewal's.
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { policyNumber: policy.policyNumber, amount: '851.62' }));
    expect((await loadAccount(policy.policyId, policy.termId))!.account.balanceCents).toBe(0);
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { policyNumber: policy.policyNumber, amount: '851.62' }));
    expect((await loadAccount(policy.policyId, renewal.id))!.account.balanceCents).toBe(0);

    // The renewal term begins: the policy's active term is the renewal's; search shows its dates.
    expect(decisionsFor(await nightly('2026-01-01'), policy.policyNumber)).toEqual(['renewal_in_force']);
    const inForce = await policyOf(policy.policyId);
    expect(inForce.active_policy_term.id).toBe(renewal.id);
    expect(inForce.active_revision.id).toBe(renewal.revisions[0].id);
    const found = ok(await service.call(`${P}/search`, { search_string: policy.policyNumber }));
    expect(found.records[0]).toMatchObject({ status: 'Active', effectiveDate: '01/01/2026', expirationDate: '01/01/2027' });
    expect(decisionsFor(await nightly('2026-01-01'), policy.policyNumber)).toEqual([]);
    // Its own term is watched now: the next renewal comes 45 days before 2027-01-01.
    expect(decisionsFor(await nightly('2026-11-16'), policy.policyNumber)).toEqual([]);
  }, 180_000);
});

describe('process_renewals by hand for one policy', () => {
  it('called again with the same arguments leaves a renewed policy as it is; the renewal term renews only within its own lead days', async () => {
    const policy = await issued('2025-01-01', 'Ray Retry');
    const call = (renewDate: string) => service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: renewDate }).then(ok);
    expect(await call('2025-11-17')).toMatchObject({ decision: 'renewed', renewal_premium: 826.62 });
    const [, renewal] = await terms(policy.policyId);

    // A retry without an Idempotency-Key: nothing more, and the answer says what it was renewed to.
    const again = await call('2025-11-17');
    expect(again).toMatchObject({ decision: 'none', renewal_term_id: null, message: `Policy ${policy.policyNumber} already renewed to 2026-01-01 to 2027-01-01` });
    expect((await terms(policy.policyId)).map((term: { effective_date: string }) => term.effective_date)).toEqual(['2025-01-01', '2026-01-01']);
    expect((await loadAccount(policy.policyId, renewal.id))!.entries).toHaveLength(1);

    // In the renewal's own term: first the day's due move (in force), then nothing until its lead days.
    expect(await call('2026-06-01')).toMatchObject({ decision: 'renewal_in_force' });
    expect(await call('2026-06-01')).toMatchObject({ decision: 'none', message: 'Renews from 2026-11-17' });
    expect(await terms(policy.policyId)).toHaveLength(2);

    // renew_date within the renewal term's lead days: it renews, once.
    expect(await call('2026-11-17')).toMatchObject({ decision: 'renewed', policy_term_id: renewal.id });
    expect(await call('2026-11-17')).toMatchObject({ decision: 'none', message: `Policy ${policy.policyNumber} already renewed to 2027-01-01 to 2028-01-01` });
    expect(await call('2025-11-17')).toMatchObject({ decision: 'none', message: `Policy ${policy.policyNumber} already renewed to 2026-01-01 to 2027-01-01` });
    expect((await terms(policy.policyId)).map((term: { effective_date: string }) => term.effective_date)).toEqual(['2025-01-01', '2026-01-01', '2027-01-01']);
  }, 180_000);
});

describe('an endorsement of a renewed term', () => {
  it('is carried into the renewal, re-rated, with an Endorsement row on the renewal account; the answer says what was carried', async () => {
    const policy = await issued('2025-01-01', 'Cary Carry');
    const renewed = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2025-11-17' }));
    expect(renewed).toMatchObject({ decision: 'renewed', renewal_premium: 826.62 });

    const revisionId = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2025-12-01' })).revision_id;
    const dwelling = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).items.find((item: { name: string }) => item.name === 'Dwelling');
    ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
    const preview = ok(await service.call(`${P}/preview_revision`, { revision_id: revisionId }));
    expect(preview.renewal).toMatchObject({ renewal_revision_id: renewed.renewal_revision_id, renewal_annual_premium_before: 826.62, renewal_annual_premium: 982.55, renewal_additional_premium: 155.93 });
    const issuedEndorsement = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: revisionId } }));
    expect(issuedEndorsement.renewal).toMatchObject({
      renewal_revision_id: renewed.renewal_revision_id,
      carried: [{ label: 'Dwelling limit', before: '250,000.00', after: '300,000.00' }],
      not_carried: [],
      renewal_annual_premium: 982.55,
      renewal_additional_premium: 155.93,
    });
    const [, renewal] = await terms(policy.policyId);
    expect(renewal.revisions[0]).toMatchObject({ id: renewed.renewal_revision_id, revision_state: 'committed', annual_premium: 982.55 });
    const account = (await loadAccount(policy.policyId, renewal.id))!;
    expect(account.account.balanceCents).toBe(85162 + 15593);
    expect(account.entries.filter((entry) => entry.type === 'Endorsement').map((entry) => entry.amountCents)).toEqual([15593]);
  }, 120_000);
});

describe('a renewed policy cancelled before its renewal begins', () => {
  it('cancels the renewal with it, flat, returning everything it billed; the renewal never comes into force', async () => {
    const policy = await issued('2025-01-01', 'Cato Cancel');
    const renewed = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2025-11-17' }));
    // An endorsement of the renewal term, not yet in force, leaves the policy's active revision where it is.
    const future = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2026-02-01' })).revision_id;
    ok(await service.call(`${P}/rate_revision`, { revision_id: future }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: future } }));
    expect((await policyOf(policy.policyId)).active_revision.id).toBe(policy.revisionId);

    const answer = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797', cancel_date: '2025-12-01' });
    expect(answer.body.success, JSON.stringify(answer.body)).toBe(true);
    const [expiring, renewal] = await terms(policy.policyId);
    expect(expiring).toMatchObject({ cancellation_status: 'cancelled', cancel_pending_date: null });
    expect(renewal).toMatchObject({ id: renewed.renewal_term_id, cancellation_status: 'cancelled' });
    const account = (await loadAccount(policy.policyId, renewal.id))!;
    expect(account.account).toMatchObject({ policyStatus: 'Cancelled' });
    // Full Pay 851.62 billed; flat: the 826.62 premium returned (the row the note names), the 25.00 fee earned.
    expect(account.entries.filter((entry) => entry.type === 'Return Premium').map((entry) => entry.amountCents)).toEqual([-82662]);
    expect(account.account.balanceCents).toBe(2500);
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.text)).toContain(`Renewal term 2026-01-01 to 2027-01-01 cancelled with the term it renews (flat); return premium 826.62`);
    expect(decisionsFor(await nightly('2026-01-01'), policy.policyNumber)).toEqual([]);
    expect((await policyOf(policy.policyId)).active_policy_term.id).toBe(policy.termId);
  }, 120_000);
});

describe('a policy reinstated after its renewal was cancelled with it', () => {
  const NON_PAYMENT = 'eb24d327-578e-4fa8-84c8-335786ee5064';
  const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
  const shown = (term: { revisions: Array<{ revision_state: string; policy_status: string; cancel_date: string | null }> }) =>
    term.revisions.map((revision) => [revision.revision_state, revision.policy_status, revision.cancel_date]);

  it('reinstates the renewal with it, as it was: committed again, its account billed as before, a Notice of Reinstatement, and in force on its first day', async () => {
    const policy = await issued('2025-01-01', 'Rhea Reinstated');
    expect(decisionsFor(await nightly('2025-11-17'), policy.policyNumber)).toEqual(['renewed']);
    const [, made] = await terms(policy.policyId);
    const before = (await loadAccount(policy.policyId, made.id))!;
    expect(before.account.balanceCents).toBe(85162);

    const cancelled = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: NON_PAYMENT, cancel_date: '2025-12-01' });
    expect(cancelled.body.success, JSON.stringify(cancelled.body)).toBe(true);
    expect((await terms(policy.policyId))[1]).toMatchObject({ id: made.id, cancellation_status: 'cancelled' });
    expect((await loadAccount(policy.policyId, made.id))!.account.balanceCents).toBe(2500);

    const answer = ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
    expect(answer).toMatchObject({ policy_number: policy.policyNumber, reinstatement_date: '2025-12-01', lapse_days: 0 });
    expect(answer.message).toMatch(/; Renewal term 2026-01-01 to 2027-01-01 reinstated with the term it renews \(it had been cancelled with it, flat\)$/);
    const [expiring, renewal] = await terms(policy.policyId);
    expect(expiring.cancellation_status).toBeUndefined();
    expect(expiring.renewal).toMatchObject({ policy_term_id: made.id, state: 'committed' });
    expect(renewal.cancellation_status).toBeUndefined();
    // Its revision in force as it was; the flat cancellation's own revision archived.
    expect(shown(renewal)).toEqual([
      ['committed', 'Active', null],
      ['archived', 'Cancelled', '2026-01-01'],
    ]);
    expect(renewal.revisions[0]).toMatchObject({ id: made.revisions[0].id, annual_premium: 826.62 });

    // The renewal's account as before the cancellation: 851.62, its one invoice, the flat return premium reversed, no second fee.
    const after = (await loadAccount(policy.policyId, made.id))!;
    expect(after.account).toMatchObject({ balanceCents: before.account.balanceCents, policyStatus: 'Active', nonPayment: { status: 'current' } });
    expect(after.entries.map((entry) => [entry.type, entry.amountCents]).sort()).toEqual([
      ['Cancellation', 0],
      ['Invoice', 85162],
      ['Reinstatement', 82662],
      ['Return Premium', -82662],
    ]);
    expect(ok(await service.call(`${P}/search`, { search_string: policy.policyNumber })).records[0]).toMatchObject({ status: 'Active', effectiveDate: '01/01/2025' });
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.text)).toContain('Renewal term 2026-01-01 to 2027-01-01 reinstated with the term it renews (it had been cancelled with it, flat)');
    await service.deliverablesRendered();
    const notices = (await listPolicyAttachments(policy.policyId)).filter((file) => file.deliverableType === 'Notice of Reinstatement');
    const texts = await Promise.all(notices.map(async (notice) => pdfText((await fetchFile(service, notice.fileId)).bytes)));
    expect(texts.map((text) => /reinstated effective (\S+)/.exec(text)?.[1]).sort()).toEqual(['01/01/2026', '12/01/2025']);
    // Integrators are told of both, the term's first.
    const reinstatements: Array<{ policy_id: string; data: { term_id: string; reinstatement_date: string } }> = [];
    for (let after: string | undefined; ; ) {
      const page = ok(await service.call('/api/v2/events/list_events', { types: ['policy.reinstated'], ...(after ? { after } : {}) }));
      reinstatements.push(...page.events.filter((event: { policy_id: string }) => event.policy_id === policy.policyId));
      if (page.events.length === 0) break;
      after = page.next_cursor;
    }
    expect(reinstatements.map((event) => [event.data.term_id, event.data.reinstatement_date])).toEqual([
      [policy.termId, '2025-12-01'],
      [made.id, '2026-01-01'],
    ]);

    // The run puts the renewal in force on its first day.
    expect(decisionsFor(await nightly('2026-01-01'), policy.policyNumber)).toEqual(['renewal_in_force']);
    const inForce = await policyOf(policy.policyId);
    expect(inForce.active_policy_term.id).toBe(made.id);
    expect(inForce.active_revision).toMatchObject({ id: made.revisions[0].id, policy_status: 'Active' });
    expect(ok(await service.call(`${P}/search`, { search_string: policy.policyNumber })).records[0]).toMatchObject({ status: 'Active', effectiveDate: '01/01/2026', expirationDate: '01/01/2027' });
  }, 180_000);

  it('leaves a renewal cancelled on its own cancelled when the term it renews is reinstated', async () => {
    const policy = await issued('2025-01-01', 'Otto OnItsOwn');
    const renewed = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2025-11-17' }));
    ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, policy_term_id: renewed.renewal_term_id, cancel_reason_id: INSUREDS_REQUEST, cancel_date: '2026-01-01' }));
    ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: INSUREDS_REQUEST, cancel_date: '2025-12-01' }));
    const balance = (await loadAccount(policy.policyId, renewed.renewal_term_id))!.account.balanceCents;

    const answer = ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
    expect(answer.message).not.toMatch(/Renewal term/);
    const [expiring, renewal] = await terms(policy.policyId);
    expect(expiring.cancellation_status).toBeUndefined();
    expect(renewal).toMatchObject({ id: renewed.renewal_term_id, cancellation_status: 'cancelled' });
    expect(shown(renewal)).toEqual([
      ['committed', 'Cancelled', '2026-01-01'],
      ['committed', 'Cancelled', '2026-01-01'],
    ]);
    expect((await loadAccount(policy.policyId, renewed.renewal_term_id))!.account).toMatchObject({ balanceCents: balance, policyStatus: 'Cancelled' });
    // On its first day the policy moves to it, cancelled as it is: search does not show it Active.
    expect(decisionsFor(await nightly('2026-01-01'), policy.policyNumber)).toEqual(['renewal_in_force']);
    const moved = await policyOf(policy.policyId);
    expect(moved.active_policy_term).toMatchObject({ id: renewed.renewal_term_id, cancellation_status: 'cancelled' });
    expect(moved.active_revision.policy_status).toBe('Cancelled');
    expect(ok(await service.call(`${P}/search`, { search_string: policy.policyNumber })).records[0]).toMatchObject({ status: 'Cancelled', effectiveDate: '01/01/2026' });
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.text)).toContain('Renewal term 2026-01-01 to 2027-01-01 begins cancelled (from 2026-01-01)');
  }, 120_000);
});

describe('non-renewal and expiry', () => {
  it('a Non-Renewal queues its notice, the run leaves the policy alone, and it expires at its end; reinstate_expired_policy gives it its renewal', async () => {
    const effective = addDays(todayIso(), -200);
    const policy = await issued(effective, 'Nico NonRenewal');
    const [term] = await terms(policy.policyId);

    const missing = await service.call(`${P}/store_renewal_status`, { revision_id: policy.revisionId, renewal_status: 'Non-Renewal' });
    expect(missing.body).toMatchObject({ success: false, messages: ['renewal_status_reason: is required for a Non-Renewal'] });
    const decided = ok(
      await service.call(`${P}/store_renewal_status`, { revision_id: policy.revisionId, renewal_status: 'Non-Renewal', renewal_status_reason: LOSS_HISTORY, renewal_status_description: 'Three water losses' }),
    );
    expect(decided).toMatchObject({ renewal_status: 'Non-Renewal', renewal_status_reason_id: LOSS_HISTORY, expiration_date: term.expiration_date });
    expect((await terms(policy.policyId))[0]).toMatchObject({ renewal_status: 'Non-Renewal', renewal_status_reason_id: LOSS_HISTORY, renewal_status_description: 'Three water losses' });
    await service.deliverablesRendered();
    const notice = (await listPolicyAttachments(policy.policyId)).find((file) => file.deliverableType === 'Notice of Non-Renewal')!;
    expect(pdfText((await fetchFile(service, notice.fileId)).bytes)).toMatch(/Reason for non-renewal\s+Loss History/);

    expect(decisionsFor(await nightly(addDays(term.expiration_date, -10)), policy.policyNumber)).toEqual([]);
    expect(await terms(policy.policyId)).toHaveLength(1);
    expect(decisionsFor(await nightly(term.expiration_date), policy.policyNumber)).toEqual(['expired']);
    const expired = await policyOf(policy.policyId);
    expect(expired.active_revision.policy_status).toBe('Expired');
    expect((await terms(policy.policyId))[0]).toMatchObject({ expired: true, expired_on: term.expiration_date });
    const found = ok(await service.call(`${P}/search`, { search_string: policy.policyNumber }));
    expect(found.records.map((record: { status: string }) => record.status)).toEqual(['Expired']);
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.text)).toContain(`Policy ${policy.policyNumber} expired on ${term.expiration_date} (not renewed)`);
    expect(decisionsFor(await nightly(addDays(term.expiration_date, 1)), policy.policyNumber)).toEqual([]);

    // An agent may not; an underwriter's decision gives the policy the renewal the run would have made, in force.
    const refused = await service.call(`${P}/reinstate_expired_policy`, { policy_id: policy.policyId, reason: 'Non-renewed by mistake' }, { apiKey: (await agentOf([])).apiKey });
    expect(refused.body.success).toBe(false);
    const keyed = { headers: { 'Idempotency-Key': `reinstate-${policy.policyId}` } };
    const reinstated = ok(await service.call(`${P}/reinstate_expired_policy`, { policy_id: policy.policyId, reason: 'Non-renewed by mistake' }, keyed));
    expect(reinstated).toMatchObject({ policy_number: policy.policyNumber, renewal_premium: 826.62 });
    // A retry with its key answers the first result and makes nothing twice.
    expect(ok(await service.call(`${P}/reinstate_expired_policy`, { policy_id: policy.policyId, reason: 'Non-renewed by mistake' }, keyed))).toEqual(reinstated);
    expect(await terms(policy.policyId)).toHaveLength(2);
    const [old, renewal] = await terms(policy.policyId);
    expect(old.expired).toBeUndefined();
    expect(renewal).toMatchObject({ id: reinstated.renewal_term_id, effective_date: term.expiration_date, is_renewal: true });
    expect((await policyOf(policy.policyId)).active_revision.policy_status).toBe('Active');
    expect(ok(await service.call(`${P}/search`, { search_string: policy.policyNumber })).records[0].status).toBe('Active');
    expect((await loadAccount(policy.policyId, reinstated.renewal_term_id))!.account.balanceCents).toBe(85162);
    // Decided here before the old term's end (the run above was for a later day): the renewal is put in force on that day.
    expect(decisionsFor(await nightly(term.expiration_date), policy.policyNumber)).toEqual(['renewal_in_force']);
    expect((await policyOf(policy.policyId)).active_policy_term.id).toBe(reinstated.renewal_term_id);
  }, 180_000);

  it('refuses a Non-Renewal decided later than the notice days before the end, naming the field, and writes nothing', async () => {
    const policy = await issued(addDays(todayIso(), -350), 'Lara Late');
    const before = await terms(policy.policyId);
    const answer = await service.call(`${P}/store_renewal_status`, { revision_id: policy.revisionId, renewal_status: 'Non-Renewal', renewal_status_reason: LOSS_HISTORY });
    expect(answer.body.success).toBe(false);
    expect(answer.body.messages[0]).toMatch(/^renewal_status: a Non-Renewal must be decided at least 30 days before the term ends on /);
    expect(await terms(policy.policyId)).toEqual(before);
    const unknown = await service.call(`${P}/store_renewal_status`, { revision_id: policy.revisionId, renewal_status: 'Non-Renewal', renewal_status_reason: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.body.messages[0]).toMatch(/^renewal_status_reason: /);
  });
});

describe('a renewal held for review', () => {
  it('holds a renewal whose premium rises past the threshold (a new mandatory item), prints a conditional notice, and commits it once an underwriter approves', async () => {
    const policy = await issued('2025-03-01', 'Hal Held');
    await whileRenewalsAreHeld(async () => {
      const decided = await nightly('2026-01-20');
      expect(decisionsFor(decided, policy.policyNumber)).toEqual(['held']);
      const [expiring, renewal] = await terms(policy.policyId);
      expect(expiring.renewal).toMatchObject({ state: 'held', policy_term_id: renewal.id });
      const held = renewal.revisions[0];
      expect(held).toMatchObject({ revision_state: 'open', policy_status: 'Submitted' });
      expect(held.annual_premium).toBeGreaterThan(826.62 * 1.02);
      const details = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: held.id }));
      expect(details.items.map((item: { item_id: string }) => item.item_id)).toContain(ITEM.WATER_BACKUP);
      expect(details.review_state).toBe('PENDING_UNDERWRITER_REVIEW');
      expect(await loadAccount(policy.policyId, renewal.id)).toBeUndefined();
      await service.deliverablesRendered();
      expect((await listPolicyAttachments(policy.policyId)).map((file) => file.deliverableType).sort()).toEqual(['Conditional Renewal Notice', 'Declaration']);

      // Not approved yet: the next night waits.
      expect(decisionsFor(await nightly('2026-01-21'), policy.policyNumber)).toEqual([]);
      ok(await service.call(`${P}/update_review_workflow`, { revision_id: held.id, workflow_event: 'UW_REVIEW_APPROVED' }));
      const committed = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2026-01-22' }));
      expect(committed).toMatchObject({ decision: 'renewal_committed', renewal_revision_id: held.id, renewal_premium: held.annual_premium });
      const [, after] = await terms(policy.policyId);
      expect(after.revisions[0]).toMatchObject({ revision_state: 'committed', policy_status: 'Active', commit_date: '2026-01-22' });
      expect((await loadAccount(policy.policyId, renewal.id))!.account.balanceCents).toBe(Math.round(held.annual_premium * 100) + 2500);
      await service.deliverablesRendered();
      expect((await listPolicyAttachments(policy.policyId)).map((file) => file.deliverableType).sort()).toEqual(['Conditional Renewal Notice', 'Declaration', 'Renewal Billing Statement', 'Renewal Declaration']);
    });
  }, 180_000);

  /** With the carrier making Water Backup mandatory on HO3 and reviewing any rise over 2%: every renewal of the worked example is held. */
  async function whileRenewalsAreHeld(run: () => Promise<void>) {
    const waterBackup = (await getCatalogRecord<CatalogRecord>('ITEM', ITEM.WATER_BACKUP))!;
    const rules = (await getCatalogRecord<CatalogRecord>('RENEWALRULES'))!;
    try {
      await writeCatalogRecords([
        { ...waterBackup, availability: { ...(waterBackup.availability as Record<string, string>), 'd11cfc80-886b-4a1c-8e38-e77ae4256998': 'mandatory' } },
        { ...rules, ...catalogKey('RENEWALRULES'), premiumIncreaseReviewPercent: '2' },
      ]);
      await run();
    } finally {
      await writeCatalogRecords([waterBackup, rules]);
    }
  }
  const searched = async (policyNumber: string) => ok(await service.call(`${P}/search`, { search_string: policyNumber })).records[0];

  /** Held by hand for `date`, then declined by the underwriter: search shows the held renewal's review state. */
  async function heldAndDeclined(policy: { policyId: string; policyNumber: string }, date: string) {
    const held = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: date }));
    expect(held).toMatchObject({ decision: 'held' });
    ok(await service.call(`${P}/update_review_workflow`, { revision_id: held.renewal_revision_id, workflow_event: 'UW_REVIEW_DECLINED' }));
    expect((await searched(policy.policyNumber)).reviewState).toBe('PENDING_AGENT_CHANGES');
    return held;
  }

  /** What a carrier's users read once the held renewal is archived: the policy's own term alone, as if it had never been made. */
  async function readsWithoutTheHeldRenewal(policy: { policyId: string; policyNumber: string; termId: string }, held: { renewal_revision_id: string }, reviewStateInForce: string) {
    const [term, ...others] = await terms(policy.policyId);
    expect(others).toEqual([]);
    expect(term.id).toBe(policy.termId);
    expect(term.renewal).toBeUndefined();
    expect((await policyOf(policy.policyId)).active_policy_term.id).toBe(policy.termId);
    const open = await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId, revision_state: 'open' });
    expect(open.body).toMatchObject({ success: false, messages: [`revision_state: policy ${policy.policyNumber} has no open revision`] });
    // Still readable by its id, archived, as the record of what was offered.
    expect(ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: held.renewal_revision_id })).revision_state).toBe('archived');
    expect((await searched(policy.policyNumber)).reviewState).toBe(reviewStateInForce);
  }

  it('archived at expiry, is no term of the policy: the terms, the policy and search read the expired term alone, and it can still be renewed anew', async () => {
    const policy = await issued('2025-03-01', 'Hilda Held');
    const reviewStateInForce = (await searched(policy.policyNumber)).reviewState;
    await whileRenewalsAreHeld(async () => {
      const held = await heldAndDeclined(policy, '2026-01-20');
      expect(ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2026-03-01' }))).toMatchObject({ decision: 'expired' });
      await readsWithoutTheHeldRenewal(policy, held, reviewStateInForce);
      expect((await terms(policy.policyId))[0]).toMatchObject({ expired: true, expired_on: '2026-03-01' });
      expect((await policyOf(policy.policyId)).active_revision.policy_status).toBe('Expired');
      expect(await searched(policy.policyNumber)).toMatchObject({ status: 'Expired', expirationDate: '03/01/2026' });
      // The renewal moves act on the expired term, not on the archived one.
      expect(ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2026-03-02' }))).toMatchObject({ decision: 'none' });
      const reinstated = ok(await service.call(`${P}/reinstate_expired_policy`, { policy_id: policy.policyId, reason: 'Review finished late' }));
      const [old, renewal, ...none] = await terms(policy.policyId);
      expect(none).toEqual([]);
      expect(old).toMatchObject({ id: policy.termId, renewal: { policy_term_id: reinstated.renewal_term_id, state: 'in_force' } });
      expect(renewal).toMatchObject({ id: reinstated.renewal_term_id, effective_date: '2026-03-01' });
      expect(renewal.revisions.map((revision: { id: string }) => revision.id)).not.toContain(held.renewal_revision_id);
    });
  }, 180_000);

  it('archived by a Non-Renewal, is no term of the policy either, and the policy expires at its end', async () => {
    const policy = await issued(addDays(todayIso(), -325), 'Noor Held');
    const [term] = await terms(policy.policyId);
    const reviewStateInForce = (await searched(policy.policyNumber)).reviewState;
    await whileRenewalsAreHeld(async () => {
      const held = await heldAndDeclined(policy, todayIso());
      ok(await service.call(`${P}/store_renewal_status`, { revision_id: policy.revisionId, renewal_status: 'Non-Renewal', renewal_status_reason: LOSS_HISTORY }));
      await readsWithoutTheHeldRenewal(policy, held, reviewStateInForce);
      expect((await terms(policy.policyId))[0]).toMatchObject({ renewal_status: 'Non-Renewal' });
      const expired = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: term.expiration_date }));
      expect(expired).toMatchObject({ decision: 'expired' });
      expect(await searched(policy.policyNumber)).toMatchObject({ status: 'Expired', reviewState: reviewStateInForce });
    });
  }, 180_000);

  it('archived with a cancellation of its term, is no term of the policy either; the term reinstated is renewed anew', async () => {
    const policy = await issued('2025-03-01', 'Cass Held');
    const reviewStateInForce = (await searched(policy.policyNumber)).reviewState;
    await whileRenewalsAreHeld(async () => {
      const held = await heldAndDeclined(policy, '2026-01-20');
      ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797', cancel_date: '2026-02-01' }));
      await readsWithoutTheHeldRenewal(policy, held, reviewStateInForce);
      expect((await terms(policy.policyId))[0]).toMatchObject({ cancellation_status: 'cancelled' });
      expect((await searched(policy.policyNumber)).status).toBe('Cancelled');

      ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
      expect(await terms(policy.policyId)).toHaveLength(1);
      const again = ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2026-01-21' }));
      expect(again).toMatchObject({ decision: 'held' });
      expect(again.renewal_revision_id).not.toBe(held.renewal_revision_id);
      const [, renewal, ...none] = await terms(policy.policyId);
      expect(none).toEqual([]);
      expect(renewal.revisions.map((revision: { id: string }) => revision.id)).toEqual([again.renewal_revision_id]);
    });
  }, 180_000);
});
