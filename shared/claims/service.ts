/**
 * Working a claim: reading it within the caller's reach, changing its fields and status, its
 * exposures, people and dates, searching claims, and the carrier's perils and catastrophes. Every
 * change is a claim move (moves.ts): one transaction with its listings, change record, note and event.
 */
import { randomUUID } from 'node:crypto';
import { getClaimsRules } from '../catalog/index.js';
import { CLAIMS_ADJUSTER_ROLE_ID, CLAIMS_MANAGER_ROLE_ID, getContactSummaries } from '../contacts/index.js';
import { clock } from '../platform/clock.js';
import { ValidationError } from '../platform/errors.js';
import { todayIso } from '../platform/dates.js';
import { reaches, type Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { claimDocuments } from '../documents/index.js';
import { policyWithinReach } from '../policies/index.js';
import { retrieveMoratorium } from '../moratoriums/index.js';
import { coverOnLossDate } from './coverage.js';
import {
  CLAIM_CONTACT_ROLES,
  ClaimNotFoundError,
  ClaimRuleError,
  type CatastropheRecord,
  type ClaimContactRole,
  type ClaimRecord,
  type ClaimStatus,
  type CloseReason,
  type ExposureRecord,
  type Reporter,
} from './model.js';
import { commitClaimMove, type ClaimMoveContribution } from './moves.js';
import { defaultLossReserveCents, openingReserve, releaseOnClose } from './money-ledger.js';
import { perilOf } from './report.js';
import { dueDateChanges, metNow } from './deadline-rules.js';
import { dueDatesOf, fieldChanges, meetDueDates, summaryOf } from './rules.js';
import {
  catastropheCreate,
  claimContactPut,
  claimContactRemove,
  claimDatePut,
  claimIdOfExposure,
  claimIdOfNumber,
  claimsOfClaimant,
  claimsOfPolicy,
  exposureCreate,
  exposureReplace,
  getCatastrophe,
  getClaimWhole,
  listCatastrophes,
  listingPage,
  claimTransactionCreate as transactionWrites,
  type ClaimWhole,
} from './store.js';
import { catastropheToWire, changeToWire, claimToWire, contactToWire, dateToWire, exposureToWire, summaryToWire } from './wire.js';

const now = () => clock.now().toISOString();

/** A claim whole, refused as not found when it is out of the caller's reach (an agent reads his agencies' claims only). */
export async function claimWithinReach(principal: Principal, claimId: string): Promise<ClaimWhole> {
  const whole = await getClaimWhole(claimId);
  if (!whole || !reaches(principal, whole.claim)) throw new ClaimNotFoundError(`Claim ${claimId.slice(0, 60)}`);
  return whole;
}

const claimantIdsOf = (whole: Pick<ClaimWhole, 'claim' | 'contacts' | 'exposures'>) => [
  ...new Set([
    ...(whole.claim.insuredContactId ? [whole.claim.insuredContactId] : []),
    ...whole.contacts.filter((contact) => contact.role === 'claimant').map((contact) => contact.contactId),
    ...whole.exposures.flatMap((exposure) => (exposure.claimantContactId ? [exposure.claimantContactId] : [])),
  ]),
];
/** The claim's state a move carries it from or to: the claim and its claimants (each a listing). */
export const stateOf = (whole: Pick<ClaimWhole, 'claim' | 'contacts' | 'exposures'>) => ({ claim: whole.claim, claimantIds: claimantIdsOf(whole) });

export async function getClaimView(principal: Principal, claimId: string) {
  // The claim's documents are read beside it, answered only once the claim is within reach.
  const [whole, documents] = await Promise.all([claimWithinReach(principal, claimId), claimDocuments(claimId)]);
  return {
    ...claimToWire(whole.claim),
    exposures: whole.exposures.map(exposureToWire),
    contacts: whole.contacts.map(contactToWire),
    claim_dates: whole.dates.map(dateToWire).sort((a, b) => a.claim_date.localeCompare(b.claim_date)),
    documents,
  };
}

export async function getClaimChanges(principal: Principal, claimId: string) {
  const whole = await claimWithinReach(principal, claimId);
  return whole.changes.sort((a, b) => a.at.localeCompare(b.at)).map(changeToWire);
}

// ------------------------------------------------------------------ changing a claim

export interface ClaimUpdate {
  description?: string;
  lossDate?: string;
  lossTime?: string | null;
  peril?: string;
  catastropheId?: string | null;
  adjusterContactId?: string | null;
  reportedBy?: Reporter;
  status?: ClaimStatus;
  reason?: string;
  denialReason?: string;
}

const CHANGEABLE = ['description', 'lossDate', 'lossTime', 'perilCode', 'catastropheId', 'adjusterContactId', 'reportedBy', 'status', 'coverage', 'denial'] as const;

/** An adjuster assigned to a claim must hold the Claims Adjuster or Claims Manager role. */
export async function assertAdjuster(contactId: string): Promise<void> {
  const found = (await getContactSummaries([contactId])).get(contactId);
  if (!found || !found.roleIds.some((roleId) => roleId === CLAIMS_ADJUSTER_ROLE_ID || roleId === CLAIMS_MANAGER_ROLE_ID)) {
    throw new ClaimRuleError(`adjuster_contact_id: ${contactId.slice(0, 60)} is not a contact holding the Claims Adjuster or Claims Manager role`);
  }
}

export async function updateClaim(principal: Principal, claimId: string, update: ClaimUpdate, contributions: readonly ClaimMoveContribution[] = []) {
  const whole = await claimWithinReach(principal, claimId);
  const before = whole.claim;
  const at = now();
  const rules = await getClaimsRules();
  const after: ClaimRecord = { ...before, updatedAt: at };
  if (update.description !== undefined) after.description = update.description;
  if (update.lossTime !== undefined) after.lossTime = update.lossTime;
  if (update.reportedBy !== undefined) after.reportedBy = update.reportedBy;
  if (update.peril !== undefined) after.perilCode = perilOf(rules, update.peril).code;
  if (update.catastropheId !== undefined) {
    if (update.catastropheId !== null && !(await getCatastrophe(update.catastropheId))) throw new ClaimRuleError(`claim.cat_id: ${update.catastropheId.slice(0, 60)} is not a catastrophe`);
    after.catastropheId = update.catastropheId;
  }
  if (update.adjusterContactId !== undefined) {
    if (update.adjusterContactId !== null) await assertAdjuster(update.adjusterContactId);
    after.adjusterContactId = update.adjusterContactId;
  }
  if (update.lossDate !== undefined && update.lossDate !== before.lossDate) {
    if (update.lossDate > todayIso() || update.lossDate > before.reportedDate) throw new ClaimRuleError(`claim.loss_date: ${update.lossDate} is after the reported date ${before.reportedDate}`);
    const { policy, terms } = await policyWithinReach(principal, { policyId: before.policyId });
    after.lossDate = update.lossDate;
    after.coverage = (await coverOnLossDate(policy, terms, update.lossDate, rules)).coverage;
  }
  let kind = 'updated';
  let eventType: 'claim.updated' | 'claim.closed' | 'claim.reopened' = 'claim.updated';
  if (update.denialReason !== undefined) {
    after.denial = { reason: update.denialReason, at, by: principal.contactId };
    after.dueDates = meetDueDates(after.dueDates, 'denied', todayIso(), at);
    kind = 'denied';
  }
  if (update.status !== undefined && update.status !== before.status) {
    const reason = update.reason?.trim();
    if (update.status === 'closed') {
      const open = whole.exposures.filter((exposure) => exposure.status !== 'closed');
      if (open.length > 0) throw new ClaimRuleError(`claim.status: the claim cannot close while exposures are open: ${open.map((exposure) => `${exposure.coverage} (${exposure.exposureId})`).join(', ')}; close each with update_exposure first`);
      if (!reason) throw new ClaimRuleError('claim.reason: closing a claim needs a reason');
      after.dueDates = meetDueDates(after.dueDates, 'closed', todayIso(), at);
      kind = 'closed';
      eventType = 'claim.closed';
    } else if (update.status === 'reopened') {
      if (before.status !== 'closed') throw new ClaimRuleError(`claim.status: only a closed claim is reopened (it is ${before.status})`);
      if (!reason) throw new ClaimRuleError('claim.reason: reopening a claim needs a reason');
      kind = 'reopened';
      eventType = 'claim.reopened';
    } else {
      throw new ClaimRuleError(`claim.status: a claim goes from open to closed and from closed to reopened (it is ${before.status}, asked ${update.status})`);
    }
    after.status = update.status;
    after.statusHistory = [...before.statusHistory, { status: update.status, at, by: principal.contactId, reason: reason ?? null }];
  }
  if (after.lossDate !== before.lossDate) after.dueDates = dueDatesOf(rules.clocks, after, whole.dates);
  const changes = [...fieldChanges(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>, CHANGEABLE), ...dueDateChanges(before.dueDates, after.dueDates)];
  if (changes.length === 0) return claimToWire(before);
  // Closing the claim releases whatever reserve is still outstanding on its (closed) exposures, in the same transaction.
  const released = kind === 'closed' ? releaseOnClose(whole, whole.exposures.map((exposure) => exposure.exposureId), at, principal.contactId, 'released when the claim closed') : undefined;
  const releasedExposures = released?.exposures ?? [];
  await commitClaimMove({
    kind,
    label: `Claim ${before.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf({ ...whole, claim: after }),
    changes,
    reason: update.reason ?? update.denialReason ?? null,
    note: `Claim ${before.claimNumber} ${kind}${update.reason ? `: ${update.reason}` : ''}`.slice(0, 500),
    event: { type: eventType, data: { changed: changes.map((change) => change.field) } },
    writes: [...releasedExposures.map((exposure) => exposureReplace(exposure, whole.exposures.find((read) => read.exposureId === exposure.exposureId)!.version)), ...(released?.writes ?? [])],
    ...(released ? { money: released.money } : {}),
    contributions,
  });
  return claimToWire({ ...after, version: before.version + 1 });
}

// ------------------------------------------------------------------ exposures

export async function createExposure(principal: Principal, request: { claimId: string; coverage: string; claimantContactId?: string }, contributions: readonly ClaimMoveContribution[] = []) {
  const whole = await claimWithinReach(principal, request.claimId);
  const { claim } = whole;
  if (claim.status === 'closed') throw new ClaimRuleError(`claim_id: claim ${claim.claimNumber} is closed; reopen it first`);
  const wanted = request.coverage.trim().toLowerCase();
  const coverage = claim.coverage.coverages.find((candidate) => candidate.itemId.toLowerCase() === wanted || candidate.name.toLowerCase() === wanted);
  if (!coverage) {
    const carried = claim.coverage.coverages.map((candidate) => candidate.name).join(', ') || 'none';
    throw new ClaimRuleError(`coverage: ${request.coverage.slice(0, 60)} is not a coverage of the revision in force on the loss date ${claim.lossDate} (it carries: ${carried})`);
  }
  const rules = await getClaimsRules();
  const rule = rules.coverages.find((candidate) => candidate.item === coverage.name);
  const claimantContactId = request.claimantContactId ?? claim.insuredContactId;
  const people = claimantContactId && claimantContactId !== claim.insuredContactId ? await getContactSummaries([claimantContactId]) : undefined;
  if (people && !people.get(claimantContactId!)) throw new ClaimRuleError(`claimant_contact_id: ${claimantContactId!.slice(0, 60)} is not a contact`);
  const at = now();
  const exposure: ExposureRecord = {
    exposureId: randomUUID(),
    claimId: claim.claimId,
    coverageItemId: coverage.itemId,
    coverage: coverage.name,
    section: rule?.section ?? 'I',
    limitCents: coverage.limitCents,
    limitPer: rule?.limitPer ?? 'occurrence',
    deductibleApplies: rule?.deductible ?? false,
    claimantContactId,
    status: 'open',
    closeReason: null,
    history: [{ status: 'open', at, by: principal.contactId, reason: null }],
    totals: { loss: { reserveCents: 0, paidCents: 0, recoveredCents: 0, recoveryReserveCents: 0 }, expense: { reserveCents: 0, paidCents: 0, recoveredCents: 0, recoveryReserveCents: 0 } },
    createdAt: at,
    createdBy: principal.contactId,
    version: 1,
  };
  // The exposure opens with the product's default loss reserve for its coverage (Dwelling 5,000.00, ...).
  const reserveCents = defaultLossReserveCents(rules, coverage.name);
  const opening = reserveCents > 0 ? openingReserve(exposure, reserveCents, at, principal.contactId) : undefined;
  exposure.totals.loss.reserveCents = reserveCents;
  const newClaimant = claimantContactId && !whole.contacts.some((contact) => contact.contactId === claimantContactId && (contact.role === 'claimant' || contact.role === 'insured'));
  const contactWrites = newClaimant && people ? [claimContactPut({ claimId: claim.claimId, contactId: claimantContactId!, role: 'claimant', name: people.get(claimantContactId!)!.name, addedAt: at, addedBy: principal.contactId })] : [];
  const afterWhole = { ...whole, exposures: [...whole.exposures, exposure], claim: { ...claim, updatedAt: at, contactIds: [...new Set([...claim.contactIds, ...(claimantContactId ? [claimantContactId] : [])])] } };
  await commitClaimMove({
    kind: 'exposure_created',
    label: `Claim ${claim.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf(afterWhole),
    changes: [{ field: 'exposures', from: null, to: { id: exposure.exposureId, coverage: exposure.coverage } }],
    reason: null,
    writes: [...exposureCreate(exposure), ...contactWrites, ...(opening ? transactionWrites(opening.row) : [])],
    event: { type: 'claim.updated', data: { changed: ['exposures'], exposure_id: exposure.exposureId } },
    money: opening ? [opening.money] : [],
    contributions,
  });
  return exposureToWire(exposure);
}

export async function listExposures(principal: Principal, claimId: string) {
  const whole = await claimWithinReach(principal, claimId);
  return whole.exposures.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(exposureToWire);
}

/** The exposure and its claim whole, within reach. */
export async function exposureWithinReach(principal: Principal, exposureId: string): Promise<{ whole: ClaimWhole; exposure: ExposureRecord }> {
  const claimId = await claimIdOfExposure(exposureId);
  const whole = claimId ? await claimWithinReach(principal, claimId).catch(() => undefined) : undefined;
  const exposure = whole?.exposures.find((candidate) => candidate.exposureId === exposureId);
  if (!whole || !exposure) throw new ClaimNotFoundError(`Exposure ${exposureId.slice(0, 60)}`);
  return { whole, exposure };
}

export async function updateExposureStatus(principal: Principal, request: { exposureId: string; status: 'closed' | 'reopened'; closeReason?: CloseReason; reason?: string }, contributions: readonly ClaimMoveContribution[] = []) {
  const { whole, exposure } = await exposureWithinReach(principal, request.exposureId);
  const at = now();
  if (request.status === 'closed') {
    if (exposure.status === 'closed') throw new ClaimRuleError(`exposure_id: the ${exposure.coverage} exposure is already closed`);
    if (!request.closeReason) throw new ClaimRuleError('close_reason: closing an exposure needs with_pay or without_pay');
  } else {
    if (exposure.status !== 'closed') throw new ClaimRuleError(`status: only a closed exposure is reopened (the ${exposure.coverage} exposure is ${exposure.status})`);
    if (!request.reason) throw new ClaimRuleError('reason: reopening an exposure needs a reason');
    if (whole.claim.status === 'closed') throw new ClaimRuleError(`exposure_id: claim ${whole.claim.claimNumber} is closed; reopen the claim first`);
  }
  // Closing releases the exposure's outstanding reserves in the same transaction; reopening restores nothing.
  const released = request.status === 'closed' ? releaseOnClose(whole, [exposure.exposureId], at, principal.contactId, `released when the ${exposure.coverage} exposure closed`) : undefined;
  const changed: ExposureRecord = {
    ...(released?.exposures[0] ?? exposure),
    status: request.status,
    closeReason: request.status === 'closed' ? request.closeReason! : null,
    history: [...exposure.history, { status: request.status, at, by: principal.contactId, reason: request.reason ?? request.closeReason ?? null }],
  };
  const claimAfter = { ...whole.claim, updatedAt: at };
  await commitClaimMove({
    kind: request.status === 'closed' ? 'exposure_closed' : 'exposure_reopened',
    label: `Claim ${whole.claim.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf({ ...whole, claim: claimAfter }),
    changes: [{ field: `exposures.${exposure.exposureId}.status`, from: exposure.status, to: request.status }],
    reason: request.reason ?? request.closeReason ?? null,
    writes: [exposureReplace(changed, exposure.version), ...(released?.writes ?? [])],
    event: { type: 'claim.updated', data: { changed: ['exposures'], exposure_id: exposure.exposureId, exposure_status: request.status } },
    money: released?.money ?? [],
    contributions,
  });
  return exposureToWire({ ...changed, version: exposure.version + 1 });
}

// ------------------------------------------------------------------ people and dates

export async function getClaimContacts(principal: Principal, claimId: string) {
  const whole = await claimWithinReach(principal, claimId);
  return whole.contacts.map(contactToWire);
}

export async function addClaimContact(principal: Principal, request: { claimId: string; contactId: string; role: ClaimContactRole }) {
  const whole = await claimWithinReach(principal, request.claimId);
  if (!CLAIM_CONTACT_ROLES.includes(request.role)) throw new ClaimRuleError(`role: one of ${CLAIM_CONTACT_ROLES.join(', ')}`);
  if (whole.contacts.some((contact) => contact.contactId === request.contactId && contact.role === request.role)) throw new ClaimRuleError(`contact_id: ${request.contactId.slice(0, 60)} is already on the claim as ${request.role}`);
  const found = (await getContactSummaries([request.contactId])).get(request.contactId);
  if (!found) throw new ClaimRuleError(`contact_id: ${request.contactId.slice(0, 60)} is not a contact`);
  const at = now();
  const contact = { claimId: request.claimId, contactId: request.contactId, role: request.role, name: found.name, addedAt: at, addedBy: principal.contactId };
  const after = { ...whole, contacts: [...whole.contacts, contact], claim: { ...whole.claim, updatedAt: at, contactIds: request.role === 'claimant' ? [...new Set([...whole.claim.contactIds, request.contactId])] : whole.claim.contactIds } };
  await commitClaimMove({
    kind: 'contact_added',
    label: `Claim ${whole.claim.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf(after),
    changes: [{ field: 'contacts', from: null, to: { contact_id: request.contactId, role: request.role } }],
    reason: null,
    writes: [claimContactPut(contact)],
  });
  return after.contacts.map(contactToWire);
}

export async function removeClaimContact(principal: Principal, request: { claimId: string; contactId: string; role: ClaimContactRole }) {
  const whole = await claimWithinReach(principal, request.claimId);
  const contact = whole.contacts.find((candidate) => candidate.contactId === request.contactId && candidate.role === request.role);
  if (!contact) throw new ClaimRuleError(`contact_id: ${request.contactId.slice(0, 60)} is not on the claim as ${request.role}`);
  if (contact.role === 'insured') throw new ClaimRuleError('role: the insured stays on the claim');
  if (whole.exposures.some((exposure) => exposure.claimantContactId === contact.contactId) && contact.role === 'claimant') throw new ClaimRuleError(`contact_id: ${contact.name} is the claimant of an exposure`);
  const at = now();
  const after = { ...whole, contacts: whole.contacts.filter((candidate) => candidate !== contact), claim: { ...whole.claim, updatedAt: at } };
  await commitClaimMove({
    kind: 'contact_removed',
    label: `Claim ${whole.claim.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf(after),
    changes: [{ field: 'contacts', from: { contact_id: contact.contactId, role: contact.role }, to: null }],
    reason: null,
    writes: [claimContactRemove(contact)],
  });
  return after.contacts.map(contactToWire);
}

/** A dated event of the claim (proof of loss received, inspection, accepted): the state's clocks run from it and some are met by it. */
export async function createClaimDate(principal: Principal, request: { claimId: string; type: string; date: string }) {
  const whole = await claimWithinReach(principal, request.claimId);
  if (request.date > todayIso()) throw new ClaimRuleError(`claim_date: ${request.date} is in the future`);
  if (request.date < whole.claim.lossDate) throw new ClaimRuleError(`claim_date: ${request.date} is before the loss date ${whole.claim.lossDate}`);
  const rules = await getClaimsRules();
  const at = now();
  const claimDate = { claimId: request.claimId, claimDateId: randomUUID(), type: request.type, date: request.date, recordedAt: at, recordedBy: principal.contactId };
  const dates = [...whole.dates, claimDate];
  const reckoned = dueDatesOf(rules.clocks, whole.claim, dates);
  const claimAfter: ClaimRecord = { ...whole.claim, updatedAt: at, dueDates: meetDueDates(reckoned, request.type, request.date, at) };
  await commitClaimMove({
    kind: 'date_recorded',
    label: `Claim ${whole.claim.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf({ ...whole, claim: claimAfter }),
    changes: [{ field: `claim_dates.${request.type}`, from: null, to: request.date }, ...dueDateChanges(whole.claim.dueDates, claimAfter.dueDates)],
    reason: null,
    writes: [claimDatePut(claimDate)],
    event: { type: 'claim.updated', data: { changed: ['claim_dates'], claim_date_type: request.type, claim_date: request.date, ...metNow(whole.claim.dueDates, claimAfter.dueDates) } },
  });
  return { ...dateToWire(claimDate), due_dates: claimAfter.dueDates.map((due) => ({ clock: due.clockId, due_date: due.dueDate, status: due.status, met_by: due.metBy })) };
}

// ------------------------------------------------------------------ search

export interface ClaimSearch {
  claimNumber?: string;
  policyNumber?: string;
  insuredName?: string;
  status?: 'open' | 'closed';
  adjusterContactId?: string;
  peril?: string;
  catastropheId?: string;
  state?: string;
  lossDateFrom?: string;
  lossDateTo?: string;
  pageSize: number;
  cursor?: string;
}

/**
 * Claims by any of their fields, newest loss first, paged: the narrowest listing given is read
 * (number, policy, catastrophe, adjuster, name, peril, state, status; an agent's agencies when he
 * names none of these), the other fields filter it. Never a scan.
 */
export async function searchClaims(principal: Principal, search: ClaimSearch) {
  if (search.lossDateFrom && search.lossDateTo && search.lossDateTo < search.lossDateFrom) throw new ValidationError(['loss_date_to: must be on or after loss_date_from']);
  if (search.claimNumber) {
    const claimId = await claimIdOfNumber(search.claimNumber);
    const whole = claimId ? await getClaimWhole(claimId) : undefined;
    const found = whole && reaches(principal, whole.claim) ? [summaryOf(whole.claim)] : [];
    return { claims: found.map(summaryToWire), next_cursor: null };
  }
  const rules = search.peril ? await getClaimsRules() : undefined;
  const perilCode = rules && search.peril ? perilOf(rules, search.peril).code : undefined;
  let policyId: string | undefined;
  if (search.policyNumber) {
    policyId = await policyWithinReach(principal, { policyNumber: search.policyNumber }).then(({ policy }) => policy.id, () => undefined);
    if (!policyId) return { claims: [], next_cursor: null };
  }
  const nameWord = search.insuredName?.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 2).sort((a, b) => b.length - a.length)[0];
  const agencies = principal.scope === 'agency' ? principal.agencyIds : undefined;
  const dimension: [string, string] | undefined = policyId
    ? ['policy', policyId]
    : search.catastropheId
      ? ['catastrophe', search.catastropheId]
      : search.adjusterContactId
        ? ['adjuster', search.adjusterContactId]
        : nameWord
          ? ['name', nameWord]
          : agencies && agencies.length === 1
            ? ['agency', agencies[0]]
            : perilCode
              ? ['peril', perilCode]
              : search.state
                ? ['state', search.state.toUpperCase()]
                : search.status
                  ? ['status', search.status]
                  : ['all', 'claims'];
  const words = search.insuredName ? search.insuredName.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 2) : [];
  const keep = (summary: ReturnType<typeof summaryOf>) =>
    reaches(principal, summary) &&
    (!search.status || (search.status === 'open' ? summary.status !== 'closed' : summary.status === 'closed')) &&
    (!search.adjusterContactId || summary.adjusterContactId === search.adjusterContactId) &&
    (!perilCode || summary.perilCode === perilCode) &&
    (!search.catastropheId || summary.catastropheId === search.catastropheId) &&
    (!search.state || summary.state === search.state.toUpperCase()) &&
    (!policyId || summary.policyId === policyId) &&
    words.every((word) => summary.insuredName.toLowerCase().includes(word));
  const page = await listingPage(dimension[0], dimension[1], { from: search.lossDateFrom, to: search.lossDateTo }, keep, search.pageSize, search.cursor);
  return { claims: page.summaries.map(summaryToWire), next_cursor: page.next ?? null };
}

/** A policy's claims as retrieve_policy answers them (`britecore_claims`): every term's. */
export async function policyClaims(policyId: string) {
  return (await claimsOfPolicy(policyId)).map((summary) => ({ id: summary.claimId, claim_number: summary.claimNumber, loss_date: summary.lossDate, status: summary.status, peril: summary.perilCode, policy_term_id: summary.termId }));
}

/** The claims a contact is a claimant (or the insured) of, as its aspect data lists them: those within the caller's reach when one is given (an agent sees his agencies' claims only). */
export async function contactClaims(contactId: string, principal?: Principal) {
  const claims = (await claimsOfClaimant(contactId)).filter((summary) => !principal || reaches(principal, summary));
  return claims.map((summary) => ({ id: summary.claimId, claim_number: summary.claimNumber, policy_number: summary.policyNumber, loss_date: summary.lossDate, status: summary.status }));
}

/** A policy's claims, every term's, newest loss first, as a property's `loss_history` lists them (number, loss date, peril, status). */
export async function lossHistory(policyId: string) {
  return (await claimsOfPolicy(policyId)).map((summary) => ({ claim_number: summary.claimNumber, loss_date: summary.lossDate, peril: summary.perilCode, status: summary.status }));
}

// ------------------------------------------------------------------ perils and catastrophes

export async function allPerils() {
  const rules = await getClaimsRules();
  return rules.perils.map((peril) => ({ id: peril.code, code: peril.code, name: peril.name }));
}

export async function allCatastrophes() {
  return (await listCatastrophes()).sort((a, b) => b.from.localeCompare(a.from)).map(catastropheToWire);
}

export async function declareCatastrophe(principal: Principal, request: { title: string; pcsNumber?: string; states: string[]; counties: string[]; from: string; to: string; moratoriumId?: string }) {
  if (request.to < request.from) throw new ClaimRuleError(`to: ${request.to} is before from ${request.from}`);
  request.states.forEach((state, index) => {
    if (!/^[A-Za-z]{2}$/.test(state)) throw new ClaimRuleError(`states.${index}: ${state.slice(0, 40)} is not a two-letter state code`);
  });
  request.counties.forEach((county, index) => {
    if (!/^\d{5}$/.test(county)) throw new ClaimRuleError(`counties.${index}: ${county.slice(0, 40)} is not a 5-digit county FIPS code`);
  });
  if (request.moratoriumId) {
    // The moratorium declared for the same storm: named only if it exists (read as any caller may read one).
    const named = await retrieveMoratorium(principal, request.moratoriumId).catch(() => undefined);
    if (!named) throw new ClaimRuleError(`moratorium_id: ${request.moratoriumId.slice(0, 60)} is not a moratorium; list_moratoriums lists them`);
  }
  const states = [...new Set(request.states.map((state) => state.toUpperCase()))];
  const catastrophe: CatastropheRecord = {
    catastropheId: randomUUID(),
    title: request.title,
    pcsNumber: request.pcsNumber ?? null,
    states,
    counties: [...new Set(request.counties)],
    from: request.from,
    to: request.to,
    moratoriumId: request.moratoriumId ?? null,
    declaredBy: principal.contactId,
    declaredAt: now(),
    version: 1,
  };
  await runTransaction([catastropheCreate(catastrophe)], { label: `Catastrophe ${request.title.slice(0, 60)}` });
  return catastropheToWire(catastrophe);
}
