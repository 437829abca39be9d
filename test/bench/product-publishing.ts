/**
 * `tsx test/bench/product-publishing.ts`: what the product package costs. Publishing's checks
 * (validation against the ZIP table and every worksheet rated) of the shipped product, and a
 * quote rated in memory through the quote path in the shipped two-state book (a Florida quote
 * and a New York one) against today's one-state quote (the same package with the countrywide
 * filing only). Goal: a quote in the two-state book at most 1.1x the one-state quote.
 */
import { packageRecords, productFromRecords, readPackage, referencePackageDocument } from '../../shared/catalog/index.js';
import { checkProductPackage } from '../../shared/products/check.js';
import { rateQuoteInMemory } from '../../shared/quotes/service.js';
import type { QuoteInfo } from '../../shared/quotes/model.js';
import { quoteInfo } from '../../shared/quotes/schemas.js';

function timeMs(runs: number, work: () => void): number {
  for (let index = 0; index < Math.min(runs, 50); index++) work();
  const started = process.hrtime.bigint();
  for (let index = 0; index < runs; index++) work();
  return Number(process.hrtime.bigint() - started) / 1e6 / runs;
}

const document = referencePackageDocument();
const publish = timeMs(20, () => checkProductPackage(document));
const twoState = readPackage(document).package!;
const oneState = { ...twoState, filings: twoState.filings.filter((filing) => filing.state === 'countrywide') };
const productTwo = productFromRecords(packageRecords(twoState));
const productOne = productFromRecords(packageRecords(oneState));
const info = (zip: string) => quoteInfo.parse({ ...(twoState.worksheets[0].quote_info as object), locations: [{ address_zip: zip }] }) as QuoteInfo;
const ny = info('10001');
const fl = info('33101');
const runs = 2000;
const oneStateNy = timeMs(runs, () => rateQuoteInMemory(productOne, ny));
const twoStateNy = timeMs(runs, () => rateQuoteInMemory(productTwo, ny));
const twoStateFl = timeMs(runs, () => rateQuoteInMemory(productTwo, fl));
console.log(`publishing checks of the shipped product (validation + ${twoState.worksheets.length} worksheets): ${publish.toFixed(1)} ms`);
console.log(`a quote, one-state book (New York):  ${(oneStateNy * 1000).toFixed(0)} µs`);
console.log(`a quote, two-state book (New York):  ${(twoStateNy * 1000).toFixed(0)} µs  ${(twoStateNy / oneStateNy).toFixed(2)}x`);
console.log(`a quote, two-state book (Florida):   ${(twoStateFl * 1000).toFixed(0)} µs  ${(twoStateFl / oneStateNy).toFixed(2)}x (builds the structure twice: its surcharges)`);
