/** The commissions area's records (keys.ts): the only code that knows the area's keys. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { queryAll } from '../platform/dynamo.js';
import { runTransaction, withoutStorageKeys, type TransactionWrite } from '../platform/transactions.js';
import { monthPaymentsQuery, monthRowsQuery, paymentKey, paymentReferenceKey, paymentsBeforeQuery, rowKey, rowsBeforeQuery, scheduleKey, schedulesQuery, termKey } from './keys.js';
import type { CommissionPayment, CommissionRow, CommissionSchedule, CommissionTerm } from './model.js';

const table = () => config.tableName();

export async function putSchedule(schedule: CommissionSchedule): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: { ...scheduleKey(schedule.agencyId, schedule.lineId, schedule.state), entity: 'CommissionSchedule', ...schedule } }));
}

export async function schedulesOf(agencyId: string): Promise<CommissionSchedule[]> {
  return (await queryAll(schedulesQuery(agencyId))).map((item) => withoutStorageKeys<CommissionSchedule>(item));
}

export async function getCommissionTerm(termId: string): Promise<CommissionTerm | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: termKey(termId), ConsistentRead: true }));
  return Item ? withoutStorageKeys<CommissionTerm>(Item) : undefined;
}

/** A term's commission terms created (issue, renewal), once. */
export function commissionTermCreate(term: CommissionTerm): TransactionWrite {
  return { Put: { TableName: table(), Item: { ...termKey(term.termId), entity: 'CommissionTerm', ...term }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** A term's commission terms changed (a chargeback standing or restored), under the version read. */
export function commissionTermUpdate(term: CommissionTerm): TransactionWrite {
  return {
    Put: {
      TableName: table(),
      Item: { ...termKey(term.termId), entity: 'CommissionTerm', ...term, version: term.version + 1 },
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': term.version },
    },
  };
}

export function commissionRowPut(row: CommissionRow): TransactionWrite {
  return { Put: { TableName: table(), Item: { ...rowKey(row.agencyId, row.month, row.postedAt, row.rowId), entity: 'CommissionRow', ...row }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** One agency-month's rows, in the order posted. */
export async function monthRows(agencyId: string, month: string): Promise<CommissionRow[]> {
  return (await queryAll(monthRowsQuery(agencyId, month))).map((item) => withoutStorageKeys<CommissionRow>(item));
}

/** The commission of every row of the agency's months before `month`. */
export async function commissionBefore(agencyId: string, month: string): Promise<number[]> {
  return (await queryAll<{ commissionCents: number }>(rowsBeforeQuery(agencyId, month))).map((item) => item.commissionCents);
}

export class CommissionPaymentReferenceTakenError extends Error {}

/** A payment and its reference's claim, in one transaction: a reference already recorded for the agency refuses it and writes nothing. */
export async function recordPayment(payment: CommissionPayment): Promise<void> {
  await runTransaction(
    [
      { Put: { TableName: table(), Item: { ...paymentReferenceKey(payment.agencyId, payment.reference), entity: 'CommissionPaymentReference', paymentId: payment.paymentId }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: table(), Item: { ...paymentKey(payment.agencyId, payment.month, payment.paidOn, payment.paymentId), entity: 'CommissionPayment', ...payment }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ],
    { label: `Commission payment ${payment.reference}`, onConditionFailed: (failure) => (failure.indexes.includes(0) ? new CommissionPaymentReferenceTakenError(payment.reference) : undefined) },
  );
}

/** One agency-month's payments, by day paid. */
export async function monthPayments(agencyId: string, month: string): Promise<CommissionPayment[]> {
  return (await queryAll(monthPaymentsQuery(agencyId, month))).map((item) => withoutStorageKeys<CommissionPayment>(item));
}

/** The amount of every payment of the agency's months before `month`. */
export async function paidBefore(agencyId: string, month: string): Promise<number[]> {
  return (await queryAll<{ amountCents: number }>(paymentsBeforeQuery(agencyId, month))).map((item) => item.amountCents);
}
