/**
 * ZIP lookups against the bundled US ZIP table (GeoNames data, CC BY 4.0; see the README).
 * The table is bundled into the functions that import this module rather than stored in
 * DynamoDB: the measurements behind that choice are in docs/data-model.md (Geography).
 */
import zipTable from './zip-table.json' with { type: 'json' };
import { countyId } from './county-id.js';
import {
  CITY_WIDTH,
  COUNTY_WIDTH,
  FIPS_WIDTH,
  INDEX_RADIX,
  LIST_SEPARATOR,
  NO_COUNTY,
  NO_STATE,
  RECORD_WIDTH,
  STATE_WIDTH,
  ZIP_WIDTH,
  type CompactZipTable,
} from './zip-table-format.js';

export { countyId } from './county-id.js';

export interface County {
  name: string;
  /** 5-digit FIPS code: state code followed by the county code. */
  fips: string;
  /** Stable UUID of the county, derived from its FIPS code (see countyId). */
  id: string;
}

export interface ZipInfo {
  /** Whether the ZIP is in the data set. */
  valid: boolean;
  /** The 5-digit ZIP looked up (the input as given when it is not a ZIP at all). */
  zip: string;
  stateAbbr: string | null;
  /** Place names the ZIP serves, in the data set's order. */
  cities: string[];
  counties: County[];
}

const ZIP_OR_ZIP_PLUS_FOUR = /^(\d{5})(?:-\d{4})?$/;

/** The 5-digit ZIP of `12345` or `12345-6789` (surrounding blanks ignored); null otherwise. */
export function normalizeZip(zip: string): string | null {
  return ZIP_OR_ZIP_PLUS_FOUR.exec(zip.trim())?.[1] ?? null;
}

/** Cities, state and counties of a ZIP. An unknown or malformed ZIP answers `valid: false`. */
export function lookupZip(zip: string): ZipInfo {
  // Callers pass request fields through; a missing one is an unknown ZIP, not a crash.
  if (typeof zip !== 'string') return invalid('');
  const normalized = normalizeZip(zip);
  if (normalized === null) return invalid(zip.trim());
  const table = decodedTable();
  const records = table.records;
  let index = firstRecordAtOrAfter(records, normalized);
  const cities: string[] = [];
  const counties: County[] = [];
  let stateAbbr: string | null = null;
  for (; index * RECORD_WIDTH < records.length; index++) {
    const at = index * RECORD_WIDTH;
    if (records.slice(at, at + ZIP_WIDTH) !== normalized) break;
    let field = at + ZIP_WIDTH;
    const state = records.slice(field, (field += STATE_WIDTH));
    const city = table.cities[parseInt(records.slice(field, (field += CITY_WIDTH)), INDEX_RADIX)]!;
    const countyField = records.slice(field, field + COUNTY_WIDTH);
    if (stateAbbr === null && state !== NO_STATE) stateAbbr = state;
    if (!cities.includes(city)) cities.push(city);
    if (countyField !== NO_COUNTY) {
      const county = table.county(parseInt(countyField, INDEX_RADIX));
      if (!counties.some((known) => known.fips === county.fips)) counties.push(county);
    }
  }
  if (cities.length === 0) return invalid(normalized);
  return { valid: true, zip: normalized, stateAbbr, cities, counties };
}

function invalid(zip: string): ZipInfo {
  return { valid: false, zip, stateAbbr: null, cities: [], counties: [] };
}

/** Index of the first record whose ZIP is not below `zip` (binary search; records are sorted). */
function firstRecordAtOrAfter(records: string, zip: string): number {
  let low = 0;
  let high = records.length / RECORD_WIDTH;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = middle * RECORD_WIDTH;
    if (records.slice(at, at + ZIP_WIDTH) < zip) low = middle + 1;
    else high = middle;
  }
  return low;
}

interface DecodedTable {
  records: string;
  cities: string[];
  county(index: number): County;
}

let decoded: DecodedTable | undefined;

/**
 * Splits the name lists on first use, not at import: the CDK app and the local server import
 * every entry file, and a function that never looks up a ZIP should not pay for it.
 */
function decodedTable(): DecodedTable {
  if (decoded) return decoded;
  const table = zipTable as CompactZipTable;
  const countyEntries = table.counties.split(LIST_SEPARATOR);
  const counties = new Map<number, County>();
  decoded = {
    records: table.records,
    cities: table.cities.split(LIST_SEPARATOR),
    county(index) {
      let county = counties.get(index);
      if (!county) {
        const entry = countyEntries[index]!;
        const fips = entry.slice(0, FIPS_WIDTH);
        county = { name: entry.slice(FIPS_WIDTH), fips, id: countyId(fips) };
        counties.set(index, county);
      }
      return { ...county };
    },
  };
  return decoded;
}
