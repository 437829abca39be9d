/** The commissions' declared records (shared/commissions/records.ts): an agency's statement reads its month's rows and payments, and the balance before it, never the book. */
import { describe, expect, it } from 'vitest';
import { narrowed } from '../../shared/platform/records.js';
import { commissionPaymentReferenceRecord, commissionRowRecord, commissionScheduleRecord } from '../../shared/commissions/records.js';

describe('commissions records', () => {
  it("key the schedules by line and state, a payment's reference once per agency", () => {
    expect(commissionScheduleRecord.key({ agencyId: 'a-1', lineId: '*', state: 'FL' })).toEqual({ pk: 'COMMISSION_SCHEDULES#a-1', sk: 'SCHEDULE#*#FL' });
    expect(commissionPaymentReferenceRecord.key({ agencyId: 'a-1', reference: 'CHK 12' })).toEqual({ pk: 'COMMISSION_PAYMENT_REF#a-1#CHK 12', sk: 'REF' });
  });

  it("read an agency-month's rows, and the commission of the months before it", () => {
    expect(commissionRowRecord.query({ agencyId: 'a-1', month: '2026-03' }, { consistent: true }).ExpressionAttributeValues).toEqual({ ':pk': 'COMMISSIONS#a-1', ':sk': 'ROW#2026-03#' });
    expect(narrowed(commissionRowRecord.query({ agencyId: 'a-1' }, { sort: { between: [{}, { month: '2026-03' }] }, consistent: true }), { project: ['commissionCents', 'month'] })).toEqual({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ProjectionExpression: '#p_commissionCents, #p_month',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#p_commissionCents': 'commissionCents', '#p_month': 'month' },
      ExpressionAttributeValues: { ':pk': 'COMMISSIONS#a-1', ':from': 'ROW#', ':to': 'ROW#2026-03#' },
      ConsistentRead: true,
    });
  });
});
