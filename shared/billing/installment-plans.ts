/**
 * Installment plans: the carrier's billing settings, the billed amounts of a revision, the
 * installments of a revision on a schedule (the one rule issue's invoices and the Declaration's
 * installment table both come from) and the schedule options a term is offered.
 */
import { getCatalogRecords, getProductCatalog, type BillingScheduleDefinition } from '../catalog/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { getPolicyWithTerms, loadRevision, policyWithinReach, revisionPeriods, termRevisionFacts, revisionWithinReach, type PolicyRecord, type RevisionSnapshot, type TermRecord } from '../policies/index.js';
import type { BillableItem, BillingScheduleOptionWire, BillingSettings, Installment } from './model.js';
import { billableItems, billingScheduleOptions, installmentsFor } from './schedules.js';
import type { RevisionInForce } from './cancellation.js';
import { billingSettingsFromRecords } from './settings.js';

export const FULL_PAY_LABEL = 'Full Pay';

export async function billingSettings(): Promise<BillingSettings> {
  return billingSettingsFromRecords(await getCatalogRecords());
}

/** The billed amounts of a revision's line items, each earned as its catalog item says (from the revision as a move read it, when given: that revision's snapshot). */
export async function billableItemsOfRevision(revisionId: string, asRead?: RevisionSnapshot): Promise<BillableItem[]> {
  const [snapshot, product] = await Promise.all([asRead ?? loadRevision(revisionId), getProductCatalog()]);
  if (!snapshot) throw new NotFoundError(`Revision ${revisionId}`);
  return billableItems(snapshot.items, product.items);
}

/**
 * The term's committed revisions over the days each was in force, their items at annual
 * (full-term) amounts: what a cancellation returns and a lapse costs, revision by revision.
 * A term the policies area no longer answers for falls back to `revisionId` over the whole term.
 * Given the term and its committed revisions as the move read them (`asRead`), nothing is read again.
 */
export async function revisionsInForce(question: {
  policyId: string; termId: string; revisionId: string; effectiveDate: string; expirationDate: string;
  asRead?: { term: TermRecord; revisions: readonly RevisionSnapshot[] };
}): Promise<RevisionInForce[]> {
  const { asRead } = question;
  const term = asRead?.term ?? (await getPolicyWithTerms(question.policyId))?.terms.find((candidate) => candidate.id === question.termId);
  const facts = term ? await termRevisionFacts(term, asRead?.revisions.map((snapshot) => snapshot.header)) : [];
  const periods = revisionPeriods(question, facts).filter((period) => period.from !== null && period.to !== null && period.to > period.from);
  const inForce = periods.length ? periods.map((period) => ({ id: period.id, from: period.from!, to: period.to! })) : [{ id: question.revisionId, from: question.effectiveDate, to: question.expirationDate }];
  const read = new Map(asRead?.revisions.map((snapshot) => [snapshot.header.id, snapshot]));
  const loaded = await Promise.all(inForce.map(async (period) => ({ from: period.from, to: period.to, items: await annualItemsOfRevision(period.id, read.get(period.id)) })));
  // A cancellation's or reinstatement's revision is a header of its own without items: the cover it dates is the one before it.
  loaded.forEach((period, index) => {
    if (period.items.length === 0 && index > 0) period.items = loaded[index - 1].items;
  });
  return loaded;
}

/** A revision's items at their annual (full-term) amounts, each earned as its catalog item says. */
async function annualItemsOfRevision(revisionId: string, asRead?: RevisionSnapshot): Promise<BillableItem[]> {
  const [snapshot, product] = await Promise.all([asRead ?? loadRevision(revisionId), getProductCatalog()]);
  if (!snapshot) throw new NotFoundError(`Revision ${revisionId}`);
  const live = snapshot.items.filter((item) => item.persistStatus !== 'rejected');
  return billableItems(
    live.map((item) => ({ itemId: item.itemId, name: item.name, writtenPremiumCents: item.annualPremiumCents ?? item.writtenPremiumCents, writtenFeeCents: item.annualFeeCents ?? item.writtenFeeCents })),
    product.items,
  );
}

/** A billing schedule id that names no schedule. */
export class UnknownBillingScheduleError extends BusinessRuleError {
  constructor(scheduleId: string) {
    super(`issue_info.billing_schedule_id: no billing schedule ${scheduleId.slice(0, 100)}; retrieve_billing_schedule_options lists them`);
    this.name = 'UnknownBillingScheduleError';
  }
}

/** The installments a revision is billed in. */
export interface InstallmentPlan {
  schedule: BillingScheduleDefinition;
  installments: Installment[];
}

/**
 * The installments of a revision on a schedule (Full Pay when none is chosen): the one rule
 * that invoices and the Declaration's installment table both come from, so they
 * cannot disagree. An unknown schedule id is UnknownBillingScheduleError.
 */
export async function installmentPlan(revision: Pick<RevisionSnapshot, 'header' | 'items'>, scheduleId?: string): Promise<InstallmentPlan> {
  const [settings, product] = await Promise.all([billingSettings(), getProductCatalog()]);
  const chosen = scheduleId ? settings.schedules.find((candidate) => candidate.id === scheduleId) : undefined;
  if (scheduleId && !chosen) throw new UnknownBillingScheduleError(scheduleId);
  const schedule = chosen ?? settings.schedules.find((candidate) => candidate.label === FULL_PAY_LABEL) ?? settings.schedules[0];
  return { schedule, installments: installmentsFor(schedule, settings.rules, billableItems(revision.items, product.items), revision.header.termStart) };
}

// ---------------------------------------------------------------- schedule options
/** The revision a term is billed on: the policy's active revision when it belongs to that term, else the term's latest. */
function revisionOfTerm(policy: PolicyRecord, term: TermRecord): string {
  return term.id === policy.activeTermId || term.revisionIds.length === 0 ? policy.activeRevisionId : term.revisionIds[term.revisionIds.length - 1];
}

export async function scheduleOptions(principal: Principal, request: { policyNumber: string; termId?: string }): Promise<BillingScheduleOptionWire[]> {
  const { policy, terms } = await policyWithinReach(principal, { policyNumber: request.policyNumber });
  const term = terms.find((candidate) => candidate.id === (request.termId ?? policy.activeTermId)) ?? terms.find((candidate) => candidate.id === policy.activeTermId);
  if (!term) throw new NotFoundError(`Policy term ${request.termId ?? policy.activeTermId}`);
  const revision = await revisionWithinReach(principal, revisionOfTerm(policy, term));
  const [settings, items] = await Promise.all([billingSettings(), billableItemsOfRevision(revision.header.id)]);
  return billingScheduleOptions(settings.schedules, settings.rules, items, revision.header.termStart);
}
