/**
 * Building blocks of the quote requests (create_quote_extended, requote_extended): the
 * quote_info as existing clients send it, including the keys beyond the spec that they use
 * (policy_number, inception_date, agency_number, phones as {number, type}, additional_interests,
 * items[].sub_line, website). Each is built on first use, by the first request that reads it.
 */
import * as z from 'zod/mini';
import { builtOnFirstUse, date, decimal, flag, freeFormValue, id, list, looseText, money, name, optional, shortText, wholeNumber } from '../platform/request-fields.js';
import { underwritingAnswer, underwritingOption } from '../policies/index.js';
import type { QuoteInfo } from './model.js';

const text = () => optional(looseText());

export const quoteAddress = builtOnFirstUse(() => z.object({
  address_line1: text(),
  address_line2: text(),
  address_city: text(),
  address_state: text(),
  address_county: text(),
  address_country: text(),
  address_zip: text(),
  type: text(),
}));

export const quoteLocation = builtOnFirstUse(() => z.object({
  ...quoteAddress().shape,
  name: text(),
  year_built: text(),
  address_county_specify: text(),
  latitude: optional(decimal({ min: -90, max: 90 })),
  longitude: optional(decimal({ min: -180, max: 180 })),
  primary: optional(flag()),
}));

export const quoteParty = builtOnFirstUse(() => z.object({
  name: name(),
  type: text(),
  fein_tax: text(),
  ssn: text(),
  date_business_started: optional(date()),
  legal_entity_type: text(),
  phones: optional(list(z.object({ number: looseText(40), type: text() }), 20)),
  emails: optional(list(z.object({ email: shortText(), type: text() }), 20)),
  addresses: optional(list(quoteAddress(), 20)),
}));

export const quoteItem = builtOnFirstUse(() => z.object({
  name: name(),
  questions: optional(z.record(z.string().check(z.maxLength(200)), freeFormValue())),
  limit: optional(money()),
  deductible: optional(money()),
  rating_details: optional(list(shortText(), 50)),
  identifier: text(),
  sub_line: text(),
  location: optional(wholeNumber({ min: 0, max: 1000 })),
}));

export const quoteInfo = builtOnFirstUse(() => z.object({
  effective_date: date(),
  inception_date: optional(date()),
  line_name: name(),
  policy_type_name: name(),
  policy_number: optional(id()),
  underwriting_questions: optional(list(underwritingAnswer())),
  underwriting_options: optional(list(underwritingOption())),
  named_insureds: list(quoteParty(), 20),
  additional_interests: optional(list(quoteParty(), 20)),
  agency_id: optional(id()),
  agency_number: optional(id()),
  agent_id: optional(id()),
  activated: optional(flag()),
  locations: list(quoteLocation(), 50),
  items: list(quoteItem(), 500),
  website: text(),
}));

/**
 * create_quote's quote_info (spec 4.5): one named insured given by name, type and address,
 * items by name with their questions, limit and deductible.
 */
export const simpleQuoteInfo = builtOnFirstUse(() => z.object({
  effective_date: date(),
  line_name: name(),
  policy_type_name: name(),
  underwriting_questions: optional(list(underwritingAnswer())),
  named_insured: name(),
  named_insured_type: text(),
  named_insured_address: optional(
    z.object({ ...quoteAddress().shape, latitude: optional(decimal({ min: -90, max: 90 })), longitude: optional(decimal({ min: -180, max: 180 })) }),
  ),
  agency_id: optional(id()),
  agent_id: optional(id()),
  activated: optional(flag()),
  locations: list(quoteLocation(), 50),
  items: list(quoteItem(), 500),
  soft_geoservice_bypass: optional(flag()),
  hard_geoservice_bypass: optional(flag()),
}));

export type SimpleQuoteInfo = z.infer<ReturnType<typeof simpleQuoteInfo>>;

/** create_quote's request as the quote_info of create_quote_extended: its one insured becomes the list of one. */
export function fromSimpleQuote(info: SimpleQuoteInfo): QuoteInfo {
  const address = info.named_insured_address;
  return {
    effective_date: info.effective_date,
    line_name: info.line_name,
    policy_type_name: info.policy_type_name,
    ...(info.underwriting_questions ? { underwriting_questions: info.underwriting_questions } : {}),
    named_insureds: [{ name: info.named_insured, ...(info.named_insured_type ? { type: info.named_insured_type } : {}), addresses: address ? [address] : [] }],
    ...(info.agency_id ? { agency_id: info.agency_id } : {}),
    ...(info.agent_id ? { agent_id: info.agent_id } : {}),
    locations: info.locations,
    items: info.items,
  };
}
