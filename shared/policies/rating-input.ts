/**
 * The adapter between stored revisions and the rating engine: a snapshot becomes a
 * `RevisionToRate`, and a `RatedRevision` becomes the premiums and step trace stored on
 * the line items and the revision's totals. Pure: no I/O.
 */
import { toAmount, type Cents } from '../platform/money.js';
import type { LineItemToRate, RatedLineItem, RatedRevision, RevisionToRate, RatingDetail } from '../rating/index.js';
import type { LineItemRecord, RevisionRecord, RevisionSnapshot } from './model.js';
import { bySortOrder } from './wire.js';

function lineToRate(item: LineItemRecord): LineItemToRate {
  // A limit that only follows its catalog default is recomputed by the engine from the limit it follows.
  return { id: item.id, itemId: item.itemId, limitCents: item.limitIsDefault ? null : item.limitCents, deductibleCents: item.deductibleCents };
}

/** The rating input of a stored revision; revision-level answers come from its underwriting questions. */
export function revisionToRate(snapshot: RevisionSnapshot): RevisionToRate {
  const items = [...snapshot.items].sort(bySortOrder);
  const answers = Object.fromEntries(snapshot.header.underwritingQuestions.map((answer) => [answer.questionId, answer.yesNoAnswer]));
  const answerNotes = Object.fromEntries(snapshot.header.underwritingQuestions.filter((answer) => answer.explanation?.trim()).map((answer) => [answer.questionId, answer.explanation]));
  // The primary property's state files the policy's rates; each property's territory is read from its own place.
  const primary = snapshot.risks.find((risk) => risk.primary) ?? snapshot.risks[0];
  return {
    state: primary?.address_state ?? null,
    policyTypeId: snapshot.header.policyTypeId,
    termStart: snapshot.header.termStart,
    termEnd: snapshot.header.termEnd,
    answers,
    ...(Object.keys(answerNotes).length ? { answerNotes } : {}),
    properties: snapshot.risks.map((risk) => ({
      id: risk.id,
      name: risk.name,
      answers: risk.questions,
      fields: risk,
      location: { state: risk.address_state ?? null, zip: risk.address_zip ?? null, county: risk.county?.name ?? null },
      items: items.filter((item) => item.riskId === risk.id).map(lineToRate),
    })),
    policyItems: items.filter((item) => !item.riskId).map(lineToRate),
    // An endorsement keeps the rates its term was rated at; new business and renewals take those in force on their start.
    ...(snapshot.header.endorsement && snapshot.header.rateVersion ? { rateVersionId: snapshot.header.rateVersion.id } : {}),
    rateBasis: snapshot.header.transactionType === 'renewal' ? 'renewal' : 'new_business',
    // A renewal (held, rated again) is capped over the premium of the term it renews; its endorsements are not capped again.
    ...(snapshot.header.transactionType === 'renewal' && !snapshot.header.endorsement && snapshot.header.renewal ? { expiringPremiumCents: snapshot.header.renewal.previousAnnualPremiumCents } : {}),
  };
}

/** The step trace as stored and shown: each named step's running total, in step order. */
export function ratingTrace(details: readonly RatingDetail[]): Record<string, number> {
  return Object.fromEntries(details.map((detail) => [detail.name, toAmount(detail.runningTotalCents)]));
}

/** What the trace's steps read, by step name (the territory, the answer a condition read), as stored and shown beside it; undefined when none says. */
export function ratingBasis(details: readonly RatingDetail[]): Record<string, string> | undefined {
  const said = details.filter((detail) => detail.basis);
  return said.length ? Object.fromEntries(said.map((detail) => [detail.name, detail.basis!])) : undefined;
}

/** Premiums set by hand or by an external rater are the item's; rating leaves them. */
const keepsOwnPremium = (item: LineItemRecord) => item.manual || item.premiumSource === 'external';

export function ratedItem(item: LineItemRecord, rated: RatedLineItem | undefined): LineItemRecord {
  if (!rated || keepsOwnPremium(item)) return item;
  const { ratingBasis: _earlier, ...rest } = item;
  const basis = ratingBasis(rated.ratingDetails);
  return {
    ...rest,
    annualPremiumCents: rated.annualPremiumCents,
    writtenPremiumCents: rated.writtenPremiumCents,
    annualFeeCents: rated.annualFeeCents,
    writtenFeeCents: rated.writtenFeeCents,
    ratingDetails: ratingTrace(rated.ratingDetails),
    ...(basis ? { ratingBasis: basis } : {}),
    premiumSource: 'calculated',
  };
}

export type RevisionTotals = Pick<RevisionRecord, 'annualPremiumCents' | 'writtenPremiumCents' | 'annualFeeCents' | 'writtenFeeCents'>;

export function totalsOfItems(items: readonly LineItemRecord[]): RevisionTotals {
  const add = (pick: (item: LineItemRecord) => Cents | null) => items.reduce((total, item) => total + (pick(item) ?? 0), 0);
  return {
    annualPremiumCents: add((item) => item.annualPremiumCents),
    writtenPremiumCents: add((item) => item.writtenPremiumCents),
    annualFeeCents: add((item) => item.annualFeeCents),
    writtenFeeCents: add((item) => item.writtenFeeCents),
  };
}

/** Every item of the snapshot with its rated figures, and the revision totals they add up to with the rate version they were rated at. */
export function applyRating(snapshot: RevisionSnapshot, rated: RatedRevision): { items: LineItemRecord[]; totals: RevisionTotals & Pick<RevisionRecord, 'rateVersion'> } {
  const byId = new Map(rated.items.map((item) => [item.id, item]));
  const items = snapshot.items.map((item) => ratedItem(item, byId.get(item.id)));
  return { items, totals: { ...totalsOfItems(items), ...(rated.rateVersion ? { rateVersion: rated.rateVersion } : {}) } };
}
