/**
 * The moves' wiring: a contribution listed once in a move's wiring module (shared/moves/) reaches every outcome of the move
 * that names it, whoever makes the move (cancel_policy, the nightly job), and no entry file
 * or consumer keeps a contribution list of its own.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { billingAtIssue, billingPreviewAtEndorsement } from '../../shared/billing/joins-moves.js';
import { commissionsAtIssue } from '../../shared/commissions/joins-moves.js';
import { booksAtIssue } from '../../shared/books/joins-moves.js';
import { declarationAtIssue, noticeOfCancellation } from '../../shared/documents/joins-moves.js';
import { eventsAtCancellation, eventsAtEndorsement, eventsAtIssue, eventsAtRescission } from '../../shared/events/joins-moves.js';
import { joinedWrites, type Contribution } from '../../shared/lifecycle/joining.js';
import type { CancelledTerm, CommittedRevision, EndorsedRevision, RescindedCancellation } from '../../shared/lifecycle/model.js';
import type { TermRecord } from '../../shared/policies/index.js';
import { cancelWiring } from '../../shared/moves/cancel.js';
import { endorseWiring, previewEndorsementWiring } from '../../shared/moves/endorse.js';
import { issueWiring } from '../../shared/moves/issue.js';
import { rescindWiring } from '../../shared/moves/rescind.js';
import { noteOfMove } from '../../shared/notes/joins-moves.js';
import { searchAtIssue } from '../../shared/search/joins-moves.js';

const decision = { decisionDate: '2025-01-02', decidedAt: '2025-01-02T12:00:00.000Z', decidedBy: 'nightly-billing' };
const cancelled = (outcome: 'pending' | 'cancelled'): CancelledTerm => ({
  ...decision, policyId: 'p', policyNumber: 'P-1', termId: 't', termEffectiveDate: '2025-01-01', termExpirationDate: '2026-01-01', revisionId: 'r', inForceRevisionId: 'r',
  outcome, cancelDate: '2025-01-16', reasonId: 'x', reason: 'Non-Payment of Premium', returnPremiumCents: 0, contactIds: [], namedInsuredContactIds: [], summary: 's',
});
const rescinded: RescindedCancellation = { ...decision, policyId: 'p', policyNumber: 'P-1', termId: 't', contactIds: [], summary: 'paid', otherPendingRemains: false, withdrawn: true, term: {} as TermRecord };

describe('contributions registered once', () => {
  it('reach every move that names them, for every outcome of the move', async () => {
    const seen: string[] = [];
    const recorder = <Facts extends { decisionDate: string }>(name: string): Contribution<Facts> => async (facts) => {
      seen.push(`${name}@${facts.decisionDate}`);
      return { area: name, writes: [{ ConditionCheck: { TableName: 't', Key: { pk: name, sk: facts.decisionDate }, ConditionExpression: 'attribute_exists(pk)' } }] };
    };
    const note = recorder<CancelledTerm | RescindedCancellation>('note');
    const wiring = { issue: [] as Contribution<CommittedRevision>[], cancel: [recorder<CancelledTerm>('notice'), note], rescind: [note] };
    const writes = [
      ...(await joinedWrites(wiring.cancel, cancelled('pending'))),
      ...(await joinedWrites(wiring.cancel, cancelled('cancelled'))),
      ...(await joinedWrites(wiring.rescind, rescinded)),
      ...(await joinedWrites(wiring.issue, {} as CommittedRevision)),
    ];
    expect(seen).toEqual(['notice@2025-01-02', 'note@2025-01-02', 'notice@2025-01-02', 'note@2025-01-02', 'note@2025-01-02']);
    expect(writes).toHaveLength(5);
  });

  it('lists each area once in a move\'s wiring (shared/moves/): the Notice of Cancellation for every cancellation, the note for cancellations and rescissions', () => {
    const count = (list: readonly unknown[], contribution: unknown) => list.filter((entry) => entry === contribution).length;
    expect(count(cancelWiring.cancel, noticeOfCancellation)).toBe(1);
    expect(count(cancelWiring.cancel, noteOfMove)).toBe(1);
    expect(count(rescindWiring.rescind, noteOfMove)).toBe(1);
    // Billing, documents and events, the search record (built inside the policies area's writes before it joined like the others), and the agency's commission.
    expect(issueWiring.issue).toEqual([billingAtIssue, declarationAtIssue, searchAtIssue, eventsAtIssue, commissionsAtIssue, booksAtIssue]);
  });

  it('registers one events contribution per move: what happened reaches integrators from the move\'s own transaction', () => {
    const count = (list: readonly unknown[], contribution: unknown) => list.filter((entry) => entry === contribution).length;
    expect(count(issueWiring.issue, eventsAtIssue)).toBe(1);
    expect(count(cancelWiring.cancel, eventsAtCancellation)).toBe(1);
    expect(count(rescindWiring.rescind, eventsAtRescission)).toBe(1);
    expect(count(endorseWiring.endorse, eventsAtEndorsement)).toBe(1);
    expect(count(previewEndorsementWiring.endorse, eventsAtEndorsement)).toBe(1);
  });

  it('leaves no contribution list in an entry file or a consumer: cancel_policy and the nightly job make the wired move', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
    const entries = [...files('functions'), ...files('events')].filter((file) => file.endsWith('.ts'));
    const withLists = entries.filter((file) => /Contribution|AtIssue|noticeOfCancellation/.test(readFileSync(file, 'utf8')));
    expect(withLists).toEqual([]);
    for (const file of ['functions/v2/policies/cancel_policy.ts', 'functions/v2/policies/issue.ts', 'events/queues/nightly-billing/decide_accounts.ts']) {
      expect(readFileSync(file, 'utf8')).toMatch(/from '\.\.\/\.\.\/\.\.\/shared\/moves\/[a-z-]+\.js'/);
    }
  });

  it('refuses to commit through billing\'s preview-only endorsement part: a preview function wired into a committing move is named as a wiring mistake', async () => {
    await expect(billingPreviewAtEndorsement({ policyId: 'p', termId: 't' } as EndorsedRevision, { preview: false })).rejects.toThrow(/billingPreviewAtEndorsement .* wire billingAtEndorsement in shared\/moves\/endorse\.ts/);
  });
});
