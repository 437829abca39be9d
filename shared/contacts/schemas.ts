/**
 * Request building blocks of the contacts operations (spec 4.1), on the house vocabulary
 * (shared/platform/request-fields.ts): the content of a new contact and the role aspects
 * storeRoles writes, with the types the contacts service takes. Real clients send numbers
 * and booleans as strings and leave optional fields null, so the leaf types are lenient;
 * aliases and dates are resolved afterwards by plain functions (content.ts, aspects.ts) so
 * that each problem is reported once, naming its field. Each operation's own schema is in
 * its entry file under functions/v1/contacts/.
 */
import * as z from 'zod/mini';
import { boundedString, clearable, flag, LIMITS, list, looseText, uuid } from '../platform/request-fields.js';

/** An id where an empty string means "none chosen", read as null. */
const optionalId = clearable(uuid());
const optionalText = z.nullish(looseText());
/** Statements, reasons and lists of addresses, longer than a name. */
const optionalLongText = z.nullish(looseText(LIMITS.textLength));
const optionalBoolean = z.nullish(flag());

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
  website: optionalLongText,
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
  roles: z.nullish(list(looseText(), 100)),
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
  emailAddresses: z.nullish(list(emailSchema, 100)),
  /** Alias of emailAddresses. */
  emails: z.nullish(list(emailSchema, 100)),
  phoneNumbers: z.nullish(list(phoneSchema, 100)),
  /** Alias of phoneNumbers. */
  phones: z.nullish(list(phoneSchema, 100)),
  addresses: z.nullish(list(addressSchema, 100)),
});

export type ContactContentInput = z.output<typeof contactContentSchema>;

export interface StoreNewContactInput {
  role?: string | null;
  content: ContactContentInput;
}

const single = <K extends string>(key: K) => z.object({ [key]: optionalText } as Record<K, typeof optionalText>);

/** The role aspects storeRoles may write; only the keys passed change. */
export const roleAspectsSchema = z.object({
  agencyInactive: optionalBoolean,
  e2ValDisallow: optionalBoolean,
  defaultAgency: optionalId,
  agencies: z.nullish(
    z.object({
      toDelete: z.nullish(list(uuid(), 100)),
      toAdd: z.nullish(list(uuid(), 100)),
    }),
  ),
  agencyDates: z.nullish(
    z.object({
      agencyInceptionDateYear: optionalText,
      agencyInceptionDateMonth: optionalText,
      agencyInceptionDateDay: optionalText,
      agencyTerminationDateYear: optionalText,
      agencyTerminationDateMonth: optionalText,
      agencyTerminationDateDay: optionalText,
    }),
  ),
  agencyGroup: z.nullish(z.object({ agencyGroupId: optionalText, belongsTo: optionalBoolean })),
  agencyNumber: z.nullish(single('agencyNumber')),
  agencyGroupNumber: z.nullish(single('agencyGroupNumber')),
  naicNumber: z.nullish(single('naicNumber')),
  producerNumber: z.nullish(single('producerNumber')),
  vendorNumber: z.nullish(single('vendorNumber')),
  creditScoreAccount: z.nullish(single('creditScoreAccount')),
  commissionPayment: z.nullish(z.object({ issueComPaymentsElectronically: optionalBoolean, chosenCommissionAccount: optionalId })),
  commissionStructure: z.nullish(z.object({ chosenStructure: optionalText })),
  defaultSurplusLinesProducer: z.nullish(z.object({ defaultSurplusLineProducerId: optionalId })),
  interestContent: z.nullish(z.object({ mortgageeStatement: optionalLongText })),
  loginInformation: z.nullish(
    z.object({
      roleLoginUsername: optionalText,
      roleLoginPassword: z.nullish(boundedString(1024, { trim: false })),
      roleLoginRetypePassword: z.nullish(boundedString(1024, { trim: false })),
      roleLoginEmail: optionalText,
      timezone: optionalText,
      oops: optionalText,
      roleLoginAccessLevel: optionalId,
      defaultState: optionalId,
    }),
  ),
  notices: z.nullish(
    z.object({
      directApplicationActivityOn: optionalBoolean,
      acceptNoticesByEmail: optionalBoolean,
      notifyOfOverdueInvoices: optionalBoolean,
      emailPrintList: optionalBoolean,
      displayAgencyGroupInfoOnDec: optionalBoolean,
      sendCommissionsElectronically: optionalBoolean,
      ccEmail: optionalLongText,
      directApplicationActivityTo: optionalLongText,
      chosenEmail: optionalId,
      commStatementChosenEmail: optionalId,
      claimActivityChosenEmail: optionalId,
      ccClaimEmail: optionalLongText,
      agencyBillingEnabled: optionalBoolean,
      doNotPrintWhenBillWhom: optionalBoolean,
    }),
  ),
  paymentsIssued: z.nullish(z.object({ issuePaymentsElectronically: optionalBoolean, chosenAccount: optionalId })),
  personalInformation: z.nullish(
    z.object({
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
    }),
  ),
  quotingRestriction: z.nullish(z.object({ followAgencyQuotingRestriction: optionalBoolean })),
  sweepAccount: z.nullish(z.object({ hasSweepAccount: optionalBoolean, chosenSweepAccount: optionalId })),
  termination: z.nullish(z.object({ reasonTerminated: optionalLongText, isTerminated: optionalBoolean })),
});

export type StoreRolesInput = { contactId: string; roleId: string } & z.output<typeof roleAspectsSchema>;

/** pageSize up to 10000: real clients ask for everything at once. */
export const MAX_PAGE_SIZE = 10_000;
