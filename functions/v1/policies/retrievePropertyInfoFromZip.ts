import { z } from 'zod';
import { DataWithMessages } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/operation.js';
import { propertyInfoFromZip } from '../../../shared/geography/zip-answers.js';

const NOT_A_PROPERTY_ID = 'must be a property id (UUID)';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrievePropertyInfoFromZip',
  summary: "Cities and counties (with county ids) a property in a US ZIP code may be placed in, and whether the ZIP is valid in the property's state",
  permission: 'geography:read',
  wrapper: 'json_dict',
  input: z.object({
    zip: z.union([z.string(), z.number()], {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a ZIP code such as 90210 or 90210-1234'),
    }),
    stateAbbr: z.string().nullish(),
    // The property being edited. Only business-location restrictions would need it, and the
    // reference product has none, so it is checked for shape but not looked up.
    propId: z.union([z.guid({ error: NOT_A_PROPERTY_ID }), z.literal('')], { error: NOT_A_PROPERTY_ID }).nullish(),
  }),
  resources: { table: 'read' },
  handle: async ({ zip, stateAbbr }) => {
    const answer = propertyInfoFromZip(zip, stateAbbr);
    return new DataWithMessages(answer.info, answer.messages);
  },
});
