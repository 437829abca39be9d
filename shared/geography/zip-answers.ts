/**
 * What the two ZIP operations answer, as plain functions over the bundled ZIP table.
 * An unknown or malformed ZIP is an ordinary answer (`valid: false`), never an error:
 * address forms call these while the user is still typing.
 */
import { lookupZip } from './zip-lookup.js';

/** `retrieveAddressInfoFromZip` (spec 4.1): names only, for a contact's address form. */
export interface AddressZipInfo {
  valid: boolean;
  cities: string[];
  counties: string[];
  /** Empty when the ZIP is unknown: the contract types the field as a string. */
  stateAbbr: string;
}

/**
 * Some clients send the ZIP as a JSON number, which has lost its leading zeros
 * (2134 for 02134): a whole number that fits is read back as 5 digits.
 */
export function zipText(zip: string | number): string {
  if (typeof zip === 'string') return zip;
  return Number.isInteger(zip) && zip >= 0 && zip <= 99999 ? String(zip).padStart(5, '0') : String(zip);
}

export function addressInfoFromZip(zip: string | number): AddressZipInfo {
  const info = lookupZip(zipText(zip));
  return {
    valid: info.valid,
    cities: info.cities,
    counties: info.counties.map((county) => county.name),
    stateAbbr: info.stateAbbr ?? '',
  };
}

/** A county as a property carries it (spec 2.8 `county`): the id is what `address_county` takes. */
export interface PropertyCounty {
  id: string;
  name: string;
  /** 5-digit FIPS code. */
  code: string;
}

/** `retrievePropertyInfoFromZip` (spec 4.3). */
export interface PropertyZipInfo {
  valid: boolean;
  zip: string;
  stateAbbr: string;
  cities: string[];
  counties: PropertyCounty[];
}

export interface PropertyZipAnswer {
  info: PropertyZipInfo;
  /** Why a ZIP that exists was still not accepted for the property. */
  messages: string[];
}

/**
 * Cities and counties a property in `zip` may be placed in. When the caller names the
 * property's state, the ZIP must lie in it: a ZIP of another state is not valid for the
 * property, as if the data set had been searched by state and ZIP together.
 *
 * Counties are meant to be cross-referenced with the carrier's business locations (the
 * counties it writes business in). The reference product writes business everywhere and
 * defines no business-location restrictions, so every county of the ZIP is returned.
 */
export function propertyInfoFromZip(zip: string | number, stateAbbr?: string | null): PropertyZipAnswer {
  const info = lookupZip(zipText(zip));
  const wantedState = stateAbbr?.trim().toUpperCase() || null;
  if (info.valid && wantedState !== null && info.stateAbbr !== wantedState) {
    return {
      info: { valid: false, zip: info.zip, stateAbbr: wantedState, cities: [], counties: [] },
      messages: [`ZIP ${info.zip} is not in ${wantedState}${info.stateAbbr ? ` (it is in ${info.stateAbbr})` : ''}`],
    };
  }
  return {
    info: {
      valid: info.valid,
      zip: info.zip,
      stateAbbr: info.stateAbbr ?? wantedState ?? '',
      cities: info.cities,
      counties: info.counties.map((county) => ({ id: county.id, name: county.name, code: county.fips })),
    },
    messages: [],
  };
}
