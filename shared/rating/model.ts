/**
 * What the rating engine reads and answers. Plain data, no storage shapes: the
 * policies area maps a stored revision (header, risks, line items) onto a
 * `RevisionToRate` and writes the `RatedRevision` figures back. Money is integer cents.
 * A stored limit that only follows its catalog default (`limitIsDefault`) maps to no
 * limit, so the engine recomputes it from the limit it follows.
 */
import type { Cents } from '../platform/money.js';
import { BusinessRuleError } from '../platform/errors.js';

/** One line item as stored on a revision: which catalog item, and the limit and deductible chosen. */
export interface LineItemToRate {
  /** The line item's own id (echoed on the rated item). */
  id: string;
  /** The catalog item it instantiates. */
  itemId: string;
  /** Absent or null: the catalog's `limit.default` applies (a stored limit that only follows the default may be left out). */
  limitCents?: Cents | null;
  /** Absent or null: the catalog's `deductible.default` applies. */
  deductibleCents?: Cents | null;
}

/** A property (risk) of the revision with its per-property answers and its property items. */
export interface PropertyToRate {
  id: string;
  /** How messages name the property (`Property #1`); the id when absent. */
  name?: string;
  /** Answers of the per-property questions (Construction Type, Protection Class), by question id. */
  answers: Readonly<Record<string, string>>;
  /**
   * The risk's descriptive fields named as on the wire (`year_built`, ...) that underwriting
   * rules read by name; any object will do, the stored risk record included.
   */
  fields?: object;
  /** Where the property lies, as its territory is read (state code, 5-digit ZIP, county name as the ZIP table names it). */
  location?: { state?: string | null; zip?: string | null; county?: string | null };
  items: readonly LineItemToRate[];
}

/** A revision to rate: what the engine needs and nothing else. */
export interface RevisionToRate {
  policyTypeId: string;
  /** `YYYY-MM-DD`; the term's days are the whole days from start to end. */
  termStart: string;
  termEnd: string;
  /** Days of the term this revision is in force for written (pro-rata) figures; the whole term when absent. */
  daysInForce?: number;
  /** Revision-level underwriting answers, by question id. */
  answers: Readonly<Record<string, string>>;
  /** The explanations given with revision-level answers, by question id: a step's trace names the one it read ("CL-2025-1 (loss date 2025-03-02)"). */
  answerNotes?: Readonly<Record<string, string>>;
  properties: readonly PropertyToRate[];
  /** Line items of the revision itself (policy-level: liability, adjustments, fees). */
  policyItems: readonly LineItemToRate[];
  /** The rate version to rate at (an endorsement: its term's); else the one in force for `rateBasis` on `termStart`. */
  rateVersionId?: string | null;
  rateBasis?: 'new_business' | 'renewal';
  /** The state whose filing rates the revision (its primary property's); the countrywide filing when absent. */
  state?: string | null;
  /**
   * A renewal: the expiring term's annual premium. When the rate version caps renewals
   * (`renewalCapPercent`), the renewal's premium rises at most that percent over it.
   */
  expiringPremiumCents?: Cents;
}

/** A renewal whose premium the rate version's cap held down: by how much, from what. */
export interface RenewalCapApplied {
  percent: string;
  expiringPremiumCents: Cents;
  /** The premium as the rates alone would have it. */
  uncappedPremiumCents: Cents;
  /** The premium charged: the expiring premium plus the cap's percent of it. */
  cappedPremiumCents: Cents;
}

/** One named step and the item's running total after it. */
export interface RatingDetail {
  name: string;
  runningTotalCents: Cents;
  /** What the step read that a reader of the trace needs (a Territory step: the territory; a step on a condition: the answer it read and its explanation). */
  basis?: string;
}

export interface RatedLineItem {
  id: string;
  itemId: string;
  name: string;
  /** The property the item is on; null for a policy-level item. */
  propertyId: string | null;
  subLineId: string;
  category: 'policy' | 'property';
  type: 'coverage' | 'adjustment' | 'nonRate' | 'fee' | 'calculation' | 'dividend';
  /** The limit and deductible the item was rated with (defaults applied); null when it has none. */
  limitCents: Cents | null;
  deductibleCents: Cents | null;
  /** Premium and fee are kept apart: a fee item has a fee and no premium, other items the reverse. */
  annualPremiumCents: Cents;
  writtenPremiumCents: Cents;
  annualFeeCents: Cents;
  writtenFeeCents: Cents;
  ratingDetails: RatingDetail[];
  /** A fee item that is a state's tax, surcharge or assessment. */
  charge?: 'tax' | 'surcharge' | 'assessment';
  /** The territory a Territory step rated the property in. */
  territory?: string;
}

export interface RatingTotals {
  annualPremiumCents: Cents;
  annualFeeCents: Cents;
  annualTotalCents: Cents;
  writtenPremiumCents: Cents;
  writtenFeeCents: Cents;
  writtenTotalCents: Cents;
  /** The part of the fees that is states' taxes, surcharges and assessments; absent when there is none. */
  annualChargeCents?: Cents;
  writtenChargeCents?: Cents;
}

/** The totals of one sub line instance: a catalog sub line on one property, or on the revision. */
export interface SubLineTotals extends RatingTotals {
  subLineId: string;
  propertyId: string | null;
}

export interface AttachedForm {
  form_code: string;
  edition_number: string;
  description: string;
}

export interface RatedRevision {
  /** The rate version the revision was rated at (null in a catalog without versions). */
  rateVersion: { id: string; name: string; productVersion?: string } | null;
  /** The state filing that rated it (`countrywide` when the state has none of its own) and the state asked about. */
  filing: { state: string; filedAs: string };
  /** In the order given: the policy items first, then each property's items. */
  items: RatedLineItem[];
  totals: RatingTotals;
  subLines: SubLineTotals[];
  forms: AttachedForm[];
  daysInTerm: number;
  daysInForce: number;
  /** Present when the rate version's renewal cap lowered the premium (each capped item's trace ends with a `Renewal Cap` step). */
  renewalCap?: RenewalCapApplied;
}

/** Where the engine was when an input was missing or unusable. */
export interface RatingInputProblem {
  propertyId: string | null;
  propertyName: string | null;
  itemId: string | null;
  itemName: string | null;
  /** What is missing or wrong, in words (`the answer to Construction Type`). */
  missing: string;
}

/**
 * The revision cannot be rated as it stands (an unanswered rating question, an item
 * without a limit, a value no table row covers): a validation failure, not a fault.
 */
export class RatingInputError extends BusinessRuleError {
  readonly problem: RatingInputProblem;
  constructor(problem: RatingInputProblem) {
    super(ratingInputMessage(problem), null);
    this.name = 'RatingInputError';
    this.problem = problem;
  }
}

function ratingInputMessage(problem: RatingInputProblem): string {
  const where = [problem.propertyName ?? problem.propertyId, problem.itemName ?? problem.itemId].filter(Boolean).join(', ');
  return where ? `Cannot rate ${where}: ${problem.missing}` : `Cannot rate the revision: ${problem.missing}`;
}

/** The catalog's rating data is not usable (an unknown step, adjustments that depend on each other): a fault of the product data. */
export class RatingRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RatingRuleError';
  }
}
