/**
 * The layout of the compact ZIP table (zip-table.txt), shared by the generator that writes
 * it and the lookup that reads it.
 *
 * The table is a data file beside the code, not a module: 750 KB of string literals in a
 * bundle cost about 12 ms of CPU to scan at every cold import, whether or not the function
 * looks a ZIP up, while reading and splitting the file on the first lookup costs about 1 ms.
 * Rows stay in one fixed-width string sorted by ZIP, so a lookup is a binary search over
 * that string and nothing is indexed.
 *
 * The file is five lines:
 *   1. where the data comes from and under which licence
 *   2. `zip-table <format> <row count>`
 *   3. every distinct place name, joined with LIST_SEPARATOR
 *   4. every county as its 5-digit FIPS code followed by its name, joined the same way
 *   5. the records, RECORD_WIDTH characters each:
 *      ZIP (5 digits) | state abbreviation (2 letters, `--` when the data set has none) |
 *      city index (base 36, CITY_WIDTH) | county index (base 36, COUNTY_WIDTH, `---` for none)
 */
export interface CompactZipTable {
  /** Where the data comes from and under which licence. */
  source: string;
  format: typeof TABLE_FORMAT;
  /** How many source rows the records hold (a ZIP can have several rows). */
  rowCount: number;
  cities: string;
  counties: string;
  records: string;
}

export const TABLE_FORMAT = 2;
export const TABLE_FILE_NAME = 'zip-table.txt';
export const LIST_SEPARATOR = '|';
export const INDEX_RADIX = 36;
export const ZIP_WIDTH = 5;
export const STATE_WIDTH = 2;
export const CITY_WIDTH = 3;
export const COUNTY_WIDTH = 3;
export const RECORD_WIDTH = ZIP_WIDTH + STATE_WIDTH + CITY_WIDTH + COUNTY_WIDTH;
export const NO_STATE = '-'.repeat(STATE_WIDTH);
export const NO_COUNTY = '-'.repeat(COUNTY_WIDTH);
export const FIPS_WIDTH = 5;

const HEADER = /^zip-table (\d+) (\d+)$/;

export function renderTableText(table: CompactZipTable): string {
  for (const [name, value] of Object.entries({ source: table.source, cities: table.cities, counties: table.counties, records: table.records })) {
    if (value.includes('\n')) throw new Error(`The ZIP table's ${name} may not hold a line break`);
  }
  return [table.source, `zip-table ${table.format} ${table.rowCount}`, table.cities, table.counties, table.records, ''].join('\n');
}

/** Reads the file's text back; refuses another format or a record string of the wrong length. */
export function parseTableText(text: string): CompactZipTable {
  const [source = '', header = '', cities = '', counties = '', records = ''] = text.split('\n');
  const parsed = HEADER.exec(header);
  if (!parsed || Number(parsed[1]) !== TABLE_FORMAT) throw new Error(`Not a ZIP table of format ${TABLE_FORMAT}: ${header.slice(0, 40)}`);
  const rowCount = Number(parsed[2]);
  if (records.length !== rowCount * RECORD_WIDTH) throw new Error(`The ZIP table announces ${rowCount} rows but holds ${records.length / RECORD_WIDTH}`);
  return { source, format: TABLE_FORMAT, rowCount, cities, counties, records };
}
