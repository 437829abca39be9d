/**
 * A claim's files as the claim lists them (records.ts `claimFileRecord`): the part of the documents
 * store a claim's move and get_claim need, apart from store.ts so that neither bundles the S3
 * client or the renderer. A letter's entry is written with its request in the move's
 * transaction (requested), and again with the file once it is made.
 */
import { batchGetAll, queryAll } from '../platform/dynamo.js';
import type { TransactionWrite } from '../platform/transactions.js';
import type { ClaimFileEntry, PrintState } from './model.js';
import { claimFileRecord, waitingEntryRecord } from './records.js';

/** The entry's put, as one write of a transaction (a move's, or the file's own). */
export function claimFilePut(entry: ClaimFileEntry): TransactionWrite {
  return claimFileRecord.put(entry);
}

/** A claim's files, oldest first, each with where it stands: `requested` (not yet made), `tbd` (waiting to print), `printed`, `none`. */
export async function claimFiles(claimId: string): Promise<Array<ClaimFileEntry & { standing: 'requested' | PrintState }>> {
  const entries = (await queryAll(claimFileRecord.query({ claimId }, { consistent: true }))).map(claimFileRecord.parse);
  const tbd = entries.filter((entry) => entry.state === 'made' && entry.printState === 'tbd' && entry.printDate);
  const waiting = new Set(
    (await batchGetAll<{ fileId: string }>(tbd.map((entry) => waitingEntryRecord.key({ policyNumber: entry.policyNumber, printDate: entry.printDate, fileId: entry.fileId })), { consistentRead: true, projection: { expression: 'fileId' } })).map((item) => item.fileId),
  );
  return entries
    .map((entry) => ({ ...entry, standing: entry.state === 'requested' ? ('requested' as const) : entry.printState === 'tbd' ? (waiting.has(entry.fileId) ? ('tbd' as const) : ('printed' as const)) : (entry.printState ?? 'none') }))
    .sort((a, b) => (a.createdAt ?? a.requestedAt).localeCompare(b.createdAt ?? b.requestedAt) || a.fileId.localeCompare(b.fileId));
}
