/**
 * The seam where a committed revision is handed to other areas (billing, documents):
 * their writes land in the transaction that commits the revision, or nothing changes.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { commitRevision } from '../../shared/policies/lifecycle.js';
import type { CommitFollower } from '../../shared/policies/model.js';
import { loadRevision } from '../../shared/policies/store.js';
import { startTestService, successData, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

/** A stand-in for billing: one record per committed revision, written only if not there yet. */
const recordingFollower = (key: { pk: string; sk: string }): CommitFollower => ({
  area: 'billing',
  writesFor: (committed) => [
    {
      Put: {
        TableName: config.tableName(),
        Item: { ...key, revisionId: committed.revision.header.id, policyNumber: committed.policy.policyNumber, commitDate: committed.commitDate },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ],
});

const readItem = async (key: { pk: string; sk: string }) => (await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: key, ConsistentRead: true }))).Item;

describe('committing a revision', () => {
  it("commits the revision and lands each follower's writes with it", async () => {
    const created = successData(await service.call(`${P}/create_policy`, {}));
    const key = { pk: `TEST#${created.revision_id}`, sk: 'SCHEDULE' };
    const committed = await commitRevision((await loadRevision(created.revision_id))!, [recordingFollower(key)], new Date('2026-03-02T12:00:00Z'));
    expect(committed.revision.header).toMatchObject({ revisionState: 'committed', commitDate: '2026-03-02' });
    const revision = successData(await service.call(`${P}/retrieve_revision_details`, { revision_id: created.revision_id }));
    expect(revision).toMatchObject({ revision_state: 'committed', commit_date: '2026-03-02' });
    expect(await readItem(key)).toMatchObject({ revisionId: created.revision_id, policyNumber: created.policy_number, commitDate: '2026-03-02' });
  });

  it("changes nothing when a follower's write is refused", async () => {
    const created = successData(await service.call(`${P}/create_policy`, {}));
    const taken = { pk: `TEST#${created.revision_id}`, sk: 'SCHEDULE' };
    const other = { pk: `TEST#${created.revision_id}`, sk: 'DECLARATION' };
    // The record the follower would create exists already: its conditional put fails, and so does the commit.
    await documentClient().send(new PutCommand({ TableName: config.tableName(), Item: { ...taken, revisionId: 'earlier' } }));
    const snapshot = (await loadRevision(created.revision_id))!;
    await expect(commitRevision(snapshot, [recordingFollower(other), recordingFollower(taken)])).rejects.toThrow(
      `Revision ${created.revision_id} was not changed: a record another area writes with the change was refused`,
    );
    expect((await loadRevision(created.revision_id))!.header).toMatchObject({ revisionState: 'open', commitDate: null, version: snapshot.header.version });
    expect(await readItem(other)).toBeUndefined();
  });

  it('refuses a revision that is not open', async () => {
    const created = successData(await service.call(`${P}/create_policy`, {}));
    const snapshot = (await loadRevision(created.revision_id))!;
    await commitRevision(snapshot);
    await expect(commitRevision((await loadRevision(created.revision_id))!)).rejects.toThrow(`Revision ${created.revision_id} is committed; only an open revision can be changed`);
  });
});
