/** Helpers of the documents tests: the worked-example quote, agents, PDF text, file fetches. */
import { execFileSync } from 'node:child_process';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from './reference-product.js';
import { successData as ok, type TestService } from './service.js';

const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';

const usToday = () => {
  const iso = todayIso();
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
};

/** The worked example of the reference product (HO3, A = 250,000, Frame, class 3): premium 826.62. */
export async function workedExampleQuote(service: TestService, options: { apiKey?: string; insured?: string; addressLine1?: string } = {}) {
  const data = ok(
    await service.call(
      '/api/v2/policies/create_quote_extended',
      {
        quote_info: {
          effective_date: usToday(),
          line_name: 'Homeowners',
          policy_type_name: 'Homeowner - HO3',
          named_insureds: [{ name: options.insured ?? 'Jordan Avery' }],
          underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
          locations: [{ address_line1: options.addressLine1 ?? '42 Maple Avenue', address_city: 'New York', address_state: 'NY', address_zip: '10001' }],
          items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
        },
      },
      options.apiKey ? { apiKey: options.apiKey } : {},
    ),
  );
  const policy = ok(await service.call('/api/v2/policies/retrieve_policy', { policy_id: data.policy_id }));
  return { policyId: data.policy_id as string, policyNumber: data.quote_number as string, revisionId: policy.active_revision.id as string, policy };
}

/** An agent of the given agencies, with an API key. */
export async function agentOf(agencyIds: string[]) {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name: `Agent ${contactId.slice(0, 8)}`, type: 'individual', roleIds: [AGENT_ROLE], agencyIds, createdAt: new Date().toISOString(), version: 1 });
  const apiKey = newToken('ias');
  await ensureApiKey(contactId, apiKey, 'documents test agent');
  return { contactId, apiKey };
}

/** The text of a PDF as poppler reads it (what a reader, or a screen reader, gets). */
export function pdfText(bytes: Uint8Array): string {
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: Buffer.from(bytes) }).toString('utf8');
}

/** getAttachment as a browser or a print client calls it: the raw bytes and their content type. */
export async function fetchFile(service: TestService, id: string, extra: Record<string, unknown> = {}, apiKey?: string) {
  const response = await fetch(`${service.url}/api/v1/printing/getAttachment`, {
    method: 'POST',
    body: JSON.stringify({ api_key: apiKey ?? service.administratorApiKey, json_dict: { id, ...extra } }),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), csp: response.headers.get('content-security-policy'), bytes: new Uint8Array(await response.arrayBuffer()) };
}
