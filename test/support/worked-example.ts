/**
 * The README's worked example (a Homeowner - HO3 in ZIP 10001, Dwelling 250,000, Frame,
 * protection class 3, no losses: 826.62 premium and 25.00 fee, Full Pay) quoted, bound and
 * issued through the API, as many tests need a policy in force to act on.
 */
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from './reference-product.js';
import { successData as ok, type TestService } from './service.js';

const P = '/api/v2/policies';

export interface IssuedWorkedExample {
  policyId: string;
  policyNumber: string;
  termId: string;
  revisionId: string;
  /** The quote's answer (`data` of create_quote_extended): its totals, its number. */
  quote: Record<string, any>;
  /** issue's answer. */
  issued: Record<string, any>;
}

export interface WorkedExampleOptions {
  billingScheduleId?: string;
  zip?: string;
  /** Written by this agency (the caller quotes for it: an Administrator or underwriter). */
  agencyId?: string;
  /** Quoted with this API key (an agent quotes for his own agency); bound and issued by the Administrator. */
  apiKey?: string;
  /** More issue_info fields (commission_rate, override_commission). */
  issueInfo?: Record<string, unknown>;
}

/** Issued for `name`, effective `effective` (YYYY-MM-DD; the clock's day when absent), billed Full Pay or on `billingScheduleId`, in ZIP 10001 or `zip`. */
export async function issueWorkedExample(service: TestService, name: string, effective: string = todayIso(), options: WorkedExampleOptions = {}): Promise<IssuedWorkedExample> {
  const [year, month, day] = effective.split('-');
  const quoteInfo = {
    quote_info: {
      effective_date: `${month}/${day}/${year}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name }],
      underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
      locations: [{ address_zip: options.zip ?? '10001' }],
      items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      ...(options.agencyId ? { agency_id: options.agencyId } : {}),
    },
  };
  // A service's own key unless an agent's is given (a local run's service keeps its key in its default options).
  const quote = ok(
    options.apiKey
      ? await service.call(`${P}/create_quote_extended`, quoteInfo, { apiKey: options.apiKey })
      : await service.call(`${P}/create_quote_extended`, quoteInfo),
  );
  ok(await service.call(`${P}/bind`, { bind_info: { policy_id: quote.policy_id } }));
  const issued = ok(
    await service.call(`${P}/issue`, { issue_info: { policy_id: quote.policy_id, ...(options.billingScheduleId ? { billing_schedule_id: options.billingScheduleId } : {}), ...options.issueInfo } }),
  );
  const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: quote.policy_id }));
  return { policyId: quote.policy_id, policyNumber: quote.quote_number, termId: policy.active_policy_term.id, revisionId: policy.active_revision.id, quote, issued };
}
