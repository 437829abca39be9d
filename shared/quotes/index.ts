/**
 * The quotes area's public face: what other areas may use of it (the product area rates
 * worksheets through the quote path). Entry files call the service directly.
 */
export { runWorksheet, runWorksheets, type WorksheetDifference, type WorksheetRun } from './worksheet.js';
export { requoteResult } from './result.js';
export { fromSimpleQuote, quoteInfo, simpleQuoteInfo } from './schemas.js';
export { createQuote, requoteQuote, withMoratoriumWarnings } from './service.js';
