/**
 * The one way a claim moves (report, update, close, reopen, an exposure opened or closed, a person
 * added, a date recorded): the service reads and decides; this kernel collects everything the move
 * changes (the claim and its listings and deadlines, the area's own records, the change kept with
 * who and when, the note on the policy, the event, the letters asked of the documents area) and
 * commits it in ONE transaction through the platform's runner. All or nothing: a refused move
 * writes nothing.
 */
import { eventOf, type EventType } from '../events/index.js';
import { noteOf } from '../notes/index.js';
import { runTransaction, type ConditionFailure, type TransactionWrite } from '../platform/transactions.js';
import { randomUUID } from 'node:crypto';
import type { Cents } from '../platform/money.js';
import type { ClaimChange } from './model.js';
import { claimChangePut, claimStateWrites, type ClaimState } from './store.js';

/** What another area adds to a claim's move, from the move's facts (a letter requested, say). */
export type ClaimMoveContribution = (move: ClaimMoveFacts) => TransactionWrite[] | Promise<TransactionWrite[]>;

export interface ClaimMoveFacts {
  kind: string;
  /** The move's decision instant: every record it writes is dated by it. */
  at: string;
  by: string;
  before: ClaimState | undefined;
  after: ClaimState;
  changes: ClaimChange['changes'];
  reason: string | null;
  /**
   * The money the move moves, as the books count it (part two): each entry signed, in cents, on one
   * exposure and cost type. Empty or absent for a move that moves none.
   */
  money?: readonly ClaimMoneyEntry[];
  /** The payments the move issued (a check export), for the letter that tells each payee of it. */
  issuedPayments?: readonly IssuedPaymentFacts[];
}

/** A payment as issued: what, how, when, to whom, and for what (its lines' coverages and cost types). */
export interface IssuedPaymentFacts {
  paymentId: string;
  amountCents: Cents;
  method: 'check' | 'ach';
  checkNumber: string | null;
  traceNumber: string | null;
  issuedDate: string;
  payees: ReadonlyArray<{ contactId: string; name: string; as: string }>;
  paidFor: string;
}

/**
 * What the books hear of a claim's money: `paid` a payment approved (negative when voided),
 * `reserve_change` the outstanding case reserve moved (a payment lowering it, a close releasing
 * it, a void bringing it back), `recovered` the carrier's share of a recovery received,
 * `recovery_reserve_change` the recovery expected, `deductible_reimbursed` the part of a recovery
 * paid on to the insured (not a loss cost of the carrier), `check_cleared` a payment's check or
 * transfer cleared the bank.
 */
export const CLAIM_MONEY_KINDS = ['paid', 'reserve_change', 'recovered', 'recovery_reserve_change', 'deductible_reimbursed', 'check_cleared'] as const;
export type ClaimMoneyKind = (typeof CLAIM_MONEY_KINDS)[number];

export interface ClaimMoneyEntry {
  kind: ClaimMoneyKind;
  costType: 'loss' | 'expense';
  /** Signed: a reserve lowered is negative. */
  amountCents: Cents;
  exposureId: string;
  coverage: string;
  /** The claim transaction (or payment) it comes from. */
  transactionId: string;
}

export interface ClaimMove extends ClaimMoveFacts {
  /** What it is, as a user reads it: the subject of its errors. */
  label: string;
  /** The area's own records the move writes (exposures, people, dates, the number). */
  writes?: TransactionWrite[];
  /** The event integrators receive, if the move is one they hear of. */
  event?: { type: EventType; data: Record<string, unknown> };
  /** The note it leaves on the policy. */
  note?: string;
  contributions?: readonly ClaimMoveContribution[];
  onConditionFailed?: (failure: ConditionFailure) => Error | undefined | Promise<Error | undefined>;
  /**
   * The move changes none of the claim's own fields (a money move: its figures live in the
   * exposures and ledgers): the claim and its listings are not rewritten, so that money moves of
   * one claim do not meet on it.
   */
  keepsClaim?: boolean;
}

/** The writes of a move, in the order they are committed: the claim's state first (its guard names the claim on a conflict), unless the move keeps it. */
export async function claimMoveWrites(move: ClaimMove): Promise<TransactionWrite[]> {
  const claim = move.after.claim;
  const writes: TransactionWrite[] = [...(move.keepsClaim ? [] : claimStateWrites(move.before, move.after)), ...(move.writes ?? [])];
  writes.push(claimChangePut({ claimId: claim.claimId, changeId: randomUUID(), at: move.at, by: move.by, kind: move.kind, changes: move.changes, reason: move.reason }));
  if (move.note) {
    writes.push(noteOf({ policyId: claim.policyId, termId: claim.coverage.termId, text: move.note, createdBy: move.by, createdAt: move.at, agencyId: claim.agencyId, contactIds: claim.contactIds }));
  }
  if (move.event) {
    writes.push(
      eventOf({
        type: move.event.type,
        policyId: claim.policyId,
        policyNumber: claim.policyNumber,
        agencyId: claim.agencyId,
        transactionId: claim.claimId,
        occurredAt: move.at,
        data: { claim_id: claim.claimId, claim_number: claim.claimNumber, status: claim.status, ...move.event.data },
      }),
    );
  }
  for (const contribution of move.contributions ?? []) writes.push(...(await contribution(move)));
  return writes;
}

export async function commitClaimMove(move: ClaimMove): Promise<void> {
  await runTransaction(await claimMoveWrites(move), { label: move.label, onConditionFailed: move.onConditionFailed });
}
