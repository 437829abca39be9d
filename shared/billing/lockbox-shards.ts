/** The lockbox-due records (the accounts that owe, the matchfile's source) are spread over this many partitions: the matchfile reads each in turn. */
export const LOCKBOX_DUE_SHARDS = 8;
