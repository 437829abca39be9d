/**
 * The smoke suite of the rehearsal, against the bundled functions as the templates wire them:
 *  1. the README's worked example (quote → bind → issue → payment → history → print queue →
 *     search → cancellation), its very block run by bash, every `#` line checked in order; it
 *     goes through the table-stream pipe's stand-in, the documents queue and its consumer;
 *  2. a print job: the nightly print rule's function fired for the Declaration's print date, the
 *     print-batches queue's consumer putting it into a mailing batch;
 *  3. a signature webhook: signatures requested on a bound policy, the vendor's signed webhook
 *     posted, the signature-events consumer applying it;
 *  4. an event's retry at its time: policy.issued through the events pipe's stand-in and the events
 *     consumer to a subscriber that answers 503, then, from the event-retries queue, again 5
 *     seconds later (within a second), answered 204.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { missingExpectedLine, readmeBlock } from './readme-blocks.js';
import { signWebhook } from '../../shared/signatures/index.js';
import type { RehearsedService } from './rehearse.js';
import { clock } from '../../shared/platform/clock.js';
import { addDays } from '../../shared/platform/dates.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function runBash(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function call(service: RehearsedService, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { authorization: service.administratorApiKey, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 500) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const step = (service: RehearsedService, name: string) => service.log(`rehearsal smoke: ${name}`);

export async function workedExample(service: RehearsedService): Promise<{ policyNumber: string }> {
  step(service, "the README's worked example, quote to cancellation");
  const block = readmeBlock('worked-example');
  const port = new URL(service.url).port;
  const result = await runBash(block, { PORT: port, KEY: service.administratorApiKey });
  if (result.code !== 0) throw new Error(`the README's worked example exited ${result.code}: ${result.stderr.slice(0, 500)}\n${result.stdout}`);
  const missing = missingExpectedLine(result.stdout, block, { anyPolicySequence: true });
  if (missing) throw new Error(`the README's worked example: "${missing.comment}" did not come out (after line ${missing.after}) in:\n${result.stdout}`);
  return { policyNumber: result.stdout.split('\n')[0].trim().split(' ')[0] };
}

export async function printJob(service: RehearsedService, policyNumber: string): Promise<void> {
  step(service, 'the nightly print job, through its rule, the print-batches queue and its consumer');
  // Through a week ahead: a Declaration issued on a weekend or a holiday prints on the next business day.
  const waiting = await call(service, '/api/v1/printing/getToBePrinted', { json_dict: { to_date: addDays(clock.today(), 7) } });
  const declaration = (waiting.data?.files ?? []).find((file: { title: string }) => file.title === `Declaration - ${policyNumber}`);
  if (!declaration) throw new Error(`print job: the Declaration of ${policyNumber} is not waiting to print: ${JSON.stringify(waiting).slice(0, 300)}`);
  const fired = (await service.fireRule(/nightly_print/, { printDate: declaration.print_date })) as { printDate?: string };
  if (fired?.printDate !== declaration.print_date) throw new Error(`print job: the job answered ${JSON.stringify(fired)}`);
  const batch = await eventually('print job: the Declaration in a mailing batch', async () => {
    const answer = await call(service, '/api/v1/printing/getToBePrinted', { json_dict: { to_date: declaration.print_date } });
    const file = (answer.data?.files ?? []).find((candidate: { file_id: string }) => candidate.file_id === declaration.file_id);
    return file?.batch ?? undefined;
  });
  service.log(`rehearsal smoke: Declaration - ${policyNumber} in mailing batch ${batch}`);
}

export async function signatureWebhook(service: RehearsedService): Promise<void> {
  step(service, "a signature request and the vendor's webhook, through the signature-events queue and its consumer");
  const today = new Date().toISOString().slice(0, 10);
  const signer = { name: 'Jordan Avery', email: 'jordan.avery@example.com' };
  const quote = await call(service, '/api/v2/policies/create_quote_extended', {
    quote_info: {
      effective_date: today,
      line_name: 'Homeowners',
      policy_type_name: 'Homeowner - HO3',
      named_insureds: [{ name: signer.name, type: 'individual', emails: [{ email: signer.email, type: 'personal' }] }],
      underwriting_questions: [{ questionId: 'e29555d3-7101-4947-a3af-a279d8774c09', yesNoAnswer: 'no' }],
      locations: [{ address_zip: '10001' }],
      items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
    },
  });
  if (!quote.success) throw new Error(`signature: create_quote_extended answered ${JSON.stringify(quote).slice(0, 300)}`);
  const policyId = quote.data.policy_id as string;
  const bound = await call(service, '/api/v2/policies/bind', { bind_info: { policy_id: policyId } });
  if (!bound.success) throw new Error(`signature: bind answered ${JSON.stringify(bound).slice(0, 300)}`);
  const requested = await call(service, '/api/v2/policies/request_deliverable_signature', { policy_id: policyId, sign_mode: 'embedded' });
  if (!requested.success) throw new Error(`signature: request_deliverable_signature answered ${JSON.stringify(requested).slice(0, 300)}`);
  const requestId = requested.message as string;

  const body = JSON.stringify({ event_type: 'signed', policy_id: policyId, signature_request_id: requestId, signer_name: signer.name, occurred_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
  const header = signWebhook(service.signatureVendorSecret, body, Math.floor(Date.now() / 1000));
  const response = await fetch(`${service.url}/api/v2/policies/application_signature_event_callback`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': header }, body });
  const answer = (await response.json()) as { success?: boolean };
  if (response.status !== 200 || !answer.success) throw new Error(`signature: the signed webhook answered ${response.status} ${JSON.stringify(answer)}`);
  const forged = await fetch(`${service.url}/api/v2/policies/application_signature_event_callback`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signWebhook('not-the-secret', body, Math.floor(Date.now() / 1000)) }, body });
  if (forged.status !== 401) throw new Error(`signature: a forged webhook answered ${forged.status}, not 401`);

  await eventually('signature: the signer signed', async () => {
    const requests = await call(service, '/api/v2/policies/retrieve_signature_requests', { policy_id: policyId });
    const statuses = (requests.data?.signature_requests?.[0]?.signatures ?? []).map((signature: { status_code: string }) => signature.status_code);
    return statuses.includes('signed') ? statuses : undefined;
  });
}

/** The retry's lateness the check accepts: the 5-second wait happens at 5 seconds, within a second. */
const RETRY_TOLERANCE_MS = 1000;

export async function eventRetry(service: RehearsedService): Promise<void> {
  step(service, "an event's 5-second retry, through the events pipe, the events queue and the event-retries queue");
  // A subscriber on this machine: allowed where the rehearsal runs (in Lambda every subscriber is https).
  const eventFunctions = service.functions.filter((fn) => ['POST /api/v2/events/create', 'POST /api/v2/events/list_deliveries'].includes(fn.spec.description) || /^Consumes (events|event-retries) /.test(fn.spec.description));
  if (eventFunctions.length !== 4) throw new Error(`event retry: expected events/create, events/list_deliveries and the events and event-retries consumers, found ${eventFunctions.map((fn) => fn.spec.description).join(', ')}`);
  for (const fn of eventFunctions) {
    fn.spec.environment.EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST = 'true';
    await fn.stop();
    // Warm, as a busy consumer is: the check is of the retry's schedule, not of a cold start.
    await fn.load();
  }
  const arrivals: Array<{ at: number; eventId: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk)).on('end', () => {
      arrivals.push({ at: Date.now(), eventId: JSON.parse(body).id });
      response.writeHead(arrivals.length === 1 ? 503 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const today = clock.today();
    const quote = await call(service, '/api/v2/policies/create_quote_extended', {
      quote_info: {
        effective_date: today, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3',
        named_insureds: [{ name: 'Reta Later' }], locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    });
    if (!quote.success) throw new Error(`event retry: create_quote_extended answered ${JSON.stringify(quote).slice(0, 300)}`);
    const policyId = quote.data.policy_id as string;
    const bound = await call(service, '/api/v2/policies/bind', { bind_info: { policy_id: policyId } });
    if (!bound.success) throw new Error(`event retry: bind answered ${JSON.stringify(bound).slice(0, 300)}`);
    const subscribed = await call(service, '/api/v2/events/create', { url, event_types: ['policy.issued'] });
    if (!subscribed.success) throw new Error(`event retry: events/create answered ${JSON.stringify(subscribed).slice(0, 300)}`);
    const issued = await call(service, '/api/v2/policies/issue', { issue_info: { policy_id: policyId } });
    if (!issued.success) throw new Error(`event retry: issue answered ${JSON.stringify(issued).slice(0, 300)}`);
    await eventually('event retry: policy.issued attempted twice', async () => (arrivals.length >= 2 ? arrivals : undefined), 60);
    const [first, second] = arrivals;
    if (second.eventId !== first.eventId) throw new Error(`event retry: the second attempt carried ${second.eventId}, not the retried ${first.eventId}`);
    const waitedMs = second.at - first.at;
    service.log(`rehearsal smoke: policy.issued refused (503), sent again ${(waitedMs / 1000).toFixed(2)} s later (the retry is due at 5 s)`);
    if (waitedMs < 5000 || waitedMs > 5000 + RETRY_TOLERANCE_MS) throw new Error(`event retry: the 5-second retry came ${waitedMs} ms after the refused attempt, not within a second of 5 s`);
    const deliveries = await call(service, '/api/v2/events/list_deliveries', { subscription_id: subscribed.data.subscription_id });
    const statuses = (deliveries.data?.deliveries?.[0]?.attempts ?? []).map((attempt: { status_code: number }) => attempt.status_code);
    if (deliveries.data?.deliveries?.[0]?.status !== 'delivered' || statuses.join() !== '503,204') throw new Error(`event retry: the delivery reads ${JSON.stringify(deliveries.data).slice(0, 300)}`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The money moves' metrics (shared/platform/metrics.ts) came out of the bundles as CloudWatch embedded metric lines. */
function expectMoneyMetrics(service: RehearsedService) {
  for (const [route, metric] of [
    ['POST /api/v2/policies/issue', 'PoliciesIssued'],
    ['POST /api/v1/payments/makeManualPolicyPayment', 'PaymentsPosted'],
  ]) {
    const fn = service.functions.find((candidate) => candidate.spec.description === route);
    if (!fn) throw new Error(`no function serves ${route}`);
    if (!fn.output.some((line) => line.includes('"_aws"') && line.includes(`"${metric}"`))) throw new Error(`${route} logged no ${metric} metric (embedded metric format)`);
  }
}

export async function smokeSuite(service: RehearsedService): Promise<void> {
  const { policyNumber } = await workedExample(service);
  expectMoneyMetrics(service);
  await printJob(service, policyNumber);
  await signatureWebhook(service);
  await eventRetry(service);
}
