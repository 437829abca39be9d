/** Bounded concurrency: the one helper every area uses to work through a list a few at a time. */

/**
 * Runs `work` over `list` with at most `width` calls in flight (a new one starts as one
 * ends), answering the results in the order of the list. The first failure rejects.
 */
export async function mapLimited<T, R>(list: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(list.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(Math.max(1, Math.floor(width)), list.length) }, async () => {
    while (next < list.length) {
      const index = next++;
      results[index] = await work(list[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * A read begun now, to be awaited later beside others (one round trip instead of one after
 * another): its failure is not reported unhandled meanwhile, and is thrown where it is awaited.
 */
export function begun<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}
