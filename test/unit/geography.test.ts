import { describe, expect, it } from 'vitest';
import { countyId, COUNTY_ID_NAMESPACE, uuidV5 } from '../../shared/geography/county-id.js';
import { lookupZip, normalizeZip } from '../../shared/geography/zip-lookup.js';
import { addressInfoFromZip, propertyInfoFromZip, zipText } from '../../shared/geography/zip-answers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('lookupZip', () => {
  it('finds Beverly Hills, California, in Los Angeles county for 90210', () => {
    expect(lookupZip('90210')).toEqual({
      valid: true,
      zip: '90210',
      stateAbbr: 'CA',
      cities: ['Beverly Hills'],
      counties: [{ name: 'Los Angeles', fips: '06037', id: countyId('06037') }],
    });
  });

  it('keeps the leading zero of New England ZIPs', () => {
    const info = lookupZip('02134');
    expect(info.valid).toBe(true);
    expect(info.stateAbbr).toBe('MA');
    expect(info.counties.map((county) => county.fips)).toEqual(['25025']);
  });

  it('lists every place a ZIP with several rows serves, without repeating its county', () => {
    // 96860 is both Joint Base Pearl Harbor-Hickam and a fleet post office in the data set.
    const info = lookupZip('96860');
    expect(info.valid).toBe(true);
    expect(info.stateAbbr).toBe('HI');
    expect(info.cities).toEqual(['Jbphh', 'FPO AA']);
    expect(info.counties).toEqual([{ name: 'Honolulu', fips: '15003', id: countyId('15003') }]);
  });

  it('gives military post offices their USPS state and no county', () => {
    const info = lookupZip('09007');
    expect(info).toMatchObject({ valid: true, stateAbbr: 'AE', cities: ['APO AE'], counties: [] });
  });

  it('keeps county names with accents as the data set spells them', () => {
    expect(lookupZip('88001').counties.map((county) => county.name)).toEqual(['Doña Ana']);
  });

  it('finds the first and the last ZIP of the table', () => {
    expect(lookupZip('00501')).toMatchObject({ valid: true, stateAbbr: 'NY' });
    expect(lookupZip('99950')).toMatchObject({ valid: true, stateAbbr: 'AK' });
  });

  it('answers an unknown ZIP as not valid', () => {
    expect(lookupZip('00000')).toEqual({ valid: false, zip: '00000', stateAbbr: null, cities: [], counties: [] });
    expect(lookupZip('99999').valid).toBe(false);
  });

  it.each(['abc', '1234', '', '123456', '9021O', '90210-12', '90210 1234', '-90210'])('answers the malformed ZIP %j as not valid', (zip) => {
    expect(lookupZip(zip)).toMatchObject({ valid: false, stateAbbr: null, cities: [], counties: [] });
  });

  it('answers a missing ZIP from an untyped caller as not valid rather than failing', () => {
    expect(lookupZip(undefined as unknown as string)).toMatchObject({ valid: false, zip: '' });
  });

  it('reads a ZIP+4 by its first five digits', () => {
    expect(lookupZip('90210-1234')).toEqual(lookupZip('90210'));
  });

  it('ignores blanks around a ZIP', () => {
    expect(lookupZip(' 90210 ').zip).toBe('90210');
    expect(normalizeZip('\t02134-0001\n')).toBe('02134');
  });

  it('gives each caller its own county objects', () => {
    const first = lookupZip('90210');
    first.counties[0]!.name = 'changed';
    expect(lookupZip('90210').counties[0]!.name).toBe('Los Angeles');
  });
});

describe('countyId', () => {
  it('is a name-based UUID that does not change between calls or environments', () => {
    expect(countyId('06037')).toMatch(UUID);
    expect(countyId('06037')).toBe(countyId('06037'));
    expect(countyId('06037')).toBe(uuidV5('06037', COUNTY_ID_NAMESPACE));
    expect(countyId('06037')).not.toBe(countyId('06059'));
  });

  it('follows RFC 9562 version 5 (checked against a published example)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});

describe('retrieveAddressInfoFromZip answer', () => {
  it('names the cities and counties of the ZIP', () => {
    expect(addressInfoFromZip('90210')).toEqual({ valid: true, cities: ['Beverly Hills'], counties: ['Los Angeles'], stateAbbr: 'CA' });
  });

  it('answers an unknown ZIP with empty lists and an empty state', () => {
    expect(addressInfoFromZip('00000')).toEqual({ valid: false, cities: [], counties: [], stateAbbr: '' });
  });

  it('reads a ZIP sent as a number, restoring its leading zeros', () => {
    expect(zipText(2134)).toBe('02134');
    expect(zipText(90210)).toBe('90210');
    expect(zipText(1.5)).toBe('1.5');
    expect(addressInfoFromZip(2134)).toMatchObject({ valid: true, stateAbbr: 'MA' });
  });
});

describe('retrievePropertyInfoFromZip answer', () => {
  it('gives the counties with the ids and codes a property stores', () => {
    expect(propertyInfoFromZip('90210', 'CA')).toEqual({
      info: {
        valid: true,
        zip: '90210',
        stateAbbr: 'CA',
        cities: ['Beverly Hills'],
        counties: [{ id: countyId('06037'), name: 'Los Angeles', code: '06037' }],
      },
      messages: [],
    });
  });

  it('accepts the state in any case, or no state at all', () => {
    expect(propertyInfoFromZip('90210', 'ca').info.valid).toBe(true);
    expect(propertyInfoFromZip('90210', '').info.valid).toBe(true);
    expect(propertyInfoFromZip('90210', null).info.valid).toBe(true);
    expect(propertyInfoFromZip('90210').info.stateAbbr).toBe('CA');
  });

  it("refuses a ZIP outside the property's state, saying where the ZIP is", () => {
    expect(propertyInfoFromZip('90210', 'TX')).toEqual({
      info: { valid: false, zip: '90210', stateAbbr: 'TX', cities: [], counties: [] },
      messages: ['ZIP 90210 is not in TX (it is in CA)'],
    });
  });

  it('answers an unknown ZIP as not valid without a message', () => {
    expect(propertyInfoFromZip('00000', 'CA')).toEqual({
      info: { valid: false, zip: '00000', stateAbbr: 'CA', cities: [], counties: [] },
      messages: [],
    });
  });
});
