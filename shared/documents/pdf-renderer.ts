/**
 * The PDF renderer as a module of its own (pdf-lib and its standard fonts, ~360 KiB of code).
 * deliverable-service.ts loads it on the first render, by URL: infra/bundles.ts builds it into
 * `pdf-renderer.mjs` beside a function's `index.mjs`, so a function that may render does not
 * parse it at every cold start, and one that never renders does not ship it.
 */
export { renderDeliverablePdf } from './render/index.js';
export { renderPartyStatement } from './render/party-statement.js';
export { renderClaimLetter } from './render/claim-letter.js';
