/**
 * What the moratoriums area keeps: a binding moratorium (where, for which products, from when
 * to when, what it blocks), an underwriter's release of one policy from one, and each call a
 * moratorium refused (the carrier's report to agents). Plain data and the area's errors.
 */
import { BusinessRuleError } from '../platform/errors.js';

export const MORATORIUM_KINDS = ['underwriting', 'regulatory'] as const;
export type MoratoriumKind = (typeof MORATORIUM_KINDS)[number];

/** What a moratorium may stop. Renewals on the same terms, payments and decreases are never among them. */
export const MORATORIUM_BLOCKS = ['new_business', 'coverage_increase', 'reinstatement', 'cancellation', 'non_renewal'] as const;
export type MoratoriumBlock = (typeof MORATORIUM_BLOCKS)[number];

export interface Moratorium {
  moratoriumId: string;
  /** The event it answers (`Hurricane Milton`). */
  name: string;
  kind: MoratoriumKind;
  /** Two-letter state codes, 5-digit county FIPS codes, 5-digit ZIPs: a property in any of them is in the area. */
  states: string[];
  counties: string[];
  zips: string[];
  /** Policy type names; empty: every product. */
  products: string[];
  blocks: MoratoriumBlock[];
  /** Instants (ISO 8601). */
  startsAt: string;
  endsAt: string | null;
  declaredBy: string;
  declaredAt: string;
  liftedAt: string | null;
  liftedBy: string | null;
  version: number;
}

/** One policy let through one moratorium by an underwriter. */
export interface MoratoriumRelease {
  moratoriumId: string;
  policyId: string;
  reason: string;
  releasedBy: string;
  releasedAt: string;
}

/** A call a moratorium refused. */
export interface MoratoriumRefusal {
  moratoriumId: string;
  refusalId: string;
  /** The block that refused it (`new_business`, ...). */
  refused: MoratoriumBlock;
  /** The call refused (`bind`, `issue`, `endorsement`, ...). */
  operation: string;
  policyId: string;
  policyNumber: string;
  agencyId: string | null;
  by: string;
  at: string;
}

/** Where a property is, as a moratorium matches it: its own location, never a mailing address. */
export interface PropertyLocation {
  state: string | null;
  /** Its county's FIPS code(s): the one set on the property, else every county its ZIP serves. */
  counties: string[];
  zip: string | null;
}

/** What a moratorium is asked about: a policy's properties and policy type, at an instant. */
export interface MoratoriumSubject {
  locations: PropertyLocation[];
  policyTypeName: string;
}

export class MoratoriumNotFoundError extends BusinessRuleError {
  constructor(moratoriumId: string) {
    super(`moratorium_id: moratorium ${moratoriumId.slice(0, 60)} was not found`);
    this.name = 'MoratoriumNotFoundError';
  }
}

/** A move refused because a policy falls under one or more moratoriums: the message names them. */
export class MoratoriumRefusalError extends BusinessRuleError {
  constructor(policyNumber: string, what: string, moratoriums: readonly Pick<Moratorium, 'moratoriumId' | 'name'>[]) {
    super(
      `Policy ${policyNumber}: ${what} is refused under ${moratoriums.length === 1 ? 'the moratorium' : 'the moratoriums'} ${moratoriums.map((moratorium) => `"${moratorium.name}"`).join(', ')}`,
      { moratoriums: moratoriums.map((moratorium) => ({ moratorium_id: moratorium.moratoriumId, name: moratorium.name })) },
    );
    this.name = 'MoratoriumRefusalError';
  }
}
