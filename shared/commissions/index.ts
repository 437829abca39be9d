/**
 * The commissions area's public face: what other areas may use of it. Its contributions to the
 * moves are in joins-moves.ts (imported only by the wiring modules in shared/moves/).
 */
export type { CommissionRow, CommissionSchedule, CommissionTerm } from './model.js';
export { commissionCents, DEFAULT_RATES, scheduledRate } from './rules.js';
export { commissionStatement, recordCommissionPayment, retrieveCommissionStatement, setCommissionSchedule, statementCsv } from './service.js';
