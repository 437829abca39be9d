/** The commissions area's records (records.ts): the only code that knows the area's keys. */
import { getItem, putItem, queryAll } from '../platform/dynamo.js';
import { narrowed } from '../platform/records.js';
import { runTransaction, type TransactionWrite } from '../platform/transactions.js';
import { commissionPaymentRecord, commissionPaymentReferenceRecord, commissionRowRecord, commissionScheduleRecord, commissionTermRecord } from './records.js';
import type { CommissionPayment, CommissionRow, CommissionSchedule, CommissionTerm } from './model.js';

export async function putSchedule(schedule: CommissionSchedule): Promise<void> {
  await putItem(commissionScheduleRecord.put(schedule));
}

export async function schedulesOf(agencyId: string): Promise<CommissionSchedule[]> {
  return (await queryAll(commissionScheduleRecord.query({ agencyId }, { consistent: true }))).map(commissionScheduleRecord.parse);
}

export async function getCommissionTerm(termId: string): Promise<CommissionTerm | undefined> {
  const item = await getItem(commissionTermRecord.key({ termId }));
  return item ? commissionTermRecord.parse(item) : undefined;
}

/** A term's commission terms created (issue, renewal), once. */
export function commissionTermCreate(term: CommissionTerm): TransactionWrite {
  return commissionTermRecord.create(term);
}

/** A term's commission terms changed (a chargeback standing or restored), under the version read. */
export function commissionTermUpdate(term: CommissionTerm): TransactionWrite {
  return commissionTermRecord.replace(term, term.version);
}

export function commissionRowPut(row: CommissionRow): TransactionWrite {
  return commissionRowRecord.create(row);
}

/** One agency-month's rows, in the order posted. */
export async function monthRows(agencyId: string, month: string): Promise<CommissionRow[]> {
  return (await queryAll(commissionRowRecord.query({ agencyId, month }, { consistent: true }))).map(commissionRowRecord.parse);
}

/** The commission of every row of the agency's months before `month`. */
export async function commissionBefore(agencyId: string, month: string): Promise<number[]> {
  const query = narrowed(commissionRowRecord.query({ agencyId }, { sort: { between: [{}, { month }] }, consistent: true }), { project: ['commissionCents', 'month'] });
  return (await queryAll<{ commissionCents: number }>(query)).map((item) => item.commissionCents);
}

export class CommissionPaymentReferenceTakenError extends Error {}

/** A payment and its reference's claim, in one transaction: a reference already recorded for the agency refuses it and writes nothing. */
export async function recordPayment(payment: CommissionPayment): Promise<void> {
  await runTransaction(
    [commissionPaymentReferenceRecord.create({ paymentId: payment.paymentId }, { agencyId: payment.agencyId, reference: payment.reference }), commissionPaymentRecord.create(payment)],
    { label: `Commission payment ${payment.reference}`, onConditionFailed: (failure) => (failure.indexes.includes(0) ? new CommissionPaymentReferenceTakenError(payment.reference) : undefined) },
  );
}

/** One agency-month's payments, by day paid. */
export async function monthPayments(agencyId: string, month: string): Promise<CommissionPayment[]> {
  return (await queryAll(commissionPaymentRecord.query({ agencyId, month }, { consistent: true }))).map(commissionPaymentRecord.parse);
}

/** The amount of every payment of the agency's months before `month`. */
export async function paidBefore(agencyId: string, month: string): Promise<number[]> {
  const query = narrowed(commissionPaymentRecord.query({ agencyId }, { sort: { between: [{}, { month }] }, consistent: true }), { project: ['amountCents'] });
  return (await queryAll<{ amountCents: number }>(query)).map((item) => item.amountCents);
}
