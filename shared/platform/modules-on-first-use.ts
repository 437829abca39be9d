/**
 * A module a function loads the first time it needs it rather than at every cold start: the PDF
 * renderer, the large lockbox file's start. Bundled, it is its own file beside `index.mjs`
 * (infra/bundles.ts builds `./<name>.mjs` from `./<name>.ts` wherever a bundled module names both,
 * as the callers here do); run from source (tests, the local runtime), it is the TypeScript module.
 * Both URLs must be written out in the calling module (`new URL('./<name>.mjs', import.meta.url)`),
 * since that is what the bundler finds and resolves beside it.
 */
import { existsSync } from 'node:fs';

export function moduleOnFirstUse<Module>(built: URL, source: URL): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () =>
    (loading ??= (import(existsSync(built) ? built.href : source.href) as Promise<Module>).catch((error: unknown) => {
      // A failed load is tried again by the next call rather than remembered.
      loading = undefined;
      throw error;
    }));
}
