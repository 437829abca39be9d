/**
 * The claims area's reads and the writes its moves hand to the one transaction runner, all through
 * the declared records (records.ts): the only module of the area that names a key.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { readableBesideCaller } from '../platform/invocation.js';
import { batchGetAll, queryAll, queryPages, type ItemKey } from '../platform/dynamo.js';
import type { TransactionWrite } from '../platform/transactions.js';
import type {
  CatastropheRecord,
  ClaimChange,
  ClaimCheckCounter,
  ClaimCheckNumber,
  ClaimContactRecord,
  ClaimMoneyLocator,
  ClaimPayment,
  ClaimPaymentByYear,
  ClaimTransaction,
  ClaimDateRecord,
  ClaimDeductible,
  ClaimLimitUse,
  ClaimListing,
  ClaimNumberCounter,
  ClaimPaymentFingerprint,
  ClaimRecord,
  ClaimSummary,
  DeadlineListing,
  ExposureRecord,
} from './model.js';
import { COST_TYPES, type CostType } from './model.js';
import type { Cents } from '../platform/money.js';
import {
  catastropheRecord,
  claimChangeRecord,
  claimCheckCounterRecord,
  claimCheckNumberRecord,
  claimContactRecord,
  claimMoneyLocatorRecord,
  claimPaymentByYearRecord,
  claimPaymentRecord,
  claimTransactionRecord,
  claimDateRecord,
  claimDeductibleRecord,
  claimLimitUseRecord,
  claimListingRecord,
  claimPaymentFingerprintRecord,
  claimNumberCounterRecord,
  claimNumberRecord,
  claimRecord,
  deadlineListingRecord,
  exposureLocatorRecord,
  exposureRecord,
} from './records.js';
import { isListedDeadline } from './deadline-rules.js';
import { listingsOf, summaryOf } from './rules.js';

async function getItem(key: ItemKey): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: key, ConsistentRead: true }));
  return Item;
}

export async function getClaim(claimId: string): Promise<ClaimRecord | undefined> {
  const item = await getItem(claimRecord.key({ claimId }));
  return item ? claimRecord.parse(item) : undefined;
}

export interface ClaimWhole {
  claim: ClaimRecord;
  exposures: ExposureRecord[];
  contacts: ClaimContactRecord[];
  dates: ClaimDateRecord[];
  changes: ClaimChange[];
  /** Its money: every claim transaction and payment (part two). */
  transactions: ClaimTransaction[];
  payments: ClaimPayment[];
}

/** The ledgers a claim's money moves decide on, as stored (absent: none stored yet). */
export interface ClaimLedgers {
  deductible?: ClaimDeductible;
  limitUses: ClaimLimitUse[];
}

/** A claim and everything in its partition, in one strongly consistent query. */
export async function getClaimWhole(claimId: string): Promise<ClaimWhole | undefined> {
  return wholeOf(await queryAll(claimRecord.partition({ claimId })));
}

/** A claim whole with its ledgers (a money move that reads it whole): the same query. */
export async function getClaimWholeWithLedgers(claimId: string): Promise<(ClaimWhole & ClaimLedgers) | undefined> {
  const items = await queryAll(claimRecord.partition({ claimId }));
  const whole = wholeOf(items);
  return whole && { ...whole, ...ledgersAmong(items) };
}

function wholeOf(items: readonly Record<string, unknown>[]): ClaimWhole | undefined {
  const claimItem = items.find(claimRecord.is);
  if (!claimItem) return undefined;
  return {
    claim: claimRecord.parse(claimItem),
    exposures: items.filter(exposureRecord.is).map(exposureRecord.parse),
    contacts: items.filter(claimContactRecord.is).map(claimContactRecord.parse),
    dates: items.filter(claimDateRecord.is).map(claimDateRecord.parse),
    changes: items.filter(claimChangeRecord.is).map(claimChangeRecord.parse),
    transactions: items.filter(claimTransactionRecord.is).map(claimTransactionRecord.parse),
    payments: items.filter(claimPaymentRecord.is).map(claimPaymentRecord.parse),
  };
}

function ledgersAmong(items: readonly Record<string, unknown>[]): ClaimLedgers {
  const deductible = items.find(claimDeductibleRecord.is);
  return { ...(deductible ? { deductible: claimDeductibleRecord.parse(deductible) } : {}), limitUses: items.filter(claimLimitUseRecord.is).map(claimLimitUseRecord.parse) };
}

/** What a money move on some of a claim's exposures decides on, read by key: never the claim's payment history. */
export interface ClaimMoneyRead extends ClaimLedgers {
  claim: ClaimRecord;
  /** The exposures asked for that are the claim's. */
  exposures: ExposureRecord[];
  /** The claim's people, when asked for (a loss payment's joint payees). */
  contacts?: ClaimContactRecord[];
}

/**
 * The claim, the exposures named, its deductible ledger and their limit use in one strongly
 * consistent BatchGetItem (the claim's people beside it, when asked for): undefined when no such claim.
 */
export async function getClaimMoney(claimId: string, exposureIds: readonly string[], options: { contacts?: boolean } = {}): Promise<ClaimMoneyRead | undefined> {
  const keys = [
    claimRecord.key({ claimId }),
    claimDeductibleRecord.key({ claimId }),
    ...exposureIds.flatMap((exposureId) => [exposureRecord.key({ claimId, exposureId }), claimLimitUseRecord.key({ claimId, exposureId })]),
  ];
  const [items, contacts] = await Promise.all([
    batchGetAll(keys, { consistentRead: true }),
    options.contacts ? queryAll(claimContactRecord.query({ claimId }, { consistent: true })) : Promise.resolve(undefined),
  ]);
  const claimItem = items.find(claimRecord.is);
  if (!claimItem) return undefined;
  return {
    claim: claimRecord.parse(claimItem),
    exposures: items.filter(exposureRecord.is).map(exposureRecord.parse),
    ...ledgersAmong(items),
    ...(contacts ? { contacts: contacts.map(claimContactRecord.parse) } : {}),
  };
}

/** A claim's payments alone (a claim written before the ledger records, moved into them on its first money move). */
export async function claimPayments(claimId: string): Promise<ClaimPayment[]> {
  return (await queryAll(claimPaymentRecord.query({ claimId }, { consistent: true }))).map(claimPaymentRecord.parse);
}

/** One payment of a claim, by key. */
export async function claimPayment(claimId: string, paymentId: string): Promise<ClaimPayment | undefined> {
  const item = await getItem(claimPaymentRecord.key({ claimId, paymentId }));
  return item ? claimPaymentRecord.parse(item) : undefined;
}

/** The payments not voided listed under a fingerprint (none: absent). */
export async function fingerprintRecord(claimId: string, fingerprint: string): Promise<ClaimPaymentFingerprint | undefined> {
  const item = await getItem(claimPaymentFingerprintRecord.key({ claimId, fingerprint }));
  return item ? claimPaymentFingerprintRecord.parse(item) : undefined;
}

export async function claimIdOfNumber(claimNumber: string): Promise<string | undefined> {
  const item = await getItem(claimNumberRecord.key({ claimNumber }));
  return item ? String(item.claimId) : undefined;
}

const claimIdOfExposureRead = readableBesideCaller('CLAIMEXPOSURE#', async (exposureId: string): Promise<string | undefined> => {
  const item = await getItem(exposureLocatorRecord.key({ exposureId }));
  return item ? String(item.claimId) : undefined;
});

export const claimIdOfExposure = claimIdOfExposureRead.read;
/** The exposure's locator begun beside the caller's authentication (an operation's beginWithCaller), for an exposure the request names. */
export const exposureLocatorBegun = claimIdOfExposureRead.begin;

export async function getNumberCounter(year: string): Promise<ClaimNumberCounter> {
  const item = await getItem(claimNumberCounterRecord.key({ year }));
  return item ? claimNumberCounterRecord.parse(item) : { year, last: 0, version: 0 };
}

/** The year's counter moved on to `counter.last + 1`, guarded by the version it was read at (none read: none may exist). */
export function numberCounterWrite(counter: ClaimNumberCounter): TransactionWrite {
  const next = { ...counter, last: counter.last + 1 };
  return counter.version === 0 ? claimNumberCounterRecord.create({ ...next, version: 1 }) : claimNumberCounterRecord.replace(next, counter.version);
}

export const claimNumberTaken = (claimNumber: string, claimId: string): TransactionWrite => claimNumberRecord.create({ claimNumber, claimId });

/** A policy's claims (their summaries, newest loss first). */
export async function claimsOfPolicy(policyId: string): Promise<ClaimSummary[]> {
  const items = await queryAll(claimListingRecord.query({ dimension: 'policy', value: policyId }, { newestFirst: true, consistent: true }));
  return items.map((item) => listingSummary(claimListingRecord.parse(item)));
}

/** The claims a contact is a claimant of. */
export async function claimsOfClaimant(contactId: string): Promise<ClaimSummary[]> {
  const items = await queryAll(claimListingRecord.query({ dimension: 'claimant', value: contactId }, { newestFirst: true }));
  return items.map((item) => listingSummary(claimListingRecord.parse(item)));
}

function listingSummary(listing: ClaimListing): ClaimSummary {
  const { dimension: _dimension, value: _value, ...summary } = listing;
  return summary;
}

export interface ListingPage {
  summaries: ClaimSummary[];
  /** Where the next page starts (the last listing's sort key), absent on the last page. */
  next?: string;
}

/**
 * One dimension's listings, loss dates from `from` to `to`, kept by `keep`, up to `limit`:
 * the listing's partition alone is read, page by page, never a scan.
 */
export async function listingPage(dimension: string, value: string, range: { from?: string; to?: string }, keep: (summary: ClaimSummary) => boolean, limit: number, after?: string): Promise<ListingPage> {
  const from = range.from ?? '0000-00-00';
  const to = range.to ?? '9999-12-31';
  const input = claimListingRecord.query({ dimension, value }, { sort: { between: [{ lossDate: from }, { lossDate: to, claimId: '\uffff' }] }, newestFirst: true });
  // DynamoDB refuses a start key outside the range read: a cursor older than the range has
  // nothing after it, one newer than the range (the range narrowed between pages) starts at its top.
  const cursor = after ? { lossDate: after.slice(0, 10), claimId: after.slice(11) } : undefined;
  if (cursor && cursor.lossDate < from) return { summaries: [] };
  const startKey = cursor && cursor.lossDate <= to ? claimListingRecord.key({ dimension, value, ...cursor }) : undefined;
  const summaries: ClaimSummary[] = [];
  let last: string | undefined;
  for await (const page of queryPages({ ...input, Limit: Math.max(limit * 2, 50) }, { startKey })) {
    for (const item of page.items) {
      const listing = claimListingRecord.parse(item);
      last = `${listing.lossDate}#${listing.claimId}`;
      const summary = listingSummary(listing);
      if (keep(summary)) summaries.push(summary);
      if (summaries.length === limit) return { summaries, next: last };
    }
    if (!page.lastEvaluatedKey) return { summaries };
  }
  return { summaries, ...(last ? { next: last } : {}) };
}

export async function listCatastrophes(): Promise<CatastropheRecord[]> {
  const items = await queryAll(catastropheRecord.query({}, { consistent: true }));
  return items.map(catastropheRecord.parse);
}

export async function getCatastrophe(catastropheId: string): Promise<CatastropheRecord | undefined> {
  const item = await getItem(catastropheRecord.key({ catastropheId }));
  return item ? catastropheRecord.parse(item) : undefined;
}

export const catastropheCreate = (catastrophe: CatastropheRecord): TransactionWrite => catastropheRecord.create(catastrophe);

/** Open deadlines of a state due on or before `through`, soonest first. */
export async function deadlinesDue(state: string, through: string): Promise<DeadlineListing[]> {
  const items = await queryAll(deadlineListingRecord.query({ state }, { sort: { between: [{ dueDate: '0000-00-00' }, { dueDate: through, claimId: '\uffff' }] } }));
  return items.map(deadlineListingRecord.parse);
}

// ------------------------------------------------------------------ the writes of a claim's move

export interface ClaimState {
  claim: ClaimRecord;
  /** The claim's claimants' contact ids: each a listing (a contact's `claims`). */
  claimantIds: readonly string[];
}

const listingKey = (listing: { dimension: string; value: string }, claim: ClaimRecord) => `${listing.dimension}|${listing.value}|${claim.lossDate}`;

/**
 * The writes that carry a claim from `before` (none for a report) to `after`: the claim itself
 * (created, or replaced at the version read), every listing rewritten, the listings it no longer
 * has removed, and its deadlines' listings kept in step (those not met, of a claim not closed).
 */
export function claimStateWrites(before: ClaimState | undefined, after: ClaimState): TransactionWrite[] {
  const writes: TransactionWrite[] = [before ? claimRecord.replace(after.claim, before.claim.version) : claimRecord.create({ ...after.claim, version: 1 })];
  const summary = summaryOf({ ...after.claim });
  const afterListings = listingsOf(summary, after.claimantIds);
  const kept = new Set(afterListings.map((listing) => listingKey(listing, after.claim)));
  if (before) {
    for (const listing of listingsOf(summaryOf(before.claim), before.claimantIds)) {
      if (!kept.has(listingKey(listing, before.claim))) writes.push(claimListingRecord.remove({ ...listing, lossDate: before.claim.lossDate, claimId: before.claim.claimId }));
    }
  }
  for (const listing of afterListings) writes.push(claimListingRecord.put({ ...summary, ...listing }));
  // A deadline stays listed until met (a breached one too, marked so), while the claim is not closed.
  const listed = (claim: ClaimRecord) => claim.dueDates.filter((due) => isListedDeadline(claim.status, due));
  const openAfter = new Map(listed(after.claim).map((due) => [`${due.clockId}|${due.dueDate}|${after.claim.state}`, due]));
  for (const due of before ? listed(before.claim) : []) {
    if (!openAfter.has(`${due.clockId}|${due.dueDate}|${before!.claim.state}`)) {
      writes.push(deadlineListingRecord.remove({ state: before!.claim.state, dueDate: due.dueDate, claimId: before!.claim.claimId, clockId: due.clockId }));
    }
  }
  for (const due of openAfter.values()) {
    writes.push(
      deadlineListingRecord.put({ state: after.claim.state, dueDate: due.dueDate, claimId: after.claim.claimId, claimNumber: after.claim.claimNumber, clockId: due.clockId, what: due.what, agencyId: after.claim.agencyId, contactIds: after.claim.contactIds, breachedAt: due.breachedAt }),
    );
  }
  return writes;
}

export const exposureCreate = (exposure: ExposureRecord): TransactionWrite[] => [exposureRecord.create({ ...exposure, version: 1 }), exposureLocatorRecord.create({ exposureId: exposure.exposureId, claimId: exposure.claimId })];
export const exposureReplace = (exposure: ExposureRecord, readVersion: number): TransactionWrite => exposureRecord.replace(exposure, readVersion);

/**
 * A money move's change of an exposure's totals, as an update of the fields it moves rather than a
 * replacement: each changed total moved by its difference, the version moved on (so a replacement
 * of the exposure at the version read, a close, is refused after it), on the condition that the
 * exposure still has the status read and, for each cost type the move decided on, the outstanding
 * reserve and recovery reserve it read (what the move's rows record as after it). Paid and
 * recovered only add up, so moves that meet on one exposure without changing its reserves (expense
 * payments on no expense reserve) commute instead of deciding again.
 */
export function exposureMoneyUpdate(read: ExposureRecord, changed: ExposureRecord, decidedOn: readonly CostType[]): TransactionWrite {
  // DynamoDB refuses a name or value the expressions do not use: each is named as it is used.
  const names: Record<string, string> = { '#version': 'version', '#status': 'status' };
  const values: Record<string, unknown> = { ':one': 1, ':status': read.status };
  const pathOf = (costType: CostType, field: string) => {
    names['#totals'] = 'totals';
    names[`#${costType}`] = costType;
    names[`#${field}`] = field;
    return `#totals.#${costType}.#${field}`;
  };
  const sets = ['#version = #version + :one'];
  // The status read: a condition no absent exposure meets.
  const conditions = ['#status = :status'];
  const FIELDS = ['reserveCents', 'paidCents', 'recoveredCents', 'recoveryReserveCents'] as const;
  for (const costType of COST_TYPES) {
    const before: Record<(typeof FIELDS)[number], Cents> = { recoveryReserveCents: 0, ...read.totals[costType] };
    const after: Record<(typeof FIELDS)[number], Cents> = { recoveryReserveCents: 0, ...changed.totals[costType] };
    for (const field of FIELDS) {
      const delta = after[field] - before[field];
      if (delta !== 0) {
        const path = pathOf(costType, field);
        values[':zero'] = 0;
        values[`:${costType}_${field}_by`] = delta;
        sets.push(`${path} = if_not_exists(${path}, :zero) + :${costType}_${field}_by`);
      }
      if (decidedOn.includes(costType) && (field === 'reserveCents' || field === 'recoveryReserveCents')) {
        const path = pathOf(costType, field);
        values[`:${costType}_${field}_read`] = before[field];
        conditions.push(before[field] === 0 ? `(attribute_not_exists(${path}) OR ${path} = :${costType}_${field}_read)` : `${path} = :${costType}_${field}_read`);
      }
    }
  }
  return {
    Update: {
      TableName: config.tableName(),
      Key: exposureRecord.key({ claimId: read.claimId, exposureId: read.exposureId }),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

export const claimContactPut = (contact: ClaimContactRecord): TransactionWrite => claimContactRecord.create(contact);
export const claimContactRemove = (contact: Pick<ClaimContactRecord, 'claimId' | 'contactId' | 'role'>): TransactionWrite => claimContactRecord.remove(contact);
export const claimDatePut = (claimDate: ClaimDateRecord): TransactionWrite => claimDateRecord.create(claimDate);
export const claimChangePut = (change: ClaimChange): TransactionWrite => claimChangeRecord.create(change);

// ------------------------------------------------------------------ money (part two)

/** The claim a payment or a transaction belongs to, from its id alone. */
export async function claimOfMoney(id: string): Promise<ClaimMoneyLocator | undefined> {
  const item = await getItem(claimMoneyLocatorRecord.key({ id }));
  return item ? claimMoneyLocatorRecord.parse(item) : undefined;
}

/**
 * A new claim transaction, and its locator when a caller may name it alone (a payment line, a
 * reserve or recovery someone set): the rows a move derives (a reserve lowered by a payment,
 * released on close, given back by a void) are read with their claim, and cost the move's
 * transaction no second item.
 */
export const claimTransactionCreate = (transaction: ClaimTransaction): TransactionWrite[] => [
  claimTransactionRecord.create(transaction),
  ...(transaction.type === 'reserve' && transaction.source !== 'set' && transaction.source !== 'default'
    ? []
    : [claimMoneyLocatorRecord.create({ id: transaction.transactionId, claimId: transaction.claimId, kind: 'transaction' as const })]),
];

/** A payment line's row with its payment's new status (its amounts as they were). */
export const claimTransactionStatusPut = (transaction: ClaimTransaction): TransactionWrite => claimTransactionRecord.put(transaction);

export const claimPaymentCreate = (payment: ClaimPayment): TransactionWrite[] => [
  claimPaymentRecord.create({ ...payment, version: 1 }),
  claimMoneyLocatorRecord.create({ id: payment.paymentId, claimId: payment.claimId, kind: 'payment' }),
];
export const claimPaymentReplace = (payment: ClaimPayment, readVersion: number): TransactionWrite => claimPaymentRecord.replace(payment, readVersion);

/** The year's listing of an issued payment, and its removal when the payment is voided. */
export const paymentByYearPut = (listing: ClaimPaymentByYear): TransactionWrite => claimPaymentByYearRecord.put(listing);
export const paymentByYearRemove = (listing: Pick<ClaimPaymentByYear, 'year' | 'issuedDate' | 'paymentId'>): TransactionWrite => claimPaymentByYearRecord.remove(listing);

/** The payments issued in a year (not voided since), by issued date: one partition read, page by page. */
export async function paymentsIssuedIn(year: string): Promise<ClaimPaymentByYear[]> {
  const items = await queryAll(claimPaymentByYearRecord.query({ year }, { consistent: true }));
  return items.map(claimPaymentByYearRecord.parse);
}

export async function getCheckCounter(series: ClaimCheckCounter['series']): Promise<ClaimCheckCounter> {
  const item = await getItem(claimCheckCounterRecord.key({ series }));
  return item ? claimCheckCounterRecord.parse(item) : { series, last: 0, version: 0 };
}

/** The counter moved on to `last`, guarded by the version it was read at (none read: none may exist). */
export function checkCounterWrite(read: ClaimCheckCounter, last: number): TransactionWrite {
  return read.version === 0 ? claimCheckCounterRecord.create({ ...read, last, version: 1 }) : claimCheckCounterRecord.replace({ ...read, last }, read.version);
}

/** A check number taken by a payment: refused if another payment has it. */
export const checkNumberTaken = (checkNumber: string, paymentId: string, claimId: string): TransactionWrite => claimCheckNumberRecord.create({ checkNumber, paymentId, claimId });

/** The payment a check number was given to, if any. */
export async function checkNumberHolder(checkNumber: string): Promise<ClaimCheckNumber | undefined> {
  const item = await getItem(claimCheckNumberRecord.key({ checkNumber }));
  return item ? claimCheckNumberRecord.parse(item) : undefined;
}

// ------------------------------------------------------------------ the ledgers a money move guards

/** The deductible ledger written: created (none read: none may exist) or replaced at the version read. */
export const deductibleWrite = (deductible: ClaimDeductible, readVersion: number): TransactionWrite =>
  readVersion === 0 ? claimDeductibleRecord.create({ ...deductible, version: 1 }) : claimDeductibleRecord.replace(deductible, readVersion);
/** The deductible ledger the move decided on, unchanged since: a payment that took none of it because none remained. */
export const deductibleUnchanged = (claimId: string, version: number): TransactionWrite => claimDeductibleRecord.unchanged({ claimId }, version);
export const limitUseWrite = (use: ClaimLimitUse, readVersion: number): TransactionWrite => (readVersion === 0 ? claimLimitUseRecord.create({ ...use, version: 1 }) : claimLimitUseRecord.replace(use, readVersion));

export const fingerprintKey = (claimId: string, fingerprint: string) => claimPaymentFingerprintRecord.key({ claimId, fingerprint });

/**
 * A payment listed under its fingerprint: refused (a failed condition) while another payment not
 * voided is listed there, unless the caller confirmed it as a repeat. A set's ADD commutes, so
 * payments that meet there do not decide again.
 */
export function fingerprintAdd(claimId: string, fingerprint: string, paymentId: string, confirmed: boolean): TransactionWrite {
  return {
    Update: {
      TableName: config.tableName(),
      Key: fingerprintKey(claimId, fingerprint),
      UpdateExpression: 'ADD #paymentIds :payment SET #entity = :entity, #claimId = :claimId, #fingerprint = :fingerprint',
      ...(confirmed ? {} : { ConditionExpression: 'attribute_not_exists(#paymentIds)' }),
      ExpressionAttributeNames: { '#paymentIds': 'paymentIds', '#entity': 'entity', '#claimId': 'claimId', '#fingerprint': 'fingerprint' },
      ExpressionAttributeValues: { ':payment': new Set([paymentId]), ':entity': claimPaymentFingerprintRecord.declaration.entity, ':claimId': claimId, ':fingerprint': fingerprint },
    },
  };
}

/** A voided payment taken off its fingerprint (the set gone with its last payment: the identity is free again). */
export function fingerprintRemove(claimId: string, fingerprint: string, paymentId: string): TransactionWrite {
  return {
    Update: {
      TableName: config.tableName(),
      Key: fingerprintKey(claimId, fingerprint),
      UpdateExpression: 'DELETE #paymentIds :payment',
      ExpressionAttributeNames: { '#paymentIds': 'paymentIds' },
      ExpressionAttributeValues: { ':payment': new Set([paymentId]) },
    },
  };
}

/** A fingerprint's record made whole at once (a claim's payments moved into their fingerprints). */
export const fingerprintCreate = (claimId: string, fingerprint: string, paymentIds: readonly string[]): TransactionWrite =>
  claimPaymentFingerprintRecord.create({ claimId, fingerprint, paymentIds: new Set(paymentIds) });

/** The claim replaced at the version read without the ledger it carried (its ledgers now in their records): its listings are unchanged. */
export function claimLedgerMoved(claim: ClaimRecord): TransactionWrite {
  const { deductibleLedger: _moved, ...rest } = claim;
  return claimRecord.replace(rest, claim.version);
}
