/** The quotes area's types: a quote request as the schemas hand it on, and the plan built from it by name. */
import type { AttachedForm } from '../rating/index.js';
import type { StpFinding } from '../underwriting/index.js';

export interface QuoteAddress {
  address_line1?: string;
  address_line2?: string;
  address_city?: string;
  address_state?: string;
  address_county?: string;
  address_country?: string;
  address_zip?: string;
  type?: string;
}

export interface QuoteLocation extends QuoteAddress {
  name?: string;
  year_built?: string;
  address_county_specify?: string;
  latitude?: number;
  longitude?: number;
  primary?: boolean;
}

export interface QuoteParty {
  name: string;
  type?: string;
  fein_tax?: string;
  ssn?: string;
  phones?: Array<{ number: string; type?: string }>;
  emails?: Array<{ email: string; type?: string }>;
  addresses?: QuoteAddress[];
}

export interface QuoteItemRequest {
  name: string;
  questions?: Record<string, unknown>;
  limit?: string | number;
  deductible?: string | number;
  rating_details?: string[];
  identifier?: string;
  sub_line?: string;
  /** Index of the location the item is on; a property item without it goes on every location. */
  location?: number;
}

export interface QuoteInfo {
  effective_date: string;
  inception_date?: string;
  line_name: string;
  policy_type_name: string;
  policy_number?: string;
  underwriting_questions?: Array<{ questionId: string; yesNoAnswer: string; explanation?: string }>;
  underwriting_options?: Array<{ optionId: string; answer: unknown }>;
  named_insureds: QuoteParty[];
  additional_interests?: QuoteParty[];
  agency_id?: string;
  agency_number?: string;
  agent_id?: string;
  locations: QuoteLocation[];
  items: QuoteItemRequest[];
  website?: string;
}

/** One item the quote places: the catalog item, where, and the limit and deductible asked for (null: the default). */
export interface PlannedItem {
  itemId: string;
  /** Index into the plan's locations; null for a policy item. */
  location: number | null;
  limitCents: number | null;
  deductibleCents: number | null;
  /** The request item that asked for it (rating_details, identifier), if any. */
  request: QuoteItemRequest | null;
}

export interface QuotePlan {
  policyTypeId: string;
  lineId: string;
  effectiveDate: string;
  inceptionDate: string;
  /** Locations in request order, primary first marked; with their per-property answers by question id. */
  locations: Array<{ location: QuoteLocation; primary: boolean; answers: Record<string, string> }>;
  items: PlannedItem[];
  underwritingAnswers: Array<{ questionId: string; yesNoAnswer: string; explanation: string }>;
}

export interface QuoteResult {
  quote_number: string | null;
  policy_id: string | null;
  total: { pro_rata_fees: number; pro_rata_premium: number; pro_rata_total: number; annual_fees: number; annual_premium: number; annual_total: number; pro_rata_surcharges?: number; annual_surcharges?: number };
  items: Array<Record<string, unknown>>;
  forms?: AttachedForm[];
  stp?: { ran: boolean; success: boolean; details: Array<{ rule_name: string; details: string; outcome: StpFinding['outcome'] }> };
}
