import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { clearable, decimal, flagOr, optionalFlag, uuid, builtOnFirstUse } from '../../../shared/platform/request-fields.js';
import { updatePropertyLocation, clearableText, yearBuilt } from '../../../shared/policies/index.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Some clients wrap the location twice, `{"location": {"location": {...}}}`, with the
 * flags beside either level: the inner object is the location, and flags given at the
 * top win over flags beside it.
 */
function locationWrappedOnce(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.location) || !isObject(body.location.location)) return body;
  const { location: inner, ...beside } = body.location;
  return { ...beside, ...body, location: inner };
}

export const updatePropertyLocationInput = builtOnFirstUse(() =>
  z.pipe(
    z.transform(locationWrappedOnce),
    z.object({
      location: z.object({
        id: uuid(),
        name: clearableText(),
        address_line1: clearableText(),
        address_line2: clearableText(),
        address_city: clearableText(),
        address_state: clearableText(),
        address_zip: clearableText(),
        flood_zone_code: clearableText(),
        distance_to_coast: clearableText(),
        year_built: clearable(yearBuilt()),
        address_county: clearable(uuid()),
        county_specify: clearable(uuid()),
        latitude: clearable(decimal({ min: -90, max: 90 })),
        longitude: clearable(decimal({ min: -180, max: 180 })),
        copy_address: optionalFlag(),
        primary: optionalFlag(),
      }).check(z.describe('The property and the fields to change. Also accepted wrapped twice: {"location": {"location": {...}}}.')),
      soft_geoservice_bypass: flagOr(false),
      hard_geoservice_bypass: flagOr(false),
      reset_premiums: flagOr(true),
    }),
  ),
);

export const handler = defineOperation({
  version: 'v2',
  name: 'update_property_location',
  summary: "Changes a property's name and address; county and city come from the ZIP table unless bypassed",
  permission: 'policies:write',
  input: updatePropertyLocationInput,
  resources: { table: 'write' },
  handle: async (input, { principal }) => updatePropertyLocation(principal, input),
});
