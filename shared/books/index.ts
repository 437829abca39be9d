/**
 * The books area's public face: the premium report, closing a month, the journal, the nightly
 * earning, and what billing's postings add to the books. Its contributions to the moves are in
 * joins-moves.ts (imported only by the wiring modules in shared/moves/).
 */
export type { BooksGroup, Counters, JournalLine, PremiumReportLine, TermEarning } from './model.js';
export { GROUP_DIMENSIONS } from './model.js';
export { groupOf } from './rules.js';
export { booksOfCommission, booksOfPosting } from './postings.js';
export { readClosedMonths } from './store.js';
export { closeMonth, earnDay, journal, premiumReport } from './service.js';
export { agencyPremiumForPeriod, policyPremiumForPeriod, type LossRunPremium } from './loss-run-premium.js';
