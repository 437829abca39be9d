/**
 * The moratoriums' rules, plain functions over plain data: what a declaration must say, when a
 * moratorium is in force, which property and product it reaches, whether a quote submitted
 * before it may still bind, and whether an endorsement raises coverage. No I/O, no clock: the
 * instant is always given.
 */
import { ValidationError } from '../platform/errors.js';
import { MORATORIUM_BLOCKS, MORATORIUM_KINDS, type Moratorium, type MoratoriumBlock, type MoratoriumKind, type MoratoriumRelease, type MoratoriumSubject, type PropertyLocation } from './model.js';

/** State (and district, territory) codes with their FIPS state codes: a county's FIPS code starts with its state's. */
const STATE_FIPS: Readonly<Record<string, string>> = {
  AL: '01', AK: '02', AZ: '04', AR: '05', CA: '06', CO: '08', CT: '09', DE: '10', DC: '11', FL: '12', GA: '13', HI: '15', ID: '16',
  IL: '17', IN: '18', IA: '19', KS: '20', KY: '21', LA: '22', ME: '23', MD: '24', MA: '25', MI: '26', MN: '27', MS: '28', MO: '29',
  MT: '30', NE: '31', NV: '32', NH: '33', NJ: '34', NM: '35', NY: '36', NC: '37', ND: '38', OH: '39', OK: '40', OR: '41', PA: '42',
  RI: '44', SC: '45', SD: '46', TN: '47', TX: '48', UT: '49', VT: '50', VA: '51', WA: '53', WV: '54', WI: '55', WY: '56',
  AS: '60', GU: '66', MP: '69', PR: '72', VI: '78',
};
const STATE_FIPS_CODES = new Set(Object.values(STATE_FIPS));

/** A declaration as the caller gave it (wire names resolved, nothing defaulted yet but the clock's `now`). */
export interface DeclarationRequest {
  name: string;
  kind: string;
  states?: string[];
  counties?: string[];
  zips?: string[];
  products?: string[];
  startsAt?: string;
  endsAt?: string;
  blocks: string[];
}

/** What a declaration sets of a moratorium, once checked: the record's own fields, nothing more. */
export type DeclaredArea = Pick<Moratorium, 'name' | 'kind' | 'states' | 'counties' | 'zips' | 'products' | 'blocks' | 'startsAt' | 'endsAt'>;

/** An instant as given (`2026-09-01`, `2026-09-01T12:00:00Z`) in ISO 8601 UTC; undefined when it is none. */
export function instantOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)) return undefined;
  const parsed = Date.parse(trimmed.length === 10 ? `${trimmed}T00:00:00Z` : trimmed.replace(' ', 'T'));
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
}

const distinct = (values: readonly string[]) => [...new Set(values)];

/**
 * What a declaration says, checked whole: every offending field named (`counties.1: ...`),
 * nothing defaulted but the start (now) and the products (all).
 */
export function declaredArea(request: DeclarationRequest, now: Date): DeclaredArea {
  const problems: string[] = [];
  const name = request.name.trim();
  if (!name) problems.push('name: must not be blank');
  if (!(MORATORIUM_KINDS as readonly string[]).includes(request.kind)) problems.push(`kind: must be one of ${MORATORIUM_KINDS.join(', ')}`);
  const states = (request.states ?? []).map((state) => state.trim().toUpperCase());
  states.forEach((state, index) => {
    if (!(state in STATE_FIPS)) problems.push(`states.${index}: ${state.slice(0, 10)} is not a US state code`);
  });
  const counties = (request.counties ?? []).map((county) => county.trim());
  counties.forEach((county, index) => {
    if (!/^\d{5}$/.test(county)) problems.push(`counties.${index}: must be a 5-digit county FIPS code (e.g. 12086)`);
    else if (!STATE_FIPS_CODES.has(county.slice(0, 2))) problems.push(`counties.${index}: ${county} starts with no state's FIPS code`);
    // Counties narrow the states named: one outside them would cover nothing, surely not what was meant.
    else if (states.length && !states.some((state) => STATE_FIPS[state] === county.slice(0, 2))) problems.push(`counties.${index}: ${county} is in none of the states named (${states.join(', ').slice(0, 40)})`);
  });
  const zips = (request.zips ?? []).map((zip) => zip.trim());
  zips.forEach((zip, index) => {
    if (!/^\d{5}$/.test(zip)) problems.push(`zips.${index}: must be a 5-digit ZIP`);
  });
  if (!states.length && !counties.length && !zips.length) problems.push('states: name at least one state, county or ZIP the moratorium covers');
  const products = (request.products ?? []).map((product) => product.trim()).filter(Boolean);
  if (!request.blocks.length) problems.push(`blocks: name at least one of ${MORATORIUM_BLOCKS.join(', ')}`);
  request.blocks.forEach((block, index) => {
    if (!(MORATORIUM_BLOCKS as readonly string[]).includes(block)) problems.push(`blocks.${index}: must be one of ${MORATORIUM_BLOCKS.join(', ')}`);
  });
  const startsAt = request.startsAt === undefined ? now.toISOString() : instantOf(request.startsAt);
  if (startsAt === undefined) problems.push('starts_at: must be a date (YYYY-MM-DD) or an instant (ISO 8601)');
  const endsAt = request.endsAt === undefined ? null : instantOf(request.endsAt);
  if (endsAt === undefined) problems.push('ends_at: must be a date (YYYY-MM-DD) or an instant (ISO 8601)');
  else if (endsAt !== null && startsAt !== undefined && endsAt <= startsAt) problems.push(`ends_at: ${endsAt} is not after starts_at ${startsAt}`);
  if (problems.length) throw new ValidationError(problems);
  return {
    name,
    kind: request.kind as MoratoriumKind,
    states: distinct(states),
    counties: distinct(counties),
    zips: distinct(zips),
    products: distinct(products),
    blocks: distinct(request.blocks) as MoratoriumBlock[],
    startsAt: startsAt!,
    endsAt: endsAt ?? null,
  };
}

/** In force at `at`: begun, not ended, not lifted (a lifted one stays on record, in force no longer). */
export function inForceAt(moratorium: Pick<Moratorium, 'startsAt' | 'endsAt' | 'liftedAt'>, at: string): boolean {
  if (moratorium.startsAt > at) return false;
  if (moratorium.endsAt !== null && moratorium.endsAt <= at) return false;
  return moratorium.liftedAt === null || moratorium.liftedAt > at;
}

/** The state codes a property is in: its own, else those of the counties it lies in (a county's FIPS code starts with its state's). */
function statesOf(location: PropertyLocation): string[] {
  if (location.state) return [location.state.toUpperCase()];
  return Object.keys(STATE_FIPS).filter((state) => location.counties.some((county) => county.slice(0, 2) === STATE_FIPS[state]));
}

/**
 * Whether a property lies in the moratorium's area. Each dimension given narrows it (the states,
 * then the counties within them, then the ZIPs), so `FL` with county 12086 is Miami-Dade, not
 * the whole of Florida; within one dimension, any of its values will do.
 */
export function coversLocation(moratorium: Pick<Moratorium, 'states' | 'counties' | 'zips'>, location: PropertyLocation): boolean {
  if (moratorium.states.length && !statesOf(location).some((state) => moratorium.states.includes(state))) return false;
  if (moratorium.counties.length && !location.counties.some((county) => moratorium.counties.includes(county))) return false;
  if (moratorium.zips.length && !(location.zip && moratorium.zips.includes(location.zip))) return false;
  return moratorium.states.length + moratorium.counties.length + moratorium.zips.length > 0;
}

export function coversProduct(moratorium: Pick<Moratorium, 'products'>, policyTypeName: string): boolean {
  return moratorium.products.length === 0 || moratorium.products.some((product) => product.toLowerCase() === policyTypeName.toLowerCase());
}

/**
 * Every moratorium in force at `at` that blocks `block` for a policy with any property in its
 * area and of a product it covers. Overlapping moratoriums all apply; lifting one leaves the others.
 */
export function moratoriumsOver(moratoriums: readonly Moratorium[], subject: MoratoriumSubject, block: MoratoriumBlock, at: string): Moratorium[] {
  return moratoriums.filter(
    (moratorium) =>
      moratorium.blocks.includes(block) &&
      inForceAt(moratorium, at) &&
      coversProduct(moratorium, subject.policyTypeName) &&
      subject.locations.some((location) => coversLocation(moratorium, location)),
  );
}

/** The moratoriums whose area and product reach the subject at `at`, whatever they block (a quote's warning). */
export function moratoriumsReaching(moratoriums: readonly Moratorium[], subject: MoratoriumSubject, at: string): Moratorium[] {
  return moratoriums.filter((moratorium) => inForceAt(moratorium, at) && coversProduct(moratorium, subject.policyTypeName) && subject.locations.some((location) => coversLocation(moratorium, location)));
}

/** The carrier's days after a moratorium's start from which a quote submitted before it may still bind (10 unless set). */
export const DEFAULT_GRACE_DAYS = 10;

/**
 * A quote submitted (created) before the moratorium began, effective at least `graceDays` days
 * after its first day, was written before the storm was named and for cover well after it: it
 * may still bind and issue.
 */
export function quoteBeforeMoratorium(moratorium: Pick<Moratorium, 'startsAt'>, quote: { createdAt: string; effectiveDate: string }, graceDays: number): boolean {
  if (!(quote.createdAt < moratorium.startsAt)) return false;
  const first = new Date(`${moratorium.startsAt.slice(0, 10)}T00:00:00Z`);
  first.setUTCDate(first.getUTCDate() + graceDays);
  return quote.effectiveDate >= first.toISOString().slice(0, 10);
}

/** A line of coverage as a change is judged: its item and property, limit and deductible. */
export interface CoverageLine {
  /** The same coverage in both revisions (the catalog item on the same property). */
  key: string;
  limitCents: number | null;
  deductibleCents: number | null;
}

/** What an endorsement does that a moratorium blocking `coverage_increase` refuses: a higher limit, a lower deductible, an added coverage. */
export function coverageIncreases(before: readonly CoverageLine[], after: readonly CoverageLine[]): string[] {
  const found: string[] = [];
  const previous = new Map(before.map((line) => [line.key, line]));
  for (const line of after) {
    const was = previous.get(line.key);
    if (!was) {
      found.push(`adds ${line.key}`);
      continue;
    }
    if ((line.limitCents ?? 0) > (was.limitCents ?? 0)) found.push(`raises the limit of ${line.key}`);
    if (was.deductibleCents !== null && line.deductibleCents !== null && line.deductibleCents < was.deductibleCents) found.push(`lowers the deductible of ${line.key}`);
  }
  return found;
}

/** The moratoriums still refusing a policy once its releases are set aside. */
export function unreleased(moratoriums: readonly Moratorium[], releases: readonly MoratoriumRelease[], policyId: string): Moratorium[] {
  return moratoriums.filter((moratorium) => !releases.some((release) => release.moratoriumId === moratorium.moratoriumId && release.policyId === policyId));
}
