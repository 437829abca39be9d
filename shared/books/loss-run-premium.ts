/**
 * The premium a loss run sets its losses against, as the books hold it. For a policy: its terms'
 * earning records (one item each, whatever the size of the book): written is what each term's
 * layers wrote (new business, endorsements, cancellations), earned is what they earned, pro rata
 * by day, over the period through the valuation date (books/rules' earnedThrough, the same
 * figure the nightly books). For an agency: the premium report's months of the period for that
 * agency (the books keep an agency's premium by month and group, not by day; earned is what the
 * nightly has booked).
 */
import { addDays } from '../platform/dates.js';
import type { Cents } from '../platform/money.js';
import { toCentsExactly } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { earnedThrough, monthOf } from './rules.js';
import { premiumReport } from './service.js';
import { getTermEarning } from './store.js';

export interface LossRunPremium {
  writtenCents: Cents;
  earnedCents: Cents;
  /** What the figures are, in words, for the reader of the run. */
  basis: string;
}

/** A policy's written and earned premium over [from, to], earned counted through the earlier of `to` and `asOf`. */
export async function policyPremiumForPeriod(termIds: readonly string[], period: { from: string; to: string; asOf: string }): Promise<LossRunPremium> {
  const through = period.to < period.asOf ? period.to : period.asOf;
  const earnings = (await Promise.all(termIds.map(getTermEarning))).filter((earning) => earning !== undefined);
  let writtenCents = 0;
  let earnedCents = 0;
  for (const earning of earnings) {
    const inPeriod = earning.layers.some((layer) => layer.from <= period.to && (layer.to > period.from || layer.from >= period.from));
    if (!inPeriod) continue;
    writtenCents += earning.layers.reduce((total, layer) => total + layer.cents, 0);
    if (through >= period.from) earnedCents += earnedThrough(earning, through) - earnedThrough(earning, addDays(period.from, -1));
  }
  return {
    writtenCents,
    earnedCents,
    basis: `written: the premium the books hold written for the policy's terms in force within ${period.from} to ${period.to}; earned: what those terms earned, pro rata by day, from ${period.from} through ${through}`,
  };
}

/** An agency's written and earned premium of the months from `from` to `to`, as the premium report shows them (within the caller's reach). */
export async function agencyPremiumForPeriod(principal: Principal, agencyId: string, period: { from: string; to: string }): Promise<LossRunPremium> {
  const report = await premiumReport(principal, { fromMonth: monthOf(period.from), toMonth: monthOf(period.to), groupBy: ['agency'], format: 'json', agencyId });
  let writtenCents = 0;
  let earnedCents = 0;
  for (const line of report.lines) {
    writtenCents += toCentsExactly(line.written.total);
    earnedCents += toCentsExactly(line.earned);
  }
  return {
    writtenCents,
    earnedCents,
    basis: `the agency's written and earned premium of the months ${monthOf(period.from)} to ${monthOf(period.to)} as the premium report shows them (earned as the nightly has booked it)`,
  };
}
