/**
 * Test-only: moves a revision to another state whatever its state, on the version read
 * (the moves in shared/lifecycle own when a revision changes state; tests set one up directly).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { revisionKey, versionedUpdate } from '../../shared/policies/keys.js';
import type { RevisionRecord, RevisionState } from '../../shared/policies/model.js';

export async function setRevisionState(revisionId: string, state: RevisionState, extra: Partial<RevisionRecord> = {}): Promise<void> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: revisionKey(revisionId), ConsistentRead: true }));
  if (!Item) throw new Error(`Revision ${revisionId} was not found`);
  await documentClient().send(new UpdateCommand(versionedUpdate(config.tableName(), revisionKey(revisionId), Item.version as number, { ...extra, revisionState: state })));
}
