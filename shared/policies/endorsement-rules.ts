/**
 * The rules of a mid-term change (an endorsement), as plain functions over plain data: the
 * daily pro-rata additional or return premium of each item, the written and earned premium
 * of a term over its committed revisions, which revision is in force on a day and which are
 * superseded, the out-of-sequence rebase (fields changed, conflicts, re-application), and how
 * an additional premium is spread over the installments not yet billed. No I/O.
 */
import { daysBetween } from '../platform/dates.js';
import { prorate, sum, type Cents } from '../platform/money.js';

export interface TermDates {
  effectiveDate: string;
  expirationDate: string;
}

/** An item's annual figures in one revision; fees are pro-rated only when the product says so. */
export interface ItemAnnual {
  id: string;
  name: string;
  premiumCents: Cents;
  feeCents: Cents;
  feeProRata: boolean;
}

export interface ItemPremiumChange {
  id: string;
  name: string;
  oldAnnualPremiumCents: Cents;
  newAnnualPremiumCents: Cents;
  /** Positive: additional premium; negative: return premium; for the days from the change to the term's end. */
  additionalPremiumCents: Cents;
  oldAnnualFeeCents: Cents;
  newAnnualFeeCents: Cents;
  additionalFeeCents: Cents;
}

export const daysInTerm = (term: TermDates) => daysBetween(term.effectiveDate, term.expirationDate);

/** True when `date` is a day of the term on which a change can take effect (the expiration day is not: nothing is left to change). */
export function isWithinTerm(term: TermDates, date: string): boolean {
  return date >= term.effectiveDate && date < term.expirationDate;
}

/**
 * Per item: (new annual − old annual) × days from `from` to `to` (the term's end unless told)
 * ÷ days in the term, rounded half-up to the cent. Items are matched by id; an item only on
 * one side counts as 0 on the other (a coverage added or removed). Fees that are fully earned
 * change by their whole difference.
 */
export function itemPremiumChanges(before: readonly ItemAnnual[], after: readonly ItemAnnual[], term: TermDates, from: string, to = term.expirationDate): ItemPremiumChange[] {
  const total = daysInTerm(term);
  const days = Math.max(0, daysBetween(from, to));
  const old = new Map(before.map((item) => [item.id, item]));
  const fresh = new Map(after.map((item) => [item.id, item]));
  const ids = [...new Set([...before.map((item) => item.id), ...after.map((item) => item.id)])];
  return ids.map((id) => {
    const was = old.get(id);
    const now = fresh.get(id);
    const oldPremium = was?.premiumCents ?? 0;
    const newPremium = now?.premiumCents ?? 0;
    const oldFee = was?.feeCents ?? 0;
    const newFee = now?.feeCents ?? 0;
    const feeProRata = (now ?? was)!.feeProRata;
    return {
      id,
      name: (now ?? was)!.name,
      oldAnnualPremiumCents: oldPremium,
      newAnnualPremiumCents: newPremium,
      additionalPremiumCents: prorate(newPremium - oldPremium, days, total),
      oldAnnualFeeCents: oldFee,
      newAnnualFeeCents: newFee,
      additionalFeeCents: feeProRata ? prorate(newFee - oldFee, days, total) : newFee - oldFee,
    };
  });
}

export const additionalPremiumOf = (changes: readonly ItemPremiumChange[]) => sum(changes.map((change) => change.additionalPremiumCents));
export const additionalFeeOf = (changes: readonly ItemPremiumChange[]) => sum(changes.map((change) => change.additionalFeeCents));

// ---------------------------------------------------------------- a term's committed revisions

/** A committed revision as the premium rules see it. */
export interface CommittedVersion {
  id: string;
  revisionDate: string;
  /** Orders revisions of one date: the one committed later supersedes. */
  committedAt: string;
  items: readonly ItemAnnual[];
}

/** Committed revisions in the order they take effect. */
export function inEffectOrder<T extends { revisionDate: string; committedAt: string }>(versions: readonly T[]): T[] {
  return [...versions].sort((a, b) => a.revisionDate.localeCompare(b.revisionDate) || a.committedAt.localeCompare(b.committedAt));
}

/** The revision in force on a day: the last, in effect order, dated on or before it. */
export function inForceOn<T extends { revisionDate: string; committedAt: string }>(versions: readonly T[], date: string): T | undefined {
  return inEffectOrder(versions).filter((version) => version.revisionDate <= date).at(-1);
}

export interface TermPremium {
  writtenPremiumCents: Cents;
  writtenFeeCents: Cents;
  /** Earned by the end of `asOf` (the whole written premium when absent). */
  earnedPremiumCents: Cents;
}

/**
 * Written and earned premium over a term's committed revisions, daily pro rata: the first
 * revision's annual premium for the whole term, then each later revision's per-item change
 * for the days from its date to the term's end (the same figure its endorsement billed, so
 * the written premium and the account can never disagree by a cent).
 */
export function termPremium(term: TermDates, versions: readonly CommittedVersion[], asOf?: string): TermPremium {
  const ordered = inEffectOrder(versions);
  const total = daysInTerm(term);
  let written = 0;
  let fees = 0;
  let earned = 0;
  ordered.forEach((version, index) => {
    const from = index === 0 ? term.effectiveDate : version.revisionDate;
    const changes = itemPremiumChanges(index === 0 ? [] : ordered[index - 1].items, version.items, term, from);
    written += additionalPremiumOf(changes);
    fees += additionalFeeOf(changes);
    const end = asOf === undefined ? term.expirationDate : asOf < term.expirationDate ? asOf : term.expirationDate;
    const elapsed = Math.max(0, daysBetween(from, end));
    earned += sum(changes.map((change) => prorate(change.newAnnualPremiumCents - change.oldAnnualPremiumCents, elapsed, total)));
  });
  return { writtenPremiumCents: written, writtenFeeCents: fees, earnedPremiumCents: asOf === undefined ? written : earned };
}

// ---------------------------------------------------------------- revision states

export type ShownRevisionState = 'open' | 'committed' | 'superseded' | 'archived' | 'pending';

export interface RevisionFacts {
  id: string;
  revisionState: string;
  revisionDate: string;
  committedAt: string;
}

export interface RevisionPeriod {
  id: string;
  state: ShownRevisionState;
  /** Committed revisions: the days it is (or was) in force, `from` inclusive, `to` exclusive. */
  from: string | null;
  to: string | null;
}

/**
 * The state each revision of a term is shown in: a committed revision is in force from its
 * date until the next committed one's; one replaced for the rest of the term is `superseded`
 * and keeps its earlier period. Other revisions keep their stored state.
 */
export function revisionPeriods(term: TermDates, revisions: readonly RevisionFacts[]): RevisionPeriod[] {
  const committed = inEffectOrder(revisions.filter((revision) => revision.revisionState === 'committed'));
  const periods = new Map<string, RevisionPeriod>();
  committed.forEach((revision, index) => {
    const next = committed[index + 1];
    const from = index === 0 && revision.revisionDate < term.effectiveDate ? term.effectiveDate : revision.revisionDate;
    periods.set(revision.id, { id: revision.id, state: next ? 'superseded' : 'committed', from, to: next ? next.revisionDate : term.expirationDate });
  });
  return revisions.map((revision) => periods.get(revision.id) ?? { id: revision.id, state: revision.revisionState as ShownRevisionState, from: null, to: null });
}

// ---------------------------------------------------------------- out of sequence

export type FieldValue = string | number | boolean | null;

/** One field of a revision's coverage (an item's limit, deductible, manual premium, or whether it is there). */
export interface CoverageField {
  key: string;
  label: string;
  value: FieldValue;
}

export interface FieldChange {
  key: string;
  label: string;
  before: FieldValue;
  after: FieldValue;
}

/** An item as the rebase reads it. */
export interface CoverageItem {
  id: string;
  name: string;
  limitCents: Cents | null;
  /** A limit that only follows another (10% of the Dwelling) is not a field of its own. */
  limitIsDefault: boolean;
  deductibleCents: Cents | null;
  manual: boolean;
  annualPremiumCents: Cents | null;
}

/** The fields of a revision's coverage, by key. */
export function coverageFields(items: readonly CoverageItem[]): Map<string, CoverageField> {
  const fields = new Map<string, CoverageField>();
  const add = (key: string, label: string, value: FieldValue) => fields.set(key, { key, label, value });
  for (const item of items) {
    add(`${item.id}.present`, `${item.name} (coverage)`, true);
    if (!item.limitIsDefault) add(`${item.id}.limit`, `${item.name} limit`, item.limitCents);
    add(`${item.id}.deductible`, `${item.name} deductible`, item.deductibleCents);
    if (item.manual) add(`${item.id}.premium`, `${item.name} manual premium`, item.annualPremiumCents);
  }
  return fields;
}

/** What changed from one revision's coverage to another's; an item removed is its `present` going false. */
export function fieldChanges(before: readonly CoverageItem[], after: readonly CoverageItem[]): FieldChange[] {
  const was = coverageFields(before);
  const now = coverageFields(after);
  const changes: FieldChange[] = [];
  for (const [key, field] of now) {
    const old = was.get(key);
    const oldValue = old ? old.value : key.endsWith('.present') ? false : null;
    if (oldValue !== field.value) changes.push({ key, label: field.label, before: oldValue, after: field.value });
  }
  for (const [key, field] of was) {
    if (now.has(key)) continue;
    const itemGone = !now.has(`${key.slice(0, key.lastIndexOf('.'))}.present`);
    // A field of a removed item goes with it; only its presence is a change.
    if (itemGone && !key.endsWith('.present')) continue;
    changes.push({ key, label: field.label, before: field.value, after: key.endsWith('.present') ? false : null });
  }
  return changes;
}

export interface OosConflict {
  /** The later committed revision that set the field itself. */
  revisionId: string;
  field: string;
  label: string;
  laterValue: FieldValue;
  newValue: FieldValue;
}

export type Resolution = 'keep_later' | 'take_new';

/** The new change's fields a later revision also changed, to a different value: the caller must choose. */
export function conflictsOf(newChanges: readonly FieldChange[], later: { revisionId: string; ownChanges: readonly FieldChange[] }): OosConflict[] {
  const own = new Map(later.ownChanges.map((change) => [change.key, change]));
  return newChanges
    .filter((change) => own.has(change.key) && own.get(change.key)!.after !== change.after)
    .map((change) => ({ revisionId: later.revisionId, field: change.key, label: change.label, laterValue: own.get(change.key)!.after, newValue: change.after }));
}

/**
 * The changes a later revision takes on: every field of the new change, except those the later
 * revision set itself (it keeps its own value: a conflict resolved `keep_later`, or the same value).
 */
export function changesToReapply(newChanges: readonly FieldChange[], later: { ownChanges: readonly FieldChange[] }, resolutions: ReadonlyMap<string, Resolution>): FieldChange[] {
  const own = new Map(later.ownChanges.map((change) => [change.key, change]));
  return newChanges.filter((change) => !own.has(change.key) || (own.get(change.key)!.after !== change.after && resolutions.get(change.key) === 'take_new'));
}

/**
 * Applies field changes to a revision's items: a limit, deductible or manual premium set, an
 * item removed, or an item added (taken from `added`, placed by the caller's `place`).
 */
export function applyFieldChanges<T extends CoverageItem>(items: readonly T[], changes: readonly FieldChange[], added: (id: string) => T | undefined): T[] {
  let result = items.map((item) => ({ ...item }));
  for (const change of changes) {
    const cut = change.key.lastIndexOf('.');
    const id = change.key.slice(0, cut);
    const field = change.key.slice(cut + 1);
    if (field === 'present') {
      if (change.after === false) result = result.filter((item) => item.id !== id);
      else if (!result.some((item) => item.id === id)) {
        const item = added(id);
        if (item) result.push({ ...item });
      }
      continue;
    }
    const item = result.find((candidate) => candidate.id === id);
    if (!item) continue;
    if (field === 'limit') Object.assign(item, { limitCents: change.after as Cents | null, limitIsDefault: false });
    else if (field === 'deductible') item.deductibleCents = change.after as Cents | null;
    else if (field === 'premium') item.annualPremiumCents = change.after as Cents | null;
  }
  return result;
}

// ---------------------------------------------------------------- billing the change

export interface UnbilledInstallment {
  number: number;
  billDate: string;
  dueDate: string;
  amountCents: Cents;
}

export interface InstallmentShare extends UnbilledInstallment {
  /** The part of the endorsement's premium billed with this installment. */
  shareCents: Cents;
}

/** An additional premium spread evenly over the installments not yet billed (half-up; the last takes the remainder). */
export function spreadOverInstallments(additionalCents: Cents, unbilled: readonly UnbilledInstallment[]): InstallmentShare[] {
  if (unbilled.length === 0) return [];
  const each = prorate(additionalCents, 1, unbilled.length);
  return unbilled.map((installment, index) => {
    const shareCents = index === unbilled.length - 1 ? additionalCents - each * (unbilled.length - 1) : each;
    return { ...installment, shareCents, amountCents: installment.amountCents + shareCents };
  });
}

/**
 * Each item's written premium and fee over the committed revisions given (the first written
 * whole, each later one's change for its remaining days): the figures a revision stores.
 */
export function writtenByItem(term: TermDates, versions: readonly CommittedVersion[]): Map<string, { premiumCents: Cents; feeCents: Cents }> {
  const ordered = inEffectOrder(versions);
  const written = new Map<string, { premiumCents: Cents; feeCents: Cents }>();
  ordered.forEach((version, index) => {
    const from = index === 0 ? term.effectiveDate : version.revisionDate;
    for (const change of itemPremiumChanges(index === 0 ? [] : ordered[index - 1].items, version.items, term, from)) {
      const sofar = written.get(change.id) ?? { premiumCents: 0, feeCents: 0 };
      written.set(change.id, { premiumCents: sofar.premiumCents + change.additionalPremiumCents, feeCents: sofar.feeCents + change.additionalFeeCents });
    }
  });
  return written;
}

/**
 * The same figures from a revision whose written premium is known (stored when it was
 * committed): `versions[0]` is that revision, `start` its items' written figures; each later
 * version adds its per-item change for its remaining days. Only the revisions from the one in
 * force onwards need reading, however many came before.
 */
export function writtenByItemFrom(
  term: TermDates,
  start: ReadonlyMap<string, { premiumCents: Cents; feeCents: Cents }>,
  versions: readonly CommittedVersion[],
): Map<string, { premiumCents: Cents; feeCents: Cents }> {
  const ordered = inEffectOrder(versions);
  const written = new Map([...start].map(([id, figures]) => [id, { ...figures }]));
  ordered.forEach((version, index) => {
    if (index === 0) return;
    for (const change of itemPremiumChanges(ordered[index - 1].items, version.items, term, version.revisionDate)) {
      const sofar = written.get(change.id) ?? { premiumCents: 0, feeCents: 0 };
      written.set(change.id, { premiumCents: sofar.premiumCents + change.additionalPremiumCents, feeCents: sofar.feeCents + change.additionalFeeCents });
    }
  });
  return written;
}

/**
 * The premium each committed revision after the first adds, by the date it takes effect from
 * (its per-item change for its remaining days, as writtenByItemFrom adds it): what the term's
 * earning holds as one layer per date. Zero changes are left out.
 */
export function writtenChangesByDate(term: TermDates, versions: readonly CommittedVersion[]): Map<string, Cents> {
  const ordered = inEffectOrder(versions);
  const byDate = new Map<string, Cents>();
  ordered.forEach((version, index) => {
    if (index === 0) return;
    const cents = additionalPremiumOf(itemPremiumChanges(ordered[index - 1].items, version.items, term, version.revisionDate));
    if (cents !== 0) byDate.set(version.revisionDate, (byDate.get(version.revisionDate) ?? 0) + cents);
  });
  return byDate;
}

/**
 * What a change of a term's chain of revisions does to its written premium, date by date: the
 * difference of each date's layer after and before (an out-of-sequence endorsement adds its own
 * from its date and changes those of the revisions re-applied on top of it from theirs). The
 * layers add up to the change of the term's written premium exactly.
 */
export function premiumChangeLayers(term: TermDates, before: readonly CommittedVersion[], after: readonly CommittedVersion[]): Array<{ from: string; cents: Cents }> {
  const was = writtenChangesByDate(term, before);
  const is = writtenChangesByDate(term, after);
  return [...new Set([...was.keys(), ...is.keys()])]
    .sort()
    .map((from) => ({ from, cents: (is.get(from) ?? 0) - (was.get(from) ?? 0) }))
    .filter((layer) => layer.cents !== 0);
}

export function totalOf(written: ReadonlyMap<string, { premiumCents: Cents; feeCents: Cents }>): { writtenPremiumCents: Cents; writtenFeeCents: Cents } {
  const figures = [...written.values()];
  return { writtenPremiumCents: sum(figures.map((figure) => figure.premiumCents)), writtenFeeCents: sum(figures.map((figure) => figure.feeCents)) };
}
