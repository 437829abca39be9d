/**
 * First notice of loss: a claim reported on a policy, checked against the revision in force on the
 * loss date, numbered, listed, its state's clocks started, its acknowledgement asked for, in one
 * transaction (the number too: a refused report takes none).
 */
import { randomUUID } from 'node:crypto';
import { getClaimsRules, type ClaimsRules } from '../catalog/index.js';
import { getContactSummaries } from '../contacts/index.js';
import { clock } from '../platform/clock.js';
import { begun } from '../platform/concurrency.js';
import { todayIso } from '../platform/dates.js';
import type { Principal } from '../platform/principal.js';
import { RecordChangedError } from '../platform/transactions.js';
import { firstRevisionIdOf, loadRevision, namedInsuredNamesFor, policyWithinReachWith, revisionHeaders, type RevisionSnapshot } from '../policies/index.js';
import { addressOf, coverOnLossDate, propertyOfLoss, type RevisionReads } from './coverage.js';
import { ClaimRuleError, type ClaimContactRecord, type ClaimNumberCounter, type ClaimRecord, type LossAddress, type Reporter } from './model.js';
import { commitClaimMove, type ClaimMoveContribution } from './moves.js';
import { catastropheOf, claimNumberOf, dueDatesOf, isPossibleDuplicate, numberYear } from './rules.js';
import { claimContactPut, claimIdOfNumber, claimNumberTaken, claimsOfPolicy, getCatastrophe, getNumberCounter, listCatastrophes, numberCounterWrite } from './store.js';

export interface ClaimReport {
  policyNumber: string;
  lossDate: string;
  lossTime?: string;
  timeZone?: string;
  reportedDate?: string;
  peril: string;
  description: string;
  lossAddress?: Partial<Omit<LossAddress, 'county' | 'countyCode'>>;
  propertyId?: string;
  reportedBy: Reporter;
  catastropheId?: string;
  claimNumber?: string;
  claimNumberOrigin?: string;
  confirmNew?: boolean;
}

/** The cover's revision reads, with a revision already read served from hand (its header and parts not read again). */
function withRevisionAtHand(atHand: RevisionSnapshot | undefined): RevisionReads {
  const held = (id: string) => (atHand?.header.id === id ? atHand : undefined);
  return {
    revision: async (id) => held(id) ?? (await loadRevision(id)),
    headers: async (ids) => [...(ids.some(held) ? [atHand!.header] : []), ...(await revisionHeaders(ids.filter((id) => !held(id))))],
  };
}

/** A peril by its code or id (the same in the reference product), or by its name. */
export function perilOf(rules: Pick<ClaimsRules, 'perils'>, given: string): { code: string; name: string } {
  const wanted = given.trim().toUpperCase();
  const peril = rules.perils.find((candidate) => candidate.code === wanted || candidate.name.toUpperCase() === wanted);
  if (!peril) throw new ClaimRuleError(`peril: ${given.slice(0, 40)} is not a peril of the product; get_all_perils lists them (${rules.perils.map((candidate) => candidate.code).join(', ')})`);
  return peril;
}

const NUMBER_ATTEMPTS = 8;


export async function reportClaim(principal: Principal, report: ClaimReport, contributions: readonly ClaimMoveContribution[] = []): Promise<{ id: string; claim_number: string }> {
  const now = clock.now();
  const today = todayIso(now);
  const reportedDate = report.reportedDate ?? today;
  if (report.lossDate > today) throw new ClaimRuleError(`loss_date: ${report.lossDate} is in the future`);
  if (reportedDate > today) throw new ClaimRuleError(`reported_date: ${reportedDate} is in the future`);
  if (report.lossDate > reportedDate) throw new ClaimRuleError(`loss_date: ${report.lossDate} is after the reported date ${reportedDate}`);
  if (report.claimNumberOrigin && !report.claimNumber) throw new ClaimRuleError('claim_number_origin: is given without the claim_number it says whose');

  // Each read is begun as soon as what it needs is known, so the report costs as few sequential
  // round trips as its reads allow (issue 47): the rules, the catastrophes, a catastrophe or claim
  // number given and the year's number counter beside the policy number's lookup; the policy's
  // first revision (its id follows from the policy's: the revision at loss of a policy never
  // endorsed, or endorsed through its term's index) and its earlier claims beside the policy; the
  // insured's names and the mortgagees' beside what is left of the revision at loss, if anything.
  const rulesRead = getClaimsRules();
  const catastrophesRead = begun(report.catastropheId ? Promise.resolve([]) : listCatastrophes());
  const givenCatastrophe = report.catastropheId ? begun(getCatastrophe(report.catastropheId)) : undefined;
  const givenNumberHolder = report.claimNumber ? begun(claimIdOfNumber(report.claimNumber)) : undefined;
  // The year's counter is begun with the policy's reads, not as soon as the rules are in: a read
  // that starts meanwhile would make the policy's wait for it (the round-trip meter counts it so).
  let firstCounterRead: Promise<ClaimNumberCounter> | undefined;
  const [rules, { policy, terms, beside }] = await Promise.all([
    rulesRead,
    policyWithinReachWith(principal, { policyNumber: report.policyNumber }, (policyId) => {
      if (!report.claimNumber) firstCounterRead = begun(rulesRead.then((known) => getNumberCounter(numberYear(known, reportedDate))));
      return Promise.all([loadRevision(firstRevisionIdOf(policyId)), claimsOfPolicy(policyId)]);
    }),
  ]);
  const [firstRevision, earlier] = beside;
  const peril = perilOf(rules, report.peril);
  const insuredContactId = policy.contacts.namedInsuredIds[0] ?? null;
  const insuredRead = begun(Promise.all([namedInsuredNamesFor(policy.contacts.namedInsuredIds), getContactSummaries(insuredContactId ? [insuredContactId] : [])]));
  const [cover, catastrophes] = await Promise.all([coverOnLossDate(policy, terms, report.lossDate, rules, withRevisionAtHand(firstRevision)), catastrophesRead]);
  const duplicates = earlier.filter((claim) => isPossibleDuplicate(claim, { lossDate: report.lossDate, perilCode: peril.code }, rules.duplicateWindowDays));
  if (duplicates.length > 0 && !report.confirmNew) {
    const first = duplicates[0];
    throw new ClaimRuleError(`A claim of policy ${policy.policyNumber} for ${peril.name} with a loss date near ${report.lossDate} exists: ${first.claimNumber} (loss date ${first.lossDate}). Send confirm_new: true to report a new claim`, {
      possible_duplicate_of: duplicates.map((claim) => ({ id: claim.claimId, claim_number: claim.claimNumber, loss_date: claim.lossDate, status: claim.status })),
    });
  }
  const property = propertyOfLoss(cover.snapshot, report.propertyId);
  const propertyAddress = addressOf(property);
  const lossAddress: LossAddress = { ...propertyAddress, ...Object.fromEntries(Object.entries(report.lossAddress ?? {}).filter(([, value]) => value !== undefined && value !== '')) };
  const state = (lossAddress.state || propertyAddress.state).toUpperCase();
  let catastropheId: string | null = null;
  if (givenCatastrophe) {
    const given = await givenCatastrophe;
    if (!given) throw new ClaimRuleError(`cat_id: ${report.catastropheId!.slice(0, 60)} is not a catastrophe; get_all_catastrophes lists them`);
    catastropheId = given.catastropheId;
  } else {
    catastropheId = catastropheOf(catastrophes, { lossDate: report.lossDate, state, countyCode: lossAddress.countyCode })?.catastropheId ?? null;
  }

  const mortgageeIds = [...new Set((cover.snapshot?.mortgagees ?? []).filter((mortgagee) => !property || mortgagee.riskId === property.id).map((mortgagee) => mortgagee.contactId))];
  const [[insuredNames, insuredPeople], mortgageePeople] = await Promise.all([insuredRead, mortgageeIds.length ? getContactSummaries(mortgageeIds) : Promise.resolve(new Map())]);
  const people = new Map([...insuredPeople, ...mortgageePeople]);
  const at = now.toISOString();
  const claimId = randomUUID();
  const contactIds = [...new Set([...policy.contactIds])];
  const claimBase: Omit<ClaimRecord, 'claimNumber' | 'claimNumberOrigin'> = {
    claimId,
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    agencyId: policy.agencyId,
    contactIds,
    insuredContactId,
    insuredName: insuredNames.join(' & '),
    lineId: policy.lineId,
    policyTypeId: policy.policyTypeId,
    state,
    lossDate: report.lossDate,
    lossTime: report.lossTime ?? null,
    timeZone: report.timeZone ?? null,
    reportedDate,
    perilCode: peril.code,
    description: report.description,
    propertyId: property?.lineageId ?? property?.id ?? null,
    lossAddress,
    reportedBy: report.reportedBy,
    catastropheId,
    adjusterContactId: null,
    coverage: cover.coverage,
    status: 'open',
    statusHistory: [{ status: 'open', at, by: principal.contactId, reason: null }],
    denial: null,
    dueDates: [],
    confirmedNewAgainst: duplicates.map((claim) => claim.claimId),
    createdAt: at,
    createdBy: principal.contactId,
    updatedAt: at,
    version: 1,
  };
  claimBase.dueDates = dueDatesOf(rules.clocks, { ...claimBase, dueDates: [] }, []);
  const contacts: ClaimContactRecord[] = [
    ...(insuredContactId ? [{ claimId, contactId: insuredContactId, role: 'insured' as const, name: people.get(insuredContactId)?.name ?? claimBase.insuredName, addedAt: at, addedBy: principal.contactId }] : []),
    ...mortgageeIds.map((contactId) => ({ claimId, contactId, role: 'mortgagee' as const, name: people.get(contactId)?.name ?? '', addedAt: at, addedBy: principal.contactId })),
  ];

  for (let attempt = 0; ; attempt += 1) {
    let claimNumber: string;
    const numberWrites = [];
    if (report.claimNumber) {
      if (await (attempt === 0 && givenNumberHolder ? givenNumberHolder : claimIdOfNumber(report.claimNumber))) throw new ClaimRuleError(`claim_number: ${report.claimNumber.slice(0, 60)} is the number of another claim`);
      claimNumber = report.claimNumber;
    } else {
      // The counter read beside the revision serves the first attempt; another report having taken its number, read it again.
      const counter = attempt === 0 && firstCounterRead ? await firstCounterRead : await getNumberCounter(numberYear(rules, reportedDate));
      claimNumber = claimNumberOf(rules.claimNumber.prefix, reportedDate.slice(0, 4), counter.last + 1);
      numberWrites.push(numberCounterWrite(counter));
    }
    numberWrites.push(claimNumberTaken(claimNumber, claimId));
    const claim: ClaimRecord = { ...claimBase, claimNumber, claimNumberOrigin: report.claimNumber ? (report.claimNumberOrigin ?? 'external') : 'carrier' };
    const move = {
      kind: 'reported',
      label: `Claim ${claimNumber}`,
      at,
      by: principal.contactId,
      before: undefined,
      after: { claim, claimantIds: insuredContactId ? [insuredContactId] : [] },
      changes: [],
      reason: null,
      writes: [...numberWrites, ...contacts.map(claimContactPut)],
      note: `Claim ${claimNumber} reported: ${peril.name}, loss date ${report.lossDate}${claim.coverage.status === 'none_in_force' ? ` (no coverage in force: ${claim.coverage.reason})` : ''}`,
      event: { type: 'claim.reported' as const, data: { loss_date: claim.lossDate, peril: claim.perilCode, coverage: claim.coverage.status } },
      contributions,
    };
    try {
      await commitClaimMove(move);
      return { id: claimId, claim_number: claimNumber };
    } catch (error) {
      // Another report took the number read: draw again (the refused transaction wrote nothing).
      if (error instanceof RecordChangedError && !report.claimNumber && attempt + 1 < NUMBER_ATTEMPTS) continue;
      if (error instanceof RecordChangedError && report.claimNumber) throw new ClaimRuleError(`claim_number: ${report.claimNumber.slice(0, 60)} is the number of another claim`);
      throw error;
    }
  }
}

