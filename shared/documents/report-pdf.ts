/**
 * A report rendered as a PDF on request and handed back to the caller (a loss run), not filed:
 * the statement layout of the party statements (heading fields, a table, a totals box), by the
 * PDF renderer loaded on the first such request, so the operation's cold start never parses pdf-lib.
 */
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import { carrierIdentity } from './carrier.js';
import type { PartyStatement } from './model.js';

const renderer = /* @__PURE__ */ moduleOnFirstUse<typeof import('./pdf-renderer.js')>(new URL('./pdf-renderer.mjs', import.meta.url), new URL('./pdf-renderer.ts', import.meta.url));

/** The report as PDF bytes, in the carrier's name. */
export async function renderReportPdf(report: PartyStatement): Promise<Uint8Array> {
  return (await renderer()).renderPartyStatement(report, await carrierIdentity());
}
