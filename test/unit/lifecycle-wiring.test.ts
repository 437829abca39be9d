/**
 * The moves' wiring: a contribution registered once (shared/moves.ts) reaches every move
 * that names it, whoever makes the move (cancel_policy, the nightly job), and no entry file
 * or consumer keeps a contribution list of its own.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noticeOfCancellation } from '../../shared/documents/deliverable-service.js';
import { contributedWrites } from '../../shared/lifecycle/contributions.js';
import type { CancelledTerm, Contribution, MoveContributions, MoveEvents, RescindedCancellation } from '../../shared/lifecycle/model.js';
import { eventsAtCancellation, eventsAtEndorsement, eventsAtIssue, eventsAtRescission, moveWiring } from '../../shared/moves.js';
import { noteOfMove } from '../../shared/notes/move-contributions.js';
import { billingPreviewAtEndorsement } from '../../shared/billing/endorsement.js';
import type { EndorsedRevision } from '../../shared/lifecycle/model.js';

const decision = { decisionDate: '2025-01-02', decidedAt: '2025-01-02T12:00:00.000Z', decidedBy: 'nightly-billing' };
const cancelled = (outcome: 'pending' | 'cancelled'): CancelledTerm => ({
  ...decision, policyId: 'p', policyNumber: 'P-1', termId: 't', termEffectiveDate: '2025-01-01', termExpirationDate: '2026-01-01', revisionId: 'r', inForceRevisionId: 'r',
  outcome, cancelDate: '2025-01-16', reasonId: 'x', reason: 'Non-Payment of Premium', returnPremiumCents: 0, contactIds: [], namedInsuredContactIds: [], summary: 's',
});
const rescinded: RescindedCancellation = { ...decision, policyId: 'p', policyNumber: 'P-1', termId: 't', contactIds: [], summary: 'paid', otherPendingRemains: false };

describe('contributions registered once', () => {
  it('reach every move that names them, for every outcome of the move', async () => {
    const seen: string[] = [];
    const recorder = <Event extends { decisionDate: string }>(name: string): Contribution<Event> => async (event) => {
      seen.push(`${name}@${event.decisionDate}`);
      return [{ ConditionCheck: { TableName: 't', Key: { pk: name, sk: event.decisionDate }, ConditionExpression: 'attribute_exists(pk)' } }];
    };
    const note = recorder<CancelledTerm | RescindedCancellation>('note');
    const contributions: MoveContributions = { issue: [], cancel: [recorder('notice'), note], rescind: [note], renew: [], renewalInForce: [], expire: [], renewalStatus: [], reinstate: [] };
    const writes = [
      ...(await contributedWrites({ contributions }, 'cancel', cancelled('pending'))),
      ...(await contributedWrites({ contributions }, 'cancel', cancelled('cancelled'))),
      ...(await contributedWrites({ contributions }, 'rescind', rescinded)),
      ...(await contributedWrites({ contributions }, 'issue', {} as MoveEvents['issue'])),
    ];
    expect(seen).toEqual(['notice@2025-01-02', 'note@2025-01-02', 'notice@2025-01-02', 'note@2025-01-02', 'note@2025-01-02']);
    expect(writes).toHaveLength(5);
  });

  it('registers each area once in shared/moves.ts: the Notice of Cancellation for every cancellation, the note for cancellations and rescissions', () => {
    const count = (list: readonly unknown[], contribution: unknown) => list.filter((entry) => entry === contribution).length;
    expect(count(moveWiring.contributions.cancel, noticeOfCancellation)).toBe(1);
    expect(count(moveWiring.contributions.cancel, noteOfMove)).toBe(1);
    expect(count(moveWiring.contributions.rescind, noteOfMove)).toBe(1);
    expect(moveWiring.contributions.issue).toHaveLength(3);
  });

  it('registers one events contribution per move: what happened reaches integrators from the move\'s own transaction', () => {
    const count = (list: readonly unknown[], contribution: unknown) => list.filter((entry) => entry === contribution).length;
    expect(count(moveWiring.contributions.issue, eventsAtIssue)).toBe(1);
    expect(count(moveWiring.contributions.cancel, eventsAtCancellation)).toBe(1);
    expect(count(moveWiring.contributions.rescind, eventsAtRescission)).toBe(1);
    expect(count(moveWiring.endorsement, eventsAtEndorsement)).toBe(1);
  });

  it('leaves no contribution list in an entry file or a consumer: cancel_policy and the nightly job make the wired move', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
    const entries = [...files('functions'), ...files('events')].filter((file) => file.endsWith('.ts'));
    const withLists = entries.filter((file) => /Contribution|AtIssue|noticeOfCancellation/.test(readFileSync(file, 'utf8')));
    expect(withLists).toEqual([]);
    for (const file of ['functions/v2/policies/cancel_policy.ts', 'functions/v2/policies/issue.ts', 'events/queues/nightly-billing/decide_accounts.ts']) {
      expect(readFileSync(file, 'utf8')).toContain("from '../../../shared/moves.js'");
    }
  });

  it('refuses to commit through billing\'s preview-only endorsement part: a preview function wired into a committing move is named as a wiring mistake', async () => {
    await expect(billingPreviewAtEndorsement()({ policyId: 'p', termId: 't' } as EndorsedRevision, { preview: false })).rejects.toThrow(/billingPreviewAtEndorsement .* wire billingAtEndorsement in shared\/moves.ts/);
  });
});
