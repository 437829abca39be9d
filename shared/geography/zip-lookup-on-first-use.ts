/**
 * The ZIP lookup for code that needs it only now and then (a move's moratorium check, when a
 * moratorium blocks what the move does): the lookup and its table's reader are a module of their
 * own beside the bundle, loaded by the first such call, so the moves neither parse them at a cold
 * start nor count as functions that look ZIP codes up. The quote functions that look a ZIP up on
 * every call import `lookupZip` itself.
 */
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import type { ZipInfo } from './zip-lookup.js';

const zipLookup = /* @__PURE__ */ moduleOnFirstUse<typeof import('./zip-lookup.js')>(new URL('./zip-lookup.mjs', import.meta.url), new URL('./zip-lookup.ts', import.meta.url));

export async function lookupZipOnFirstUse(zip: string): Promise<ZipInfo> {
  return (await zipLookup()).lookupZip(zip);
}
