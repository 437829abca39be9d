/** The quote result (spec 2.11) from a rated revision: totals, items with the steps asked for, forms and STP. Pure. */
import { toAmount } from '../platform/money.js';
import type { RatedRevision } from '../rating/index.js';
import type { StpResult } from '../underwriting/index.js';
import type { PlannedItem, QuotePlan, QuoteResult } from './model.js';

function identifierOf(planned: PlannedItem | undefined, plan: QuotePlan, questionNames: ReadonlyMap<string, string>): unknown {
  const key = planned?.request?.identifier;
  if (!key) return undefined;
  const given = planned.request?.questions?.[key];
  if (given !== undefined) return Array.isArray(given) ? given[0] : given;
  const questionId = [...questionNames].find(([, name]) => name.toLowerCase() === key.toLowerCase())?.[0] ?? key;
  return planned.location === null ? undefined : plan.locations[planned.location]?.answers[questionId];
}

export function quoteResult(
  plan: QuotePlan,
  rated: RatedRevision,
  context: { itemPlaces: ReadonlyMap<string, PlannedItem>; questionNames: ReadonlyMap<string, string>; stp: StpResult | null; extended: boolean },
  numbers: { quoteNumber: string | null; policyId: string | null },
): QuoteResult {
  const totals = rated.totals;
  const items = rated.items.map((item) => {
    const planned = context.itemPlaces.get(item.id);
    const entry: Record<string, unknown> = {
      name: item.name,
      pro_rata_amount: toAmount(item.writtenPremiumCents + item.writtenFeeCents),
      annual_amount: toAmount(item.annualPremiumCents + item.annualFeeCents),
    };
    if (context.extended) {
      const wanted = planned?.request?.rating_details ?? [];
      entry.rating_details = item.ratingDetails
        .filter((detail) => wanted.some((name) => name.toLowerCase() === detail.name.toLowerCase()))
        .map((detail) => ({ [detail.name]: toAmount(detail.runningTotalCents) }));
      if (item.territory) entry.territory = item.territory;
      const identifier = identifierOf(planned, plan, context.questionNames);
      if (identifier !== undefined) entry.identifier = identifier;
    }
    return entry;
  });
  const result: QuoteResult = {
    quote_number: numbers.quoteNumber,
    policy_id: numbers.policyId,
    total: {
      pro_rata_fees: toAmount(totals.writtenFeeCents),
      pro_rata_premium: toAmount(totals.writtenPremiumCents),
      pro_rata_total: toAmount(totals.writtenTotalCents),
      annual_fees: toAmount(totals.annualFeeCents),
      annual_premium: toAmount(totals.annualPremiumCents),
      annual_total: toAmount(totals.annualTotalCents),
      // A state's taxes, surcharges and assessments, shown apart: they are part of the fees, never of the premium.
      ...(totals.annualChargeCents !== undefined ? { pro_rata_surcharges: toAmount(totals.writtenChargeCents ?? 0), annual_surcharges: toAmount(totals.annualChargeCents) } : {}),
    },
    items,
  };
  if (context.extended) {
    result.forms = rated.forms;
    const stp = context.stp;
    result.stp = {
      ran: !!stp,
      success: stp ? stp.success : false,
      details: (stp?.details ?? []).map((finding) => ({ rule_name: finding.rule, details: finding.message, outcome: finding.outcome })),
    };
  }
  return result;
}

/** requote_extended's answer: the quote result without rating_details and stp (spec 4.5). */
export function requoteResult(result: QuoteResult): QuoteResult {
  const { stp: _stp, ...rest } = result;
  return { ...rest, items: result.items.map(({ rating_details: _details, ...item }) => item) };
}
