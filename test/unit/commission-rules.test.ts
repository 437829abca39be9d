import { describe, expect, it } from 'vitest';
import { commissionCents, scheduledRate } from '../../shared/commissions/index.js';
import type { CommissionSchedule } from '../../shared/commissions/index.js';

const schedule = (lineId: string, state: string, newBusinessRate: string, renewalRate = '1'): CommissionSchedule => ({ agencyId: 'a', lineId, state, newBusinessRate, renewalRate, setBy: 'x', setAt: 'y' });

describe('commission rules', () => {
  it('earns 15% of the worked example (123.99), charges back 108.99 on its 726.62 return, keeping 15.00', () => {
    expect(commissionCents(826_62, '15')).toBe(123_99);
    expect(commissionCents(-726_62, '15')).toBe(-108_99);
    expect(commissionCents(826_62, '15') + commissionCents(-726_62, '15')).toBe(15_00);
  });

  it('rounds half-up per transaction, a charge-back as its magnitude', () => {
    expect(commissionCents(1_00, '12.5')).toBe(13);
    expect(commissionCents(-1_00, '12.5')).toBe(-13);
    expect(commissionCents(0, '15')).toBe(0);
  });

  it('takes the most specific schedule, else the reference 15% / 12%', () => {
    const schedules = [schedule('*', '*', '10', '9'), schedule('*', 'NY', '11'), schedule('home', '*', '12'), schedule('home', 'NY', '13')];
    expect(scheduledRate(schedules, 'home', 'NY', 'new_business')).toBe('13');
    expect(scheduledRate(schedules, 'home', 'FL', 'new_business')).toBe('12');
    expect(scheduledRate(schedules, 'auto', 'NY', 'new_business')).toBe('11');
    expect(scheduledRate(schedules, 'auto', 'FL', 'renewal')).toBe('9');
    expect(scheduledRate([], 'auto', null, 'new_business')).toBe('15');
    expect(scheduledRate([], 'auto', null, 'renewal')).toBe('12');
  });
});
