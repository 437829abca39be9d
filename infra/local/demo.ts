/**
 * `npm run demo`: the README's worked example against the service `npm start` runs (found by
 * itself, infra/local/running-service.ts): quote → bind → issue → pay → account history →
 * print queue → search → endorsement → cancel → the account after it, printing each call and the figures to look at.
 *
 * The walk is a list of steps, each reading what the earlier ones found, so that a step is
 * added by inserting it where it belongs (an endorsement, between search and cancel).
 */
import { addDays } from '../../shared/platform/dates.js';
import { findRunningService, LocalToolError, postToService, runLocalTool, type RunningService } from './running-service.js';
import { workedExampleQuoteInfo } from '../openapi.js';

/** What the steps learn as they go. */
interface Walk {
  policyNumber?: string;
  policyId?: string;
  revisionId?: string;
  dwellingId?: string;
}

interface Step {
  title: string;
  path: string;
  body(walk: Walk): Record<string, unknown>;
  /** The figures worth showing, from the answer (and what later steps need, into the walk). */
  figures(answer: any, walk: Walk): string;
  /** For what a consumer makes moments after a move: asked again (up to 20 s) until this holds. */
  until?(answer: any, walk: Walk): boolean;
}

/** The service's today (get_release_info answers it): SERVICE_CLOCK may have started the service on another day than this machine's. */
let serviceToday = new Date().toISOString().slice(0, 10);
const day = (offset: number) => addDays(serviceToday, offset);
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';

const WORKED_EXAMPLE_STEPS: Step[] = [
  {
    title: 'quote',
    path: '/api/v2/policies/create_quote_extended',
    body: () => ({ quote_info: workedExampleQuoteInfo(usDate(day(0))) }),
    figures: (answer, walk) => {
      walk.policyNumber = answer.data.quote_number;
      walk.policyId = answer.data.policy_id;
      return `quote ${walk.policyNumber}: premium ${answer.data.total.annual_premium.toFixed(2)}, total with fees ${answer.data.total.annual_total.toFixed(2)}`;
    },
  },
  {
    title: 'bind',
    path: '/api/v2/policies/bind',
    body: (walk) => ({ bind_info: { policy_number: walk.policyNumber } }),
    figures: (answer) => `status ${answer.data.status}`,
  },
  {
    title: 'issue',
    path: '/api/v2/policies/issue',
    body: (walk) => ({ issue_info: { policy_number: walk.policyNumber } }),
    figures: (answer) => `status ${answer.data.status}; its invoice and its Declaration's request written in the same transaction`,
  },
  {
    title: 'pay',
    path: '/api/v1/payments/makeManualPolicyPayment',
    body: (walk) => ({ policyNumber: walk.policyNumber, amount: '851.62' }),
    figures: () => 'payment of 851.62 posted',
  },
  {
    title: 'account history',
    path: '/api/v2/policies/retrieve_account_history',
    body: (walk) => ({ policy_id: walk.policyId }),
    figures: (answer) =>
      (answer.data.records as Array<{ date: string; summary: string; balance: number }>)
        .map((record) => `${record.date} ${record.summary} (balance ${record.balance.toFixed(2)})`)
        .join('; '),
  },
  {
    title: 'print queue',
    path: '/api/v1/printing/getToBePrinted',
    // Through a week ahead: a Declaration issued on a weekend or a holiday prints on the next business day.
    body: () => ({ json_dict: { to_date: day(7) } }),
    // The Declaration is rendered by the documents consumer moments after issue.
    until: (answer, walk) => (answer.data.files as Array<{ policy_number: string }>).some((file) => file.policy_number === walk.policyNumber),
    figures: (answer, walk) => {
      const files = (answer.data.files as Array<{ policy_number: string; title: string; print_date: string }>).filter((file) => file.policy_number === walk.policyNumber);
      return files.map((file) => `${file.title}, to print on ${file.print_date}`).join('; ') || 'nothing of this policy';
    },
  },
  {
    title: 'search',
    path: '/api/v2/policies/search',
    body: (walk) => ({ search_string: walk.policyNumber }),
    figures: (answer) =>
      (answer.data.records as Array<{ policyNumber: string; status: string; namedInsured: string }>)
        .map((record) => `${record.policyNumber} ${record.status} ${record.namedInsured}`)
        .join('; '),
  },
  {
    title: 'endorsement: open',
    path: '/api/v2/policies/new_revision',
    body: (walk) => ({ policy_id: walk.policyId, revision_date: day(100) }),
    figures: (answer, walk) => {
      walk.revisionId = answer.data.revision_id;
      return `open revision ${walk.revisionId} dated ${day(100)}, a copy of the revision in force that day`;
    },
  },
  {
    title: 'endorsement: its items',
    path: '/api/v2/policies/retrieve_revision_details',
    body: (walk) => ({ revision_id: walk.revisionId }),
    figures: (answer, walk) => {
      const dwelling = (answer.data.items as Array<{ id: string; name: string; limit: number }>).find((item) => item.name === 'Dwelling')!;
      walk.dwellingId = dwelling.id;
      return `Dwelling limit ${dwelling.limit}`;
    },
  },
  {
    title: 'endorsement: raise the Dwelling',
    path: '/api/v2/policies/update_rating_information',
    body: (walk) => ({ revision_id: walk.revisionId, items: [{ id: walk.dwellingId, limit: 300000 }] }),
    figures: () => 'Dwelling limit 300000 on the open revision (the policy in force is unchanged)',
  },
  {
    title: 'endorsement: rate',
    path: '/api/v2/policies/rate_revision',
    body: (walk) => ({ revision_id: walk.revisionId }),
    figures: () => 'rated, trace stored',
  },
  {
    title: 'endorsement: preview',
    path: '/api/v2/policies/preview_revision',
    body: (walk) => ({ revision_id: walk.revisionId }),
    figures: (answer) => `annual ${answer.data.annual_premium_before.toFixed(2)} → ${answer.data.annual_premium.toFixed(2)}, additional premium ${answer.data.additional_premium.toFixed(2)} (nothing written)`,
  },
  {
    title: 'endorsement: issue',
    path: '/api/v2/policies/issue',
    body: (walk) => ({ issue_info: { policy_id: walk.policyId, revision_id: walk.revisionId } }),
    figures: (answer) => `committed: annual premium ${answer.data.annual_premium.toFixed(2)}, Endorsement row and Endorsement Declaration in the same transaction`,
  },
  {
    title: 'cancel',
    path: '/api/v2/policies/cancel_policy',
    body: (walk) => ({ policy_id: walk.policyId, cancel_reason_id: INSUREDS_REQUEST, cancel_date: day(30) }),
    figures: (answer) => answer.message,
  },
  {
    title: 'account after the cancel',
    path: '/api/v2/policies/retrieve_account_history',
    body: (walk) => ({ policy_id: walk.policyId }),
    // The rows the cancellation posted (newest first, down to its Cancellation row): the credit is the return premium it names.
    figures: (answer) => {
      const records = answer.data.records as Array<{ type: string; amount: number; balance: number }>;
      const posted = records.slice(0, records.findIndex((record) => record.type === 'Cancellation') + 1);
      return posted.map((record) => `${record.type} ${record.amount.toFixed(2)} (balance ${record.balance.toFixed(2)})`).join('; ');
    },
  },
];

async function walkWorkedExample(service: RunningService, print: (line: string) => void = console.log): Promise<void> {
  const walk: Walk = {};
  for (const [index, step] of WORKED_EXAMPLE_STEPS.entries()) {
    const body = step.body(walk);
    print(`${index + 1}. ${step.title}: POST ${step.path} ${JSON.stringify(body)}`);
    let answer = await postToService(service, step.path, body);
    for (const giveUp = Date.now() + 20_000; step.until && answer.body?.success === true && !step.until(answer.body, walk) && Date.now() < giveUp; ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await postToService(service, step.path, body);
    }
    if (answer.status !== 200 || answer.body?.success !== true) {
      throw new LocalToolError(`   ${step.title} failed (${answer.status}): ${JSON.stringify(answer.body).slice(0, 400)}`);
    }
    print(`   → ${step.figures(answer.body, walk)}`);
  }
}

await runLocalTool(async () => {
  const service = findRunningService();
  const release = await postToService(service, '/api/v2/utils/get_release_info', {});
  if (typeof release.body?.data?.today === 'string') serviceToday = release.body.data.today;
  console.log(`The worked example against ${service.url}:`);
  await walkWorkedExample(service);
});
