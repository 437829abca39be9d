/**
 * The endorse move: a mid-term change of an issued policy. `openEndorsement` (new_revision)
 * copies the revision in force on a date into an open revision that every structure
 * operation edits; `previewEndorsement` says what issuing it would do and writes nothing;
 * `issueEndorsement` commits it in ONE transaction with what other areas contribute (billing's
 * Endorsement row, documents' Endorsement Declaration), a note and the search record. Dated
 * before later committed revisions, it is slipped under them: each later one takes on the
 * change unless it set the same field itself, which is a conflict the caller resolves.
 */
import { randomUUID } from 'node:crypto';
import { clock } from '../platform/clock.js';
import { getProductCatalog, type ProductCatalog } from '../catalog/index.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, ConcurrentChangeError, NotFoundError } from '../platform/errors.js';
import { formatCents, toAmount, type Cents } from '../platform/money.js';
import { moratoriumPreview, refuseUnderMoratoriums } from '../moratoriums/index.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import {
  applyRating,
  committedAtOf,
  createOpenRevision,
  discardOpenRevision,
  endorsementCopy,
  type CommittedVersion,
  type CoverageItem,
  type FieldChange,
  type FieldValue,
  type ItemAnnual,
  type OosConflict,
  type Resolution,
  applyFieldChanges,
  changesToReapply,
  conflictsOf,
  fieldChanges,
  inEffectOrder,
  inForceOn,
  revisionPeriods,
  isWithinTerm,
  termPremium,
  totalOf,
  writtenByItemFrom,
  premiumChangeLayers,
  lineItemToWire,
  loadRevision,
  placeItem,
  policyWithinReach,
  revisionHeaders as getRevisionHeaders,
  revisionToRate,
  revisionWithinReach,
  termRevisionFacts,
  totalsOfItems,
  type LineItemRecord,
  type PolicyRecord,
  type RevisionRecord,
  type RevisionRewrite,
  type RevisionSnapshot,
  type TermRecord,
  type TermRevisionFacts,
} from '../policies/index.js';
import { rateRevision } from '../rating/index.js';
import { COMMITTING, joinMove, previewsOf, readsAhead, writesOf, type AreaPart, type Contribution, type ReadsAhead } from './joining.js';
import type { EndorsedChange, EndorsedRevision, RenewalRewrite, TermAhead } from './model.js';
import { carryIntoRenewal, type RenewalCarry } from './renewal-carry.js';

/**
 * What the endorse move asks of the areas: their parts in the endorsement (billing's Endorsement
 * row, the Endorsement Declaration, search, the note, the event), each answering its preview
 * too. The same list joins a change carried into the term's renewal (renewal-carry.ts), unless
 * the move names another for it.
 */
export interface EndorseWiring {
  endorse: readonly Contribution<EndorsedRevision>[];
  /** The parts of the change carried into a committed renewal, when they are not the endorsement's own (a reversal marks the endorsement it reverses once, not again for the renewal). */
  carriedIntoRenewal?: readonly Contribution<EndorsedRevision>[];
  /** The policies area's rewrite of the term's renewal revision the change is carried into (committed or held alike). */
  renewalRewrite: readonly Contribution<RenewalRewrite>[];
  /** What the parts read of the term (billing's account, the books' earning, the commission terms), begun beside the move's read of the revisions around the endorsement's date. */
  readAhead?: readonly ((term: TermAhead, reads: ReadsAhead) => void)[];
}

// ---------------------------------------------------------------- what every endorsement checks

/** A policy that cannot be endorsed now (not issued, cancelled, expired). */
export class PolicyNotEndorsableError extends BusinessRuleError {}

/** Issuing met fields a later (or concurrently issued) revision set itself: nothing was committed. */
export class OutOfSequenceConflictError extends BusinessRuleError {
  constructor(revisionId: string, conflicts: readonly OosConflict[]) {
    super(
      conflicts.map((conflict) => `${conflict.label}: revision ${conflict.revisionId} set ${shown(conflict.field, conflict.laterValue)}, this endorsement ${shown(conflict.field, conflict.newValue)}; resolve with resolve_oos_conflicts (keep_later or take_new)`),
      { revision_id: revisionId, conflicts: conflicts.map(conflictToWire) },
    );
    this.name = 'OutOfSequenceConflictError';
  }
}

function shown(field: string, value: FieldValue): string {
  if (field.endsWith('.present')) return value ? 'included' : 'removed';
  if (value === null) return 'none';
  return typeof value === 'number' ? grouped(value) : String(value);
}

/** An amount as printed on a declaration: 250,000.00. */
function grouped(cents: Cents): string {
  const [whole, fraction] = formatCents(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

const conflictToWire = (conflict: OosConflict) => ({
  field: conflict.field,
  label: conflict.label,
  revision_id: conflict.revisionId,
  later_value: typeof conflict.laterValue === 'number' && !conflict.field.endsWith('.present') ? toAmount(conflict.laterValue) : conflict.laterValue,
  new_value: typeof conflict.newValue === 'number' && !conflict.field.endsWith('.present') ? toAmount(conflict.newValue) : conflict.newValue,
});

const live = (items: readonly LineItemRecord[]) => items.filter((item) => item.persistStatus !== 'rejected');

function assertEndorsable(policy: PolicyRecord, term: TermRecord, headers: readonly TermRevisionFacts[]): TermRevisionFacts[] {
  const committed = headers.filter((header) => header.revisionState === 'committed');
  if (committed.length === 0) throw new PolicyNotEndorsableError(`Policy ${policy.policyNumber} has not been issued; only an issued policy can be endorsed`);
  const cancelled = (term as TermRecord & { cancellationStatus?: string }).cancellationStatus === 'cancelled' || committed.some((header) => header.policyStatus === 'Cancelled');
  if (cancelled) throw new PolicyNotEndorsableError(`Policy ${policy.policyNumber} is cancelled; reinstate it before endorsing it`);
  if (committed.some((header) => header.policyStatus === 'Expired')) throw new PolicyNotEndorsableError(`Policy ${policy.policyNumber} is expired; it can no longer be endorsed`);
  return committed;
}

function outsideTerm(field: string, date: string, term: Pick<TermRecord, 'effectiveDate' | 'expirationDate'>): BusinessRuleError {
  return new BusinessRuleError(`${field}: ${date} is outside the policy's term ${term.effectiveDate} to ${term.expirationDate}`);
}

function itemAnnuals(items: readonly LineItemRecord[], product: ProductCatalog): ItemAnnual[] {
  return live(items).map((item) => {
    const definition = product.items.find((candidate) => candidate.id === item.itemId);
    return { id: item.id, name: item.name, premiumCents: item.annualPremiumCents ?? 0, feeCents: item.annualFeeCents ?? 0, feeProRata: definition?.earning === 'proRata' };
  });
}

const coverage = (items: readonly LineItemRecord[]): CoverageItem[] => live(items);

function ratedItems(product: ProductCatalog, snapshot: RevisionSnapshot, items: LineItemRecord[]): LineItemRecord[] {
  const revision = { ...snapshot, items };
  return applyRating(revision, rateRevision(product, revisionToRate(revision))).items;
}

// ---------------------------------------------------------------- new_revision

export interface OpenRequest {
  policyId: string;
  revisionDate: string;
  /** Refuse while another open revision of the term exists. */
  checkForPolicyChanges: boolean;
}

export async function openEndorsement(principal: Principal, request: OpenRequest, now = clock.now()): Promise<{ revision_id: string }> {
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const active = terms.find((term) => term.id === policy.activeTermId) ?? terms.at(-1);
  // A term rewritten under the same number is cancelled Rewritten and its new term covers the same days: the term in force (the policy's active one) takes the change.
  const covering = terms.filter((candidate) => isWithinTerm(candidate, request.revisionDate));
  const term = covering.find((candidate) => candidate.id === policy.activeTermId) ?? covering[0];
  if (!term) {
    if (!active) throw new PolicyNotEndorsableError(`Policy ${policy.policyNumber} has no term`);
    throw outsideTerm('revision_date', request.revisionDate, active);
  }
  const headers = await termRevisionFacts(term);
  const committed = assertEndorsable(policy, term, headers);
  if (request.checkForPolicyChanges) {
    const open = headers.find((header) => header.revisionState === 'open');
    if (open) throw new BusinessRuleError(`Policy ${policy.policyNumber} has an open revision ${open.id} dated ${open.revisionDate}; issue or discard it first`);
  }
  const inForce = inForceOn(committed.map((header) => ({ header, revisionDate: header.revisionDate, committedAt: header.committedAt })), request.revisionDate)
    ?? { header: committed[0] };
  const base = await loadRevision(inForce.header.id);
  if (!base) throw new NotFoundError(`Revision ${inForce.header.id}`);
  const copy = endorsementCopy(base, { revisionId: randomUUID(), revisionDate: request.revisionDate, today: todayIso(now), newId: randomUUID });
  await createOpenRevision(copy, term);
  return { revision_id: copy.header.id };
}

// ---------------------------------------------------------------- planning an issue (shared by preview and issue)

export type Resolutions = ReadonlyMap<string, Resolution>;

interface EndorsementPlan {
  policy: PolicyRecord;
  term: TermRecord;
  stored: RevisionSnapshot;
  inForce: RevisionSnapshot;
  endorsed: EndorsedRevision;
  endorsement: RevisionRewrite;
  reapplied: RevisionRewrite[];
  activeRevisionId: string;
  conflicts: OosConflict[];
  before: { annualPremiumCents: Cents; writtenPremiumCents: Cents };
  product: ProductCatalog;
  /** The term's last revision in effect before the endorsement and after it: what a renewal made of the term copied, and would copy now. */
  expiryBefore: RevisionSnapshot;
  expiryAfter: RevisionSnapshot;
}

function describeChanges(changes: readonly FieldChange[]): EndorsedChange[] {
  return changes.map((change) => ({ label: change.label, before: shown(change.key, change.before), after: shown(change.key, change.after) }));
}

/**
 * Step 1: the open endorsement, rated, of an endorsable policy, dated within its term; the term's
 * committed revisions. The policy the request names is read beside the endorsement (checked to be
 * the endorsement's after), and the revisions step 2 cannot do without (the one it was opened on,
 * and the policy's active one: in force on its date or later) beside the term's revision facts,
 * so that a read waits for another only where it needs what that one answers.
 */
type NamedPolicyRead = ReturnType<typeof policyWithinReach>;

async function openEndorsementOf(principal: Principal, request: { revisionId: string; policyId?: string; stored?: RevisionSnapshot; named?: NamedPolicyRead }, readAhead: EndorseWiring['readAhead'] = []) {
  const named = request.named ?? (request.policyId ? policyWithinReach(principal, { policyId: request.policyId }) : undefined);
  // Judged after the endorsement's own checks, as when it was read after them.
  named?.catch(() => undefined);
  const stored = request.stored?.header.id === request.revisionId ? request.stored : await revisionWithinReach(principal, request.revisionId);
  const { header } = stored;
  if (request.policyId && request.policyId !== header.policyId) throw new NotFoundError(`Revision ${request.revisionId}`);
  if (!header.endorsement) throw new BusinessRuleError(`Revision ${header.id} is not an endorsement; new_revision opens one on an issued policy`);
  if (header.revisionState !== 'open') throw new BusinessRuleError(`Revision ${header.id} is ${header.revisionState}; only an open endorsement can be issued`);
  const unrated = live(stored.items).some((item) => item.annualPremiumCents === null && item.annualFeeCents === null && item.type !== 'nonRate');
  if (unrated || (header.annualPremiumCents === 0 && header.annualFeeCents === 0)) throw new BusinessRuleError(`Revision ${header.id} is not rated; rate it (rate_revision) before issuing`);
  const { policy, terms } = await (named ?? policyWithinReach(principal, { policyId: header.policyId }));
  const term = terms.find((candidate) => candidate.id === header.policyTermId);
  if (!term) throw new NotFoundError(`Policy term ${header.policyTermId}`);
  if (!isWithinTerm(term, header.revisionDate)) throw outsideTerm('revision_date', header.revisionDate, term);
  const preloaded = new Map<string, Promise<RevisionSnapshot | undefined>>();
  for (const id of [header.endorsement.baseRevisionId, term.id === policy.activeTermId ? policy.activeRevisionId : undefined]) {
    if (!id || preloaded.has(id)) continue;
    const read = loadRevision(id);
    read.catch(() => undefined);
    preloaded.set(id, read);
  }
  // What the parts read of the term, beside the revisions: the parts are asked once the plan is made of them.
  const reads = readsAhead();
  for (const begin of readAhead) begin({ policyId: policy.id, termId: term.id, ...(policy.agencyId ? { agencyId: policy.agencyId } : {}) }, reads);
  const committed = assertEndorsable(policy, term, await termRevisionFacts(term));
  return { stored, header: header as RevisionRecord & { endorsement: NonNullable<RevisionRecord['endorsement']> }, policy, term, committed, preloaded, reads };
}

/**
 * Step 2: the revisions around the endorsement's date, read: the one in force on it, those
 * after it, and the one it was opened on. Only these are read: what came before is in the
 * revision in force's stored written premium. Those step 1 began reading are taken from it.
 */
async function revisionsAround(header: RevisionRecord & { endorsement: { baseRevisionId: string } }, committed: readonly TermRevisionFacts[], preloaded: ReadonlyMap<string, Promise<RevisionSnapshot | undefined>> = new Map()) {
  const chain = inEffectOrder(committed.map((candidate) => ({ id: candidate.id, revisionDate: candidate.revisionDate, committedAt: candidate.committedAt })));
  const date = header.revisionDate;
  const inForceId = chain.filter((link) => link.revisionDate <= date).at(-1)?.id ?? chain[0].id;
  const laterIds = chain.filter((link) => link.revisionDate > date).map((link) => link.id);
  const needed = [...new Set([inForceId, ...laterIds, header.endorsement.baseRevisionId])];
  const [product, ...loaded] = await Promise.all([getProductCatalog(), ...needed.map((id) => preloaded.get(id) ?? loadRevision(id))]);
  const snapshots = new Map(loaded.filter((snapshot): snapshot is RevisionSnapshot => !!snapshot).map((snapshot) => [snapshot.header.id, snapshot]));
  const inForce = snapshots.get(inForceId);
  if (!inForce) throw new NotFoundError(`Revision ${inForceId}`);
  return { product, inForce, later: laterIds.map((id) => snapshots.get(id)!), base: snapshots.get(header.endorsement.baseRevisionId) };
}

/**
 * Step 3: another endorsement may have landed on this date's revision since this one was opened:
 * this one goes on top of it (its own changes win unless the caller resolved a conflict keep_later).
 */
function onTopOfLanded(product: ProductCatalog, stored: RevisionSnapshot, inForce: RevisionSnapshot, base: RevisionSnapshot | undefined, resolutions: Resolutions, conflicts: OosConflict[]): LineItemRecord[] {
  if (!base || inForce.header.id === base.header.id) return stored.items;
  const own = fieldChanges(coverage(base.items), coverage(stored.items));
  const landed = fieldChanges(coverage(base.items), coverage(inForce.items));
  conflicts.push(...conflictsOf(own, { revisionId: inForce.header.id, ownChanges: landed }));
  const ownByKey = new Map(own.map((change) => [change.key, change]));
  const toApply = landed.filter((change) => !ownByKey.has(change.key) || (ownByKey.get(change.key)!.after !== change.after && resolutions.get(change.key) === 'keep_later'));
  const fromInForce = (id: string) => {
    const item = inForce.items.find((candidate) => candidate.id === id);
    return item && placeItem(item, inForce, stored);
  };
  return ratedItems(product, stored, applyFieldChanges(stored.items, toApply, fromInForce));
}

/** Step 4, out of sequence: every later revision takes on the change unless it set the field itself (a conflict, unless resolved). */
function reappliedToLater(product: ProductCatalog, inForce: RevisionSnapshot, later: readonly RevisionSnapshot[], endorsed: RevisionSnapshot, newChanges: readonly FieldChange[], resolutions: Resolutions, conflicts: OosConflict[]) {
  let previous = inForce;
  return later.map((laterSnapshot) => {
    const own = fieldChanges(coverage(previous.items), coverage(laterSnapshot.items));
    previous = laterSnapshot;
    conflicts.push(...conflictsOf(newChanges, { revisionId: laterSnapshot.header.id, ownChanges: own }));
    const fromEndorsement = (id: string) => {
      const item = endorsed.items.find((candidate) => candidate.id === id);
      return item && placeItem(item, endorsed, laterSnapshot);
    };
    const reapplied = applyFieldChanges(laterSnapshot.items, changesToReapply(newChanges, { ownChanges: own }, resolutions), fromEndorsement);
    return { snapshot: laterSnapshot, items: ratedItems(product, laterSnapshot, reapplied) };
  });
}

type LaterRewrite = ReturnType<typeof reappliedToLater>[number];

/** Step 5: the term's premium before and after, day by day over its committed revisions, and each revision's stored figures after. */
function termFigures(product: ProductCatalog, term: TermRecord, inForce: RevisionSnapshot, later: readonly RevisionSnapshot[], endorsed: RevisionSnapshot, rewrittenLater: readonly LaterRewrite[], committedAt: string) {
  const version = (snapshot: RevisionSnapshot, versionItems: readonly LineItemRecord[], at = committedAtOf(snapshot.header)): CommittedVersion => ({
    id: snapshot.header.id, revisionDate: snapshot.header.revisionDate, committedAt: at, items: itemAnnuals(versionItems, product),
  });
  const start = new Map(live(inForce.items).map((item) => [item.id, { premiumCents: item.writtenPremiumCents ?? item.annualPremiumCents ?? 0, feeCents: item.writtenFeeCents ?? item.annualFeeCents ?? 0 }]));
  const beforeVersions = [version(inForce, inForce.items), ...later.map((snapshot) => version(snapshot, snapshot.items))];
  const afterVersions = inEffectOrder([
    version(inForce, inForce.items),
    version(endorsed, endorsed.items, committedAt),
    ...rewrittenLater.map((rewrite) => version(rewrite.snapshot, rewrite.items)),
  ]);
  const writtenBefore = writtenByItemFrom(term, start, beforeVersions);
  const writtenAfter = writtenByItemFrom(term, start, afterVersions);

  /** A revision's stored figures: annual from its own items, written over the chain up to it. */
  const withWritten = (snapshot: RevisionSnapshot, revisionItems: LineItemRecord[]) => {
    const upTo = afterVersions.slice(0, afterVersions.findIndex((candidate) => candidate.id === snapshot.header.id) + 1);
    const written = writtenByItemFrom(term, start, upTo);
    const figured = revisionItems.map((item) => {
      const figures = written.get(item.id);
      return figures ? { ...item, writtenPremiumCents: figures.premiumCents, writtenFeeCents: item.annualFeeCents === null && figures.feeCents === 0 ? item.writtenFeeCents : figures.feeCents } : item;
    });
    const totals = totalsOfItems(live(figured));
    const chainTotals = totalOf(written);
    return { items: figured, set: { annualPremiumCents: totals.annualPremiumCents, annualFeeCents: totals.annualFeeCents, writtenPremiumCents: chainTotals.writtenPremiumCents, writtenFeeCents: chainTotals.writtenFeeCents } };
  };
  return { afterVersions, writtenBefore, writtenAfter, termBefore: totalOf(writtenBefore), termAfter: totalOf(writtenAfter), changeLayers: premiumChangeLayers(term, beforeVersions, afterVersions), withWritten };
}

/** Step 6: each item's premium change, as an endorsement bills and prints it: annual before and after, written over the term. */
function itemChanges(product: ProductCatalog, inForce: RevisionSnapshot, items: readonly LineItemRecord[], figures: Pick<ReturnType<typeof termFigures>, 'writtenBefore' | 'writtenAfter'>): EndorsedRevision['items'] {
  const annualBefore = new Map(itemAnnuals(inForce.items, product).map((item) => [item.id, item]));
  const annualAfter = new Map(itemAnnuals(items, product).map((item) => [item.id, item]));
  const itemIds = [...new Set([...annualBefore.keys(), ...annualAfter.keys()])];
  return itemIds.map((id) => ({
    id,
    name: (annualAfter.get(id) ?? annualBefore.get(id))!.name,
    oldAnnualPremiumCents: annualBefore.get(id)?.premiumCents ?? 0,
    newAnnualPremiumCents: annualAfter.get(id)?.premiumCents ?? 0,
    additionalPremiumCents: (figures.writtenAfter.get(id)?.premiumCents ?? 0) - (figures.writtenBefore.get(id)?.premiumCents ?? 0),
  }));
}

/**
 * What issuing the endorsement would do (preview and issue alike), in named steps: the open
 * endorsement checked (1), the revisions around its date read (2), put on top of one that landed
 * since it was opened (3), re-applied under the later ones (4), the term's figures before and
 * after (5), its rewrite and theirs, and the facts its contributions start from (6).
 */
async function planEndorsement(principal: Principal, request: { revisionId: string; policyId?: string; resolutions?: Resolutions; stored?: RevisionSnapshot; named?: NamedPolicyRead }, now: Date, readAhead?: EndorseWiring['readAhead']): Promise<EndorsementPlan> {
  const { stored, header, policy, term, committed, preloaded, reads } = await openEndorsementOf(principal, request, readAhead);
  const { product, inForce, later, base } = await revisionsAround(header, committed, preloaded);
  const resolutions = request.resolutions ?? new Map<string, Resolution>();
  const conflicts: OosConflict[] = [];
  const items = onTopOfLanded(product, stored, inForce, base, resolutions, conflicts);
  const endorsedSnapshot: RevisionSnapshot = { ...stored, items };
  const newChanges = fieldChanges(coverage(inForce.items), coverage(items));
  const rewrittenLater = reappliedToLater(product, inForce, later, endorsedSnapshot, newChanges, resolutions, conflicts);
  const committedAt = now.toISOString();
  const figures = termFigures(product, term, inForce, later, endorsedSnapshot, rewrittenLater, committedAt);
  const premiumChangeCents = figures.termAfter.writtenPremiumCents - figures.termBefore.writtenPremiumCents;
  const feeChangeCents = figures.termAfter.writtenFeeCents - figures.termBefore.writtenFeeCents;
  const endorsedFigures = figures.withWritten(endorsedSnapshot, items);
  const endorsement: RevisionRewrite = {
    header,
    storedItems: stored.items,
    items: endorsedFigures.items,
    set: {
      ...endorsedFigures.set,
      revisionState: 'committed',
      policyStatus: inForce.header.policyStatus,
      commitDate: todayIso(now),
      committed: { at: committedAt, by: principal.contactId },
      builderPending: false,
      endorsement: { ...header.endorsement, committedAt, premiumChangeCents, feeChangeCents, reappliedRevisionIds: later.map((snapshot) => snapshot.header.id) },
    },
  };
  const reapplied: RevisionRewrite[] = rewrittenLater.map((rewrite) => {
    const rewritten = figures.withWritten(rewrite.snapshot, rewrite.items);
    const facts = rewrite.snapshot.header.endorsement ?? { baseRevisionId: inForce.header.id };
    return {
      header: rewrite.snapshot.header,
      storedItems: rewrite.snapshot.items,
      items: rewritten.items,
      set: { ...rewritten.set, endorsement: { ...facts, reappliedUnder: [...(facts.reappliedUnder ?? []), header.id] } },
    };
  });
  // An endorsement of a renewal term not yet in force leaves the policy's active revision where it is.
  const activeRevisionId = term.id === policy.activeTermId ? figures.afterVersions.at(-1)!.id : policy.activeRevisionId;
  const facts: Omit<EndorsedRevision, 'summary'> = {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    termId: term.id,
    revisionId: header.id,
    revisionDate: header.revisionDate,
    effectiveDate: term.effectiveDate,
    expirationDate: term.expirationDate,
    commitDate: todayIso(now),
    committedAt,
    premiumChangeCents,
    premiumChangeLayers: figures.changeLayers,
    feeChangeCents,
    annualPremiumCents: endorsement.set.annualPremiumCents!,
    annualFeeCents: endorsement.set.annualFeeCents!,
    writtenPremiumCents: figures.termAfter.writtenPremiumCents,
    items: itemChanges(product, inForce, items, figures),
    changes: describeChanges(newChanges),
    reappliedRevisionIds: later.map((snapshot) => snapshot.header.id),
    ...(policy.agencyId ? { agencyId: policy.agencyId } : {}),
    namedInsuredContactIds: [...header.contacts.namedInsuredIds],
    revision: { ...endorsedSnapshot, header: { ...header, ...endorsement.set } as RevisionRecord, items: [...endorsement.items] },
    contactIds: [...policy.contactIds],
    decidedBy: principal.contactId,
    reads,
    activeRevisionId,
    endorsementRecords: { policy, term, endorsement, reapplied },
  };
  return {
    policy,
    term,
    stored,
    inForce,
    endorsed: { ...facts, summary: endorsementSummary(facts) },
    endorsement,
    reapplied,
    activeRevisionId,
    conflicts,
    before: { annualPremiumCents: inForce.header.annualPremiumCents, writtenPremiumCents: figures.termBefore.writtenPremiumCents },
    product,
    expiryBefore: later.at(-1) ?? inForce,
    expiryAfter: rewrittenLater.length ? { ...rewrittenLater.at(-1)!.snapshot, items: rewrittenLater.at(-1)!.items } : { ...endorsedSnapshot, items },
  };
}

/** The endorsement's change carried into the term's renewal, if the term has been renewed (see renewal-carry.ts). */
function renewalCarry(wiring: EndorseWiring, plan: EndorsementPlan, principal: Principal, preview: boolean) {
  return carryIntoRenewal(
    wiring,
    {
      policy: plan.policy,
      term: plan.term,
      before: plan.expiryBefore,
      after: plan.expiryAfter,
      commitDate: plan.endorsed.commitDate,
      committedAt: plan.endorsed.committedAt,
      decidedBy: principal.contactId,
      describe: describeChanges,
      product: plan.product,
    },
    { preview },
  );
}

/** The endorsement answer's part about the renewal: what was carried into it, with what its contributions show. */
function carryToWire(carry: RenewalCarry) {
  return carry.wire ? { renewal: { ...carry.wire, ...previewsOf(carry.parts) } } : {};
}

function unresolved(plan: EndorsementPlan, resolutions: Resolutions | undefined): OosConflict[] {
  return plan.conflicts.filter((conflict) => !resolutions?.has(conflict.field));
}

const amountOrNull = (cents: Cents) => toAmount(cents);

function planToWire(plan: EndorsementPlan, parts: readonly AreaPart[]) {
  const { endorsed } = plan;
  return {
    policy_id: endorsed.policyId,
    policy_number: endorsed.policyNumber,
    revision_id: endorsed.revisionId,
    revision_date: endorsed.revisionDate,
    replaces_revision_id: plan.inForce.header.id,
    items: endorsed.items.map((item) => ({
      id: item.id,
      name: item.name,
      old_annual_premium: amountOrNull(item.oldAnnualPremiumCents),
      new_annual_premium: amountOrNull(item.newAnnualPremiumCents),
      additional_premium: amountOrNull(item.additionalPremiumCents),
    })),
    changes: endorsed.changes,
    additional_premium: toAmount(endorsed.premiumChangeCents),
    additional_fees: toAmount(endorsed.feeChangeCents),
    annual_premium_before: toAmount(plan.before.annualPremiumCents),
    annual_premium: toAmount(endorsed.annualPremiumCents),
    written_premium_before: toAmount(plan.before.writtenPremiumCents),
    written_premium: toAmount(endorsed.writtenPremiumCents),
    reversed_revisions: endorsed.reappliedRevisionIds,
    reapplied_revisions: endorsed.reappliedRevisionIds,
    ...previewsOf(parts),
  };
}

/** What the endorsement's note says: the date, what changed, the premium change, what it slipped under. */
function endorsementSummary(endorsed: Omit<EndorsedRevision, 'summary'>): string {
  return [
    `Endorsement effective ${endorsed.revisionDate} issued`,
    endorsed.changes.length ? endorsed.changes.map((change) => `${change.label} ${change.before} -> ${change.after}`).join('; ') : 'no coverage change',
    `${endorsed.premiumChangeCents < 0 ? 'return' : 'additional'} premium ${formatCents(Math.abs(endorsed.premiumChangeCents))}`,
    ...(endorsed.reappliedRevisionIds.length ? [`re-applied under ${endorsed.reappliedRevisionIds.length} later revision(s)`] : []),
  ].join('; ');
}

// ---------------------------------------------------------------- preview_revision

export async function previewEndorsement(wiring: EndorseWiring, principal: Principal, revisionId: string, now = clock.now()) {
  const plan = await planEndorsement(principal, { revisionId }, now, wiring.readAhead);
  const parts = await joinMove(wiring.endorse, plan.endorsed, { preview: true });
  const carry = await renewalCarry(wiring, plan, principal, true);
  const moratoriums = await moratoriumPreview(principal, { block: 'coverage_increase', operation: 'endorsement', revision: revisionId, at: now });
  return { ...planToWire(plan, parts), conflicts: plan.conflicts.map(conflictToWire), ...carryToWire(carry), moratoriums };
}

// ---------------------------------------------------------------- issue (with issue_info.revision_id), resolve_oos_conflicts

/** Tries of an issue that met another commit on the same term: it is planned again on top of it. */
const ISSUE_TRIES = 5;

export async function issueEndorsement(
  wiring: EndorseWiring,
  principal: Principal,
  /** `stored`, `named`: the endorsement and the policy named, as the caller just read them within the caller's reach (the first plan starts from them; a retry reads them again). */
  request: { revisionId: string; policyId?: string; resolutions?: Resolutions; stored?: RevisionSnapshot; named?: NamedPolicyRead },
  options: { now?: () => Date } = {},
) {
  // The moratoriums' check is read beside the first plan's reads of the term (begun with its parts' reads ahead, not before
  // the policy is read, so it waits for nothing the plan waits for); its refusal, when it refuses, is the answer (as when it was read first).
  let refusal: Promise<void> | undefined;
  const checkMoratoriums = () => {
    refusal ??= refuseUnderMoratoriums(principal, { block: 'coverage_increase', operation: 'endorsement', revision: request.revisionId, at: options.now?.() });
    refusal.catch(() => undefined);
    return refusal;
  };
  for (let attempt = 1; ; attempt += 1) {
    const now = options.now?.() ?? clock.now();
    const planned = planEndorsement(principal, attempt === 1 ? request : { ...request, stored: undefined, named: undefined }, now, attempt === 1 ? [...(wiring.readAhead ?? []), checkMoratoriums] : wiring.readAhead);
    if (attempt === 1) {
      const [plannedFirst] = await Promise.allSettled([planned]);
      // A plan refused before it read the term has not begun the check: it is made now, and answers first all the same.
      const [refused] = await Promise.allSettled([checkMoratoriums()]);
      if (refused.status === 'rejected') throw refused.reason;
      if (plannedFirst.status === 'rejected') throw plannedFirst.reason;
    }
    const plan = await planned;
    const open = unresolved(plan, request.resolutions);
    if (open.length) throw new OutOfSequenceConflictError(plan.endorsed.revisionId, open);
    const parts = await joinMove(wiring.endorse, plan.endorsed, COMMITTING);
    const carry = await renewalCarry(wiring, plan, principal, false);
    const writes = [
      ...writesOf(parts),
      ...carry.writes,
      ...writesOf(carry.parts),
    ];
    try {
      await runTransaction(writes, { label: `Policy ${plan.policy.policyNumber}` });
    } catch (error) {
      if (error instanceof ConcurrentChangeError && attempt < ISSUE_TRIES) {
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 60));
        continue;
      }
      throw error;
    }
    return {
      commission_rate: Number(plan.endorsement.header.commissionRate),
      override_commission: plan.endorsement.header.overrideCommission,
      ...planToWire(plan, parts),
      ...carryToWire(carry),
    };
  }
}

// ---------------------------------------------------------------- utils/update_revision

export async function discardEndorsement(principal: Principal, request: { revisionId: string; action: 'delete' | 'archive' }, now = clock.now()) {
  const snapshot = await revisionWithinReach(principal, request.revisionId);
  const { header } = snapshot;
  if (!header.endorsement) throw new BusinessRuleError(`Revision ${header.id} is not an endorsement; only an open endorsement can be discarded`);
  if (header.revisionState !== 'open') throw new BusinessRuleError(`Revision ${header.id} is ${header.revisionState}; only an open endorsement can be discarded`);
  const { terms } = await policyWithinReach(principal, { policyId: header.policyId });
  const term = terms.find((candidate) => candidate.id === header.policyTermId);
  if (!term) throw new NotFoundError(`Policy term ${header.policyTermId}`);
  await discardOpenRevision(snapshot, term, request.action, now);
  return { revision_id: header.id, revision_state: request.action === 'archive' ? 'archived' : 'deleted' };
}

// ---------------------------------------------------------------- retrieve_policy_snapshot, retrieve_revision_status

export async function policySnapshot(principal: Principal, request: { policyNumber: string; snapshotDate: string }) {
  const { policy, terms } = await policyWithinReach(principal, { policyNumber: request.policyNumber });
  const term = terms.find((candidate) => request.snapshotDate >= candidate.effectiveDate && request.snapshotDate < candidate.expirationDate);
  if (!term) {
    const active = terms.find((candidate) => candidate.id === policy.activeTermId) ?? terms[0];
    throw outsideTerm('snapshot_date', request.snapshotDate, active ?? { effectiveDate: '', expirationDate: '' });
  }
  const headers = (await getRevisionHeaders(term.revisionIds)).filter((header) => header.revisionState === 'committed');
  const inForce = inForceOn(headers.map((header) => ({ header, revisionDate: header.revisionDate, committedAt: committedAtOf(header) })), request.snapshotDate);
  if (!inForce) throw new BusinessRuleError(`snapshot_date: policy ${policy.policyNumber} was not in force on ${request.snapshotDate}`);
  const [product, ...loaded] = await Promise.all([getProductCatalog(), ...headers.map((candidate) => loadRevision(candidate.id))]);
  const snapshots = loaded.filter((candidate): candidate is RevisionSnapshot => !!candidate);
  const snapshot = snapshots.find((candidate) => candidate.header.id === inForce.header.id);
  if (!snapshot) throw new NotFoundError(`Revision ${inForce.header.id}`);
  const { header } = snapshot;
  const versions = snapshots.map((candidate) => ({ id: candidate.header.id, revisionDate: candidate.header.revisionDate, committedAt: committedAtOf(candidate.header), items: itemAnnuals(candidate.items, product) }));
  const figures = termPremium(term, versions, request.snapshotDate);
  return {
    policy_id: policy.id,
    policy_number: policy.policyNumber,
    snapshot_date: request.snapshotDate,
    policy_term_id: term.id,
    revision_id: header.id,
    revision_date: header.revisionDate,
    policy_status: header.policyStatus,
    annual_premium: toAmount(header.annualPremiumCents),
    annual_fee: toAmount(header.annualFeeCents),
    written_premium: toAmount(header.writtenPremiumCents),
    // The term's premium as every committed revision now prices it: written, and earned before the snapshot date.
    term_written_premium: toAmount(figures.writtenPremiumCents),
    earned_premium: toAmount(figures.earnedPremiumCents),
    items: live(snapshot.items).map(lineItemToWire),
  };
}

export async function revisionStatus(principal: Principal, revisionId: string) {
  const { header } = await revisionWithinReach(principal, revisionId);
  const { terms } = await policyWithinReach(principal, { policyId: header.policyId });
  const term = terms.find((candidate) => candidate.id === header.policyTermId);
  const headers = term ? await getRevisionHeaders(term.revisionIds) : [header];
  const period = revisionPeriods(term ?? { effectiveDate: header.termStart, expirationDate: header.termEnd }, headers.map((candidate) => ({ id: candidate.id, revisionState: candidate.revisionState, revisionDate: candidate.revisionDate, committedAt: committedAtOf(candidate) })))
    .find((candidate) => candidate.id === header.id);
  return {
    revision_id: header.id,
    policy_id: header.policyId,
    revision_state: header.revisionState,
    status: period?.state ?? header.revisionState,
    revision_date: header.revisionDate,
    in_force_from: period?.from ?? null,
    in_force_to: period?.to ?? null,
    commit_date: header.commitDate,
    is_endorsement: !!header.endorsement,
    premium_change: header.endorsement?.premiumChangeCents === undefined ? null : toAmount(header.endorsement.premiumChangeCents),
  };
}
