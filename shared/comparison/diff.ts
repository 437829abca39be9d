/**
 * What changed between two revisions of one policy, field by field, as plain functions over
 * the two revisions' snapshots: items added, removed and changed (limit, deductible, premium),
 * the underwriting answers, the properties and their locations, the contacts by role, the
 * policy type and term dates, the rate version; and what the change costs, per item and in
 * total, a year and for the rest of the term. No I/O: the read service (service.ts) loads the
 * snapshots and names the contacts, questions and policy types.
 */
import { daysBetween } from '../platform/dates.js';
import { formatCents, prorate, sum, type Cents } from '../platform/money.js';
import type { LineItemRecord, RevisionSnapshot, RiskRecord } from '../policies/index.js';

/** One field's two values, as a person reads them. */
export interface FieldDifference {
  field: string;
  from: string | null;
  to: string | null;
}

export interface ItemFigures {
  name: string;
  /** The property it covers (its name), or null for a policy-level item. */
  property: string | null;
  limitCents: Cents | null;
  deductibleCents: Cents | null;
  annualPremiumCents: Cents;
}

export interface ItemChange {
  name: string;
  property: string | null;
  changes: FieldDifference[];
}

export interface ItemPremiumDifference {
  name: string;
  property: string | null;
  fromAnnualCents: Cents;
  toAnnualCents: Cents;
  annualChangeCents: Cents;
  /** For the days from the later revision's date to the term's end (null across terms). */
  termChangeCents: Cents | null;
}

export interface PropertyFigures {
  name: string;
  address: string;
}

export interface ContactDifference {
  role: string;
  added: string[];
  removed: string[];
}

export interface RevisionComparison {
  policyType: FieldDifference | null;
  termDates: FieldDifference[];
  rateVersion: FieldDifference | null;
  answers: FieldDifference[];
  properties: { added: PropertyFigures[]; removed: PropertyFigures[]; changed: Array<{ name: string; changes: FieldDifference[] }> };
  contacts: ContactDifference[];
  items: { added: ItemFigures[]; removed: ItemFigures[]; changed: ItemChange[] };
  premium: {
    items: ItemPremiumDifference[];
    fromAnnualCents: Cents;
    toAnnualCents: Cents;
    annualChangeCents: Cents;
    /** The rest-of-term change and the day it is counted from (both null across terms). */
    termChangeCents: Cents | null;
    termChangeFrom: string | null;
  };
}

/** Names the service resolves: contacts, questions, policy types (an id stands for itself when unknown). */
export interface ComparisonNames {
  contact?: (contactId: string) => string | undefined;
  question?: (questionId: string) => string | undefined;
  policyType?: (policyTypeId: string) => string | undefined;
}

const LOCATION_FIELDS = ['address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip', 'flood_zone_code', 'distance_to_coast', 'year_built'] as const;

const amount = (cents: Cents | null) => (cents === null ? null : formatCents(cents));
const differs = (field: string, from: string | null | undefined, to: string | null | undefined): FieldDifference[] => ((from ?? null) === (to ?? null) ? [] : [{ field, from: from ?? null, to: to ?? null }]);
/** Items a revision keeps (an out-of-sequence rejection is no item of it). */
const liveItems = (snapshot: RevisionSnapshot) => snapshot.items.filter((item) => item.persistStatus !== 'rejected');
const lineageOf = (risk: RiskRecord) => risk.lineageId ?? risk.id;

function addressOf(risk: RiskRecord): string {
  return [risk.address_line1, risk.address_line2, risk.address_city, [risk.address_state, risk.address_zip].filter(Boolean).join(' ')].filter((part) => part && part.trim()).join(', ');
}

/** A revision's items keyed so that one coverage meets itself in the other: by id (kept within a term), else by catalog item and property lineage. */
function keyedItems(snapshot: RevisionSnapshot) {
  const risks = new Map(snapshot.risks.map((risk) => [risk.id, risk]));
  return liveItems(snapshot).map((item) => {
    const risk = item.riskId ? risks.get(item.riskId) : undefined;
    return { item, property: risk?.name ?? null, lineKey: `${item.itemId}#${risk ? lineageOf(risk) : 'policy'}` };
  });
}

function figuresOf(entry: { item: LineItemRecord; property: string | null }): ItemFigures {
  return { name: entry.item.name, property: entry.property, limitCents: entry.item.limitCents, deductibleCents: entry.item.deductibleCents, annualPremiumCents: entry.item.annualPremiumCents ?? 0 };
}

function pairItems(from: RevisionSnapshot, to: RevisionSnapshot) {
  const before = keyedItems(from);
  const after = keyedItems(to);
  const pairs: Array<{ before?: (typeof before)[number]; after?: (typeof after)[number] }> = [];
  const unmatched = new Set(after);
  for (const entry of before) {
    const match = after.find((candidate) => unmatched.has(candidate) && candidate.item.id === entry.item.id) ?? after.find((candidate) => unmatched.has(candidate) && candidate.lineKey === entry.lineKey);
    if (match) unmatched.delete(match);
    pairs.push({ before: entry, after: match });
  }
  for (const entry of after) if (unmatched.has(entry)) pairs.push({ after: entry });
  return pairs;
}

function contactDifferences(from: RevisionSnapshot, to: RevisionSnapshot, name: (id: string) => string): ContactDifference[] {
  const roles: Array<[string, (snapshot: RevisionSnapshot) => Array<string | null>]> = [
    ['Named Insured', (snapshot) => snapshot.header.contacts.namedInsuredIds],
    ['Additional Interest', (snapshot) => snapshot.header.contacts.additionalInterestIds],
    ['Agent', (snapshot) => [snapshot.header.contacts.agentId]],
    ['Agency', (snapshot) => [snapshot.header.contacts.agencyId]],
    ['Mortgagee', (snapshot) => snapshot.mortgagees.map((mortgagee) => mortgagee.contactId)],
  ];
  return roles.flatMap(([role, of]) => {
    const was = new Set(of(from).filter((id): id is string => !!id));
    const now = new Set(of(to).filter((id): id is string => !!id));
    const added = [...now].filter((id) => !was.has(id)).map(name);
    const removed = [...was].filter((id) => !now.has(id)).map(name);
    return added.length || removed.length ? [{ role, added, removed }] : [];
  });
}

function answerDifferences(from: RevisionSnapshot, to: RevisionSnapshot, question: (id: string) => string): FieldDifference[] {
  const answer = (snapshot: RevisionSnapshot) => new Map(snapshot.header.underwritingQuestions.map((given) => [given.questionId, [given.yesNoAnswer, given.explanation].filter(Boolean).join(': ')]));
  const option = (snapshot: RevisionSnapshot) => new Map(snapshot.header.underwritingOptions.map((given) => [given.optionId, typeof given.answer === 'string' ? given.answer : JSON.stringify(given.answer ?? null)]));
  const compare = (was: Map<string, string>, now: Map<string, string>) =>
    [...new Set([...was.keys(), ...now.keys()])].flatMap((id) => differs(question(id), was.get(id), now.get(id)));
  return [...compare(answer(from), answer(to)), ...compare(option(from), option(to))];
}

function propertyDifferences(from: RevisionSnapshot, to: RevisionSnapshot, question: (id: string) => string): RevisionComparison['properties'] {
  const later = new Map(to.risks.map((risk) => [lineageOf(risk), risk]));
  const earlier = new Map(from.risks.map((risk) => [lineageOf(risk), risk]));
  const figures = (risk: RiskRecord): PropertyFigures => ({ name: risk.name, address: addressOf(risk) });
  const changed = from.risks.flatMap((was) => {
    const now = later.get(lineageOf(was));
    if (!now) return [];
    const changes = [
      ...differs('name', was.name, now.name),
      ...LOCATION_FIELDS.flatMap((field) => differs(field, was[field], now[field])),
      ...differs('county', was.county?.name, now.county?.name),
      ...differs('latitude', was.latitude?.toString(), now.latitude?.toString()),
      ...differs('longitude', was.longitude?.toString(), now.longitude?.toString()),
      ...[...new Set([...Object.keys(was.questions), ...Object.keys(now.questions)])].flatMap((id) => differs(question(id), was.questions[id], now.questions[id])),
    ];
    return changes.length ? [{ name: now.name, changes }] : [];
  });
  return {
    added: to.risks.filter((risk) => !earlier.has(lineageOf(risk))).map(figures),
    removed: from.risks.filter((risk) => !later.has(lineageOf(risk))).map(figures),
    changed,
  };
}

/**
 * Every difference from `from` to `to` (two revisions of one policy, either order). Within one
 * term, each item's annual change is also priced for the rest of the term as an endorsement
 * bills it: (to − from) × days from the later revision's date to the term's end ÷ days in the
 * term, half-up to the cent; the total is the sum of the items'.
 */
export function compareRevisions(from: RevisionSnapshot, to: RevisionSnapshot, names: ComparisonNames = {}): RevisionComparison {
  const contact = (id: string) => names.contact?.(id) ?? id;
  const question = (id: string) => names.question?.(id) ?? id;
  const policyType = (id: string) => names.policyType?.(id) ?? id;
  const a = from.header;
  const b = to.header;

  const pairs = pairItems(from, to);
  const itemChanges = pairs.flatMap(({ before, after }) => {
    if (!before || !after) return [];
    const changes = [
      ...differs('limit', amount(before.item.limitCents), amount(after.item.limitCents)),
      ...differs('deductible', amount(before.item.deductibleCents), amount(after.item.deductibleCents)),
      ...differs('annual premium', amount(before.item.annualPremiumCents ?? 0), amount(after.item.annualPremiumCents ?? 0)),
    ];
    return changes.length ? [{ name: after.item.name, property: after.property, changes }] : [];
  });

  const sameTerm = a.policyTermId === b.policyTermId;
  const changeFrom = a.revisionDate > b.revisionDate ? a.revisionDate : b.revisionDate;
  const termDays = daysBetween(b.termStart, b.termEnd);
  const daysLeft = Math.max(0, daysBetween(changeFrom, b.termEnd));
  const premiumItems = pairs
    .map(({ before, after }): ItemPremiumDifference => {
      const fromAnnual = before?.item.annualPremiumCents ?? 0;
      const toAnnual = after?.item.annualPremiumCents ?? 0;
      const annualChange = toAnnual - fromAnnual;
      return {
        name: (after ?? before)!.item.name,
        property: (after ?? before)!.property,
        fromAnnualCents: fromAnnual,
        toAnnualCents: toAnnual,
        annualChangeCents: annualChange,
        termChangeCents: sameTerm ? prorate(annualChange, daysLeft, termDays) : null,
      };
    })
    .filter((item) => item.annualChangeCents !== 0);
  const fromAnnual = sum(liveItems(from).map((item) => item.annualPremiumCents ?? 0));
  const toAnnual = sum(liveItems(to).map((item) => item.annualPremiumCents ?? 0));

  return {
    policyType: differs('policy type', policyType(a.policyTypeId), policyType(b.policyTypeId))[0] ?? null,
    termDates: [...differs('term start', a.termStart, b.termStart), ...differs('term end', a.termEnd, b.termEnd)],
    rateVersion: differs('rate version', a.rateVersion?.name, b.rateVersion?.name)[0] ?? null,
    answers: answerDifferences(from, to, question),
    properties: propertyDifferences(from, to, question),
    contacts: contactDifferences(from, to, contact),
    items: {
      added: pairs.flatMap(({ before, after }) => (!before && after ? [figuresOf(after)] : [])),
      removed: pairs.flatMap(({ before, after }) => (before && !after ? [figuresOf(before)] : [])),
      changed: itemChanges,
    },
    premium: {
      items: premiumItems,
      fromAnnualCents: fromAnnual,
      toAnnualCents: toAnnual,
      annualChangeCents: toAnnual - fromAnnual,
      termChangeCents: sameTerm ? sum(premiumItems.map((item) => item.termChangeCents ?? 0)) : null,
      termChangeFrom: sameTerm ? changeFrom : null,
    },
  };
}

// ---------------------------------------------------------------- as a person reads it

const thousands = (text: string | null) => (text === null ? 'none' : text.replace(/^(-?)(\d+)(\.\d\d)$/, (_all, sign: string, whole: string, cents: string) => `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${cents}`));
const signed = (cents: Cents) => `${cents >= 0 ? '+' : '−'}${thousands(formatCents(Math.abs(cents)))}`;
const money = (cents: Cents | null) => thousands(cents === null ? null : formatCents(cents));
const onProperty = (property: string | null) => (property ? ` (${property})` : '');
const line = (difference: FieldDifference) => `${difference.from ?? 'none'} → ${difference.to ?? 'none'}`;
const moneyField = (field: string) => ['limit', 'deductible', 'annual premium'].includes(field);

/** The comparison as the lines a person reads, one difference a line, the premium last. */
export function comparisonLines(comparison: RevisionComparison): string[] {
  const lines: string[] = [];
  if (comparison.policyType) lines.push(`Policy type: ${line(comparison.policyType)}`);
  for (const difference of comparison.termDates) lines.push(`${difference.field[0].toUpperCase()}${difference.field.slice(1)}: ${line(difference)}`);
  if (comparison.rateVersion) lines.push(`Rate version: ${line(comparison.rateVersion)}`);
  for (const difference of comparison.answers) lines.push(`Answer to ${difference.field}: ${line(difference)}`);
  for (const property of comparison.properties.added) lines.push(`Property added: ${property.name}${property.address ? `, ${property.address}` : ''}`);
  for (const property of comparison.properties.removed) lines.push(`Property removed: ${property.name}${property.address ? `, ${property.address}` : ''}`);
  for (const property of comparison.properties.changed) for (const difference of property.changes) lines.push(`${property.name} ${difference.field}: ${line(difference)}`);
  for (const contacts of comparison.contacts) {
    for (const name of contacts.added) lines.push(`${contacts.role} added: ${name}`);
    for (const name of contacts.removed) lines.push(`${contacts.role} removed: ${name}`);
  }
  const figures = (item: ItemFigures) => `limit ${money(item.limitCents)}, deductible ${money(item.deductibleCents)}, annual premium ${money(item.annualPremiumCents)}`;
  for (const item of comparison.items.added) lines.push(`Item added: ${item.name}${onProperty(item.property)}: ${figures(item)}`);
  for (const item of comparison.items.removed) lines.push(`Item removed: ${item.name}${onProperty(item.property)}: ${figures(item)}`);
  for (const item of comparison.items.changed) {
    for (const difference of item.changes) {
      const shown = moneyField(difference.field) ? `${thousands(difference.from)} → ${thousands(difference.to)}` : line(difference);
      lines.push(`${item.name}${onProperty(item.property)} ${difference.field}: ${shown}`);
    }
  }
  const { premium } = comparison;
  const rest = (cents: Cents | null) => (cents === null ? '' : `, ${signed(cents)} for the rest of the term`);
  for (const item of premium.items) lines.push(`Premium of ${item.name}${onProperty(item.property)}: ${money(item.fromAnnualCents)} → ${money(item.toAnnualCents)} a year (${signed(item.annualChangeCents)})${rest(item.termChangeCents)}`);
  lines.push(`Total premium: ${money(premium.fromAnnualCents)} → ${money(premium.toAnnualCents)} a year (${signed(premium.annualChangeCents)})${rest(premium.termChangeCents)}${premium.termChangeFrom ? ` from ${premium.termChangeFrom}` : ''}`);
  return lines;
}
