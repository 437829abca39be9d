/** The role aspects storeRoles may write (spec 4.1), on the contacts' leaf fields (fields.ts). */
import * as z from 'zod/mini';
import { boundedString, builtOnFirstUse, list, uuid } from '../platform/request-fields.js';
import { optionalBoolean, optionalId, optionalLongText, optionalText } from './fields.js';

const single = <K extends string>(key: K) => z.object({ [key]: optionalText() } as Record<K, ReturnType<typeof optionalText>>);

/** The role aspects storeRoles may write; only the keys passed change (built on first use). */
export const roleAspectsSchema = builtOnFirstUse(() => z.object({
  agencyInactive: optionalBoolean(),
  e2ValDisallow: optionalBoolean(),
  /** The contact (a vendor: an independent adjuster, a contractor) is paid on a Form 1099 for the role's payments (claims' vendor_payments_1099). */
  is1099Reportable: optionalBoolean(),
  defaultAgency: optionalId(),
  agencies: z.nullish(
    z.object({
      toDelete: z.nullish(list(uuid(), 100)),
      toAdd: z.nullish(list(uuid(), 100)),
    }),
  ),
  agencyDates: z.nullish(
    z.object({
      agencyInceptionDateYear: optionalText(),
      agencyInceptionDateMonth: optionalText(),
      agencyInceptionDateDay: optionalText(),
      agencyTerminationDateYear: optionalText(),
      agencyTerminationDateMonth: optionalText(),
      agencyTerminationDateDay: optionalText(),
    }),
  ),
  agencyGroup: z.nullish(z.object({ agencyGroupId: optionalText(), belongsTo: optionalBoolean() })),
  agencyNumber: z.nullish(single('agencyNumber')),
  agencyGroupNumber: z.nullish(single('agencyGroupNumber')),
  naicNumber: z.nullish(single('naicNumber')),
  producerNumber: z.nullish(single('producerNumber')),
  vendorNumber: z.nullish(single('vendorNumber')),
  creditScoreAccount: z.nullish(single('creditScoreAccount')),
  commissionPayment: z.nullish(z.object({ issueComPaymentsElectronically: optionalBoolean(), chosenCommissionAccount: optionalId() })),
  commissionStructure: z.nullish(z.object({ chosenStructure: optionalText() })),
  defaultSurplusLinesProducer: z.nullish(z.object({ defaultSurplusLineProducerId: optionalId() })),
  interestContent: z.nullish(z.object({ mortgageeStatement: optionalLongText() })),
  loginInformation: z.nullish(
    z.object({
      roleLoginUsername: optionalText(),
      roleLoginPassword: z.nullish(boundedString(1024, { trim: false })),
      roleLoginRetypePassword: z.nullish(boundedString(1024, { trim: false })),
      roleLoginEmail: optionalText(),
      timezone: optionalText(),
      oops: optionalText(),
      roleLoginAccessLevel: optionalId(),
      defaultState: optionalId(),
    }),
  ),
  notices: z.nullish(
    z.object({
      directApplicationActivityOn: optionalBoolean(),
      acceptNoticesByEmail: optionalBoolean(),
      notifyOfOverdueInvoices: optionalBoolean(),
      emailPrintList: optionalBoolean(),
      displayAgencyGroupInfoOnDec: optionalBoolean(),
      sendCommissionsElectronically: optionalBoolean(),
      ccEmail: optionalLongText(),
      directApplicationActivityTo: optionalLongText(),
      chosenEmail: optionalId(),
      commStatementChosenEmail: optionalId(),
      claimActivityChosenEmail: optionalId(),
      ccClaimEmail: optionalLongText(),
      agencyBillingEnabled: optionalBoolean(),
      doNotPrintWhenBillWhom: optionalBoolean(),
    }),
  ),
  paymentsIssued: z.nullish(z.object({ issuePaymentsElectronically: optionalBoolean(), chosenAccount: optionalId() })),
  personalInformation: z.nullish(
    z.object({
      ssn: optionalText(),
      ssnGroup: optionalText(),
      driversLicense: optionalText(),
      legalEntityType: optionalText(),
      riskIdNumber: optionalText(),
      dba: optionalText(),
      dobMonth: optionalText(),
      dobDay: optionalText(),
      dobYear: optionalText(),
      dbsMonth: optionalText(),
      dbsDay: optionalText(),
      dbsYear: optionalText(),
      sameAsSsn: optionalBoolean(),
    }),
  ),
  quotingRestriction: z.nullish(z.object({ followAgencyQuotingRestriction: optionalBoolean() })),
  sweepAccount: z.nullish(z.object({ hasSweepAccount: optionalBoolean(), chosenSweepAccount: optionalId() })),
  termination: z.nullish(z.object({ reasonTerminated: optionalLongText(), isTerminated: optionalBoolean() })),
}));

export type StoreRolesInput = { contactId: string; roleId: string } & z.output<ReturnType<typeof roleAspectsSchema>>;

