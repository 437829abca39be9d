/**
 * What changed between two versions of a product package, by state, item and step, in the
 * words a product analyst reads ("Florida, rate version Florida Homeowners rates 2020,
 * Dwelling, step Base Rate: rate 4.20 → 4.40"). Pure.
 */
import type { ChargeDefinition, ItemDefinition, RatingStep, TableRow } from './model.js';
import { PACKAGE_FILES, type ProductPackage } from './package-schema.js';

export interface PackageChange {
  /** Where: `countrywide`, a state's name, or the line. */
  where: string;
  /** The change in words. */
  change: string;
}

const arrow = (before: unknown, after: unknown) => `${show(before)} → ${show(after)}`;
function show(value: unknown): string {
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function rowKey(row: TableRow): string {
  if (row.equals !== undefined) return row.equals;
  if (row.from === undefined && row.to === undefined) return 'every other value';
  return `${row.from ?? '…'} to ${row.to ?? '…'}`;
}

/** The differences of one step, in words. */
function stepChanges(before: RatingStep, after: RatingStep): string[] {
  if (before.op !== after.op) return [`now ${after.op} (was ${before.op})`];
  const changes: string[] = [];
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  for (const field of ['rate', 'amount', 'percent']) if (!same(a[field], b[field])) changes.push(`${field} ${arrow(a[field], b[field])}`);
  for (const field of ['of', 'over', 'by', 'when']) if (!same(a[field], b[field])) changes.push(`${field} ${arrow(a[field], b[field])}`);
  if ('table' in before && 'table' in after) {
    const column = before.op === 'factor' ? 'factor' : 'amount';
    const rowsBefore = new Map(before.table.map((row) => [rowKey(row), row]));
    const rowsAfter = new Map(after.table.map((row) => [rowKey(row), row]));
    for (const [key, row] of rowsAfter) {
      const old = rowsBefore.get(key);
      if (!old) changes.push(`row ${key} added (${column} ${show(row[column])})`);
      else if (!same(old, row)) changes.push(`row ${key}: ${column} ${arrow(old[column], row[column])}`);
    }
    for (const key of rowsBefore.keys()) if (!rowsAfter.has(key)) changes.push(`row ${key} removed`);
  }
  return changes;
}

/** Differences of two step lists, by step name. */
function stepsChanges(before: readonly RatingStep[], after: readonly RatingStep[]): string[] {
  const changes: string[] = [];
  const names = (steps: readonly RatingStep[]) => steps.map((step) => step.name);
  for (const step of after) {
    const old = before.find((candidate) => candidate.name === step.name);
    if (!old) {
      const position = after.indexOf(step);
      changes.push(`step ${step.name} added${position > 0 ? ` after ${after[position - 1].name}` : ' first'}`);
      continue;
    }
    for (const change of stepChanges(old, step)) changes.push(`step ${step.name}: ${change}`);
  }
  for (const step of before) if (!after.some((candidate) => candidate.name === step.name)) changes.push(`step ${step.name} removed`);
  const kept = names(after).filter((name) => names(before).includes(name));
  if (!same(kept, names(before).filter((name) => names(after).includes(name)))) changes.push(`steps reordered: ${names(after).join(', ')}`);
  return changes;
}

function itemChanges(before: ItemDefinition, after: ItemDefinition): string[] {
  const changes: string[] = [];
  for (const field of ['name', 'limit', 'deductible', 'availability', 'forms', 'earning', 'subLineId'] as const) {
    if (!same(before[field], after[field])) changes.push(`${field} ${arrow(before[field], after[field])}`);
  }
  changes.push(...stepsChanges(before.rating.steps, after.rating.steps));
  return changes;
}

function chargeText(charge: ChargeDefinition): string {
  const amount = charge.percentOfPremium !== undefined ? `${charge.percentOfPremium}% of premium` : `${charge.flat} per policy`;
  return `${charge.kind} ${charge.name}: ${amount}, ${charge.returned === 'fullyEarned' ? 'fully earned' : 'returned pro rata'}`;
}

export function diffPackages(a: ProductPackage, b: ProductPackage): PackageChange[] {
  const changes: PackageChange[] = [];
  const say = (where: string, change: string) => changes.push({ where, change });
  const itemName = (id: string) => b.items.items.find((item) => item.id === id)?.name ?? a.items.items.find((item) => item.id === id)?.name ?? id;

  // The line's own items and steps.
  for (const item of b.items.items) {
    const old = a.items.items.find((candidate) => candidate.id === item.id);
    if (!old) say('the line', `item ${item.name} added`);
    else for (const change of itemChanges(old, item)) say('the line', `${item.name}, ${change}`);
  }
  for (const item of a.items.items) if (!b.items.items.some((candidate) => candidate.id === item.id)) say('the line', `item ${item.name} removed`);

  // Files that are not by state: named when they changed at all.
  for (const [key, file] of Object.entries(PACKAGE_FILES)) {
    if (key === 'items') continue;
    const strip = (part: unknown) => { const { version: _version, ...rest } = part as Record<string, unknown>; return rest; };
    if (!same(strip(a[key as keyof ProductPackage]), strip(b[key as keyof ProductPackage]))) say('the line', `${file} changed`);
  }

  // States.
  const states = [...new Set([...a.filings, ...b.filings].map((filing) => filing.state))].sort((x, y) => (x === 'countrywide' ? -1 : y === 'countrywide' ? 1 : x.localeCompare(y)));
  for (const state of states) {
    const before = a.filings.find((filing) => filing.state === state);
    const after = b.filings.find((filing) => filing.state === state);
    const where = after?.name ?? before?.name ?? state;
    if (!before) {
      say(where, `filing added${after!.written === false ? ': the line is not written there' : ''}`);
      continue;
    }
    if (!after) {
      say(where, 'filing removed: the state inherits the countrywide filing');
      continue;
    }
    if (!same(before.written, after.written)) say(where, after.written === false ? 'the line is no longer written' : 'the line is now written');
    if (!same(before.availability, after.availability)) say(where, `written from ${arrow(before.availability, after.availability)}`);
    for (const field of ['nonPaymentCancellation', 'otherCancellation', 'nonRenewal', 'conditionalRenewal'] as const) {
      const old = before.noticeDays?.[field];
      const now = after.noticeDays?.[field];
      if (old !== now) say(where, `notice days for ${field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)}: ${arrow(old, now)}`);
    }
    for (const charge of after.charges ?? []) {
      const old = (before.charges ?? []).find((candidate) => candidate.id === charge.id);
      if (!old) say(where, `${chargeText(charge)} added`);
      else if (!same(old, charge)) say(where, `${chargeText(old)} → ${chargeText(charge)}`);
    }
    for (const charge of before.charges ?? []) if (!(after.charges ?? []).some((candidate) => candidate.id === charge.id)) say(where, `${chargeText(charge)} removed`);
    const territoriesBefore = before.territories ?? {};
    const territoriesAfter = after.territories ?? {};
    for (const [list, key] of [['byCounty', 'county'], ['byZip', 'zip']] as const) {
      const rows = (table: typeof territoriesAfter) => new Map(((table[list] ?? []) as unknown as Array<Record<string, string>>).map((row) => [row[key], row]));
      const old = rows(territoriesBefore);
      const now = rows(territoriesAfter);
      for (const [place, row] of now) {
        const was = old.get(place);
        if (!was) say(where, `territory of ${key} ${place} added: ${row.territory} ${row.factor}`);
        else if (!same(was, row)) say(where, `territory of ${key} ${place}: ${was.territory} ${was.factor} → ${row.territory} ${row.factor}`);
      }
      for (const place of old.keys()) if (!now.has(place)) say(where, `territory of ${key} ${place} removed`);
    }
    if (!same(territoriesBefore.default, territoriesAfter.default)) say(where, `territory of the rest of the state: ${arrow(territoriesBefore.default, territoriesAfter.default)}`);
    for (const version of after.rateVersions ?? []) {
      const old = (before.rateVersions ?? []).find((candidate) => candidate.id === version.id);
      if (!old) {
        say(where, `rate version ${version.name} added, for new business from ${version.newBusinessEffectiveDate} and renewals from ${version.renewalEffectiveDate ?? '(no date)'}`);
        // What it changes against the version of the state in force before it (the line's steps where that one states none).
        const prior = (after.rateVersions ?? []).filter((candidate) => candidate.id !== version.id && candidate.newBusinessEffectiveDate < version.newBusinessEffectiveDate).sort((x, y) => x.newBusinessEffectiveDate.localeCompare(y.newBusinessEffectiveDate)).at(-1);
        for (const [itemId, { steps }] of Object.entries(version.items)) {
          const baseline = prior?.items[itemId]?.steps ?? b.items.items.find((item) => item.id === itemId)?.rating.steps ?? [];
          for (const change of stepsChanges(baseline, steps)) say(where, `rate version ${version.name}, ${itemName(itemId)}, ${change}${prior ? ` (against ${prior.name})` : ''}`);
        }
        continue;
      }
      const label = `rate version ${version.name}`;
      if (old.newBusinessEffectiveDate !== version.newBusinessEffectiveDate) say(where, `${label}: new business from ${arrow(old.newBusinessEffectiveDate, version.newBusinessEffectiveDate)}`);
      if (old.renewalEffectiveDate !== version.renewalEffectiveDate) say(where, `${label}: renewals from ${arrow(old.renewalEffectiveDate, version.renewalEffectiveDate)}`);
      for (const [itemId, { steps }] of Object.entries(version.items)) {
        const oldSteps = old.items[itemId]?.steps;
        if (!oldSteps) say(where, `${label}, ${itemName(itemId)}: now rated by its own steps (${steps.map((step) => step.name).join(', ')})`);
        else for (const change of stepsChanges(oldSteps, steps)) say(where, `${label}, ${itemName(itemId)}, ${change}`);
      }
      for (const itemId of Object.keys(old.items)) if (!version.items[itemId]) say(where, `${label}, ${itemName(itemId)}: rated by the line's steps again`);
    }
    for (const version of before.rateVersions ?? []) if (!(after.rateVersions ?? []).some((candidate) => candidate.id === version.id)) say(where, `rate version ${version.name} removed`);
    if (!same(before.forms ?? [], after.forms ?? [])) say(where, `forms ${arrow((before.forms ?? []).map((form) => form.form_code), (after.forms ?? []).map((form) => form.form_code))}`);
  }
  return changes;
}
