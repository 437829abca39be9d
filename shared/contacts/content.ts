/**
 * storeNewContact's `content`: resolves the aliases and date forms of spec 4.1 into one
 * shape, reporting every missing or malformed field (with its path) at once.
 */
import type { ContactContentInput } from './schemas.js';
import type { ContactAddress, ContactEmail, ContactPhone, ContactType } from './model.js';
import { agencyDatesMessage, dateFromParts, firstDate, wholeDate } from './dates.js';

export interface NewContactContent {
  name: string;
  type: ContactType;
  agencyId?: string;
  agencyInceptionDate?: string;
  agencyTerminationDate?: string;
  /** Role names or ids from `content.roles`. */
  roleRefs: string[];
  details: Record<string, unknown>;
  addresses: ContactAddress[];
  phoneNumbers: ContactPhone[];
  emailAddresses: ContactEmail[];
}

export type Normalized<T> = { ok: true; value: T } | { ok: false; messages: string[] };

const present = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null && value !== '';
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const NORTH_AMERICA = new Set(['usa', 'us', 'united states', 'united states of america', 'canada', 'ca']);

const at = (field: string) => `content.${field}`;

export function normalizeContactContent(content: ContactContentInput, newId: () => string): Normalized<NewContactContent> {
  const messages: string[] = [];
  const name = content.name ?? '';
  if (!name) messages.push(`${at('name')}: is required`);
  const type = (content.type ?? '').toLowerCase();
  if (!type) messages.push(`${at('type')}: is required (individual or organization)`);
  else if (type !== 'individual' && type !== 'organization') messages.push(`${at('type')}: must be individual or organization`);

  const dates = contentDates(content, messages);
  const emailAddresses = contentEmails(content, newId, messages);
  const phoneNumbers = contentPhones(content, newId, messages);
  const addresses = contentAddresses(content, newId, messages);
  if (messages.length > 0) return { ok: false, messages };

  const details = withoutEmpty({
    confirmationEmail: content.confirmationEmail,
    legalEntityType: content.legalEntityType,
    website: content.website,
    username: content.username,
    cognitoUsername: content.cognitoUsername,
    riskIdNumber: content.riskIdNumber,
    licenseNumber: content.licenseNumber,
    ssn: content.ssn,
    addedBy: content.addedBy,
    isGod: content.isGod ?? undefined,
    stateId: content.stateId,
    dba: content.dba,
    purchaseDate: dates.purchaseDate,
    dob: dates.dob,
    dateBusinessStarted: dates.dbs,
    feinTaxId: content.feinTaxId ?? content.feinTax,
  });

  return {
    ok: true,
    value: withoutEmpty({
      name,
      type: type as ContactType,
      agencyId: content.agencyId ?? undefined,
      agencyInceptionDate: dates.inception,
      agencyTerminationDate: dates.termination,
      roleRefs: (content.roles ?? []).map((role) => role.trim()).filter(Boolean),
      details,
      addresses,
      phoneNumbers,
      emailAddresses,
    }),
  };
}

/** Every date of the content, each from the first of its forms given; a malformed form is reported. */
function contentDates(content: ContactContentInput, messages: string[]) {
  const dob = firstDate(wholeDate(at('dob'), content.dob), dateFromParts(at('dob'), content.dobYear, content.dobMonth, content.dobDay));
  const dbs = firstDate(
    wholeDate(at('dbs'), content.dbs),
    wholeDate(at('dateBusinessStarted'), content.dateBusinessStarted),
    dateFromParts(at('dbs'), content.dbsYear, content.dbsMonth, content.dbsDay),
  );
  const inception = firstDate(
    wholeDate(at('agencyInceptionDate'), content.agencyInceptionDate),
    dateFromParts(at('agencyInceptionDate'), content.agencyInceptionDateYear, content.agencyInceptionDateMonth, content.agencyInceptionDateDay),
  );
  const termination = firstDate(
    wholeDate(at('agencyTerminationDate'), content.agencyTerminationDate),
    dateFromParts(at('agencyTerminationDate'), content.agencyTerminationDateYear, content.agencyTerminationDateMonth, content.agencyTerminationDateDay),
  );
  const purchaseDate = wholeDate(at('purchaseDate'), content.purchaseDate);
  for (const result of [dob, dbs, inception, termination, purchaseDate]) if (result.message) messages.push(result.message);
  const datesMessage = agencyDatesMessage(inception.date, termination.date, at('agencyTerminationDate'));
  if (datesMessage) messages.push(datesMessage);
  return { dob: dob.date, dbs: dbs.date, inception: inception.date, termination: termination.date, purchaseDate: purchaseDate.date };
}

function contentEmails(content: ContactContentInput, newId: () => string, messages: string[]): ContactEmail[] {
  const emailInputs = content.emailAddresses ?? content.emails ?? [];
  const emailField = content.emailAddresses ? 'emailAddresses' : 'emails';
  const emailAddresses: ContactEmail[] = [];
  emailInputs.forEach((entry, index) => {
    const email = entry.email ?? '';
    if (!email) messages.push(`${at(`${emailField}.${index}.email`)}: is required`);
    else if (!EMAIL.test(email)) messages.push(`${at(`${emailField}.${index}.email`)}: ${JSON.stringify(email)} is not an email address`);
    else emailAddresses.push(withoutEmpty({ id: newId(), email, emailType: entry.emailType ?? entry.type ?? undefined }));
  });
  return emailAddresses;
}

function contentPhones(content: ContactContentInput, newId: () => string, messages: string[]): ContactPhone[] {
  const phoneInputs = content.phoneNumbers ?? content.phones ?? [];
  const phoneField = content.phoneNumbers ? 'phoneNumbers' : 'phones';
  const phoneNumbers: ContactPhone[] = [];
  phoneInputs.forEach((entry, index) => {
    const phone = entry.email ?? entry.phone ?? entry.phoneNumber ?? entry.number ?? '';
    if (!phone) messages.push(`${at(`${phoneField}.${index}.email`)}: the phone number is required`);
    else if (!/\d/.test(phone)) messages.push(`${at(`${phoneField}.${index}.email`)}: ${JSON.stringify(phone)} is not a phone number`);
    else phoneNumbers.push(withoutEmpty({ id: newId(), phone, phoneType: entry.phoneType ?? entry.type ?? undefined }));
  });
  return phoneNumbers;
}

function contentAddresses(content: ContactContentInput, newId: () => string, messages: string[]): ContactAddress[] {
  const addresses: ContactAddress[] = [];
  (content.addresses ?? []).forEach((entry, index) => {
    const field = (key: string) => at(`addresses.${index}.${key}`);
    const country = entry.addressCountry || 'USA';
    const northAmerican = NORTH_AMERICA.has(country.toLowerCase());
    const missing: string[] = [];
    if (!present(entry.addressLine1)) missing.push('addressLine1');
    if (!present(entry.addressCity) && !present(entry.addressCityOther)) missing.push('addressCity');
    if (northAmerican) {
      if (!present(entry.addressState) && !present(entry.addressStateCanada)) missing.push('addressState');
      if (!present(entry.addressZip)) missing.push('addressZip');
    }
    for (const key of missing) messages.push(`${field(key)}: is required`);
    if (missing.length > 0) return;
    addresses.push(
      withoutEmpty({
        id: newId(),
        addressLine1: entry.addressLine1 as string,
        addressLine2: entry.addressLine2 ?? undefined,
        addressCity: entry.addressCity ?? undefined,
        addressState: entry.addressState ?? undefined,
        addressZip: entry.addressZip ?? undefined,
        addressCountry: country,
        addressType: entry.addressType ?? entry.type ?? undefined,
        addressCityOther: entry.addressCityOther ?? undefined,
        addressCountyOther: entry.addressCountyOther ?? undefined,
        addressStateOther: entry.addressStateOther ?? undefined,
        addressStateCanada: entry.addressStateCanada ?? undefined,
      }),
    );
  });

  return addresses;
}

/** Drops undefined, null and empty-string attributes (DynamoDB and the wire both read better without them). */
export function withoutEmpty<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined && value !== null && value !== '')) as T;
}
