/**
 * The layout of the compact ZIP table (zip-table.json), shared by the generator that
 * writes it and the lookup that reads it.
 *
 * The table keeps every ZIP row in one fixed-width string sorted by ZIP, so a lookup is a
 * binary search over that string: nothing is parsed or indexed when a function starts,
 * which keeps the table's cold-start cost to reading a few string literals.
 *
 * One record, RECORD_WIDTH characters:
 *   ZIP (5 digits) | state abbreviation (2 letters, `--` when the data set has none) |
 *   city index (base 36, CITY_WIDTH) | county index (base 36, COUNTY_WIDTH, `---` for none)
 * `cities` is every distinct place name joined with LIST_SEPARATOR; `counties` is every
 * county as its 5-digit FIPS code followed by its name, joined the same way.
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

export const TABLE_FORMAT = 1;
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
