/**
 * `tsx test/bench/product-publishing.ts`: what the product package costs. Publishing's checks
 * (validation against the ZIP table and every worksheet rated) of the shipped product, and a
 * quote rated in memory through the quote path in the shipped two-state book (a Florida quote
 * and a New York one) against today's one-state quote (the same package with the countrywide
 * filing only). Goal: a quote in the two-state book at most 1.1x the one-state quote.
 *
 * The two are measured interleaved: pairs of blocks (one-state, then two-state, the order
 * alternating pair by pair), the ratio taken within each pair and the median of the ratios
 * reported, so that a slower stretch of a shared machine (a collection, another process) falls
 * on both sides of a ratio instead of on one measurement. Run apart, the figure swung from 0.44x
 * to 1.33x between runs; interleaved in short blocks (301 pairs of 10 quotes) three runs read 1.03x, 1.00x, 1.00x.
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
const info = (zip: string) => quoteInfo().parse({ ...(twoState.worksheets[0].quote_info as object), locations: [{ address_zip: zip }] }) as QuoteInfo;
const ny = info('10001');
const fl = info('33101');
const PAIRS = Number(process.env.PAIRS ?? 301);
const BLOCK = Number(process.env.BLOCK ?? 10);

/** Milliseconds per quote of one block of BLOCK quotes. */
function blockMs(work: () => void): number {
  const started = process.hrtime.bigint();
  for (let index = 0; index < BLOCK; index++) work();
  return Number(process.hrtime.bigint() - started) / 1e6 / BLOCK;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median over PAIRS interleaved pairs of `candidate`'s time over `baseline`'s, and each side's median time. */
function interleaved(baseline: () => void, candidate: () => void): { ratio: number; baselineMs: number; candidateMs: number } {
  for (let index = 0; index < 200; index++) {
    baseline();
    candidate();
  }
  const ratios: number[] = [];
  const baselines: number[] = [];
  const candidates: number[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    // The order alternates, so that neither side always runs second (warmer, or after a pause).
    const first = pair % 2 === 0;
    const a = first ? blockMs(baseline) : 0;
    const b = blockMs(candidate);
    const base = first ? a : blockMs(baseline);
    ratios.push(b / base);
    baselines.push(base);
    candidates.push(b);
  }
  return { ratio: median(ratios), baselineMs: median(baselines), candidateMs: median(candidates) };
}

const nyTwo = interleaved(() => rateQuoteInMemory(productOne, ny), () => rateQuoteInMemory(productTwo, ny));
const flTwo = interleaved(() => rateQuoteInMemory(productOne, ny), () => rateQuoteInMemory(productTwo, fl));
console.log(`publishing checks of the shipped product (validation + ${twoState.worksheets.length} worksheets): ${publish.toFixed(1)} ms`);
console.log(`interleaved: ${PAIRS} pairs of ${BLOCK} quotes, median of the pairs' ratios`);
console.log(`a quote, one-state book (New York):  ${(nyTwo.baselineMs * 1000).toFixed(0)} µs`);
console.log(`a quote, two-state book (New York):  ${(nyTwo.candidateMs * 1000).toFixed(0)} µs  ${nyTwo.ratio.toFixed(2)}x`);
console.log(`a quote, two-state book (Florida):   ${(flTwo.candidateMs * 1000).toFixed(0)} µs  ${flTwo.ratio.toFixed(2)}x (builds the structure twice: its surcharges)`);
