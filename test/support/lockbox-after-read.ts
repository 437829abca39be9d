/**
 * A hook into a lockbox file's application between reading its accounts and posting, for tests of
 * what lands meanwhile (a manual payment, a concurrent change). A test file installs it with
 *   vi.mock('../../shared/billing/store.js', async (importOriginal) => (await import('../support/lockbox-after-read.js')).storeWithAfterRead(await importOriginal()));
 * (vi.mock is hoisted, so the factory imports this module itself) and sets `afterRead.once`.
 * This module imports no store, so the factory does not import the module it mocks.
 */

/** Runs once, right after a lockbox file has read its accounts and before it posts (set by a test). */
export const afterRead: { once?: () => Promise<void> } = {};

/** The billing store with its lockbox account read followed by `afterRead.once`. */
export function storeWithAfterRead<Store extends { readLockboxAccounts: (...args: never[]) => Promise<unknown> }>(store: Store): Store {
  return {
    ...store,
    readLockboxAccounts: async (...args: Parameters<Store['readLockboxAccounts']>) => {
      const read = await store.readLockboxAccounts(...args);
      const concurrent = afterRead.once;
      afterRead.once = undefined;
      await concurrent?.();
      return read;
    },
  };
}
