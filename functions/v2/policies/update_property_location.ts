import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { updatePropertyLocation } from '../../../shared/policies/risk-service.js';
import { clearableText, flag, id, optionalFlag } from '../../../shared/policies/schemas.js';

const text = () => clearableText().optional();
const coordinate = () =>
  z
    .union([z.number(), z.string(), z.null()])
    .transform((value, context) => {
      if (value === null || value === '') return null;
      const number = Number(value);
      if (Number.isNaN(number)) {
        context.addIssue({ code: 'custom', message: 'must be a number' });
        return z.NEVER;
      }
      return number;
    })
    .optional();

export const handler = defineOperation({
  version: 'v2',
  name: 'update_property_location',
  summary: "Changes a property's name and address; county and city come from the ZIP table unless bypassed",
  permission: 'policies:write',
  input: z.object({
    location: z.object({
      id: id(),
      name: text(),
      address_line1: text(),
      address_line2: text(),
      address_city: text(),
      address_state: text(),
      address_zip: text(),
      flood_zone_code: text(),
      distance_to_coast: text(),
      year_built: text(),
      address_county: text(),
      county_specify: text(),
      latitude: coordinate(),
      longitude: coordinate(),
      copy_address: optionalFlag(),
      primary: optionalFlag(),
    }),
    soft_geoservice_bypass: flag(false),
    hard_geoservice_bypass: flag(false),
    reset_premiums: flag(true),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updatePropertyLocation(principal, input),
});
