import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperationMetadata } from '../../infra/openapi.js';
import { listOperationRoutes } from '../../infra/routes.js';
import { todayIso } from '../../shared/platform/dates.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

describe('the API description', () => {
  it('lists every operation file with the version label 2.0.0', async () => {
    const response = await fetch(`${service.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as any;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('2.0.0');
    expect(Object.keys(document.paths).sort()).toEqual(listOperationRoutes().map((route) => route.path).sort());
  });

  it('describes a request body from the operation schema, with the wrapped form for v1 wrappers', async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const releaseInfo = document.paths['/api/v2/utils/get_release_info'].post;
    expect(releaseInfo.requestBody.content['application/json'].schema.properties.api_key).toBeDefined();
    expect(releaseInfo.responses['200']).toBeDefined();
  });

  it('declares the vendor parameters the interface names for the policy listings (contact_id or policies, include_canceled)', async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const declared = (path: string) => Object.keys(document.paths[path].post.requestBody.content['application/json'].schema.properties).sort();
    const vendor: Record<string, string[]> = {
      '/api/v2/policies/get_policies': ['contact_id', 'from_date', 'include_canceled', 'include_policy_photo', 'page_number', 'page_size', 'sorting_order', 'to_date'],
      '/api/v2/policies/get_policies_by_contact_id_db_query': ['contact_id'],
      '/api/v2/policies/get_policies_with_active_current_revision': ['contact_id', 'include_canceled', 'policies'],
      '/api/v2/utils/get_policies_with_active_current_revision': ['contact_id', 'include_canceled', 'policies'],
    };
    for (const [path, names] of Object.entries(vendor)) expect(declared(path), path).toEqual(expect.arrayContaining(names));
    const policies = document.paths['/api/v2/policies/get_policies_with_active_current_revision'].post.requestBody.content['application/json'].schema.properties.policies;
    expect(policies).toMatchObject({ type: 'array', maxItems: 100 });
    // The published ceiling, whatever a deployment lowers it to (print-runs.test.ts lowers it).
    // (Both forms of the v1 body, bare and in json_dict, carry file_ids.)
    const markAsPrinted = JSON.stringify(document.paths['/api/v1/printing/markAsPrinted'].post.requestBody);
    expect(new Set(markAsPrinted.match(/"maxItems":\d+/g))).toEqual(new Set(['"maxItems":20000']));
  });

  it("shows the worked example's values as examples, not bare types", async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const body = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema;
    const examples = (schema: any) => schema.examples;
    const quote = body('/api/v2/policies/create_quote_extended').properties.quote_info.properties;
    expect(examples(quote.effective_date)).toEqual(['11/25/2026']);
    expect(examples(quote.policy_type_name)).toEqual(['Homeowner - HO3']);
    expect(examples(quote.named_insureds.items.properties.name)).toEqual(['Pat Example']);
    expect(examples(quote.items.items.properties.limit)).toEqual([250000]);
    expect(examples(quote.items.items.properties.name)).toEqual(['Dwelling']);
    expect(examples(body('/api/v2/policies/issue').properties.issue_info.properties.policy_number)).toEqual(['10-2026-1']);
    const cancel = body('/api/v2/policies/cancel_policy').properties;
    expect(examples(cancel.cancel_reason_id)).toEqual(['b6206c09-8deb-48e8-8323-7232d9464797']);
    expect(examples(cancel.cancel_date)).toEqual(['2026-12-25']);
    expect(examples(body('/api/v2/policies/search').properties.search_string)).toEqual(['pat exa']);
    // From the shared vocabulary, for every operation: a date, an amount, a flag.
    const history = document.paths['/api/v2/policies/retrieve_account_history'].post;
    expect(examples(history.requestBody.content['application/json'].schema.properties.as_of)).toEqual(['2026-11-25']);
    expect(history.summary).toMatch(/Rows dated after today \(or after as_of\) are not shown/);
    expect(JSON.stringify(body('/api/v1/payments/makeManualPolicyPayment'))).toContain('"examples":["851.62"]');
  });

  it('offers for every operation a body its own validation accepts as given, with no api_key in it (the key goes through Authorize)', async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const refused: string[] = [];
    for (const route of listOperationRoutes()) {
      const example = document.paths[route.path].post.requestBody.content['application/json'].example;
      expect(example, route.path).toBeTypeOf('object');
      expect(JSON.stringify(example), route.path).not.toContain('api_key');
      const metadata = await loadOperationMetadata(route);
      const body = metadata.wrapper && metadata.wrapper in example ? example[metadata.wrapper] : example;
      const result = await metadata.input['~standard'].validate(body);
      if (result.issues) refused.push(`${route.path}: ${result.issues.map((issue) => `${issue.path?.join('.')} ${issue.message}`).join('; ')}`);
    }
    expect(refused).toEqual([]);
    expect(document.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  it("offers the worked example's calls as they are made in the README, dated today", async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const example = (path: string) => document.paths[path].post.requestBody.content['application/json'].example;
    const quote = example('/api/v2/policies/create_quote_extended').quote_info;
    expect(quote.effective_date).toBe(todayIso());
    expect(quote.items.map((item: any) => item.name)).toEqual(['Dwelling', 'Personal Liability', 'Medical Payments']);
    expect(example('/api/v2/policies/search')).toEqual({ search_string: 'pat exa' });
    expect(example('/api/v1/payments/makeManualPolicyPayment')).toEqual({ policyNumber: '10-2026-1', amount: '851.62' });
    expect(example('/api/v1/printing/getToBePrinted')).toEqual({ json_dict: { to_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) } });
  });

  it('shows each failure status with the envelope the service answers: success false and its real message', async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const failures = (path: string) =>
      Object.fromEntries(Object.entries<any>(document.paths[path].post.responses).filter(([status]) => status !== '200').map(([status, response]) => [status, response.content['application/json'].example]));
    const v2 = failures('/api/v2/policies/create_quote_extended');
    expect(Object.keys(v2).sort()).toEqual(['400', '401', '403', '409', '413', '500']);
    for (const example of Object.values<any>(v2)) expect(example).toMatchObject({ success: false, data: null, messages: [expect.any(String)] });
    // The answer the service gives without a credential (a local run adds where its key is).
    const unauthenticated = await service.call('/api/v2/policies/create_quote_extended', {}, { apiKey: null });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toMatchObject({ success: false, data: null, messages: [expect.stringMatching(new RegExp(`^${v2['401'].messages[0]}`))] });
    expect(v2['500'].messages[0]).toMatch(/^An unexpected error occurred; quote request id \S+ when reporting it$/);
    expect(failures('/api/v1/printing/getToBePrinted')['401']).toMatchObject({ success: false, message: ['A valid API key, bearer token or session is required'] });
    // cancel_policy answers one message string where the others answer a list.
    expect(failures('/api/v2/policies/cancel_policy')['409']).toMatchObject({ success: false, message: expect.stringMatching(/Idempotency-Key is still being processed; retry in 5 seconds/) });
  });

  it('says, for every example with a fixed id, which call makes that id (issue 44)', async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const unsaid: string[] = [];
    const walk = (node: any, path: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [field, property] of Object.entries<any>(node.properties ?? {})) {
        const example = property?.examples?.[0];
        const fixed = typeof example === 'string' && (/^[0-9a-f]{8}-[0-9a-f]{4}-/.test(example) || example === '10-2026-1');
        if (fixed && !String(property.description ?? '').includes(`Example ${example}: `)) unsaid.push(`${path} ${field}`);
      }
      for (const value of Object.values(node)) walk(value, path);
    };
    for (const [path, item] of Object.entries<any>(document.paths)) walk(item.post.requestBody.content['application/json'].schema, path);
    expect(unsaid).toEqual([]);
    const cancel = document.paths['/api/v2/policies/cancel_policy'].post.requestBody.content['application/json'].schema.properties;
    expect(cancel.policy_id.description).toBe('Example 26c4a644-a4a4-4733-ad2d-d3bdf4c6558b: create_quote_extended (or create_quote) answers it as data.policy_id.');
    expect(cancel.policy_term_id.description).toContain('retrieve_policy answers the term in force as data.active_policy_term.id');
    const issue = document.paths['/api/v2/policies/issue'].post.requestBody.content['application/json'].schema.properties.issue_info.properties;
    expect(issue.revision_id.description).toContain('new_revision answers a new one as data.revision_id');
  });

  it('serves the interactive docs page and its assets from the registry package, with a filter and deep links to each operation (issue 44)', async () => {
    const page = await fetch(`${service.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/openapi.json');
    expect(html).toContain('filter: true, deepLinking: true');
    const bundle = await fetch(`${service.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    const traversal = await fetch(`${service.url}/docs/..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
  });
});
