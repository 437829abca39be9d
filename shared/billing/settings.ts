/**
 * The billing settings read from catalog records: schedules, the billing calendar,
 * cancel reasons, the cancellation rules and the NSF fee. Pure: the records come from
 * the catalog store (or the reference data in tests).
 */
import type { BillingRules, BillingScheduleDefinition, CancelReason, CancellationRules } from '../catalog/index.js';
import { toCents } from '../platform/money.js';
import type { BillingSettings } from './model.js';

const STORAGE_ATTRIBUTES = ['pk', 'sk', 'kind', 'catalogVersion'];

/** The billing settings are part of the catalog; their absence is a deployment fault, not a request's. */
export class BillingSettingsMissingError extends Error {
  constructor(what: string) {
    super(`The catalog has no ${what}: run the bootstrap`);
    this.name = 'BillingSettingsMissingError';
  }
}

function entry<T>(record: Readonly<Record<string, unknown>>): T {
  const copy: Record<string, unknown> = { ...record };
  for (const attribute of STORAGE_ATTRIBUTES) delete copy[attribute];
  return copy as T;
}

function single<T>(records: ReadonlyArray<Record<string, unknown>>, kind: string, what: string): T {
  const found = records.find((record) => record.kind === kind);
  if (!found) throw new BillingSettingsMissingError(what);
  return entry<T>(found);
}

/** Reads the billing settings out of catalog records (other kinds are ignored). */
export function billingSettingsFromRecords(records: ReadonlyArray<Record<string, unknown>>): BillingSettings {
  const ofKind = <T>(kind: string) => records.filter((record) => record.kind === kind).map((record) => entry<T>(record));
  const schedules = ofKind<BillingScheduleDefinition>('BILLINGSCHEDULE');
  if (schedules.length === 0) throw new BillingSettingsMissingError('billing schedules');
  const cancellation = single<CancellationRules>(records, 'CANCELLATIONRULES', 'cancellation rules');
  const carrier = single<{ nsfFee?: string; reinstatementFee?: string; refundThreshold?: string }>(records, 'CARRIER', 'carrier settings');
  if (carrier.nsfFee === undefined) throw new BillingSettingsMissingError('NSF fee in the carrier settings');
  const rules = single<BillingRules & { refundThreshold?: string }>(records, 'BILLINGRULES', 'billing rules');
  return {
    schedules: orderedSchedules(schedules),
    rules,
    cancelReasons: ofKind<CancelReason>('CANCELREASON'),
    cancellation,
    minimumEarnedPremiumCents: toCents(cancellation.minimumEarnedPremium),
    nsfFeeCents: toCents(carrier.nsfFee),
    reinstatementFeeCents: toCents(carrier.reinstatementFee ?? '25.00'),
    // A carrier setting; billing rules written before it may still carry one.
    refundThresholdCents: toCents(carrier.refundThreshold ?? rules.refundThreshold ?? '25.00'),
  };
}

/** Fewest installments first (Full Pay, Two Pay, Quarterly, Monthly): storage order is by id. */
export function orderedSchedules(schedules: readonly BillingScheduleDefinition[]): BillingScheduleDefinition[] {
  return [...schedules].sort((a, b) => a.installments.length - b.installments.length || a.label.localeCompare(b.label));
}
