import * as z from 'zod/mini';
import { DataWithMessages } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, optionalUuid, requiredOr } from '../../../shared/platform/request-fields.js';
import { propertyInfoFromZip } from '../../../shared/geography/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrievePropertyInfoFromZip',
  summary: "Cities and counties (with county ids) a property in a US ZIP code may be placed in, and whether the ZIP is valid in the property's state",
  permission: 'geography:read',
  wrapper: 'json_dict',
  input: () => z.object({
    zip: z.union([boundedString(32, { trim: false }), z.number()], { error: requiredOr('must be a ZIP code such as 90210 or 90210-1234') }),
    stateAbbr: z.nullish(boundedString(32)),
    // The property being edited. Only business-location restrictions would need it, and the
    // reference product has none, so it is checked for shape but not looked up.
    propId: optionalUuid('must be a property id (UUID)'),
  }),
  resources: { table: 'read' },
  handle: async ({ zip, stateAbbr }) => {
    const answer = propertyInfoFromZip(zip, stateAbbr);
    return new DataWithMessages(answer.info, answer.messages);
  },
});
