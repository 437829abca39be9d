/**
 * Rules of risks (properties): naming, location changes and the ZIP table's part in
 * them, the primary property, readiness to rate, and copying one property onto another.
 * No I/O: ids come from the `newId` given.
 */
import { BusinessRuleError } from '../platform/errors.js';
import type {
  CountyRef,
  LineItemRecord,
  LocationChange,
  MortgageeRecord,
  RevisionChange,
  RevisionSnapshot,
  RiskCopyOptions,
  RiskRecord,
  RiskTextField,
  SubLineRecord,
  ZipAnswer,
} from './model.js';
import { UNRATED_TOTALS, withoutCalculatedPremium } from './premiums.js';
import { microsNow } from './structure.js';

export function newRisk(fields: {
  id: string;
  revisionId: string;
  policyId: string;
  sequence: number;
  primary: boolean;
  now: Date;
  propertyGroupNumber?: string | null;
  buildingNumber?: string | null;
}): RiskRecord {
  return {
    entity: 'Risk',
    id: fields.id,
    revisionId: fields.revisionId,
    policyId: fields.policyId,
    name: `Property #${fields.sequence}`,
    sequence: fields.sequence,
    primary: fields.primary,
    dateAdded: fields.now.toISOString(),
    addressAccuracy: null,
    county: null,
    countySpecification: null,
    copyAddress: false,
    flag: 'white',
    latitude: null,
    longitude: null,
    fireDistrictDistance: null,
    hydrantDistance: null,
    isoPcData: {},
    approvedLimits: {},
    questions: {},
    tenants: [],
    propertyGroupNumber: fields.propertyGroupNumber ?? null,
    buildingNumber: fields.buildingNumber ?? null,
    address_state: null,
    builder_ready_to_rate: 'false',
  };
}

const TEXT_KEYS = ['address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip', 'flood_zone_code', 'distance_to_coast', 'year_built'] as const;

/**
 * Applies a location change. Unless the geo-service is bypassed, state, city and county
 * come from the ZIP table: a city or county not served by the ZIP is replaced by the
 * table's. `soft` bypass trusts the fields when lat/long, county, city and ZIP are all
 * present; `hard` bypass never consults the table.
 */
export function applyLocation(
  risk: RiskRecord,
  change: LocationChange,
  geo: { soft: boolean; hard: boolean; lookup: (zip: string) => ZipAnswer },
): RiskRecord {
  const next: RiskRecord = { ...risk };
  if (change.name !== undefined) {
    if (change.name === null) throw new BusinessRuleError('location.name: a property needs a name');
    next.name = change.name;
  }
  for (const key of TEXT_KEYS) {
    if (change[key] !== undefined) (next as Record<RiskTextField, string | null>)[key] = change[key] ?? null;
  }
  if (change.latitude !== undefined) next.latitude = change.latitude;
  if (change.longitude !== undefined) next.longitude = change.longitude;
  if (change.copy_address !== undefined) next.copyAddress = change.copy_address;
  const countyId = change.address_county === undefined ? risk.county?.id ?? null : change.address_county;
  const specifyId = change.county_specify === undefined ? risk.countySpecification?.id ?? null : change.county_specify;

  const zip = next.address_zip ?? null;
  const complete = next.latitude !== null && next.longitude !== null && !!countyId && !!next.address_city && !!zip;
  const trustFields = geo.hard || (geo.soft && complete);
  const answer = zip ? geo.lookup(zip) : undefined;
  const countyFrom = (id: string | null): CountyRef | null => {
    if (!id) return null;
    const known = answer?.counties.find((county) => county.id === id);
    if (known) return { name: known.name, code: known.fips, id: known.id };
    // A county kept from before (the ZIP table does not serve it, or was bypassed) keeps its name and code.
    const kept = [risk.county, risk.countySpecification].find((county) => county?.id === id);
    return kept ? { ...kept } : { name: '', code: '', id };
  };

  if (trustFields || !zip) {
    next.county = countyFrom(countyId);
    next.countySpecification = countyFrom(specifyId);
    next.addressAccuracy = zip ? (complete ? 'great' : 'fair') : 'poor';
    return next;
  }
  if (!answer?.valid) {
    throw new BusinessRuleError(
      `location.address_zip: ${zip} is not a known US ZIP code; correct it, or set hard_geoservice_bypass to keep it as given`,
    );
  }
  next.address_zip = answer.zip;
  next.address_state = answer.stateAbbr;
  const city = next.address_city ? answer.cities.find((candidate) => candidate.toLowerCase() === next.address_city!.toLowerCase()) : undefined;
  next.address_city = city ?? answer.cities[0] ?? null;
  const county = answer.counties.find((candidate) => candidate.id === countyId) ?? answer.counties[0];
  next.county = county ? { name: county.name, code: county.fips, id: county.id } : null;
  next.countySpecification = countyFrom(specifyId);
  next.addressAccuracy = city && next.latitude !== null && next.longitude !== null ? 'great' : city ? 'fair' : 'poor';
  return next;
}

/** The address part of a property, for copy_risk's copy_address. */
export function addressOf(risk: RiskRecord): Partial<RiskRecord> {
  return {
    address_line1: risk.address_line1 ?? null,
    address_line2: risk.address_line2 ?? null,
    address_city: risk.address_city ?? null,
    address_state: risk.address_state ?? null,
    address_zip: risk.address_zip ?? null,
    county: risk.county,
    countySpecification: risk.countySpecification,
    latitude: risk.latitude,
    longitude: risk.longitude,
    addressAccuracy: risk.addressAccuracy,
    flood_zone_code: risk.flood_zone_code ?? null,
    distance_to_coast: risk.distance_to_coast ?? null,
  };
}

/** Orders risks by a wire field (`-field` descending); names compare naturally (#2 before #10). */
export function orderRisks<T extends Record<string, unknown>>(risks: readonly T[], orderBy: string): T[] {
  const descending = orderBy.startsWith('-');
  const field = descending ? orderBy.slice(1) : orderBy;
  const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const sorted = [...risks].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return collator.compare(String(x), String(y));
  });
  return descending ? sorted.reverse() : sorted;
}

/** The primary property moved to `risk`: it, and every other property that was primary, as changed. */
export function primaryMovedTo(risks: readonly RiskRecord[], risk: RiskRecord): RiskRecord[] {
  return [{ ...risk, primary: true }, ...risks.filter((other) => other.id !== risk.id && other.primary).map((other) => ({ ...other, primary: false }))];
}

/** The id of the revision's primary property: null until a property exists. */
export function primaryPropertyId(risks: readonly RiskRecord[]): string | null {
  return risks.find((risk) => risk.primary)?.id ?? null;
}

/**
 * A property (or, without `riskId`, every property) marked ready or not ready to rate; the
 * revision's builder stays pending until every property is ready.
 */
export function readinessChange(snapshot: RevisionSnapshot, riskId: string | undefined, isCompleted: boolean): RevisionChange {
  const marked = (risk: RiskRecord): RiskRecord => ({ ...risk, builder_ready_to_rate: String(isCompleted) });
  if (!riskId) return { replace: snapshot.risks.map(marked), header: { builderPending: !isCompleted } };
  const others = snapshot.risks.filter((other) => other.id !== riskId);
  const allReady = isCompleted && others.every((other) => other.builder_ready_to_rate === 'true');
  return { replace: snapshot.risks.filter((risk) => risk.id === riskId).map(marked), header: { builderPending: !allReady } };
}

type Located = { snapshot: RevisionSnapshot; risk: RiskRecord };

/** The source's sub lines and items, re-homed on the target property (calculated premiums cleared). */
function copiedStructure(source: Located, target: Located, now: Date, newId: () => string): { subLines: SubLineRecord[]; items: LineItemRecord[] } {
  const homed = { revisionId: target.snapshot.header.id, riskId: target.risk.id, dateAddedMicro: microsNow(now.getTime()), persistStatus: 'normal' as const };
  const newIds = new Map<string, string>();
  const subLines = source.snapshot.subLines
    .filter((subLine) => subLine.riskId === source.risk.id)
    .map((subLine): SubLineRecord => {
      const copy = { ...subLine, ...homed, id: newId(), dateAddedMicro: microsNow(now.getTime()) };
      newIds.set(subLine.id, copy.id);
      return copy;
    });
  const items = source.snapshot.items
    .filter((item) => item.riskId === source.risk.id)
    .map((item) =>
      withoutCalculatedPremium({
        ...item,
        ...homed,
        id: newId(),
        subLineInstanceId: item.subLineInstanceId ? (newIds.get(item.subLineInstanceId) ?? null) : null,
        dateAddedMicro: microsNow(now.getTime()),
      }),
    );
  return { subLines, items };
}

/**
 * copy_risk: the target property takes the source's address, tenants, rating (answers,
 * value, year built, and its whole rating structure in place of its own) and mortgagees,
 * as asked. Answers the change of the target's revision.
 */
export function riskCopyChange(source: Located, target: Located, options: RiskCopyOptions, now: Date, newId: () => string): RevisionChange & { risk: RiskRecord } {
  let risk: RiskRecord = { ...target.risk };
  const change: RevisionChange = { replace: [], create: [], remove: [] };
  if (options.copy_address) risk = { ...risk, ...addressOf(source.risk) };
  if (options.copy_tenants) risk.tenants = [...source.risk.tenants];
  if (options.copy_rating) {
    const from = source.risk;
    risk = { ...risk, questions: { ...from.questions }, builder_ready_to_rate: from.builder_ready_to_rate ?? 'false', property_val: from.property_val ?? null, year_built: from.year_built ?? null };
    const structure = copiedStructure(source, target, now, newId);
    change.remove!.push(...target.snapshot.subLines.filter((subLine) => subLine.riskId === risk.id), ...target.snapshot.items.filter((item) => item.riskId === risk.id));
    change.create!.push(...structure.subLines, ...structure.items);
    change.header = { ...UNRATED_TOTALS };
  }
  if (options.copy_mortgagees) {
    const copies = source.snapshot.mortgagees
      .filter((mortgagee) => mortgagee.riskId === source.risk.id)
      .map((mortgagee): MortgageeRecord => ({ ...mortgagee, id: newId(), revisionId: target.snapshot.header.id, riskId: risk.id }));
    change.create!.push(...copies);
  }
  change.replace!.push(risk);
  return { ...change, risk };
}
