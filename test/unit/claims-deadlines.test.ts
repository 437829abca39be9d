/**
 * The states' claims clocks of the reference product (claims-rules.json, ../shared/spec/claims.md):
 * the due dates they set, what meets them, what a night finds breached, and how a listed deadline
 * stands on a day. The dates are the spec's own.
 */
import { describe, expect, it } from 'vitest';
import referenceClaimsRules from '../../shared/catalog/reference/claims-rules.json' with { type: 'json' };
import type { ClaimsRules } from '../../shared/catalog/index.js';
import { breachDueDates, deadlineStanding, dueDateChanges, isListedDeadline, metNow, statesWithClocks } from '../../shared/claims/deadline-rules.js';
import type { DueDate } from '../../shared/claims/model.js';
import { dueDatesOf, meetDueDates } from '../../shared/claims/rules.js';

const { clocks } = referenceClaimsRules as ClaimsRules;
const claimIn = (state: string, reportedDate: string, dueDates: DueDate[] = []) => ({ state, reportedDate, dueDates });
const dated = (type: string, date: string) => ({ type, date, recordedAt: `${date}T15:00:00.000Z` });
const byClock = (dueDates: readonly DueDate[]) => Object.fromEntries(dueDates.map((due) => [due.clockId, due]));
const dueOn = (dueDates: readonly DueDate[]) => Object.fromEntries(dueDates.map((due) => [due.clockId, due.dueDate]));

describe('the states with clocks', () => {
  it('are Florida and New York', () => {
    expect(statesWithClocks(clocks)).toEqual(['FL', 'NY']);
  });
});

describe('Florida: acknowledge in 7 days, begin the investigation 7 days after proof of loss, pay or deny in 60 days', () => {
  it('a claim noticed Monday 2026-12-07 is to be acknowledged by 2026-12-14 and paid or denied by 2027-02-05', () => {
    const due = dueDatesOf(clocks, claimIn('FL', '2026-12-07'), []);
    expect(dueOn(due)).toEqual({ acknowledge: '2026-12-14', pay_or_deny: '2027-02-05' });
    expect(byClock(due).acknowledge).toEqual({
      clockId: 'acknowledge', what: 'Acknowledge the claim', from: 'notice', fromDate: '2026-12-07', dueDate: '2026-12-14', calendar: 'calendar', status: 'open', metAt: null, metBy: null, breachedAt: null,
    });
  });

  it('starts the investigation clock on the proof of loss: received 2026-12-20, begun by 2026-12-27 (a Sunday: calendar days)', () => {
    const due = dueDatesOf(clocks, claimIn('FL', '2026-12-07'), [dated('proof_of_loss_received', '2026-12-20')]);
    expect(dueOn(due)).toEqual({ acknowledge: '2026-12-14', begin_investigation: '2026-12-27', pay_or_deny: '2027-02-05' });
    expect(byClock(due).begin_investigation).toMatchObject({ from: 'proof_of_loss_received', fromDate: '2026-12-20', status: 'open' });
  });

  it('counts an investigation begun before the proof of loss arrived as begun', () => {
    const due = dueDatesOf(clocks, claimIn('FL', '2026-12-07'), [dated('inspection', '2026-12-09'), dated('proof_of_loss_received', '2026-12-20')]);
    expect(byClock(due).begin_investigation).toMatchObject({ dueDate: '2026-12-27', status: 'met', metBy: 'inspection', metAt: '2026-12-09T15:00:00.000Z', breachedAt: null });
  });

  it('a denial meets pay or deny, not the acknowledgement', () => {
    const due = meetDueDates(dueDatesOf(clocks, claimIn('FL', '2026-12-07'), []), 'denied', '2027-01-04', '2027-01-04T16:00:00.000Z');
    expect(byClock(due).pay_or_deny).toMatchObject({ status: 'met', metBy: 'denied', metAt: '2027-01-04T16:00:00.000Z', breachedAt: null });
    expect(byClock(due).acknowledge).toMatchObject({ status: 'open', metBy: null });
  });
});

describe('New York: acknowledge and begin in 15 business days, accept or reject 15 business days after proof of loss, pay 5 business days after acceptance', () => {
  it('a claim noticed Monday 2026-12-21 is to be acknowledged by 2027-01-13, past 2026-12-25 and 2027-01-01', () => {
    const due = dueDatesOf(clocks, claimIn('NY', '2026-12-21'), []);
    expect(dueOn(due)).toEqual({ acknowledge: '2027-01-13' });
    expect(byClock(due).acknowledge).toMatchObject({ calendar: 'business', fromDate: '2026-12-21', what: 'Acknowledge the claim and begin the investigation' });
  });

  it('accept or reject runs from the proof of loss: received Tuesday 2026-12-22, decided by 2027-01-14', () => {
    const due = dueDatesOf(clocks, claimIn('NY', '2026-12-21'), [dated('proof_of_loss_received', '2026-12-22')]);
    expect(dueOn(due)).toEqual({ acknowledge: '2027-01-13', accept_or_reject: '2027-01-14' });
  });

  it('pay runs from the acceptance: accepted Wednesday 2027-01-13, paid by 2027-01-21 (past Martin Luther King Day, 2027-01-18)', () => {
    const dates = [dated('proof_of_loss_received', '2026-12-22'), dated('accepted', '2027-01-13')];
    const reckoned = dueDatesOf(clocks, claimIn('NY', '2026-12-21'), dates);
    expect(dueOn(reckoned)).toEqual({ acknowledge: '2027-01-13', accept_or_reject: '2027-01-14', pay: '2027-01-21' });
    // The acceptance itself meets accept or reject, on time.
    expect(byClock(reckoned).accept_or_reject).toMatchObject({ status: 'met', metBy: 'accepted', breachedAt: null });
    expect(byClock(reckoned).pay).toMatchObject({ status: 'open', fromDate: '2027-01-13' });
  });

  it('an acknowledgement meets the acknowledge clock: when, by what', () => {
    const due = meetDueDates(dueDatesOf(clocks, claimIn('NY', '2026-12-21'), []), 'acknowledged', '2026-12-28', '2026-12-28T14:30:00.000Z');
    expect(byClock(due).acknowledge).toMatchObject({ status: 'met', metAt: '2026-12-28T14:30:00.000Z', metBy: 'acknowledged', breachedAt: null });
  });

  it('a rejection before a proof of loss received again does not answer it: the clock runs again', () => {
    const claim = claimIn('NY', '2026-12-21');
    const first = meetDueDates(dueDatesOf(clocks, claim, [dated('proof_of_loss_received', '2026-12-22')]), 'rejected', '2026-12-30', '2026-12-30T10:00:00.000Z');
    expect(byClock(first).accept_or_reject).toMatchObject({ status: 'met', metBy: 'rejected' });
    const again = dueDatesOf(clocks, { ...claim, dueDates: first }, [dated('proof_of_loss_received', '2026-12-22'), dated('rejected', '2026-12-30'), dated('proof_of_loss_received', '2027-01-05')]);
    expect(byClock(again).accept_or_reject).toMatchObject({ fromDate: '2027-01-05', dueDate: '2027-01-27', status: 'open', metBy: null });
  });
});

describe('a due date met late, breached, met after a breach', () => {
  const open = dueDatesOf(clocks, claimIn('FL', '2026-12-07'), []);

  it('met after its day is met, and breached when it was recorded', () => {
    const due = meetDueDates(open, 'acknowledged', '2026-12-16', '2026-12-16T09:00:00.000Z');
    expect(byClock(due).acknowledge).toMatchObject({ status: 'met', metBy: 'acknowledged', breachedAt: '2026-12-16T09:00:00.000Z' });
  });

  it('the night after its day flags it breached, once; the night of its day does not', () => {
    expect(breachDueDates({ status: 'open', dueDates: open }, '2026-12-14', '2026-12-14T12:00:00.000Z').breached).toEqual([]);
    const night = breachDueDates({ status: 'open', dueDates: open }, '2026-12-15', '2026-12-15T12:00:00.000Z');
    expect(night.breached.map((due) => [due.clockId, due.dueDate])).toEqual([['acknowledge', '2026-12-14']]);
    expect(byClock(night.dueDates).acknowledge).toMatchObject({ status: 'breached', breachedAt: '2026-12-15T12:00:00.000Z' });
    expect(byClock(night.dueDates).pay_or_deny).toMatchObject({ status: 'open', breachedAt: null });
    expect(breachDueDates({ status: 'open', dueDates: night.dueDates }, '2026-12-16', '2026-12-16T12:00:00.000Z').breached).toEqual([]);
    expect(breachDueDates({ status: 'closed', dueDates: open }, '2026-12-16', '2026-12-16T12:00:00.000Z').breached).toEqual([]);
  });

  it('a breached due date met later keeps the flag; met on time after all (recorded late) it is lifted', () => {
    const { dueDates: breached } = breachDueDates({ status: 'open', dueDates: open }, '2026-12-15', '2026-12-15T12:00:00.000Z');
    expect(byClock(meetDueDates(breached, 'acknowledged', '2026-12-17', '2026-12-17T09:00:00.000Z')).acknowledge).toMatchObject({ status: 'met', breachedAt: '2026-12-15T12:00:00.000Z' });
    expect(byClock(meetDueDates(breached, 'acknowledged', '2026-12-11', '2026-12-17T09:00:00.000Z')).acknowledge).toMatchObject({ status: 'met', breachedAt: null });
  });

  it('a breached due date keeps its standing when the clocks are reckoned again', () => {
    const { dueDates: breached } = breachDueDates({ status: 'open', dueDates: open }, '2026-12-15', '2026-12-15T12:00:00.000Z');
    const again = dueDatesOf(clocks, claimIn('FL', '2026-12-07', breached), [dated('proof_of_loss_received', '2026-12-15')]);
    expect(byClock(again).acknowledge).toMatchObject({ status: 'breached', breachedAt: '2026-12-15T12:00:00.000Z' });
    expect(byClock(again).begin_investigation).toMatchObject({ dueDate: '2026-12-22', status: 'open' });
  });

  it('is listed until met, while the claim is not closed', () => {
    expect(isListedDeadline('open', { status: 'open' })).toBe(true);
    expect(isListedDeadline('reopened', { status: 'breached' })).toBe(true);
    expect(isListedDeadline('open', { status: 'met' })).toBe(false);
    expect(isListedDeadline('closed', { status: 'open' })).toBe(false);
  });
});

describe('what a move says of the due dates', () => {
  it('names each clock it started, met or breached, from and to', () => {
    const before = dueDatesOf(clocks, claimIn('NY', '2026-12-21'), []);
    const after = meetDueDates(dueDatesOf(clocks, claimIn('NY', '2026-12-21', before), [dated('proof_of_loss_received', '2026-12-22')]), 'acknowledged', '2026-12-22', '2026-12-22T15:00:00.000Z');
    expect(dueDateChanges(before, after)).toEqual([
      { field: 'due_dates.acknowledge', from: { due_date: '2027-01-13', status: 'open', met_at: null, met_by: null, breached_at: null }, to: { due_date: '2027-01-13', status: 'met', met_at: '2026-12-22T15:00:00.000Z', met_by: 'acknowledged', breached_at: null } },
      { field: 'due_dates.accept_or_reject', from: null, to: { due_date: '2027-01-14', status: 'open', met_at: null, met_by: null, breached_at: null } },
    ]);
    expect(metNow(before, after)).toEqual({ met_clocks: ['acknowledge'] });
    expect(metNow(after, after)).toEqual({});
  });
});

describe('a listed deadline on a day', () => {
  it('is due with the days left (0 on its day), or overdue with the days past it', () => {
    expect(deadlineStanding('2026-12-14', '2026-12-07')).toEqual({ standing: 'due', daysLeft: 7, daysOverdue: null });
    expect(deadlineStanding('2026-12-14', '2026-12-14')).toEqual({ standing: 'due', daysLeft: 0, daysOverdue: null });
    expect(deadlineStanding('2026-12-14', '2026-12-22')).toEqual({ standing: 'overdue', daysLeft: null, daysOverdue: 8 });
  });
});
