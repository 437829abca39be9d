/**
 * Binding moratoriums: declared and lifted by underwriters and Administrators (each with its
 * event, in the same transaction as the record), listed for everyone who quotes, and asked by
 * the moves before they plan whether a policy falls under one. A refused call is recorded
 * against every moratorium that refused it; an underwriter may release one policy with a reason.
 */
import { randomUUID } from 'node:crypto';
import { getProductCatalog } from '../catalog/index.js';
import { eventOf } from '../events/index.js';
import { clock } from '../platform/clock.js';
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import { BusinessRuleError, PermissionDeniedError } from '../platform/errors.js';
import { hasPermission, type Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { policyWithinReach, type RevisionSnapshot } from '../policies/index.js';
// The quotes' warnings locate properties as the in-depth check does (the quote functions look ZIP codes up anyway).
import { BLOCKED_WHAT, locationOf } from './blocking.js';
import { MoratoriumNotFoundError, type Moratorium, type MoratoriumBlock, type MoratoriumRefusal, type MoratoriumRelease, type MoratoriumSubject } from './model.js';
import { declaredArea, moratoriumsReaching, type DeclarationRequest } from './rules.js';
import { getMoratorium, listMoratoriums, moratoriumCreate, moratoriumRecords, moratoriumUpdate, putRelease, releasesOf } from './store.js';

/** Who declares, lifts and releases: underwriters and Administrators (the reinstatement's permission), never an agent. */
export const MORATORIUM_PERMISSION = 'reviews:write';

function requireUnderwriter(principal: Principal, what: string) {
  if (!principal.isAdministrator && !hasPermission(principal, MORATORIUM_PERMISSION)) throw new PermissionDeniedError(`Only an underwriter or an Administrator may ${what}`);
}

// ---------------------------------------------------------------- the wire

const moratoriumToWire = (moratorium: Moratorium) => ({
  moratorium_id: moratorium.moratoriumId,
  name: moratorium.name,
  kind: moratorium.kind,
  states: moratorium.states,
  counties: moratorium.counties,
  zips: moratorium.zips,
  products: moratorium.products,
  blocks: moratorium.blocks,
  starts_at: moratorium.startsAt,
  ends_at: moratorium.endsAt,
  declared_by: moratorium.declaredBy,
  declared_at: moratorium.declaredAt,
  lifted_at: moratorium.liftedAt,
  lifted_by: moratorium.liftedBy,
});

const eventData = (moratorium: Moratorium) => {
  const { declared_by: _by, lifted_by: _liftedBy, ...wire } = moratoriumToWire(moratorium);
  return wire;
};

/** A moratorium's event: a moratorium is no policy, so its id stands where a policy's would (its events share its own sequence). */
const moratoriumEvent = (type: 'moratorium.declared' | 'moratorium.lifted', moratorium: Moratorium, occurredAt: string) =>
  eventOf({ type, policyId: moratorium.moratoriumId, policyNumber: '', agencyId: null, transactionId: moratorium.moratoriumId, occurredAt, data: eventData(moratorium) });

// ---------------------------------------------------------------- declare, lift, list

export async function declareMoratorium(principal: Principal, request: DeclarationRequest, now = clock.now()) {
  requireUnderwriter(principal, 'declare a moratorium');
  const area = declaredArea(request, now);
  if (area.products.length) {
    const known = (await getProductCatalog()).policyTypes.map((type) => type.name.toLowerCase());
    const problems = area.products.flatMap((product, index) => (known.includes(product.toLowerCase()) ? [] : [`products.${index}: ${product.slice(0, 60)} is not a policy type of the catalog`]));
    if (problems.length) throw new BusinessRuleError(problems);
  }
  const declaredAt = now.toISOString();
  const moratorium: Moratorium = { moratoriumId: randomUUID(), ...area, declaredBy: principal.contactId, declaredAt, liftedAt: null, liftedBy: null, version: 1 };
  await runTransaction([moratoriumCreate(moratorium), moratoriumEvent('moratorium.declared', moratorium, declaredAt)], { label: `Moratorium ${moratorium.name}` });
  return moratoriumToWire(moratorium);
}

export async function liftMoratorium(principal: Principal, moratoriumId: string, now = clock.now()) {
  requireUnderwriter(principal, 'lift a moratorium');
  const moratorium = await getMoratorium(moratoriumId);
  if (!moratorium) throw new MoratoriumNotFoundError(moratoriumId);
  if (moratorium.liftedAt !== null) throw new BusinessRuleError(`moratorium_id: the moratorium "${moratorium.name}" was already lifted at ${moratorium.liftedAt}`);
  const liftedAt = now.toISOString();
  const lifted: Moratorium = { ...moratorium, liftedAt, liftedBy: principal.contactId };
  await runTransaction([moratoriumUpdate(lifted, moratorium.version), moratoriumEvent('moratorium.lifted', lifted, liftedAt)], { label: `Moratorium ${moratorium.name}` });
  return moratoriumToWire({ ...lifted, version: moratorium.version + 1 });
}

/** What a caller sees of the refusals: everything for the carrier's staff, an agent its own agencies' only. */
function refusalsToWire(principal: Principal, refusals: readonly MoratoriumRefusal[]) {
  const seen = principal.scope === 'all' ? refusals : refusals.filter((refusal) => refusal.agencyId !== null && principal.agencyIds.includes(refusal.agencyId));
  const byAgency = new Map<string, number>();
  for (const refusal of seen) byAgency.set(refusal.agencyId ?? '', (byAgency.get(refusal.agencyId ?? '') ?? 0) + 1);
  return {
    refused_count: seen.length,
    refused_by_agency: [...byAgency].map(([agencyId, count]) => ({ agency_id: agencyId || null, count })),
    refusals: seen.map((refusal) => ({ refused: refusal.refused, operation: refusal.operation, policy_id: refusal.policyId, policy_number: refusal.policyNumber, agency_id: refusal.agencyId, by: refusal.by, at: refusal.at })),
  };
}

const releasesToWire = (releases: readonly MoratoriumRelease[]) => releases.map((release) => ({ policy_id: release.policyId, reason: release.reason, released_by: release.releasedBy, released_at: release.releasedAt }));

async function moratoriumInFull(principal: Principal, moratorium: Moratorium) {
  const { releases, refusals } = await moratoriumRecords(moratorium.moratoriumId);
  return { ...moratoriumToWire(moratorium), releases: principal.scope === 'all' ? releasesToWire(releases) : [], ...refusalsToWire(principal, refusals) };
}

/** Every moratorium, or those in force at `activeOn` (a date: in force at any moment of it; or an instant), each with its refusals. */
export async function listMoratoriumsFor(principal: Principal, activeOn?: string) {
  const all = await listMoratoriums();
  const chosen = activeOn === undefined ? all : all.filter((moratorium) => inForceDuring(moratorium, activeOn));
  chosen.sort((a, b) => (a.startsAt === b.startsAt ? a.moratoriumId.localeCompare(b.moratoriumId) : a.startsAt.localeCompare(b.startsAt)));
  return { moratoriums: await Promise.all(chosen.map((moratorium) => moratoriumInFull(principal, moratorium))) };
}

function inForceDuring(moratorium: Moratorium, activeOn: string): boolean {
  const from = activeOn.length === 10 ? `${activeOn}T00:00:00.000Z` : activeOn;
  const until = activeOn.length === 10 ? `${activeOn}T23:59:59.999Z` : activeOn;
  const ended = [moratorium.endsAt, moratorium.liftedAt].filter((end): end is string => end !== null).sort()[0];
  return moratorium.startsAt <= until && (ended === undefined || ended > from);
}

export async function retrieveMoratorium(principal: Principal, moratoriumId: string) {
  const moratorium = await getMoratorium(moratoriumId);
  if (!moratorium) throw new MoratoriumNotFoundError(moratoriumId);
  return moratoriumInFull(principal, moratorium);
}

/** An underwriter lets one policy through one moratorium, with a reason: recorded with who and when. */
export async function releaseMoratoriumHold(principal: Principal, request: { moratoriumId: string; policyId: string; reason: string }, now = clock.now()) {
  requireUnderwriter(principal, 'release a policy from a moratorium');
  const reason = request.reason.trim();
  if (!reason) throw new BusinessRuleError('reason: must say why the policy is released');
  const moratorium = await getMoratorium(request.moratoriumId);
  if (!moratorium) throw new MoratoriumNotFoundError(request.moratoriumId);
  const { policy } = await policyWithinReach(principal, { policyId: request.policyId });
  const release: MoratoriumRelease = { moratoriumId: moratorium.moratoriumId, policyId: policy.id, reason, releasedBy: principal.contactId, releasedAt: now.toISOString() };
  const recorded = await putRelease(release);
  const kept = recorded ? release : (await releasesOf([moratorium.moratoriumId], policy.id))[0] ?? release;
  return { moratorium_id: moratorium.moratoriumId, policy_id: policy.id, policy_number: policy.policyNumber, reason: kept.reason, released_by: kept.releasedBy, released_at: kept.releasedAt, already_released: !recorded };
}

// ---------------------------------------------------------------- what the moves and quotes ask

/** What a move asks: which block, for which call, about which revision (an endorsement: its open revision). */
export interface MoratoriumCheck {
  block: MoratoriumBlock;
  /** The call, as the refusal is listed (`bind`, `issue`, `endorsement`, `reinstatement`, `cancellation`, `non_renewal`). */
  operation: string;
  revision: RevisionSnapshot | string;
  /** New business: when the quote was submitted (the policy's creation), for the carrier's grace. */
  quoteCreatedAt?: string;
  /** Issue: when the quote was bound; a moratorium that began after it does not undo the bind. */
  boundAt?: string;
  /** A cancellation: its reason; the insured's own request, non-payment and a rewrite are never barred. */
  cancelReason?: string;
  at?: Date;
  /** The moratoriums as `readMoratoriums` began reading them when the move began (one round trip fewer than reading them here). */
  moratoriums?: MoratoriumsRead;
}

/** The moratoriums on record, being read. */
export type MoratoriumsRead = Promise<Moratorium[]>;

/**
 * Begins reading the moratoriums on record, for a move to read them beside its policy and give
 * the read to its check (`MoratoriumCheck.moratoriums`); a move refused before its check leaves it unread.
 */
export function readMoratoriums(): MoratoriumsRead {
  const read = listMoratoriums();
  read.catch(() => undefined);
  return read;
}

const CANCELLATIONS_NEVER_BARRED = /payment|insured'?s request|rewrit/i;

/** A cancellation for the insured's request, non-payment or a rewrite: no moratorium bars it, nothing need be read. */
const neverBarred = (check: Pick<MoratoriumCheck, 'block' | 'cancelReason'>) => check.block === 'cancellation' && !!check.cancelReason && CANCELLATIONS_NEVER_BARRED.test(check.cancelReason);

/** readMoratoriums, for a check that may be barred; undefined (nothing read) for one no moratorium bars. */
export function readMoratoriumsFor(check: Pick<MoratoriumCheck, 'block' | 'cancelReason'>): MoratoriumsRead | undefined {
  return neverBarred(check) ? undefined : readMoratoriums();
}

/** The in-depth check, loaded by the first call a moratorium in force may block (blocking.ts). */
const blocking = /* @__PURE__ */ moduleOnFirstUse<typeof import('./blocking.js')>(new URL('./blocking.mjs', import.meta.url), new URL('./blocking.ts', import.meta.url));

/**
 * The moratoriums that would refuse the call, with what the change does; none when nothing
 * does. Writes nothing: a preview shows it, and `refuseUnderMoratoriums` acts on it.
 */
export async function moratoriumsBlocking(principal: Principal, check: MoratoriumCheck): Promise<{ moratoriums: Moratorium[]; changes: string[]; snapshot?: RevisionSnapshot }> {
  const none = { moratoriums: [], changes: [] };
  if (neverBarred(check)) return none;
  const all = await (check.moratoriums ?? listMoratoriums());
  if (!all.some((moratorium) => moratorium.blocks.includes(check.block))) return none;
  return (await blocking()).moratoriumsBlockingAmong(principal, check, all);
}

/**
 * What a move asks before it plans: refused (MoratoriumRefusalError, naming every moratorium)
 * when the policy falls under one that blocks the call, the refusal counted against each.
 */
export async function refuseUnderMoratoriums(principal: Principal, check: MoratoriumCheck): Promise<void> {
  const found = await moratoriumsBlocking(principal, check);
  if (!found.moratoriums.length || !found.snapshot) return;
  await (await blocking()).refuseUnder(principal, check, found);
}

/** The warnings a quote's answer carries: every moratorium in force over one of its properties and its product. */
export async function moratoriumWarnings(quote: { properties: Array<{ zip?: string | null; state?: string | null }>; policyTypeName: string; at?: Date }): Promise<string[]> {
  const all = await listMoratoriums();
  if (!all.length) return [];
  const subject: MoratoriumSubject = { locations: await Promise.all(quote.properties.map((property) => locationOf(property))), policyTypeName: quote.policyTypeName };
  return moratoriumsReaching(all, subject, (quote.at ?? clock.now()).toISOString()).map(
    (moratorium) => `Moratorium "${moratorium.name}" (${moratorium.kind}) is in force over this property: ${moratorium.blocks.map((block) => BLOCKED_WHAT[block]).join(', ')} refused until it ends or is lifted`,
  );
}

/** What an endorsement's preview shows: whether its issue would be refused, by which moratoriums, for what change. */
export async function moratoriumPreview(principal: Principal, check: MoratoriumCheck) {
  const { moratoriums, changes } = await moratoriumsBlocking(principal, check);
  return {
    would_be_refused: moratoriums.length > 0,
    refused_by: moratoriums.map((moratorium) => ({ moratorium_id: moratorium.moratoriumId, name: moratorium.name })),
    changes,
  };
}
