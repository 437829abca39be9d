/**
 * Request building blocks of the contacts operations (spec 4.1), on the house vocabulary
 * (shared/platform/request-fields.ts): the content of a new contact, with the types the
 * contacts service takes (the role aspects storeRoles writes are in role-aspects-schema.ts).
 * Real clients send numbers and booleans as strings and leave optional fields null, so the
 * leaf types are lenient; aliases and dates are resolved afterwards by plain functions
 * (content.ts, aspects.ts) so that each problem is reported once, naming its field. Each
 * operation's own schema is in its entry file under functions/v1/contacts/.
 */
import * as z from 'zod/mini';
import { builtOnFirstUse, list, looseText } from '../platform/request-fields.js';
import { optionalBoolean, optionalId, optionalLongText, optionalText } from './fields.js';

const emailSchema = builtOnFirstUse(() => z.object({
  email: optionalText(),
  emailType: optionalText(),
  /** Alias of emailType. */
  type: optionalText(),
}));

const phoneSchema = builtOnFirstUse(() => z.object({
  phoneType: optionalText(),
  /** Alias of phoneType. */
  type: optionalText(),
  /** The spec's name for the number itself. */
  email: optionalText(),
  phone: optionalText(),
  phoneNumber: optionalText(),
  number: optionalText(),
}));

const addressSchema = builtOnFirstUse(() => z.object({
  addressLine1: optionalText(),
  addressLine2: optionalText(),
  addressCity: optionalText(),
  addressState: optionalText(),
  addressZip: optionalText(),
  addressCountry: optionalText(),
  addressType: optionalText(),
  /** Alias of addressType. */
  type: optionalText(),
  addressCityOther: optionalText(),
  addressCountyOther: optionalText(),
  addressStateOther: optionalText(),
  addressStateCanada: optionalText(),
}));

export const contactContentSchema = builtOnFirstUse(() => z.object({
  name: optionalText(),
  type: optionalText(),
  confirmationEmail: optionalText(),
  legalEntityType: optionalText(),
  website: optionalLongText(),
  username: optionalText(),
  cognitoUsername: optionalText(),
  riskIdNumber: optionalText(),
  licenseNumber: optionalText(),
  ssn: optionalText(),
  addedBy: optionalText(),
  isGod: optionalBoolean(),
  agencyId: optionalId(),
  stateId: optionalId(),
  dba: optionalText(),
  purchaseDate: optionalText(),
  roles: z.nullish(list(looseText(), 100)),
  dob: optionalText(),
  dobYear: optionalText(),
  dobMonth: optionalText(),
  dobDay: optionalText(),
  dbs: optionalText(),
  dateBusinessStarted: optionalText(),
  dbsYear: optionalText(),
  dbsMonth: optionalText(),
  dbsDay: optionalText(),
  agencyInceptionDate: optionalText(),
  agencyInceptionDateYear: optionalText(),
  agencyInceptionDateMonth: optionalText(),
  agencyInceptionDateDay: optionalText(),
  agencyTerminationDate: optionalText(),
  agencyTerminationDateYear: optionalText(),
  agencyTerminationDateMonth: optionalText(),
  agencyTerminationDateDay: optionalText(),
  feinTaxId: optionalText(),
  /** Alias of feinTaxId. */
  feinTax: optionalText(),
  emailAddresses: z.nullish(list(emailSchema(), 100)),
  /** Alias of emailAddresses. */
  emails: z.nullish(list(emailSchema(), 100)),
  phoneNumbers: z.nullish(list(phoneSchema(), 100)),
  /** Alias of phoneNumbers. */
  phones: z.nullish(list(phoneSchema(), 100)),
  addresses: z.nullish(list(addressSchema(), 100)),
}));

export type ContactContentInput = z.output<ReturnType<typeof contactContentSchema>>;

export interface StoreNewContactInput {
  role?: string | null;
  content: ContactContentInput;
}

