/**
 * The contacts area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { accessProfileOf, contactAtVersionCheck, getContactAccessProfile, inactiveAgencies } from './access-store.js';
export type { ContactAccessProfile } from './access-store.js';
export { ADDITIONAL_INTEREST_ROLE_ID, ADMINISTRATOR_ROLE_ID, CLAIMS_ADJUSTER_ROLE_ID, CLAIMS_MANAGER_ROLE_ID, AGENCY_ROLE_ID, AGENT_ROLE_ID, FINANCE_COMPANY_ROLE_ID, NAMED_INSURED_ROLE_ID, worksForAgencies } from './roles.js';
export { standingAdmits } from './standing.js';
export { agencyIdByNumber, newContactsOf, createContactProfileIfAbsent, contactCreationPartitions, getContact, getContacts, listPolicyLinks, plainContactRecords, policyLinkRemoval, policyLinkOf } from './store.js';
export type { ContactProfile, NewContactRecords } from './store.js';
export { getContactSummaries } from './summary-store.js';
export { contactsHoldingRole } from './role-holders.js';
export { noticeEmailOf, type ChosenEmail } from './notice-emails.js';
export type { ContactSummary } from './summary-store.js';
export { roleAspectsSchema, type StoreRolesInput } from './role-aspects-schema.js';
export { contactContentSchema } from './schemas.js';
export { lookupContactByName, retrieveAspectData, retrieveContactList, storeNewContact, storeRoles } from './service.js';
export { taxReportingContacts, type TaxReportingContact } from './tax-reporting.js';
