/**
 * How the print work of a night is divided: each print list is spread over PRINT_SHARDS
 * partitions (docs/data-model.md, Hot keys), and every file of one policy number goes to the
 * same one, so a policy's envelope is put together by one shard's run.
 */
import { stableShard } from '../platform/shards.js';

/** Partitions each print list is spread over. */
export const PRINT_SHARDS = 8;

/** The shard of a file's print entries and envelope: every file of one policy number shares it. */
export const printShardOf = (policyNumber: string) => stableShard(policyNumber, PRINT_SHARDS);
