/**
 * A move's moratorium check in depth, once a moratorium in force blocks what the move does: the
 * revision's properties located (the ZIP table on first use), the product, the carrier's grace,
 * releases, and the refusal recorded. Rare (most days no moratorium blocks anything), so the moves
 * load this module on first use (service.ts) after the one cheap read of the moratoriums.
 */
import { randomUUID } from 'node:crypto';
import { getCarrierSettings, getProductCatalog } from '../catalog/index.js';
import { lookupZipOnFirstUse } from '../geography/index.js';
import { clock } from '../platform/clock.js';
import type { Principal } from '../platform/principal.js';
import { revisionWithinReach, type RevisionSnapshot } from '../policies/index.js';
import { MoratoriumRefusalError, type Moratorium, type MoratoriumBlock, type MoratoriumSubject, type PropertyLocation } from './model.js';
import { coverageIncreases, DEFAULT_GRACE_DAYS, moratoriumsOver, quoteBeforeMoratorium, unreleased, type CoverageLine } from './rules.js';
import { putRefusal, releasesOf } from './store.js';
import type { MoratoriumCheck } from './service.js';

export interface Blocking {
  moratoriums: Moratorium[];
  changes: string[];
  snapshot?: RevisionSnapshot;
}

/**
 * Where a property is, from its own address: the county set on it, else every county its ZIP serves; the state from the ZIP when not given.
 * Asked only when a moratorium blocks the call (or, for a quote, is in force), so the ZIP table is loaded on first use.
 */
export async function locationOf(property: { zip?: string | null; state?: string | null; countyFips?: string | null }): Promise<PropertyLocation> {
  const info = property.zip ? await lookupZipOnFirstUse(property.zip) : undefined;
  const zip = info?.valid ? info.zip : (property.zip?.trim() || null);
  const counties = property.countyFips ? [property.countyFips] : (info?.counties ?? []).map((county) => county.fips);
  const state = (property.state?.trim() || info?.stateAbbr || null)?.toUpperCase() ?? null;
  return { state, counties, zip };
}

const locationsOf = (snapshot: RevisionSnapshot): Promise<PropertyLocation[]> =>
  Promise.all(snapshot.risks.map((risk) => locationOf({ zip: risk.address_zip ?? null, state: risk.address_state ?? null, countyFips: risk.county?.code || null })));

async function policyTypeNameOf(policyTypeId: string): Promise<string> {
  return (await getProductCatalog()).policyTypes.find((type) => type.id === policyTypeId)?.name ?? '';
}

/** The carrier's grace: a quote submitted before a moratorium and effective this many days after its start may still bind. */
async function graceDays(): Promise<number> {
  const configured = Number((await getCarrierSettings()).advancedSettings?.['moratorium-grace-days']);
  return Number.isInteger(configured) && configured >= 0 ? configured : DEFAULT_GRACE_DAYS;
}


/**
 * The moratoriums that would refuse the call, with what the change does; none when nothing
 * does. Writes nothing: a preview shows it, and `refuseUnderMoratoriums` acts on it.
 */
export async function moratoriumsBlockingAmong(principal: Principal, check: MoratoriumCheck, all: Moratorium[]): Promise<Blocking> {
  const none = { moratoriums: [], changes: [] };
  const at = (check.at ?? clock.now()).toISOString();
  const snapshot = typeof check.revision === 'string' ? await revisionWithinReach(principal, check.revision) : check.revision;
  let changes: string[] = [];
  if (check.block === 'coverage_increase') {
    const baseId = snapshot.header.endorsement?.baseRevisionId;
    if (!baseId) return none;
    changes = coverageIncreases(coverageLines(await revisionWithinReach(principal, baseId)), coverageLines(snapshot));
    if (!changes.length) return none;
  }
  const subject: MoratoriumSubject = { locations: await locationsOf(snapshot), policyTypeName: await policyTypeNameOf(snapshot.header.policyTypeId) };
  let over = moratoriumsOver(all, subject, check.block, at);
  if (check.block === 'new_business' && check.quoteCreatedAt && over.length) {
    const grace = await graceDays();
    const quote = { createdAt: check.quoteCreatedAt, effectiveDate: snapshot.header.termStart };
    over = over.filter((moratorium) => !quoteBeforeMoratorium(moratorium, quote, grace));
  }
  if (check.block === 'new_business' && check.boundAt) {
    const boundAt = check.boundAt;
    over = over.filter((moratorium) => moratorium.startsAt <= boundAt);
  }
  if (!over.length) return none;
  const releases = await releasesOf(over.map((moratorium) => moratorium.moratoriumId), snapshot.header.policyId);
  return { moratoriums: unreleased(over, releases, snapshot.header.policyId), changes, snapshot };
}

export const BLOCKED_WHAT: Record<MoratoriumBlock, string> = {
  new_business: 'binding new business',
  coverage_increase: 'an increase of coverage',
  reinstatement: 'reinstatement',
  cancellation: 'cancellation',
  non_renewal: 'non-renewal',
};

/** The refusal (MoratoriumRefusalError, naming every moratorium) when `blocking` found any, counted against each. */
export async function refuseUnder(principal: Principal, check: MoratoriumCheck, { moratoriums, changes, snapshot }: Blocking): Promise<void> {
  if (!moratoriums.length || !snapshot) return;
  const at = clock.now().toISOString();
  const header = snapshot.header;
  await Promise.all(
    moratoriums.map((moratorium) =>
      putRefusal({ moratoriumId: moratorium.moratoriumId, refusalId: randomUUID(), refused: check.block, operation: check.operation, policyId: header.policyId, policyNumber: header.policyNumber, agencyId: header.agencyId, by: principal.contactId, at }),
    ),
  );
  throw new MoratoriumRefusalError(header.policyNumber, changes.length ? `${BLOCKED_WHAT[check.block]} (${changes.join('; ')})` : BLOCKED_WHAT[check.block], moratoriums);
}

function coverageLines(snapshot: RevisionSnapshot): CoverageLine[] {
  const propertyName = new Map(snapshot.risks.map((risk) => [risk.id, risk.name]));
  return snapshot.items
    .filter((item) => item.persistStatus !== 'rejected')
    .map((item) => ({ key: item.riskId ? `${item.name} (${propertyName.get(item.riskId) ?? 'property'})` : item.name, limitCents: item.limitCents, deductibleCents: item.deductibleCents }));
}

