/**
 * Request schemas of the contacts operations (spec 4.1). Real clients send numbers and
 * booleans as strings and leave optional fields null, so the leaf types are lenient;
 * aliases and dates are resolved afterwards by plain functions (content.ts, aspects.ts)
 * so that each problem is reported once, naming its field.
 */
import { z } from 'zod';

/** A text field that may arrive as a number (a zip code, a year). */
export const looseText = z.union([z.string(), z.number()]).transform((value) => String(value).trim());

/** A boolean that may arrive as `"true"` / `"false"`. */
export const looseBoolean = z.union(
  [
    z.boolean(),
    z.enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE', '1', '0']).transform((value) => value.toLowerCase() === 'true' || value === '1'),
  ],
  { error: (issue) => (issue.input === undefined ? 'is required' : 'must be true or false') },
);

/** A whole number that may arrive as a string (`currentPage: "2"`). */
export const looseInteger = z.union(
  [
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'must be a whole number')
      .transform((value) => Number(value)),
  ],
  { error: (issue) => (issue.input === undefined ? 'is required' : 'must be a whole number') },
);

/** An id; an empty string means "none chosen" and is read as null. */
export const optionalId = z
  .union([z.guid(), z.literal('')])
  .nullish()
  .transform((value) => (value === '' ? null : value));

const optionalText = looseText.nullish();
const optionalBoolean = looseBoolean.nullish();

const emailSchema = z.object({
  email: optionalText,
  emailType: optionalText,
  /** Alias of emailType. */
  type: optionalText,
});

const phoneSchema = z.object({
  phoneType: optionalText,
  /** Alias of phoneType. */
  type: optionalText,
  /** The spec's name for the number itself. */
  email: optionalText,
  phone: optionalText,
  phoneNumber: optionalText,
  number: optionalText,
});

const addressSchema = z.object({
  addressLine1: optionalText,
  addressLine2: optionalText,
  addressCity: optionalText,
  addressState: optionalText,
  addressZip: optionalText,
  addressCountry: optionalText,
  addressType: optionalText,
  /** Alias of addressType. */
  type: optionalText,
  addressCityOther: optionalText,
  addressCountyOther: optionalText,
  addressStateOther: optionalText,
  addressStateCanada: optionalText,
});

export const contactContentSchema = z.object({
  name: optionalText,
  type: optionalText,
  confirmationEmail: optionalText,
  legalEntityType: optionalText,
  website: optionalText,
  username: optionalText,
  cognitoUsername: optionalText,
  riskIdNumber: optionalText,
  licenseNumber: optionalText,
  ssn: optionalText,
  addedBy: optionalText,
  isGod: optionalBoolean,
  agencyId: optionalId,
  stateId: optionalId,
  dba: optionalText,
  purchaseDate: optionalText,
  roles: z.array(z.string()).nullish(),
  dob: optionalText,
  dobYear: optionalText,
  dobMonth: optionalText,
  dobDay: optionalText,
  dbs: optionalText,
  dateBusinessStarted: optionalText,
  dbsYear: optionalText,
  dbsMonth: optionalText,
  dbsDay: optionalText,
  agencyInceptionDate: optionalText,
  agencyInceptionDateYear: optionalText,
  agencyInceptionDateMonth: optionalText,
  agencyInceptionDateDay: optionalText,
  agencyTerminationDate: optionalText,
  agencyTerminationDateYear: optionalText,
  agencyTerminationDateMonth: optionalText,
  agencyTerminationDateDay: optionalText,
  feinTaxId: optionalText,
  /** Alias of feinTaxId. */
  feinTax: optionalText,
  emailAddresses: z.array(emailSchema).nullish(),
  /** Alias of emailAddresses. */
  emails: z.array(emailSchema).nullish(),
  phoneNumbers: z.array(phoneSchema).nullish(),
  /** Alias of phoneNumbers. */
  phones: z.array(phoneSchema).nullish(),
  addresses: z.array(addressSchema).nullish(),
});

export type ContactContentInput = z.output<typeof contactContentSchema>;

export const storeNewContactSchema = z.object({
  role: optionalText,
  content: contactContentSchema,
});

export type StoreNewContactInput = z.output<typeof storeNewContactSchema>;

const single = <K extends string>(key: K) => z.object({ [key]: optionalText } as Record<K, typeof optionalText>);

export const storeRolesSchema = z.object({
  contactId: z.guid(),
  roleId: z.guid(),
  agencyInactive: optionalBoolean,
  e2ValDisallow: optionalBoolean,
  defaultAgency: optionalId,
  agencies: z
    .object({
      toDelete: z.array(z.guid()).nullish(),
      toAdd: z.array(z.guid()).nullish(),
    })
    .nullish(),
  agencyDates: z
    .object({
      agencyInceptionDateYear: optionalText,
      agencyInceptionDateMonth: optionalText,
      agencyInceptionDateDay: optionalText,
      agencyTerminationDateYear: optionalText,
      agencyTerminationDateMonth: optionalText,
      agencyTerminationDateDay: optionalText,
    })
    .nullish(),
  agencyGroup: z.object({ agencyGroupId: optionalText, belongsTo: optionalBoolean }).nullish(),
  agencyNumber: single('agencyNumber').nullish(),
  agencyGroupNumber: single('agencyGroupNumber').nullish(),
  naicNumber: single('naicNumber').nullish(),
  producerNumber: single('producerNumber').nullish(),
  vendorNumber: single('vendorNumber').nullish(),
  creditScoreAccount: single('creditScoreAccount').nullish(),
  commissionPayment: z.object({ issueComPaymentsElectronically: optionalBoolean, chosenCommissionAccount: optionalId }).nullish(),
  commissionStructure: z.object({ chosenStructure: optionalText }).nullish(),
  defaultSurplusLinesProducer: z.object({ defaultSurplusLineProducerId: optionalId }).nullish(),
  interestContent: z.object({ mortgageeStatement: optionalText }).nullish(),
  loginInformation: z
    .object({
      roleLoginUsername: optionalText,
      roleLoginPassword: z.string().nullish(),
      roleLoginRetypePassword: z.string().nullish(),
      roleLoginEmail: optionalText,
      timezone: optionalText,
      oops: optionalText,
      roleLoginAccessLevel: optionalId,
      defaultState: optionalId,
    })
    .nullish(),
  notices: z
    .object({
      directApplicationActivityOn: optionalBoolean,
      acceptNoticesByEmail: optionalBoolean,
      notifyOfOverdueInvoices: optionalBoolean,
      emailPrintList: optionalBoolean,
      displayAgencyGroupInfoOnDec: optionalBoolean,
      sendCommissionsElectronically: optionalBoolean,
      ccEmail: optionalText,
      directApplicationActivityTo: optionalText,
      chosenEmail: optionalId,
      commStatementChosenEmail: optionalId,
      claimActivityChosenEmail: optionalId,
      ccClaimEmail: optionalText,
      agencyBillingEnabled: optionalBoolean,
      doNotPrintWhenBillWhom: optionalBoolean,
    })
    .nullish(),
  paymentsIssued: z.object({ issuePaymentsElectronically: optionalBoolean, chosenAccount: optionalId }).nullish(),
  personalInformation: z
    .object({
      ssn: optionalText,
      ssnGroup: optionalText,
      driversLicense: optionalText,
      legalEntityType: optionalText,
      riskIdNumber: optionalText,
      dba: optionalText,
      dobMonth: optionalText,
      dobDay: optionalText,
      dobYear: optionalText,
      dbsMonth: optionalText,
      dbsDay: optionalText,
      dbsYear: optionalText,
      sameAsSsn: optionalBoolean,
    })
    .nullish(),
  quotingRestriction: z.object({ followAgencyQuotingRestriction: optionalBoolean }).nullish(),
  sweepAccount: z.object({ hasSweepAccount: optionalBoolean, chosenSweepAccount: optionalId }).nullish(),
  termination: z.object({ reasonTerminated: optionalText, isTerminated: optionalBoolean }).nullish(),
});

export type StoreRolesInput = z.output<typeof storeRolesSchema>;

export const retrieveAspectDataSchema = z.object({
  id: z.guid(),
  roleId: z.guid(),
  /** Typed string in the legacy schema; required, and must be true for API-key callers. */
  hasPermissions: looseBoolean,
  all: looseBoolean.nullish().transform((value) => value ?? false),
});

export const lookupContactByNameSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty'),
  role: z.string().trim().min(1, 'must not be empty'),
  role_type: z
    .string()
    .trim()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(['individual', 'organization'], { message: 'must be individual or organization' })),
});

/** pageSize up to 10000: real clients ask for everything at once. */
export const MAX_PAGE_SIZE = 10_000;

export const retrieveContactListSchema = z.object({
  searchString: z.string().nullish().transform((value) => value ?? ''),
  filter: z.string().nullish().transform((value) => value ?? ''),
  currentPage: looseInteger.pipe(z.number().min(1, 'must be 1 or more')),
  pageSize: looseInteger.pipe(z.number().min(1, 'must be 1 or more').max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)),
});
