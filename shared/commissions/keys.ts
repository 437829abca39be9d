/**
 * The commissions area's keys: the only code that knows them.
 *
 * - An agency's schedules share `COMMISSION_SCHEDULES#<agency>`, sorted by line and state: a move reads them all in one query.
 * - A term's commission terms: `COMMISSION_TERM#<term>` / `TERM`.
 * - An agency's commission rows share `COMMISSIONS#<agency>`, sorted `ROW#<YYYY-MM>#<postedAt>#<id>`:
 *   a statement reads its month's rows (and the months before for the balance), never the book.
 * - An agency's commission payments share that partition, sorted `PAID#<YYYY-MM>#<paidOn>#<id>`
 *   (the month paid on): a statement reads its month's payments and the months' before.
 * - A payment's reference, once per agency: `COMMISSION_PAYMENT_REF#<agency>#<reference>` / `REF`,
 *   written with the payment, so the same remittance is never recorded twice.
 */
const schedulesPartition = (agencyId: string) => `COMMISSION_SCHEDULES#${agencyId}`;
const rowsPartition = (agencyId: string) => `COMMISSIONS#${agencyId}`;

export const scheduleKey = (agencyId: string, lineId: string, state: string) => ({ pk: schedulesPartition(agencyId), sk: `SCHEDULE#${lineId}#${state}` });
export const schedulesQuery = (agencyId: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :schedule)',
  ExpressionAttributeValues: { ':pk': schedulesPartition(agencyId), ':schedule': 'SCHEDULE#' },
  ConsistentRead: true,
});

export const termKey = (termId: string) => ({ pk: `COMMISSION_TERM#${termId}`, sk: 'TERM' });

export const rowKey = (agencyId: string, month: string, postedAt: string, rowId: string) => ({ pk: rowsPartition(agencyId), sk: `ROW#${month}#${postedAt}#${rowId}` });
/** The rows of one agency-month. */
export const monthRowsQuery = (agencyId: string, month: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :month)',
  ExpressionAttributeValues: { ':pk': rowsPartition(agencyId), ':month': `ROW#${month}#` },
  ConsistentRead: true,
});
/** The rows of the agency's months before `month` (the statement's previous balance). */
export const rowsBeforeQuery = (agencyId: string, month: string) => ({
  KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
  ExpressionAttributeValues: { ':pk': rowsPartition(agencyId), ':first': 'ROW#', ':last': `ROW#${month}#` },
  ConsistentRead: true,
  ProjectionExpression: 'commissionCents, #month',
  ExpressionAttributeNames: { '#month': 'month' },
});

export const paymentKey = (agencyId: string, month: string, paidOn: string, paymentId: string) => ({ pk: rowsPartition(agencyId), sk: `PAID#${month}#${paidOn}#${paymentId}` });
export const paymentReferenceKey = (agencyId: string, reference: string) => ({ pk: `COMMISSION_PAYMENT_REF#${agencyId}#${reference}`, sk: 'REF' });
/** The payments of one agency-month. */
export const monthPaymentsQuery = (agencyId: string, month: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :month)',
  ExpressionAttributeValues: { ':pk': rowsPartition(agencyId), ':month': `PAID#${month}#` },
  ConsistentRead: true,
});
/** The amounts of the agency's payments of the months before `month`. */
export const paymentsBeforeQuery = (agencyId: string, month: string) => ({
  KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
  ExpressionAttributeValues: { ':pk': rowsPartition(agencyId), ':first': 'PAID#', ':last': `PAID#${month}#` },
  ConsistentRead: true,
  ProjectionExpression: 'amountCents',
});
