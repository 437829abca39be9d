/**
 * Electronic signatures: the DynamoDB capacity of requesting signatures on a submitted
 * policy's application (rendering and storing the Policy Application PDF included) and of
 * reading the requests, and the time the vendor's webhook takes to be verified and queued.
 */
import { todayIso } from '../../../shared/platform/dates.js';
import { signWebhook } from '../../../shared/signatures/webhook-signature.js';
import type { BenchRow, BenchScenario } from '../types.js';
import { meteredCaller } from '../scenario-helpers.js';

const P = '/api/v2/policies';
const LOSSES_IN_PAST_3_YEARS = 'e29555d3-7101-4947-a3af-a279d8774c09';

export const scenario: BenchScenario = {
  name: 'signatures',
  async run(context) {
    const rows: BenchRow[] = [];
    const metered = meteredCaller(context, rows);
    const iso = todayIso();
    const quote = await context.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`,
        line_name: 'Homeowners',
        policy_type_name: 'Homeowner - HO3',
        named_insureds: [{ name: 'Jordan Avery' }, { name: 'Pat Avery' }],
        underwriting_questions: [{ questionId: LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    });
    const policyId = quote.body.data.policy_id;
    await context.call(`${P}/bind`, { bind_info: { policy_id: policyId } });
    const requested = await metered('request_deliverable_signature, 2 signers', `${P}/request_deliverable_signature`, { policy_id: policyId, sign_mode: 'embedded' });
    await metered('retrieve_signature_requests', `${P}/retrieve_signature_requests`, { policy_id: policyId });

    // The webhook: HMAC check over the raw body, then SendMessage (nothing read or written in the table).
    const secret = process.env.SIGNATURE_VENDOR_SECRET!.split(',')[0];
    const body = JSON.stringify({ event_type: 'created', signature_request_id: requested.message, policy_id: policyId });
    const timings: number[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const started = performance.now();
      const response = await fetch(`${context.url}${P}/application_signature_event_callback`, {
        method: 'POST',
        headers: { 'x-signature': signWebhook(secret, body, Math.floor(Date.now() / 1000)) },
        body,
      });
      const answer = (await response.json()) as { message?: string };
      if (answer.message !== 'Event processed') throw new Error(`webhook refused: ${JSON.stringify(answer)}`);
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    rows.push({ name: 'application_signature_event_callback (verify + queue), 100 sequential', p50: Math.round(timings[49] * 10) / 10, p99: Math.round(timings[98] * 10) / 10 });
    return rows;
  },
};
