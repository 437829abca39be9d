/**
 * The books area's public face: the premium report, closing a month, the journal, the nightly
 * earning, the loss report, and what billing's postings and a claim's money add to the books. Its contributions to the moves are in
 * joins-moves.ts (imported only by the wiring modules in shared/moves/).
 */
export type { BooksGroup, ClaimMoney, ClaimMoneyMove, Counters, JournalLine, LossGroup, LossReportLine, PremiumReportLine, TermEarning } from './model.js';
export { GROUP_DIMENSIONS, LOSS_GROUP_DIMENSIONS } from './model.js';
export { groupOf } from './rules.js';
export { booksOfClaimMoney, booksOfCommission, booksOfPosting } from './postings.js';
export { readClosedMonths } from './store.js';
export { closeMonth, earnDay, journal, lossReport, premiumReport } from './service.js';
export { agencyPremiumForPeriod, policyPremiumForPeriod, type LossRunPremium } from './loss-run-premium.js';
