/** The contact records as stored (see docs/data-model.md, Contacts). */

export type ContactType = 'individual' | 'organization';

export interface ContactAddress {
  id: string;
  addressLine1: string;
  addressLine2?: string;
  addressCity?: string;
  addressState?: string;
  addressZip?: string;
  addressCountry: string;
  addressType?: string;
  addressCityOther?: string;
  addressCountyOther?: string;
  addressStateOther?: string;
  addressStateCanada?: string;
}

export interface ContactPhone {
  id: string;
  phone: string;
  phoneType?: string;
}

export interface ContactEmail {
  id: string;
  email: string;
  emailType?: string;
}

/** What storeRoles' loginInformation leaves readable on the profile; the password hash lives apart. */
export interface ContactLogin {
  username: string;
  confirmationEmail?: string;
  accessLevel?: string;
  timezone?: string;
  defaultState?: string;
  oops?: string;
}

/**
 * The profile record: identity, roles, agencies and the contact's "card" (addresses,
 * phones, emails) so that a page of contacts is one BatchGet of profiles.
 */
export interface ContactRecord {
  id: string;
  name: string;
  type: ContactType;
  roleIds: string[];
  /** Agencies the contact belongs to; an agency contact belongs to itself. */
  agencyIds: string[];
  createdAt: string;
  updatedAt?: string;
  version: number;
  createdBy?: string;
  defaultAgency?: string;
  agencyInceptionDate?: string;
  agencyTerminationDate?: string;
  /** Denormalised from the Agency/Agent role aspects for lookups. */
  agencyGroupNumber?: string;
  agencyInactive?: boolean;
  /** Any of its roles' aspects says `termination.isTerminated`: kept here so that authentication reads one record. */
  terminated?: boolean;
  /**
   * The contact takes its notices by e-mail (storeRoles `notices.acceptNoticesByEmail` of any
   * of its roles, the last one stored); absent: paper. Kept here so that a deliverable made
   * for the contact reads it with the profile.
   */
  acceptNoticesByEmail?: boolean;
  details?: Record<string, unknown>;
  addresses?: ContactAddress[];
  phoneNumbers?: ContactPhone[];
  emailAddresses?: ContactEmail[];
  login?: ContactLogin;
}

/** Aspect data of one role (storeRoles), stored on the contact's role record. */
export type RoleAspects = Record<string, unknown>;

export interface PolicyLink {
  policyId: string;
  policyNumber?: string | null;
  roleId: string;
  [attribute: string]: unknown;
}
