/**
 * ZIP lookups against the US ZIP table shipped with the code (GeoNames data, CC BY 4.0; see
 * the README). The table travels in the deployment package of the functions that look ZIPs
 * up rather than in DynamoDB: the measurements behind that choice are in docs/data-model.md
 * (Geography).
 */
import { readFileSync } from 'node:fs';
import { countyId } from './county-id.js';
import {
  CITY_WIDTH,
  COUNTY_WIDTH,
  FIPS_WIDTH,
  INDEX_RADIX,
  LIST_SEPARATOR,
  NO_COUNTY,
  NO_STATE,
  parseTableText,
  RECORD_WIDTH,
  STATE_WIDTH,
  ZIP_WIDTH,
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
 * Reads the table and splits its name lists on the first lookup, not at import: a function
 * pays for the table only when it looks a ZIP up, and then about a millisecond.
 */
function decodedTable(): DecodedTable {
  if (decoded) return decoded;
  // The file (TABLE_FILE_NAME) lies beside this module in the source tree and beside
  // `index.mjs` in a function's bundle: infra/bundles.ts ships a file named this way to the
  // functions whose tree-shaken code still names it, so the expression stays in this function.
  const table = parseTableText(readFileSync(new URL('./zip-table.txt', import.meta.url), 'utf8'));
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

/**
 * The counties the ZIP table places in a state, each once, by name (a product's territory
 * table is checked against them). Reads the whole table: for validating a filing, never on a
 * request path that rates.
 */
export function countiesOfState(stateAbbr: string): County[] {
  const table = decodedTable();
  const records = table.records;
  const seen = new Map<string, County>();
  for (let at = 0; at < records.length; at += RECORD_WIDTH) {
    if (records.slice(at + ZIP_WIDTH, at + ZIP_WIDTH + STATE_WIDTH) !== stateAbbr) continue;
    const countyField = records.slice(at + ZIP_WIDTH + STATE_WIDTH + CITY_WIDTH, at + RECORD_WIDTH);
    if (countyField === NO_COUNTY) continue;
    const county = table.county(parseInt(countyField, INDEX_RADIX));
    if (!seen.has(county.fips)) seen.set(county.fips, county);
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}
