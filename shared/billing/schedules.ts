/**
 * Installment schedules: how a term's premium and fees are split into installments,
 * when each is billed and when it falls due. Every number (factors, months, fees,
 * days) comes from the schedule and billing-rules data.
 */
import type { BillingRules, BillingScheduleDefinition, ItemDefinition } from '../catalog/index.js';
import { addDays, addMonths } from '../platform/dates.js';
import { allocate, isDecimal, multiply, sum, toAmount, toCents, type Cents } from '../platform/money.js';
import type { BillableItem, BillingScheduleOptionWire, Installment, InstallmentDetail, InstallmentDetailType } from './model.js';

/** The billable amounts of a term's line items: premiums and fees, earned as their catalog item says. */
export function billableItems(
  lineItems: ReadonlyArray<{ itemId: string; name: string; writtenPremiumCents: Cents | null; writtenFeeCents: Cents | null }>,
  definitions: readonly ItemDefinition[],
): BillableItem[] {
  const billable: BillableItem[] = [];
  for (const lineItem of lineItems) {
    const definition = definitions.find((candidate) => candidate.id === lineItem.itemId);
    const earning = definition?.earning ?? 'proRata';
    const base = { itemId: lineItem.itemId, name: lineItem.name, earning, ...(definition?.charge ? { charge: true } : {}) };
    if (lineItem.writtenPremiumCents) billable.push({ ...base, kind: 'premium', writtenCents: lineItem.writtenPremiumCents });
    if (lineItem.writtenFeeCents) billable.push({ ...base, kind: 'fee', writtenCents: lineItem.writtenFeeCents });
  }
  return billable;
}

/** The installment detail an amount is billed under. */
function detailType(item: BillableItem): InstallmentDetailType {
  if (item.kind === 'premium') return item.earning === 'fullyEarned' ? 'Premium Fully Earned' : 'Premium';
  return item.earning === 'fullyEarned' ? 'Custom Fee Fully Earned' : 'Custom Fee Prorata';
}

function totalsByDetail(items: readonly BillableItem[]): Map<InstallmentDetailType, Cents> {
  const totals = new Map<InstallmentDetailType, Cents>([['Premium', 0]]);
  for (const item of items.filter((candidate) => !candidate.charge)) totals.set(detailType(item), (totals.get(detailType(item)) ?? 0) + item.writtenCents);
  return totals;
}

/** A state's taxes, surcharges and assessments, each its own named line: fully earned ones whole on the first installment, the others spread like premium. */
function chargeDetails(items: readonly BillableItem[], factors: readonly string[]): Array<{ type: InstallmentDetailType; name: string; parts: Cents[] }> {
  return items
    .filter((item) => item.charge && item.writtenCents !== 0)
    .map((item) => ({
      type: detailType(item),
      name: item.name,
      parts: item.earning === 'fullyEarned' ? factors.map((_, index) => (index === 0 ? item.writtenCents : 0)) : allocate(item.writtenCents, factors),
    }));
}

/** Bill date of an installment: the first on the effective date (when the rules say so), the others N days before due. */
function billDateOf(index: number, dueDate: string, effectiveDate: string, rules: BillingRules): string {
  if (index === 0 && rules.firstInstallmentBilledOnEffectiveDate) return effectiveDate;
  return addDays(dueDate, -rules.billDaysBeforeDue);
}

/**
 * The installments of one schedule. Pro-rata amounts are split by the factors (each part
 * rounded half-up, the last taking the remainder so the parts add up exactly); fully earned
 * amounts are billed whole on the first installment; each installment carries its fee.
 */
export function installmentsFor(
  schedule: BillingScheduleDefinition,
  rules: BillingRules,
  items: readonly BillableItem[],
  effectiveDate: string,
): Installment[] {
  const factors = schedule.installments.map((installment) => installment.factor);
  const totals = totalsByDetail(items);
  const charges = chargeDetails(items, factors);
  const spread = new Map<InstallmentDetailType, Cents[]>();
  for (const type of ['Premium', 'Custom Fee Prorata'] as const) {
    if (totals.has(type)) spread.set(type, allocate(totals.get(type)!, factors));
  }
  return schedule.installments.map((definition, index) => {
    const details: InstallmentDetail[] = [];
    for (const [type, parts] of spread) details.push({ type, amountCents: parts[index] });
    if (index === 0) {
      for (const type of ['Premium Fully Earned', 'Custom Fee Fully Earned'] as const) {
        if (totals.get(type)) details.push({ type, amountCents: totals.get(type)! });
      }
    }
    for (const charge of charges) if (charge.parts[index]) details.push({ type: charge.type, amountCents: charge.parts[index], name: charge.name });
    const fee = toCents(definition.installmentFee);
    if (fee !== 0) details.push({ type: 'Installment Fee', amountCents: fee });
    const dueDate = addMonths(effectiveDate, definition.monthsAfterEffective);
    return {
      number: index + 1,
      billDate: billDateOf(index, dueDate, effectiveDate, rules),
      dueDate,
      amountDueCents: sum(details.map((detail) => detail.amountCents)),
      details,
    };
  });
}

export function installmentsWire(installments: readonly Installment[]): BillingScheduleOptionWire['installments'] {
  return installments.map((installment) => ({
    amountDue: toAmount(installment.amountDueCents),
    billDate: installment.billDate,
    dueDate: installment.dueDate,
    details: installment.details.map((detail) => ({ amount: toAmount(detail.amountCents), type: detail.type, ...(detail.name ? { name: detail.name } : {}) })),
  }));
}

/** `retrieve_billing_schedule_options`: every schedule, as it would bill this term. */
export function billingScheduleOptions(
  schedules: readonly BillingScheduleDefinition[],
  rules: BillingRules,
  items: readonly BillableItem[],
  effectiveDate: string,
): BillingScheduleOptionWire[] {
  return schedules.map((schedule) => ({
    id: schedule.id,
    label: schedule.label,
    installments: installmentsWire(installmentsFor(schedule, rules, items, effectiveDate)),
  }));
}

/** What is wrong with a schedule's data (empty when it can bill): checked when a catalog is loaded and in tests. */
export function scheduleProblems(schedule: BillingScheduleDefinition): string[] {
  const problems: string[] = [];
  const { installments } = schedule;
  if (installments.length === 0) return [`${schedule.label} has no installments`];
  const decimals = installments.every((installment) => isDecimal(installment.factor) && isDecimal(installment.installmentFee));
  if (!decimals) return [`${schedule.label} has a factor or fee that is not a decimal`];
  // Factors in millionths, so their sum is compared exactly.
  if (sum(installments.map((installment) => multiply(1_000_000, installment.factor))) !== 1_000_000) {
    problems.push(`${schedule.label}: the factors do not add up to 1`);
  }
  if (installments[0].monthsAfterEffective !== 0) problems.push(`${schedule.label}: the first installment is not due on the effective date`);
  installments.forEach((installment, index) => {
    if (index > 0 && installment.monthsAfterEffective <= installments[index - 1].monthsAfterEffective) {
      problems.push(`${schedule.label}: installment ${index + 1} is not due after installment ${index}`);
    }
    if (toCents(installment.installmentFee) < 0) problems.push(`${schedule.label}: installment ${index + 1} has a negative fee`);
  });
  return problems;
}
