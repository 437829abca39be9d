/**
 * Which of `shards` partitions a record's id goes to: a stable hash of the id, so the same
 * record always lands on the same shard (its writes and its reads agree) and many records spread
 * evenly. Used wherever one partition would take every write of a kind (account lists, search
 * counters, the renewal watch).
 */
export function stableShard(id: string, shards: number): number {
  let hash = 0;
  for (const character of id) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return hash % shards;
}
