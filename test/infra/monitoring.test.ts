/**
 * Operability in the templates (issue 23 item 2): every route throttled by its class, every
 * function tagged with its class, an alarm on Lambda errors and one on throttles per class to
 * the alarm topic, the dead-letter alarms, the alarm e-mail from context, and the dashboard of
 * the money moves.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_CLASSES } from '../../infra/constructs/service-monitoring.js';
import { ROUTE_CLASS_THROTTLE } from '../../infra/stacks/api-stack.js';
import { EVENTS_DIR } from '../../infra/workers.js';
import { functionDescribed, isNested, resourcesOf, synthesize, type Synthesized } from './helpers.js';

let synth: Synthesized;
let lowered: Synthesized;
beforeAll(async () => {
  synth = await synthesize({ alarmEmail: 'ops@example.com' });
  lowered = await synthesize({}, { apiRateLimit: '30', apiBurstLimit: '60' });
}, 180_000);

const stageOf = (s: Synthesized) => Object.values(resourcesOf(s.template(s.service.api), 'AWS::ApiGatewayV2::Stage'))[0];
const nestedTemplates = (s: Synthesized) => [...s.stacks.values()].filter(isNested).map((stack) => s.template(stack));
const functionNamed = (s: Synthesized, description: string) => {
  for (const template of nestedTemplates(s)) {
    try {
      return functionDescribed(template, description)[1];
    } catch {
      // in another module's stack
    }
  }
  throw new Error(`no function ${description}`);
};
const tagOf = (fn: { Properties?: Record<string, any> }) => fn.Properties!.Tags?.find((tag: { Key: string }) => tag.Key === 'FunctionClass')?.Value;

describe('throttling by route class', () => {
  it('throttles money writes, reads and the vendor webhook each by its class, the stage created after the routes', () => {
    const settings = stageOf(synth).Properties!.RouteSettings;
    expect(settings['POST /api/v1/payments/makeManualPolicyPayment']).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    expect(settings['POST /api/v2/policies/issue']).toEqual({ ThrottlingRateLimit: ROUTE_CLASS_THROTTLE.writes.rateLimit, ThrottlingBurstLimit: ROUTE_CLASS_THROTTLE.writes.burstLimit });
    expect(settings['POST /api/v2/policies/retrieve_account_history']).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    expect(settings['POST /api/v2/policies/application_signature_event_callback']).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
    expect(Object.keys(settings)).toHaveLength(synth.service.operations.length);
    expect(stageOf(synth).DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/OperationsNestedStack/)]));
  });

  it('never lets a class through faster than the stage when the stage is lowered by context', () => {
    const settings = stageOf(lowered).Properties!.RouteSettings;
    expect(settings['POST /api/v2/policies/issue']).toEqual({ ThrottlingRateLimit: 30, ThrottlingBurstLimit: 60 });
    expect(settings['POST /api/v2/policies/application_signature_event_callback']).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
  });
});

describe('alarms and dashboard', () => {
  it('tags every function with its class', () => {
    expect(tagOf(functionNamed(synth, 'POST /api/v1/payments/makeManualPolicyPayment'))).toBe('writes');
    expect(tagOf(functionNamed(synth, 'POST /api/v2/policies/retrieve_account_history'))).toBe('reads');
    expect(tagOf(functionNamed(synth, 'POST /api/v2/policies/application_signature_event_callback'))).toBe('webhook');
    for (const template of [...nestedTemplates(synth), synth.template(synth.service.data), synth.template(synth.service.auth)]) {
      for (const fn of Object.values(resourcesOf(template, 'AWS::Lambda::Function'))) {
        if (fn.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === 'insurance-admin') expect(FUNCTION_CLASSES).toContain(tagOf(fn));
      }
    }
  });

  it('alarms on Lambda errors and throttles of each class, by tag, to the alarm topic; on every dead-letter queue; e-mails the address given', () => {
    const alarms = Object.values(resourcesOf(synth.template(synth.service.api), 'AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties!);
    for (const functionClass of FUNCTION_CLASSES) {
      for (const metric of ['Errors', 'Throttles']) {
        const alarm = alarms.find((candidate) => candidate.Metrics?.[0]?.Expression === `SELECT SUM(${metric}) FROM SCHEMA("AWS/Lambda", FunctionName) WHERE tag.FunctionClass = '${functionClass}'`);
        expect(alarm, `${metric} of ${functionClass}`).toBeDefined();
        expect(alarm!.AlarmActions).toHaveLength(1);
      }
    }
    const dataTemplate = synth.template(synth.service.data);
    const deadLetterAlarms = Object.values(resourcesOf(dataTemplate, 'AWS::CloudWatch::Alarm')).filter((alarm) => /dead-letter queue/.test(alarm.Properties!.AlarmDescription));
    expect(deadLetterAlarms).toHaveLength(Object.keys(synth.service.data.deadLetterQueues).length);
    dataTemplate.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('draws the money moves, the API, the classes and the dead-letter queues on one dashboard', () => {
    const [dashboard] = Object.values(resourcesOf(synth.template(synth.service.api), 'AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard.Properties!.DashboardBody);
    for (const text of ['PaymentsPosted', 'PoliciesIssued', 'RenewalsCreated', 'InsuranceAdmin', '5xx', "tag.FunctionClass = 'writes'", 'ApproximateNumberOfMessagesVisible']) expect(body).toContain(text);
  });
});

describe('tracing the money paths', () => {
  let withWorkers: Synthesized;
  beforeAll(async () => {
    withWorkers = await synthesize({ eventsDir: EVENTS_DIR });
  }, 180_000);
  const functionsOf = (s: Synthesized) =>
    [...nestedTemplates(s), ...(s.service.workers ? [s.template(s.service.workers)] : [])].flatMap((template) =>
      Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).map(([id, fn]) => ({ id, fn, template })),
    );

  it('turns active X-Ray tracing on for the functions that post, refund or bill money, and for no other', () => {
    const traced = functionsOf(withWorkers)
      .filter(({ fn }) => fn.Properties?.TracingConfig?.Mode === 'Active')
      .map(({ fn }) => fn.Properties!.Description as string);
    expect(traced).toEqual(
      expect.arrayContaining([
        'POST /api/v1/payments/makeManualPolicyPayment',
        'POST /api/v1/policies/storeNSF',
        'POST /api/v2/policies/apply_lockbox_payment_transactions',
        'POST /api/v2/policies/issue',
        'POST /api/v2/policies/cancel_policy',
        'POST /api/v2/policies/reinstate_policy',
        'POST /api/v2/policies/process_renewals',
        'Consumes lockbox-chunks (apply_chunk)',
        'Consumes nightly-billing (decide_accounts)',
        'Consumes nightly-renewals (decide_terms)',
      ]),
    );
    for (const untraced of ['POST /api/v2/policies/retrieve_account_history', 'POST /api/v2/policies/search', 'Consumes documents (render_deliverables)']) expect(traced).not.toContain(untraced);
  });

  it('lets a traced function send its segments, and only a traced one', () => {
    for (const { id, fn, template } of functionsOf(withWorkers)) {
      const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
      const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((policy) => (policy.Properties!.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId));
      const actions = JSON.stringify(policies.map((policy) => policy.Properties!.PolicyDocument.Statement));
      expect(actions.includes('xray:PutTraceSegments'), id).toBe(fn.Properties?.TracingConfig?.Mode === 'Active');
      // The one statement on every resource is X-Ray's (nag-acknowledgements.ts accepts it for that reason only).
      for (const statement of policies.flatMap((policy) => policy.Properties!.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>)) {
        if (statement.Resource === '*') expect([statement.Action].flat().every((action) => action.startsWith('xray:')), `${id}: ${JSON.stringify(statement.Action)} on *`).toBe(true);
      }
    }
  });
});
