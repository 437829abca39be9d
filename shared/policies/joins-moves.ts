/**
 * The policies area's part in a move that is not only its own writes beside the lifecycle's:
 * a rewrite's new term, its revision committed onto it and the policy moved to it. Listed in
 * shared/moves/rewrite.ts. It names the facts it reads (the lifecycle builds on this area, so
 * this area cannot import the lifecycle's facts); the wiring type-checks them.
 */
import type { TransactionWrite } from '../platform/transactions.js';
import { rewriteCommitWrites, type RewriteCommit } from './lifecycle-store.js';
import type { LineItemRecord, PolicyRecord, RevisionRecord, TermRecord } from './model.js';

interface RewrittenPolicy {
  /** The policy as read (its version guards the move to the new term). */
  policy: PolicyRecord;
  newTerm: TermRecord;
  /** The rewrite revision as stored (its version guards its commit), what the commit sets, and its items with their written figures. */
  openRevision: RevisionRecord;
  commit: Partial<RevisionRecord>;
  revision: { items: readonly LineItemRecord[] };
  /** An expired term brought back with a gap (nothing cancelled), and a rewrite to a new account's new policy. */
  leftTerm?: TermRecord;
  newPolicy?: RewriteCommit['newPolicy'];
}

/** The new term (on the renewal watch), the rewrite revision committed onto it, the policy moved to it. */
export async function policiesAtRewrite(rewritten: RewrittenPolicy): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return {
    area: 'policies',
    writes: rewriteCommitWrites({ policy: rewritten.policy, term: rewritten.newTerm, header: rewritten.openRevision, set: rewritten.commit, items: rewritten.revision.items, ...(rewritten.leftTerm ? { leftTerm: rewritten.leftTerm } : {}), ...(rewritten.newPolicy ? { newPolicy: rewritten.newPolicy } : {}) }),
  };
}
