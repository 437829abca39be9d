/**
 * Building blocks of the quote requests (create_quote_extended, requote_extended): the
 * quote_info as existing clients send it, including the keys beyond the spec that they use
 * (policy_number, inception_date, agency_number, phones as {number, type}, additional_interests,
 * items[].sub_line, website).
 */
import * as z from 'zod/mini';
import { date, decimal, flag, freeFormValue, id, list, looseText, money, name, optional, shortText, wholeNumber } from '../platform/request-fields.js';
import { underwritingAnswer, underwritingOption } from '../policies/schemas.js';

const text = () => optional(looseText());

export const quoteAddress = z.object({
  address_line1: text(),
  address_line2: text(),
  address_city: text(),
  address_state: text(),
  address_county: text(),
  address_country: text(),
  address_zip: text(),
  type: text(),
});

export const quoteLocation = z.object({
  ...quoteAddress.shape,
  name: text(),
  year_built: text(),
  address_county_specify: text(),
  latitude: optional(decimal({ min: -90, max: 90 })),
  longitude: optional(decimal({ min: -180, max: 180 })),
  primary: optional(flag()),
});

export const quoteParty = z.object({
  name: name(),
  type: text(),
  fein_tax: text(),
  ssn: text(),
  date_business_started: optional(date()),
  legal_entity_type: text(),
  phones: optional(list(z.object({ number: looseText(40), type: text() }), 20)),
  emails: optional(list(z.object({ email: shortText(), type: text() }), 20)),
  addresses: optional(list(quoteAddress, 20)),
});

export const quoteItem = z.object({
  name: name(),
  questions: optional(z.record(z.string().check(z.maxLength(200)), freeFormValue())),
  limit: optional(money()),
  deductible: optional(money()),
  rating_details: optional(list(shortText(), 50)),
  identifier: text(),
  sub_line: text(),
  location: optional(wholeNumber({ min: 0, max: 1000 })),
});

export const quoteInfo = z.object({
  effective_date: date(),
  inception_date: optional(date()),
  line_name: name(),
  policy_type_name: name(),
  policy_number: optional(id()),
  underwriting_questions: optional(list(underwritingAnswer)),
  underwriting_options: optional(list(underwritingOption)),
  named_insureds: list(quoteParty, 20),
  additional_interests: optional(list(quoteParty, 20)),
  agency_id: optional(id()),
  agency_number: optional(id()),
  agent_id: optional(id()),
  activated: optional(flag()),
  locations: list(quoteLocation, 50),
  items: list(quoteItem, 500),
  website: text(),
});
