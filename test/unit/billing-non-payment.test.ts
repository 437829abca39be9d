import { describe, expect, it } from 'vitest';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import type { Charge, Credit, NonPaymentDecision, NonPaymentState } from '../../shared/billing/model.js';
import { decideNonPayment, nonPaymentDueDates, nonPaymentState } from '../../shared/billing/non-payment.js';
import { billingSettingsFromRecords } from '../../shared/billing/settings.js';

const { rules } = billingSettingsFromRecords(referenceCatalogRecords());

/** Two Pay: the first installment paid on time, the second (418.31) due 2026-07-01, cancelled 15 days later if unpaid. */
const charges: Charge[] = [
  { id: 'inv-1', kind: 'Invoice', billDate: '2026-01-01', dueDate: '2026-01-01', amountCents: 43831 },
  { id: 'inv-2', kind: 'Invoice', billDate: '2026-06-11', dueDate: '2026-07-01', amountCents: 41831 },
];
const firstPayment: Credit = { id: 'pay-1', date: '2026-01-02', amountCents: 43831, reversal: null };
const paid = (date: string, amountCents = 41831, id = 'pay-2'): Credit => ({ id, date, amountCents, reversal: null });

const decide = (date: string, credits: Credit[] = [], previous?: NonPaymentState | null, onRules = rules) =>
  decideNonPayment({ charges, credits: [firstPayment, ...credits], date, rules: onRules, previous });
const state = ({ status, cancelDate, chargeId }: NonPaymentDecision): NonPaymentState => ({ status, cancelDate, chargeId });

describe('cancellation for non-payment', () => {
  it('leaves a policy alone on the due date itself', () => {
    expect(decide('2026-07-01')).toEqual({ status: 'current', cancelDate: null, chargeId: null, action: 'none' });
  });

  it('puts it in cancellation pending the day after the due date, cancel date 15 days after the due date (billing data)', () => {
    expect(decide('2026-07-02')).toEqual({ status: 'cancellation_pending', cancelDate: '2026-07-16', chargeId: 'inv-2', action: 'notify_cancellation_pending' });
    expect(decide('2026-07-15').status).toBe('cancellation_pending');
  });

  it('is idempotent: the same day decided again, or a later day still pending, emits no new action', () => {
    const first = decide('2026-07-02');
    expect(decide('2026-07-02', [], state(first))).toEqual({ ...first, action: 'none' });
    expect(decide('2026-07-15', [], state(first)).action).toBe('none');
    const cancelled = decide('2026-07-16', [], state(first));
    expect(cancelled).toEqual({ status: 'cancelled', cancelDate: '2026-07-16', chargeId: 'inv-2', action: 'cancel' });
    expect(decide('2026-07-16', [], state(cancelled))).toEqual({ ...cancelled, action: 'none' });
  });

  it('rescinds the notice when the balance is paid the day before the cancel date', () => {
    const pending = state(decide('2026-07-02'));
    const rescinded = decide('2026-07-15', [paid('2026-07-15')], pending);
    expect(rescinded).toEqual({ status: 'current', cancelDate: null, chargeId: null, action: 'rescind' });
    expect(decide('2026-07-16', [paid('2026-07-15')], state(rescinded)).action).toBe('none');
  });

  it('cancels on the cancel date when the payment arrives that same day or later', () => {
    const pending = state(decide('2026-07-02'));
    expect(decide('2026-07-16', [paid('2026-07-16')], pending)).toMatchObject({ status: 'cancelled', cancelDate: '2026-07-16', action: 'cancel' });
    expect(decide('2026-07-20', [paid('2026-07-18')], null)).toMatchObject({ status: 'cancelled', cancelDate: '2026-07-16' });
  });

  it('stays pending after a partial payment', () => {
    expect(decide('2026-07-12', [paid('2026-07-10', 40000)])).toMatchObject({ status: 'cancellation_pending', cancelDate: '2026-07-16' });
  });

  it('cancels as of the cancel date when the nightly run missed the days before it', () => {
    expect(decide('2026-07-20', [], null)).toEqual({ status: 'cancelled', cancelDate: '2026-07-16', chargeId: 'inv-2', action: 'cancel' });
  });

  it('keeps a cancelled policy cancelled even when paid afterwards', () => {
    const cancelled = state(decide('2026-07-16'));
    expect(decide('2026-08-01', [paid('2026-07-30')], cancelled)).toEqual({ ...cancelled, action: 'none' });
  });

  it('reads the days to the cancel date from the billing rules', () => {
    expect(decide('2026-07-02', [], null, { ...rules, nonPaymentCancelDaysAfterDue: 10 }).cancelDate).toBe('2026-07-11');
    expect(decide('2026-07-11', [], null, { ...rules, nonPaymentCancelDaysAfterDue: 10 }).status).toBe('cancelled');
  });

  it('counts a payment returned for non-sufficient funds as never made', () => {
    const bounced: Credit = { ...paid('2026-06-25'), reversal: { dueDate: null, allowCancel: true } };
    expect(decide('2026-07-05', [bounced], { status: 'current', cancelDate: null, chargeId: null })).toMatchObject({
      status: 'cancellation_pending', cancelDate: '2026-07-16', action: 'notify_cancellation_pending',
    });
    expect(decide('2026-07-20', [bounced], { status: 'current', cancelDate: null, chargeId: null })).toMatchObject({
      status: 'cancelled', cancelDate: '2026-07-16', action: 'cancel',
    });
  });

  it('postpones the cancellation to the NSF due date when the NSF does not allow cancelling', () => {
    const bounced: Credit = { ...paid('2026-06-25'), reversal: { dueDate: '2026-07-25', allowCancel: false } };
    expect(nonPaymentDueDates(charges, [firstPayment, bounced]).get('inv-2')).toBe('2026-07-25');
    expect(nonPaymentDueDates(charges, [firstPayment, bounced]).get('inv-1')).toBe('2026-01-01');
    expect(decide('2026-07-20', [bounced]).status).toBe('current');
    expect(decide('2026-07-25', [bounced]).status).toBe('current');
    expect(decide('2026-07-26', [bounced])).toMatchObject({ status: 'cancellation_pending', cancelDate: '2026-08-09' });
    expect(decide('2026-08-09', [bounced])).toMatchObject({ status: 'cancelled', cancelDate: '2026-08-09' });
  });

  it('does not cancel for an unpaid fee alone: only invoices are premium', () => {
    const fee: Charge = { id: 'nsf-fee', kind: 'NSF Fee', billDate: '2026-03-01', dueDate: '2026-03-01', amountCents: 2500 };
    expect(decideNonPayment({ charges: [charges[0], fee], credits: [firstPayment], date: '2026-04-01', rules }).status).toBe('current');
  });

  it('names the oldest unpaid invoice when several are late', () => {
    const quarterly: Charge[] = [
      { id: 'q-1', kind: 'Invoice', billDate: '2026-01-01', dueDate: '2026-01-01', amountCents: 35565 },
      { id: 'q-2', kind: 'Invoice', billDate: '2026-03-12', dueDate: '2026-04-01', amountCents: 16932 },
    ];
    const decision = decideNonPayment({ charges: quarterly, credits: [], date: '2026-01-10', rules });
    expect(decision).toMatchObject({ status: 'cancellation_pending', chargeId: 'q-1', cancelDate: '2026-01-16' });
    // The first paid late but before its cancel date, the second now late: a new notice for the second.
    const next = decideNonPayment({ charges: quarterly, credits: [paid('2026-01-15', 35565, 'q-pay')], date: '2026-04-02', rules, previous: state(decision) });
    expect(next).toEqual({ status: 'cancellation_pending', cancelDate: '2026-04-16', chargeId: 'q-2', action: 'notify_cancellation_pending' });
  });
});

describe('a cancel date at the end of the term', () => {
  it('is never later than the term ends, so the cancel move can take it', () => {
    const charges = [{ id: 'late', kind: 'Invoice' as const, billDate: '2025-12-20', dueDate: '2025-12-25', amountCents: 10000 }];
    const state = nonPaymentState({ charges, credits: [], date: '2025-12-31', rules: { nonPaymentCancelDaysAfterDue: 15 }, expirationDate: '2026-01-01' });
    expect(state).toEqual({ status: 'cancellation_pending', cancelDate: '2026-01-01', chargeId: 'late' });
  });
});
