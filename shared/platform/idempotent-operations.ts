/**
 * An operation's `idempotent` declaration as a step of its pipeline (operation-middlewares.ts):
 * the idempotency lifecycle (idempotency.ts) as a middy middleware, over the store it is given.
 *
 * - before: with the caller's Idempotency-Key (and `when` the declaration says so), the key is
 *   claimed for this call, or a repeat answers the first call's answer at once, through the
 *   envelope: middy's early response, so the handler does not run (a repeat while the first
 *   call runs waits a little, then is refused with 409 and Retry-After);
 * - after: the handler's answer is saved over the claim;
 * - onError: the claim is given up when the handler itself failed, so the call can be retried
 *   with the same key. Not when the invocation timed out with the handler still running, nor
 *   when saving the answer failed: then the work may be done, and the claim lapses at the
 *   invocation's deadline instead.
 *
 * The operation factory attaches it through the wiring module (shared/define-operation.ts,
 * `defineIdempotentOperation`), so only the functions that declare one bundle it and its store.
 */
import { DataWithMessages } from './envelope.js';
import type { Claim, IdempotencyStore } from './idempotency.js';
import { startKeyedCall } from './idempotency.js';
import { stateOf, type EnvelopeStep, type OperationMiddleware, type OperationRequest } from './operation-middlewares.js';

/** What an operation declares: a retry with the same Idempotency-Key answers the first answer and changes nothing. */
export interface IdempotentDeclaration<Input = never> {
  /** The records' partition: one per operation (mostly its name). A caller's keys are their own: the key is the caller's contact id and the header. */
  scope: string;
  /** What a repeat is told while the first call may still run, in the caller's terms ("The payment sent earlier with this Idempotency-Key is still being posted"). */
  inProgress: string;
  /** Whether this request is kept once per key (every request with a key when absent): a quote rated without storing anything is not. */
  when?(input: Input): boolean;
  /** What a repeat must have asked the same (the validated request when absent). */
  comparedOn?(input: Input): unknown;
}

/** How the factory makes a declaration its pipeline's step, given the envelope step a repeat answers through. */
export type IdempotencyAttachment = (declared: IdempotentDeclaration<unknown>, operation: { named: string; authentication: 'required' | 'none' }, envelope: EnvelopeStep) => OperationMiddleware;

const claimOf = (request: OperationRequest) => request.internal as { idempotencyClaim?: Claim };

/**
 * A stored answer is plain JSON: an answer with messages (a quote with its moratorium warnings)
 * is kept as its data and messages, and answered with them again. The handlers of idempotent
 * operations answer plain data or DataWithMessages, never a Reply or a file.
 */
const WITH_MESSAGES = '__dataWithMessages';
const storable = (answer: unknown) => (answer instanceof DataWithMessages ? { [WITH_MESSAGES]: { data: answer.data ?? null, messages: answer.messages } } : answer);
function answerOf(stored: unknown): unknown {
  const kept = stored !== null && typeof stored === 'object' ? (stored as Record<string, { data: unknown; messages: string[] } | undefined>)[WITH_MESSAGES] : undefined;
  return kept ? new DataWithMessages(kept.data, kept.messages) : stored;
}

/** The idempotency step over `store` (the table's in the service, one in memory in unit tests). */
export function idempotencyOver(store: IdempotencyStore): IdempotencyAttachment {
  return (declared, operation, envelope) => {
    // Each caller's keys are their own: without a caller there is nobody's key to keep.
    if (operation.authentication !== 'required') throw new Error(`${operation.named}: an idempotent operation needs a caller (authentication 'required')`);
    return {
      before: async (request) => {
        const state = stateOf(request);
        if (!state.idempotencyKey || !state.principal) return;
        if (declared.when && !declared.when(state.input)) return;
        const started = await startKeyedCall(store, {
          scope: declared.scope,
          key: `${state.principal.contactId}:${state.idempotencyKey}`,
          request: declared.comparedOn ? declared.comparedOn(state.input) : state.input,
          deadline: state.deadline,
          inProgress: declared.inProgress,
        });
        // A repeat: the first answer, as the handler's would have been answered; the handler does not run.
        if (started.repeat) return envelope.answer(request, answerOf(started.answer));
        claimOf(request).idempotencyClaim = started.claim;
        return undefined;
      },
      after: async (request) => {
        const claim = claimOf(request).idempotencyClaim;
        if (!claim) return;
        // Taken first: a failure to save leaves the claim to lapse, never given up with the work done.
        claimOf(request).idempotencyClaim = undefined;
        await claim.complete(storable(request.response));
      },
      onError: async (request) => {
        const claim = claimOf(request).idempotencyClaim;
        if (!claim) return;
        claimOf(request).idempotencyClaim = undefined;
        if (stateOf(request).handlerFailed) await claim.release();
      },
    };
  };
}
