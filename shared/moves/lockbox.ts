/**
 * A lockbox file's wiring: each payment it posts is joined by the areas joined to a manual payment
 * (paymentJoins: commission earned as collected), in the transaction that posts it.
 */
import { applyLockboxChunk, applyLockboxFile, type LockboxChunk } from '../billing/index.js';
import { paymentJoins } from './payment.js';

/** apply_lockbox_payment_transactions for a file applied within the call, with the payment's joins. */
export const applyLockboxFileMove = (fileId: string, transactions: readonly unknown[]) => applyLockboxFile(fileId, transactions, undefined, paymentJoins);

/** A chunk of a large lockbox file, with the payment's joins. */
export const applyLockboxChunkMove = (chunk: LockboxChunk) => applyLockboxChunk(chunk, undefined, paymentJoins);
