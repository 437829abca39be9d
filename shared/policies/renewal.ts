/**
 * A renewal as data: the next term of an expiring one, and its revision copied from the
 * revision in force at expiry under the product's renewal rules (new mandatory items added,
 * items no longer offered removed). Rating is the caller's (the renew move rates the copy at
 * the rates in force for renewals on its effective date). No I/O.
 */
import type { ProductCatalog } from '../catalog/index.js';
import { addMonths } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Cents } from '../platform/money.js';
import { endorsementCopy } from './endorsement-copy.js';
import type { RevisionSnapshot, TermRecord } from './model.js';
import { answersAfterClaims, type AnswerFromClaims, type RenewalLoss } from './renewal-losses.js';
import { availabilityOf, findItemDefinition, missingMandatoryItems } from './structure.js';
import { monthsOf, RENEWAL_TERM_TYPES, type TermType } from './terms.js';
import { NO_UNDERWRITING } from './underwriting-fields.js';

export interface RenewalDraftFacts {
  termId: string;
  revisionId: string;
  /** The renew move's decision date. */
  today: string;
  now: Date;
  newId: () => string;
  /** The policy's claims (any term's): those in a claims-answered question's years answer it on the renewal. */
  losses?: readonly RenewalLoss[];
}

/** The renewal term's type: the expiring term's renewal type, else one year. */
export function renewalTermType(expiring: Pick<TermRecord, 'renewalType' | 'termType'>): TermType {
  const named = (RENEWAL_TERM_TYPES as readonly string[]).includes(expiring.renewalType) ? expiring.renewalType : undefined;
  return (named ?? '1 Year') as TermType;
}

/** The dates of the term that renews `expiring`: from its expiration, for the renewal term type. */
export function renewalTermDates(expiring: Pick<TermRecord, 'expirationDate' | 'renewalType' | 'termType'>): { effectiveDate: string; expirationDate: string; termType: TermType; termLength: number } {
  const termType = renewalTermType(expiring);
  const months = monthsOf(termType)!;
  return { effectiveDate: expiring.expirationDate, expirationDate: addMonths(expiring.expirationDate, months), termType, termLength: months };
}

/** The renewal term record (its revision listed; the watch index is the store's). */
export function renewalTermRecord(expiring: TermRecord, facts: Pick<RenewalDraftFacts, 'termId' | 'revisionId'>): TermRecord {
  const dates = renewalTermDates(expiring);
  return {
    entity: 'PolicyTerm',
    id: facts.termId,
    policyId: expiring.policyId,
    effectiveDate: dates.effectiveDate,
    expirationDate: dates.expirationDate,
    isRenewal: true,
    termLength: dates.termLength,
    termType: dates.termType,
    renewalType: dates.termType,
    renewalStatus: '',
    renewalStatusDescription: '',
    manualReason: '',
    renewalStatusReasonId: null,
    revisionIds: [facts.revisionId],
    cancellationStatus: null,
    cancelPendingDate: null,
    cancelReasonId: null,
    cancelDate: null,
    renewal: null,
    renewedFromTermId: expiring.id,
    expiredOn: null,
    version: 1,
  };
}

export interface RenewalDraft {
  term: TermRecord;
  /** The renewal revision, not yet rated. */
  snapshot: RevisionSnapshot;
  itemsAdded: string[];
  itemsRemoved: string[];
  /** Underwriting answers the policy's claims gave the renewal ("Losses in past 3 years": yes, with the claims). */
  answersFromClaims: AnswerFromClaims[];
}

/**
 * The renewal's revision: a copy of `base` (the expiring term's revision in force at expiry)
 * placed in the new term, with the product's renewal rules applied and the underwriting
 * answers the policy's claims give (renewal-losses.ts). It starts open and Submitted; the move
 * commits it, or holds it for review.
 */
export function renewalDraft(base: RevisionSnapshot, expiring: TermRecord, product: ProductCatalog, facts: RenewalDraftFacts): RenewalDraft {
  const term = renewalTermRecord(expiring, facts);
  const copy = endorsementCopy(base, { revisionId: facts.revisionId, revisionDate: term.effectiveDate, today: facts.today, newId: facts.newId });
  const { endorsement: _endorsement, renewal: _renewal, ...header } = copy.header;
  const policyTypeId = header.policyTypeId;
  const offered = (itemId: string) => {
    const definition = findItemDefinition(product, itemId);
    return !!definition && availabilityOf(definition, policyTypeId) !== undefined;
  };
  const removed = copy.items.filter((item) => !offered(item.itemId));
  const answered = answersAfterClaims(product, header.underwritingQuestions ?? [], facts.losses ?? [], term.effectiveDate);
  const kept = copy.items.filter((item) => offered(item.itemId));
  const renewed: RevisionSnapshot = {
    ...copy,
    header: {
      ...header,
      policyTermId: term.id,
      termStart: term.effectiveDate,
      termEnd: term.expirationDate,
      revisionState: 'open',
      policyStatus: 'Submitted',
      policyStatusReasonId: null,
      cancelDate: null,
      commitDate: null,
      description: 'Renewal',
      decDescription: 'Renewal',
      transactionType: 'renewal',
      underwritingQuestions: answered.answers,
      underwriting: NO_UNDERWRITING,
      underwritingContacted: false,
      underwritingContactedDate: null,
      builderPending: false,
    },
    items: kept,
  };
  const added = missingMandatoryItems(product, renewed, policyTypeId, facts.now, facts.newId);
  if (renewed.risks.length === 0 && base.risks.length > 0) throw new BusinessRuleError(`Policy ${base.header.policyNumber}: its revision has no property left to renew`);
  return {
    term,
    snapshot: { ...renewed, items: [...kept, ...added] },
    itemsAdded: added.map((item) => item.name),
    itemsRemoved: removed.map((item) => item.name),
    answersFromClaims: answered.fromClaims,
  };
}

/** The percent a premium changed by, to two decimals, as text ("5.25", "-3.00"); "0.00" from nothing. */
export function premiumChangePercent(previousCents: Cents, renewedCents: Cents): string {
  if (previousCents <= 0) return renewedCents > 0 ? '100.00' : '0.00';
  const hundredths = Math.round(((renewedCents - previousCents) * 10_000) / previousCents);
  const sign = hundredths < 0 ? '-' : '';
  const magnitude = Math.abs(hundredths);
  return `${sign}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

/** Whether a renewal's premium rose past the carrier's review threshold (a percent, as decimal text). */
export function needsReview(previousCents: Cents, renewedCents: Cents, thresholdPercent: string): boolean {
  if (previousCents <= 0) return false;
  // Compared in integers: rise / previous > threshold / 100, with the threshold to four decimals.
  const thresholdTenThousandths = Math.round(Number(thresholdPercent) * 10_000);
  return (renewedCents - previousCents) * 100 * 10_000 > thresholdTenThousandths * previousCents;
}
