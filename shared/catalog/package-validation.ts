/**
 * Validating a product package before it can go live: every file against its schema
 * (package-schema.ts), every reference resolved (an item's sub line and policy types, a step's
 * question, a limit's item, a form's item and policy type, a rate version's items, a
 * territory's county), and the mistakes filings are known for (a rate version without its
 * renewal date, versions of a state that overlap or leave a gap, a duplicate row in a factor
 * table, a place of a written state no territory covers, a charge without the rule for
 * returning it). Every problem at once, each naming the file, the path inside it and what is
 * wrong. Pure but for the ZIP table's county list (`counties`), which the caller passes in.
 */
import { compareAmounts, isDecimal, sameAmount } from '../platform/money.js';
import type { ItemDefinition, RatingStep, TableRow, ValueReference } from './model.js';
import { OPTIONAL_PACKAGE_FILES, PACKAGE_FILES, readPackage, type PackageDocument, type PackageProblem, type ProductPackage } from './package-schema.js';

const CLAIMS_FILE = OPTIONAL_PACKAGE_FILES.claims;

/** The county names of a state as the ZIP table has them (shared/geography's countiesOfState). */
export type CountyList = (state: string) => readonly string[];

export interface PackageCheck {
  package?: ProductPackage;
  problems: PackageProblem[];
}

export function validatePackage(document: PackageDocument, counties: CountyList): PackageCheck {
  const read = readPackage(document);
  if (!read.package) return read;
  const problems: PackageProblem[] = [];
  checkReferences(read.package, problems);
  checkFilings(read.package, counties, problems);
  return problems.length > 0 ? { problems } : { package: read.package, problems };
}

function checkReferences(product: ProductPackage, problems: PackageProblem[]): void {
  const say = (file: string, path: string, problem: string) => problems.push({ file, path, problem });
  const lineIds = new Set(product.line.lines.map((line) => line.id));
  const policyTypeIds = new Set(product.line.policyTypes.map((type) => type.id));
  const subLineIds = new Set(product.subLines.subLines.map((subLine) => subLine.id));
  const itemIds = new Set(product.items.items.map((item) => item.id));
  const questionIds = new Set(product.questions.questions.map((question) => question.id));
  const formCodes = new Set(product.forms.forms.map((form) => form.form_code));

  duplicates(product.line.policyTypes, (type) => type.id, PACKAGE_FILES.line, 'policyTypes', say);
  duplicates(product.items.items, (item) => item.id, PACKAGE_FILES.items, 'items', say);
  duplicates(product.items.items, (item) => item.name.toLowerCase(), PACKAGE_FILES.items, 'items', say, 'name');
  duplicates(product.questions.questions, (question) => question.id, PACKAGE_FILES.questions, 'questions', say);
  const claims = product.claims;
  claims?.assignment?.rules.forEach((rule, index) => {
    (rule.perils ?? []).forEach((code, perilIndex) => {
      if (!claims.perils.some((peril) => peril.code === code)) say(CLAIMS_FILE, `assignment.rules.${index}.perils.${perilIndex}`, `no peril ${code} in perils`);
    });
  });
  product.questions.questions.forEach((question, index) => {
    const byClaims = question.answeredByClaims;
    if (!byClaims) return;
    if (question.level !== 'underwriting') say(PACKAGE_FILES.questions, `questions.${index}.answeredByClaims`, `${question.name}: only an underwriting question is answered by the policy's claims`);
    if (question.options && !question.options.some((option) => option.toLowerCase() === byClaims.answer.toLowerCase())) {
      say(PACKAGE_FILES.questions, `questions.${index}.answeredByClaims.answer`, `${question.name}: ${byClaims.answer} is not one of its options (${question.options.join(', ')})`);
    }
  });

  product.line.policyTypes.forEach((type, index) => {
    if (!lineIds.has(type.lineId)) say(PACKAGE_FILES.line, `policyTypes.${index}.lineId`, `no line ${type.lineId}`);
  });
  product.subLines.subLines.forEach((subLine, index) => {
    for (const typeId of Object.keys(subLine.availability)) if (!policyTypeIds.has(typeId)) say(PACKAGE_FILES.subLines, `subLines.${index}.availability.${typeId}`, `no policy type ${typeId}`);
  });
  product.items.items.forEach((item, index) => {
    const at = `items.${index}`;
    if (!subLineIds.has(item.subLineId)) say(PACKAGE_FILES.items, `${at}.subLineId`, `${item.name}: no sub line ${item.subLineId}`);
    for (const typeId of Object.keys(item.availability)) if (!policyTypeIds.has(typeId)) say(PACKAGE_FILES.items, `${at}.availability.${typeId}`, `${item.name}: no policy type ${typeId}`);
    (item.forms ?? []).forEach((code, formIndex) => {
      if (!formCodes.has(code)) say(PACKAGE_FILES.items, `${at}.forms.${formIndex}`, `${item.name}: no form ${code} in forms.json`);
    });
    if (item.limit?.default !== undefined && typeof item.limit.default !== 'string') checkReference(item.limit.default, `${at}.limit.default`, item, PACKAGE_FILES.items);
    checkSteps(item.rating.steps, `${at}.rating.steps`, item, PACKAGE_FILES.items);
  });
  product.forms.forms.forEach((form, index) => checkForm(form, PACKAGE_FILES.forms, `forms.${index}`));
  product.line.underwritingRules.forEach((rule, index) => {
    const when = rule.when as { limitOf?: string; answer?: string };
    if (when.limitOf && !itemIds.has(when.limitOf)) say(PACKAGE_FILES.line, `underwritingRules.${index}.when.limitOf`, `${rule.name}: no item ${when.limitOf}`);
    if (when.answer && !questionIds.has(when.answer)) say(PACKAGE_FILES.line, `underwritingRules.${index}.when.answer`, `${rule.name}: no question ${when.answer}`);
  });
  for (const filing of product.filings) {
    (filing.rateVersions ?? []).forEach((version, index) => {
      for (const [itemId, { steps }] of Object.entries(version.items)) {
        const item = product.items.items.find((candidate) => candidate.id === itemId);
        const at = `rateVersions.${index}.items.${itemId}`;
        if (!item) say(filing.file, at, `${version.name}: no item ${itemId}`);
        else checkSteps(steps, `${at}.steps`, item, filing.file);
        if (steps.some((step) => step.op === 'territory') && !filing.territories) say(filing.file, at, `${version.name}: a Territory step needs the filing's territory table (territories)`);
      }
    });
    (filing.forms ?? []).forEach((form, index) => checkForm(form, filing.file, `forms.${index}`));
  }
  if (product.claims) {
    // A letter's attachment prints its text: one the package does not give could not be sent.
    const texts = new Set((product.claims.attachmentTexts ?? []).map((attachment) => attachment.title));
    product.claims.letters.forEach((letter, index) => {
      (letter.attachments ?? []).forEach((title, attachmentIndex) => {
        if (!texts.has(title)) say(OPTIONAL_PACKAGE_FILES.claims, `letters.${index}.attachments.${attachmentIndex}`, `${letter.state}: no text of ${title} in attachmentTexts`);
      });
    });
  }

  function checkForm(form: { attachWhen: { policyType?: string; item?: string }; form_code: string }, file: string, at: string) {
    if (form.attachWhen.policyType && !policyTypeIds.has(form.attachWhen.policyType)) say(file, `${at}.attachWhen.policyType`, `${form.form_code}: no policy type ${form.attachWhen.policyType}`);
    if (form.attachWhen.item && !itemIds.has(form.attachWhen.item)) say(file, `${at}.attachWhen.item`, `${form.form_code}: no item ${form.attachWhen.item}`);
  }

  function checkReference(reference: ValueReference, at: string, item: ItemDefinition, file: string) {
    const target = 'limitOf' in reference ? reference.limitOf : reference.percentOfLimit.item;
    if (target !== 'self' && !itemIds.has(target)) say(file, 'limitOf' in reference ? `${at}.limitOf` : `${at}.percentOfLimit.item`, `${item.name}: no item ${target}`);
  }

  function checkSteps(steps: readonly RatingStep[], at: string, item: ItemDefinition, file: string) {
    steps.forEach((step, index) => {
      const here = `${at}.${index}`;
      if ((step.op === 'factor' || step.op === 'byOption') && 'answer' in step.by && !questionIds.has(step.by.answer)) {
        say(file, `${here}.by.answer`, `${item.name}, step ${step.name}: no question ${step.by.answer}`);
      }
      if ((step.op === 'factor' || step.op === 'byOption')) {
        const column = step.op === 'factor' ? 'factor' : 'amount';
        step.table.forEach((row, rowIndex) => {
          if (row[column] === undefined) say(file, `${here}.table.${rowIndex}`, `${item.name}, step ${step.name}: the row has no ${column}`);
        });
        duplicateRows(step.table).forEach(([first, second]) => say(file, `${here}.table.${second}`, `${item.name}, step ${step.name}: row ${second} repeats row ${first} (${describeRow(step.table[second])})`));
      }
      if (step.op === 'perThousand') checkReference(step.of, `${here}.of`, item, file);
      if (step.op === 'perThousandExcess') {
        checkReference(step.of, `${here}.of`, item, file);
        checkReference(step.over, `${here}.over`, item, file);
      }
      if (step.op === 'percentOfPremiums' && step.when && !questionIds.has(step.when.answer)) say(file, `${here}.when.answer`, `${item.name}, step ${step.name}: no question ${step.when.answer}`);
    });
  }
}

function describeRow(row: TableRow): string {
  return row.equals !== undefined ? `equals ${row.equals}` : `from ${row.from ?? '…'} to ${row.to ?? '…'}`;
}

/** Pairs [earlier, later] of rows that cover the same value: equal `equals`, or overlapping ranges. */
function duplicateRows(table: readonly TableRow[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const same = (a: string, b: string) => (isDecimal(a) && isDecimal(b) ? sameAmount(a, b) : a.trim().toLowerCase() === b.trim().toLowerCase());
  const inRange = (value: string, row: TableRow) => isDecimal(value) && (row.from === undefined || compareAmounts(value, row.from) >= 0) && (row.to === undefined || compareAmounts(value, row.to) <= 0);
  table.forEach((row, later) => {
    for (let earlier = 0; earlier < later; earlier++) {
      const other = table[earlier];
      const ranged = (candidate: TableRow) => candidate.equals === undefined && (candidate.from !== undefined || candidate.to !== undefined);
      let overlap = false;
      if (row.equals !== undefined && other.equals !== undefined) overlap = same(row.equals, other.equals);
      else if (row.equals !== undefined && ranged(other)) overlap = inRange(row.equals, other);
      else if (other.equals !== undefined && ranged(row)) overlap = inRange(other.equals, row);
      else if (ranged(row) && ranged(other)) {
        const startsBeforeOtherEnds = row.from === undefined || other.to === undefined || compareAmounts(row.from, other.to) <= 0;
        const endsAfterOtherStarts = row.to === undefined || other.from === undefined || compareAmounts(row.to, other.from) >= 0;
        overlap = startsBeforeOtherEnds && endsAfterOtherStarts;
      }
      if (overlap) {
        pairs.push([earlier, later]);
        break;
      }
    }
  });
  return pairs;
}

function duplicates<T>(entries: readonly T[], key: (entry: T) => string, file: string, list: string, say: (file: string, path: string, problem: string) => void, what = 'id'): void {
  const first = new Map<string, number>();
  entries.forEach((entry, index) => {
    const value = key(entry);
    const earlier = first.get(value);
    if (earlier !== undefined) say(file, `${list}.${index}`, `the ${what} ${value} is also ${list}.${earlier}'s`);
    else first.set(value, index);
  });
}

function checkFilings(product: ProductPackage, counties: CountyList, problems: PackageProblem[]): void {
  const say = (file: string, path: string, problem: string) => problems.push({ file, path, problem });
  const countrywide = product.filings.find((filing) => filing.state === 'countrywide');
  for (const filing of product.filings) {
    const { file } = filing;
    const written = filing.written ?? countrywide?.written ?? true;
    const versions = filing.rateVersions ?? [];
    if (filing.state === 'countrywide') {
      if (!filing.availability) say(file, 'availability', 'the countrywide filing needs the dates the line is written from (newBusiness, renewal)');
      if (versions.length === 0) say(file, 'rateVersions', 'the countrywide filing needs at least one rate version');
    }
    versions.forEach((version, index) => {
      if (!version.renewalEffectiveDate) say(file, `rateVersions.${index}.renewalEffectiveDate`, `${version.name}: a rate version needs its renewal date as well as its new-business date`);
      const cap = version.renewalCapPercent === undefined ? undefined : Number(version.renewalCapPercent);
      if (cap !== undefined && !(cap > 0 && cap <= 100)) {
        say(file, `rateVersions.${index}.renewalCapPercent`, `${version.name}: a renewal cap is a percent above 0 and at most 100 of the expiring premium (given ${version.renewalCapPercent})`);
      }
    });
    duplicates(versions, (version) => version.id, file, 'rateVersions', say);
    checkVersionSequence(filing, written, say);

    const charges = filing.charges ?? [];
    duplicates(charges, (charge) => charge.id, file, 'charges', say);
    charges.forEach((charge, index) => {
      if (!charge.returned) say(file, `charges.${index}.returned`, `${charge.name}: a ${charge.kind} needs the rule for returning it on cancellation (proRata or fullyEarned)`);
      if ((charge.flat === undefined) === (charge.percentOfPremium === undefined)) say(file, `charges.${index}`, `${charge.name}: a ${charge.kind} is either flat or a percentOfPremium, exactly one of them`);
    });
    if (filing.territories) checkTerritories(filing, written, counties, say);
  }
}

/**
 * The versions of a filing, in new-business order, must be in the same order for renewals
 * (else they overlap: an older version would rate renewals after a newer one), take effect on
 * different dates, and the first must be in force when the line starts being written there.
 */
function checkVersionSequence(filing: ProductPackage['filings'][number], written: boolean, say: (file: string, path: string, problem: string) => void): void {
  const versions = (filing.rateVersions ?? []).map((version, index) => ({ version, index }));
  const byNewBusiness = [...versions].sort((a, b) => a.version.newBusinessEffectiveDate.localeCompare(b.version.newBusinessEffectiveDate));
  for (let position = 1; position < byNewBusiness.length; position++) {
    const earlier = byNewBusiness[position - 1];
    const later = byNewBusiness[position];
    if (later.version.newBusinessEffectiveDate === earlier.version.newBusinessEffectiveDate) {
      say(filing.file, `rateVersions.${later.index}.newBusinessEffectiveDate`, `${later.version.name} overlaps ${earlier.version.name}: both take effect for new business on ${later.version.newBusinessEffectiveDate}`);
    } else if (later.version.renewalEffectiveDate && earlier.version.renewalEffectiveDate && later.version.renewalEffectiveDate <= earlier.version.renewalEffectiveDate) {
      say(filing.file, `rateVersions.${later.index}.renewalEffectiveDate`, `${later.version.name} overlaps ${earlier.version.name}: it takes effect later for new business (${later.version.newBusinessEffectiveDate}) but not later for renewals (${later.version.renewalEffectiveDate} against ${earlier.version.renewalEffectiveDate})`);
    }
  }
  const first = byNewBusiness[0]?.version;
  if (first && written && filing.availability) {
    if (first.newBusinessEffectiveDate > filing.availability.newBusiness) {
      say(filing.file, `rateVersions.${byNewBusiness[0].index}.newBusinessEffectiveDate`, `a gap: the line is written for new business from ${filing.availability.newBusiness} but the first rates (${first.name}) take effect on ${first.newBusinessEffectiveDate}`);
    }
    if (first.renewalEffectiveDate && first.renewalEffectiveDate > filing.availability.renewal) {
      say(filing.file, `rateVersions.${byNewBusiness[0].index}.renewalEffectiveDate`, `a gap: the line renews from ${filing.availability.renewal} but the first rates (${first.name}) take effect for renewals on ${first.renewalEffectiveDate}`);
    }
  }
}

function checkTerritories(filing: ProductPackage['filings'][number], written: boolean, counties: CountyList, say: (file: string, path: string, problem: string) => void): void {
  const table = filing.territories!;
  const { file } = filing;
  duplicates(table.byCounty ?? [], (row) => row.county.trim().toLowerCase(), file, 'territories.byCounty', say, 'county');
  duplicates(table.byZip ?? [], (row) => row.zip, file, 'territories.byZip', say, 'ZIP');
  if (filing.state === 'countrywide') return;
  const known = counties(filing.state);
  const knownNames = new Set(known.map((name) => name.toLowerCase()));
  (table.byCounty ?? []).forEach((row, index) => {
    if (!knownNames.has(row.county.trim().toLowerCase())) say(file, `territories.byCounty.${index}.county`, `no county ${row.county} in ${filing.name} in the ZIP table`);
  });
  if (written && !table.default) {
    const covered = new Set((table.byCounty ?? []).map((row) => row.county.trim().toLowerCase()));
    const missing = known.filter((name) => !covered.has(name.toLowerCase()));
    if (missing.length > 0) {
      const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
      say(file, 'territories', `${missing.length} ${missing.length === 1 ? 'county' : 'counties'} of ${filing.name} in no territory and no default: ${shown}`);
    }
  }
}
