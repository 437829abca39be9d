/**
 * Documents' part in a policy's moves (listed per move in shared/moves/): the Declaration at
 * issue, the Notices of Cancellation, Reinstatement and Non-Renewal, a renewal's documents, the
 * Endorsement Declaration; and in a claim's moves (shared/moves/claims.ts), the claim's letters. Each answers writes for the move's transaction, a deliverable
 * request (request-store.ts), as data: which document, of which revision, for whom, dated by
 * the move. Nothing is rendered here: the documents consumer (events/queues/documents) renders
 * and stores the file once the move has committed, reached through the table's stream, so a
 * request committed is never lost, and a move that fails requests nothing. This module must
 * not import the renderer: issue, cancel_policy and the nightly consumer bundle it.
 */
import { randomUUID } from 'node:crypto';
import type { AreaPart, CancelledTerm, CommittedRevision, EndorsedRevision, ReinstatedTerm, RenewalStatusDecision, RenewedTerm, ReversedRevision, TransactionWrite } from '../lifecycle/index.js';
import { getPolicy, type PolicyRecord } from '../policies/index.js';
import { NotFoundError } from '../platform/errors.js';
import { todayIso } from '../platform/dates.js';
import { claimLetterFacts, claimLetterTitle, lettersOfClaimMove, paymentLettersOfClaimMove } from './claim-letter-moves.js';
import { claimFilePut } from './claim-files-store.js';
import type { ClaimLetterRequest, ClaimLetterType, ClaimMoveOfLetter, PolicyDeliverableRequest as DeliverableRequest, EndorsementDetails } from './model.js';
import { deliverableRequestPut } from './request-store.js';
import { clock } from '../platform/clock.js';

const part = (writes: TransactionWrite[]): AreaPart => ({ area: 'documents', writes });

async function ownerOf(policyId: string, asRead?: Pick<PolicyRecord, 'policyNumber' | 'agencyId' | 'contactIds'>) {
  const policy = asRead ?? (await getPolicy(policyId));
  if (!policy) throw new NotFoundError(`Policy ${policyId}`);
  return { policyNumber: policy.policyNumber, agencyId: policy.agencyId ?? null, contactIds: [...policy.contactIds] };
}

/** A deliverable request of a move: for the policy's owner as it stands, to its first named insured, dated and printed by the move's decision. */
function requestOf(event: { policyId: string; decisionDate: string; namedInsuredContactIds: string[] }, owner: Awaited<ReturnType<typeof ownerOf>>, fields: Pick<DeliverableRequest, 'deliverableType' | 'revisionId' | 'renderRevisionId'> & Partial<DeliverableRequest>): DeliverableRequest {
  return {
    requestId: randomUUID(),
    policyId: event.policyId,
    policyNumber: owner.policyNumber,
    agencyId: owner.agencyId,
    contactIds: owner.contactIds,
    recipientContactId: event.namedInsuredContactIds[0] ?? null,
    decisionDate: event.decisionDate,
    requestedAt: clock.now().toISOString(),
    state: 'requested',
    ...fields,
  };
}

/** The Declaration at issue, dated by the commit date, billed on the schedule chosen at issue. */
export async function declarationAtIssue(committed: CommittedRevision): Promise<AreaPart> {
  const owner = await ownerOf(committed.policyId, committed.asRead?.policy);
  return part([
    deliverableRequestPut(
      requestOf({ ...committed, decisionDate: committed.commitDate }, owner, {
        deliverableType: 'Declaration',
        revisionId: committed.revisionId,
        renderRevisionId: committed.revisionId,
        ...(committed.billingScheduleId ? { billingScheduleId: committed.billingScheduleId } : {}),
      }),
    ),
  ]);
}

/**
 * A rewrite's Declaration of its new term: as an issue's, for the policy the new term belongs to
 * (a rewrite to a new account makes that policy in the same transaction, so it is not read).
 */
export async function declarationAtRewrite(rewritten: { committed: CommittedRevision; newPolicy?: { record: { policyNumber: string; agencyId: string | null; contactIds: string[] } } }): Promise<AreaPart> {
  if (!rewritten.newPolicy) return declarationAtIssue(rewritten.committed);
  const { record } = rewritten.newPolicy;
  const { committed } = rewritten;
  return part([
    deliverableRequestPut(
      requestOf({ ...committed, decisionDate: committed.commitDate }, { policyNumber: record.policyNumber, agencyId: record.agencyId, contactIds: [...record.contactIds] }, {
        deliverableType: 'Declaration',
        revisionId: committed.revisionId,
        renderRevisionId: committed.revisionId,
        ...(committed.billingScheduleId ? { billingScheduleId: committed.billingScheduleId } : {}),
      }),
    ),
  ]);
}

/**
 * The Notice of Cancellation, requested in the cancellation's transaction: ahead of the date
 * when a cancellation is set pending (non-payment, or a pending date), saying the policy will
 * end; and when it takes effect, with its return premium. It prints the revision in force when
 * the cancellation was decided and belongs to the revision carrying it.
 */
export async function noticeOfCancellation(cancelled: CancelledTerm): Promise<AreaPart> {
  const owner = await ownerOf(cancelled.policyId, cancelled.asRead?.policy);
  // Dated by the move's decision: a past nightly day re-run dates its notice by that day.
  return part([
    deliverableRequestPut(
      requestOf(cancelled, owner, {
        deliverableType: 'Notice of Cancellation',
        revisionId: cancelled.revisionId,
        renderRevisionId: cancelled.inForceRevisionId,
        cancellation: { reason: cancelled.reason, cancelDate: cancelled.cancelDate, returnPremium: cancelled.returnPremiumCents, pending: cancelled.outcome === 'pending' },
      }),
    ),
  ]);
}


/**
 * A renewal's documents, dated by the renewal's decision: the Renewal Declaration and the
 * Renewal Billing Statement of the new term on the expiring term's schedule; for a renewal held
 * for review, only the Conditional Renewal Notice (the declaration follows once it is committed).
 */
export async function renewalDocuments(renewed: RenewedTerm): Promise<AreaPart> {
  const owner = await ownerOf(renewed.policyId);
  const of = { revisionId: renewed.revisionId, renderRevisionId: renewed.revisionId };
  if (renewed.held) {
    return part([
      deliverableRequestPut(
        requestOf(renewed, owner, {
          ...of,
          deliverableType: 'Conditional Renewal Notice',
          renewalNotice: {
            kind: 'conditional',
            expirationDate: renewed.effectiveDate,
            previousPremium: renewed.previousAnnualPremiumCents,
            renewalPremium: renewed.annualPremiumCents,
            changePercent: renewed.premiumChangePercent,
          },
        }),
      ),
    ]);
  }
  const schedule = renewed.billingScheduleId ? { billingScheduleId: renewed.billingScheduleId } : {};
  return part([
    deliverableRequestPut(requestOf(renewed, owner, { ...of, ...schedule, deliverableType: 'Renewal Declaration' })),
    deliverableRequestPut(requestOf(renewed, owner, { ...of, ...schedule, deliverableType: 'Renewal Billing Statement' })),
  ]);
}

/** The Notice of Non-Renewal, requested when store_renewal_status decides a Non-Renewal. */
export async function noticeOfNonRenewal(decided: RenewalStatusDecision): Promise<AreaPart> {
  if (decided.status !== 'Non-Renewal') return part([]);
  const owner = await ownerOf(decided.policyId);
  return part([
    deliverableRequestPut(
      requestOf(decided, owner, {
        deliverableType: 'Notice of Non-Renewal',
        revisionId: decided.inForceRevisionId,
        renderRevisionId: decided.inForceRevisionId,
        renewalNotice: { kind: 'non-renewal', expirationDate: decided.expirationDate, reason: decided.reason?.name ?? '', ...(decided.description ? { description: decided.description } : {}) },
      }),
    ),
  ]);
}

/** The Notice of Reinstatement, requested in the reinstatement's transaction: the revision in force again, from when. */
export async function noticeOfReinstatement(reinstated: ReinstatedTerm): Promise<AreaPart> {
  const owner = await ownerOf(reinstated.policyId);
  return part([
    deliverableRequestPut(
      requestOf(reinstated, owner, {
        deliverableType: 'Notice of Reinstatement',
        revisionId: reinstated.inForceRevisionId,
        renderRevisionId: reinstated.inForceRevisionId,
        reinstatement: { cancelDate: reinstated.cancelDate, reinstatementDate: reinstated.reinstatementDate, lapseDays: reinstated.lapseDays },
      }),
    ),
  ]);
}

export const ENDORSEMENT_DECLARATION = 'Endorsement Declaration' as const;

export function endorsementDetails(endorsed: Pick<EndorsedRevision, 'revisionDate' | 'changes' | 'items' | 'premiumChangeCents'>): EndorsementDetails {
  return {
    effectiveDate: endorsed.revisionDate,
    changes: endorsed.changes,
    items: endorsed.items
      .filter((item) => item.oldAnnualPremiumCents !== item.newAnnualPremiumCents || item.additionalPremiumCents !== 0)
      .map((item) => ({ name: item.name, oldAnnual: item.oldAnnualPremiumCents, newAnnual: item.newAnnualPremiumCents, additional: item.additionalPremiumCents })),
    premiumChange: endorsed.premiumChangeCents,
  };
}

/** The Endorsement Declaration, requested in the endorsement's transaction, dated by its commit; a preview shows what it would request. */
export async function endorsementDeclaration(endorsed: EndorsedRevision, options: { preview: boolean }): Promise<AreaPart> {
  const preview = [{ deliverable_type: ENDORSEMENT_DECLARATION, go_date: endorsed.commitDate, changes: endorsed.changes.length }];
  if (options.preview) return { area: 'documents', writes: [], preview };
  const header = endorsed.revision.header;
  const request: DeliverableRequest = {
    requestId: randomUUID(),
    deliverableType: ENDORSEMENT_DECLARATION,
    policyId: endorsed.policyId,
    policyNumber: endorsed.policyNumber,
    revisionId: endorsed.revisionId,
    renderRevisionId: endorsed.revisionId,
    agencyId: header.agencyId ?? null,
    contactIds: [...header.contactIds],
    recipientContactId: endorsed.namedInsuredContactIds[0] ?? null,
    decisionDate: endorsed.commitDate,
    endorsement: endorsementDetails(endorsed),
    requestedAt: endorsed.committedAt,
    state: 'requested',
  };
  return { area: 'documents', writes: [deliverableRequestPut(request)], preview };
}

/** A reversal's Endorsement Declaration: the endorsement's, its first line saying which change it reverses. */
export async function reversalDeclaration(reversal: ReversedRevision, options: { preview: boolean }): Promise<AreaPart> {
  const reverses = { label: `Reverses the endorsement effective ${reversal.reversesRevisionDate} (revision ${reversal.reversesRevisionId})`, before: 'issued', after: 'reversed' };
  return endorsementDeclaration({ ...reversal, changes: [reverses, ...reversal.changes] }, options);
}

// ---------------------------------------------------------------- a claim's moves

/**
 * The letters a claim's move asks for (claim-letters.ts `lettersOfClaimMove`: the acknowledgement
 * at first notice, a denial's letter, the closing letter, a reservation of rights), each a request
 * in the move's own transaction with the claim's entry for it (listed `requested` on the claim
 * until the documents consumer has made it): its facts are fixed now, from the claim as the move
 * leaves it; its wording is the claims rules' when the consumer renders it (claim-letters.ts), so
 * the claim moves bundle none of it. A claims area's `ClaimMoveContribution`; it reads
 * the move through documents' own type of it (documents does not import claims).
 */
export async function claimLetters(move: ClaimMoveOfLetter): Promise<TransactionWrite[]> {
  const types = lettersOfClaimMove(move);
  const payments = paymentLettersOfClaimMove(move);
  if (types.length === 0 && payments.length === 0) return [];
  const { claim } = move.after;
  const decisionDate = todayIso(new Date(move.at));
  const letters: Array<{ type: ClaimLetterType; facts: ClaimLetterRequest['claimLetter']; recipientContactId: string | null }> = [
    ...types.map((type) => ({ type, facts: claimLetterFacts(type, claim, type === 'Denial' ? (claim.denial?.reason ?? null) : move.reason), recipientContactId: claim.insuredContactId })),
    ...payments.map(({ recipientContactId, payment }) => ({ type: 'Claim Payment' as const, facts: claimLetterFacts('Claim Payment', claim, null, payment), recipientContactId })),
  ];
  return letters.flatMap(({ type, facts, recipientContactId }) => {
    const request: ClaimLetterRequest = {
      requestId: randomUUID(),
      deliverableType: type,
      claimLetter: facts,
      policyId: claim.policyId,
      policyNumber: claim.policyNumber,
      revisionId: claim.coverage.revisionId,
      agencyId: claim.agencyId,
      contactIds: [...claim.contactIds],
      recipientContactId,
      decisionDate,
      requestedAt: move.at,
      state: 'requested',
    };
    return [
      deliverableRequestPut(request),
      claimFilePut({ claimId: claim.claimId, fileId: request.requestId, deliverableType: type, label: type, title: claimLetterTitle(type, claim.claimNumber), policyNumber: claim.policyNumber, state: 'requested', requestedAt: move.at, delivery: 'mail' }),
    ];
  });
}
