/**
 * The reference product, as versioned data files. Loaded into storage at
 * bootstrap; code reads the catalog from storage, never from these imports.
 */
import roles from './reference/roles.json' with { type: 'json' };
import carrier from './reference/carrier.json' with { type: 'json' };
import billingSchedules from './reference/billing-schedules.json' with { type: 'json' };
import cancelReasons from './reference/cancel-reasons.json' with { type: 'json' };
import renewalRules from './reference/renewal-rules.json' with { type: 'json' };
import productLine from './reference/product-line.json' with { type: 'json' };
import productSubLines from './reference/product-sub-lines.json' with { type: 'json' };
import productItems from './reference/product-items.json' with { type: 'json' };
import productQuestions from './reference/product-questions.json' with { type: 'json' };
import productForms from './reference/product-forms.json' with { type: 'json' };
import rateVersions from './reference/rate-versions.json' with { type: 'json' };
import { catalogKey } from './keys.js';

export interface CatalogRecord {
  pk: string;
  sk: string;
  kind: string;
  catalogVersion: string;
  [attribute: string]: unknown;
}

/** Every catalog record of the reference product, ready to be written. */
export function referenceCatalogRecords(): CatalogRecord[] {
  const records: CatalogRecord[] = [];
  records.push({ ...catalogKey('CARRIER'), kind: 'CARRIER', catalogVersion: carrier.version, ...withoutVersion(carrier) });
  for (const role of roles.roles) {
    records.push({ ...catalogKey('ROLE', role.id), kind: 'ROLE', catalogVersion: roles.version, ...role });
  }
  const { billingSchedules: schedules, ...billingRules } = billingSchedules;
  for (const schedule of schedules) {
    records.push({ ...catalogKey('BILLINGSCHEDULE', schedule.id), kind: 'BILLINGSCHEDULE', catalogVersion: billingSchedules.version, ...schedule });
  }
  records.push({ ...catalogKey('BILLINGRULES'), kind: 'BILLINGRULES', catalogVersion: billingSchedules.version, ...withoutVersion(billingRules) });
  const { cancelReasons: reasons, ...cancellationRules } = cancelReasons;
  for (const reason of reasons) {
    records.push({ ...catalogKey('CANCELREASON', reason.id), kind: 'CANCELREASON', catalogVersion: cancelReasons.version, ...reason });
  }
  records.push({ ...catalogKey('CANCELLATIONRULES'), kind: 'CANCELLATIONRULES', catalogVersion: cancelReasons.version, ...withoutVersion(cancellationRules) });
  const { nonRenewalReasons, ...renewalSettings } = renewalRules;
  for (const reason of nonRenewalReasons) {
    records.push({ ...catalogKey('NONRENEWALREASON', reason.id), kind: 'NONRENEWALREASON', catalogVersion: renewalRules.version, ...reason });
  }
  records.push({ ...catalogKey('RENEWALRULES'), kind: 'RENEWALRULES', catalogVersion: renewalRules.version, ...withoutVersion(renewalSettings) });
  records.push(...productRecords());
  return records;
}

/**
 * The product (line, policy types, sub lines, items with their rating rules, questions,
 * forms, underwriting rules): one record per entry, keyed by its fixed id, so a second
 * product is added by adding data files with other ids.
 */
function productRecords(): CatalogRecord[] {
  const records: CatalogRecord[] = [];
  const add = (kind: string, version: string, entries: ReadonlyArray<{ id: string }>) => {
    for (const entry of entries) records.push({ ...entry, ...catalogKey(kind, entry.id), kind, catalogVersion: version });
  };
  add('LINE', productLine.version, productLine.lines);
  add('POLICYTYPE', productLine.version, productLine.policyTypes);
  add('SUBLINE', productSubLines.version, productSubLines.subLines);
  add('ITEM', productItems.version, productItems.items);
  add('QUESTION', productQuestions.version, productQuestions.questions);
  add('FORM', productForms.version, productForms.forms);
  add('RATEVERSION', rateVersions.version, rateVersions.rateVersions);
  for (const line of productLine.lines) {
    records.push({
      ...catalogKey('UWRULES', line.id),
      kind: 'UWRULES',
      catalogVersion: productLine.version,
      lineId: line.id,
      rules: productLine.underwritingRules,
    });
  }
  return records;
}

function withoutVersion<T extends { version?: string }>(data: T): Omit<T, 'version'> {
  const { version: _version, ...rest } = data;
  return rest;
}
