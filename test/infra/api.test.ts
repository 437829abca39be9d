import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { SITE_ROUTE_PATHS } from '../../infra/constructs/api-docs-site.js';
import { SIGNING_PAGE_PATH } from '../../shared/signatures/builtin-vendor.js';
import { listOperationRoutes } from '../../infra/routes.js';
import {
  actionsOf,
  allActions,
  functionDescribed,
  isNested,
  resourcesOf,
  serviceFunctions,
  statementsOf,
  synthesize,
  type Synthesized,
} from './helpers.js';

const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:TransactWriteItems', 'dynamodb:*'];

let synth: Synthesized;
beforeAll(async () => {
  synth = await synthesize();
}, 120_000);

const operationStacks = () => synth.service.api.operationStacks;
const routeKeysOf = (stack: Parameters<Synthesized['template']>[0]) =>
  Object.values(resourcesOf(synth.template(stack), 'AWS::ApiGatewayV2::Route')).map((route) => route.Properties!.RouteKey as string);

describe('HTTP API derived from the functions tree', () => {
  it('serves every operation file as exactly one POST route and one function, and nothing else', () => {
    const expected = listOperationRoutes().map((route) => `POST ${route.path}`).sort();
    expect(expected.length).toBeGreaterThan(0);

    const routeKeys = operationStacks().flatMap(routeKeysOf).sort();
    expect(routeKeys).toEqual(expected);

    const descriptions = operationStacks()
      .flatMap((stack) => Object.values(serviceFunctions(synth.template(stack))))
      .map((fn) => fn.Properties!.Description as string)
      .sort();
    expect(descriptions).toEqual(expected);
  });

  it('integrates each route with its own function through a Lambda proxy integration', () => {
    for (const stack of operationStacks()) {
      const template = synth.template(stack);
      const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
      for (const route of Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'))) {
        const integrationId = route.Properties!.Target['Fn::Join'][1][1].Ref as string;
        const integration = integrations[integrationId].Properties!;
        expect(integration.IntegrationType).toBe('AWS_PROXY');
        expect(integration.PayloadFormatVersion).toBe('2.0');
        const [functionId] = functionDescribed(template, route.Properties!.RouteKey);
        expect(integration.IntegrationUri).toEqual({ 'Fn::GetAtt': [functionId, 'Arn'] });
      }
    }
  });

  it('keeps the operations of one module together and every module in nested stacks', () => {
    for (const stack of operationStacks()) {
      expect(isNested(stack)).toBe(true);
      const modules = new Set(routeKeysOf(stack).map((key) => key.split('/').slice(2, 4).join('/')));
      expect(modules.size).toBe(1);
    }
  });

  it('runs every function on nodejs22.x, arm64, 512 MB, with source maps and a log group kept a month', () => {
    const stacks = [...synth.stacks.values()];
    const functions = stacks.flatMap((stack) => Object.values(serviceFunctions(synth.template(stack))));
    // + the catalog seed, the administrator seed, the site function and the signing page
    expect(functions.length).toBe(listOperationRoutes().length + 4);
    for (const fn of functions) {
      expect(fn.Properties!.Runtime).toBe('nodejs22.x');
      expect(fn.Properties!.Architectures).toEqual(['arm64']);
      expect(fn.Properties!.MemorySize).toBe(512);
      // Source maps are not parsed at a cold start: a logged fault's stack is mapped when it is logged.
      expect(fn.Properties!.Environment.Variables.NODE_OPTIONS).toBeUndefined();
      expect(fn.Properties!.LoggingConfig.LogGroup.Ref).toBeDefined();
    }
    for (const stack of operationStacks()) {
      for (const fn of Object.values(serviceFunctions(synth.template(stack)))) expect(fn.Properties!.Timeout).toBe(29);
      synth.template(stack).allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    }
  });

  it('gives a read-only operation table reads and the API key stamp, and no other write', () => {
    const stack = operationStacks().find((candidate) => routeKeysOf(candidate).includes('POST /api/v2/utils/get_release_info'))!;
    const template = synth.template(stack);
    const [functionId, fn] = functionDescribed(template, 'POST /api/v2/utils/get_release_info');
    const statements = statementsOf(template, functionId);

    const actions = allActions(statements);
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).toContain('dynamodb:Query');
    expect(actions).not.toContain('dynamodb:Scan');
    for (const write of WRITE_ACTIONS) expect(actions).not.toContain(write);
    expect([...actions].filter((action) => !action.startsWith('dynamodb:'))).toEqual([]);

    // Authentication stamps lastUsedAt on API keys, and may touch nothing else.
    const updates = statements.filter((statement) => actionsOf(statement).includes('dynamodb:UpdateItem'));
    expect(updates).toHaveLength(1);
    expect(actionsOf(updates[0])).toEqual(['dynamodb:UpdateItem']);
    expect(updates[0].Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastUsedAt'] },
    });

    const variables = Object.keys(fn.Properties!.Environment.Variables).sort();
    expect(variables).toEqual(['COGNITO_USER_POOL_ID', 'POWERTOOLS_SERVICE_NAME', 'TABLE_NAME']);
  });

  it('never grants UpdateItem without the API key condition to an operation declared read-only', async () => {
    for (const stack of operationStacks()) {
      const template = synth.template(stack);
      for (const operation of synth.service.operations.filter((op) => op.resources.table !== 'write')) {
        const description = `POST ${operation.path}`;
        if (!Object.values(serviceFunctions(template)).some((fn) => fn.Properties!.Description === description)) continue;
        const [functionId] = functionDescribed(template, description);
        for (const statement of statementsOf(template, functionId)) {
          const actions = actionsOf(statement);
          for (const write of WRITE_ACTIONS) expect(actions, description).not.toContain(write);
          if (actions.includes('dynamodb:UpdateItem')) {
            expect(statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'], description).toEqual(['APIKEY#*']);
          }
        }
      }
    }
  });

  it('logs access without bodies and alarms on 5xx answers', () => {
    const template = synth.template(synth.service.api);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('routeKey') },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: '5xx',
      Namespace: 'AWS/ApiGateway',
      AlarmActions: Match.anyValue(),
    });
  });
});

describe('the API description in AWS (/api/openapi.json and /docs)', () => {
  const SITE = `GET ${SITE_ROUTE_PATHS.join(', ')}`;

  it('routes GET /api/openapi.json, /docs and /docs/{asset} to one site function, without credentials', () => {
    const template = synth.template(synth.service.api);
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).filter((route) => !String(route.Properties!.RouteKey).includes(SIGNING_PAGE_PATH));
    expect(routes.map((route) => route.Properties!.RouteKey).sort()).toEqual(['GET /api/openapi.json', 'GET /docs', 'GET /docs/{asset}']);
    const [siteId] = functionDescribed(template, SITE);
    const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
    for (const route of routes) {
      expect(route.Properties!.AuthorizationType ?? 'NONE').toBe('NONE');
      const integration = integrations[route.Properties!.Target['Fn::Join'][1][1].Ref as string].Properties!;
      expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0', IntegrationUri: { 'Fn::GetAtt': [siteId, 'Arn'] } });
    }
    const invokes = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (permission) => JSON.stringify(permission.Properties!.FunctionName).includes(siteId),
    );
    expect(invokes).toHaveLength(routes.length);
    for (const invoke of invokes) expect(invoke.Properties!.Principal).toBe('apigateway.amazonaws.com');
  });

  it('gives the site function no table, bucket or queue, and none of their names', () => {
    const template = synth.template(synth.service.api);
    const [siteId, site] = functionDescribed(template, SITE);
    const actions = [...allActions(statementsOf(template, siteId))];
    expect(actions.filter((action) => /^(dynamodb|s3|sqs|secretsmanager):/.test(action))).toEqual([]);
    const variables = Object.keys(site.Properties!.Environment.Variables);
    for (const name of ['TABLE_NAME', 'BUCKET_NAME', 'SIGNATURE_EVENTS_QUEUE_URL', 'PRINT_BATCHES_QUEUE_URL', 'LOSS_ANALYSIS_QUEUE_URL', 'URL_OVERRIDE_ENCRYPTION_KEY']) {
      expect(variables).not.toContain(name);
    }
  });
});

describe('the URL override encryption key', () => {
  it('reaches the custom_ui and contacts functions and the events operations that seal (declared data-key), and only them, as a Secrets Manager dynamic reference', () => {
    const sealing = new Set(['create', 'rotate_secret', 'ping', 'redeliver', 'redeliver_failed']);
    const customUi = listOperationRoutes()
      .filter((route) => route.module === 'custom_ui' || (route.version === 'v1' && route.module === 'contacts') || (route.module === 'events' && sealing.has(route.name)))
      .map((route) => `POST ${route.path}`);
    expect(customUi.length).toBeGreaterThan(0);
    const given: string[] = [];
    for (const stack of synth.stacks.values()) {
      for (const fn of Object.values(serviceFunctions(synth.template(stack)))) {
        const value = fn.Properties!.Environment.Variables.URL_OVERRIDE_ENCRYPTION_KEY;
        if (value === undefined) continue;
        given.push(fn.Properties!.Description as string);
        // The template holds the reference to the generated secret, never a key.
        const reference = JSON.stringify(value);
        expect(reference).toContain('{{resolve:secretsmanager:');
        expect(reference).toContain('UrlOverrideEncryptionKey');
        expect(reference).toContain(':SecretString:::}}');
      }
    }
    expect(given.sort()).toEqual(customUi.sort());
  });
});

describe("the built-in signature vendor's signing page in AWS", () => {
  it('routes GET and POST /esign/sign to one function without credentials, given the vendor secret by reference and the API URL', () => {
    const template = synth.template(synth.service.api);
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).filter((route) => String(route.Properties!.RouteKey).includes(SIGNING_PAGE_PATH));
    expect(routes.map((route) => route.Properties!.RouteKey).sort()).toEqual([`GET ${SIGNING_PAGE_PATH}`, `POST ${SIGNING_PAGE_PATH}`]);
    for (const route of routes) expect(route.Properties!.AuthorizationType ?? 'NONE').toBe('NONE');
    const [, page] = functionDescribed(template, `GET, POST ${SIGNING_PAGE_PATH}`);
    const variables = page.Properties!.Environment.Variables;
    expect(JSON.stringify(variables.SIGNATURE_VENDOR_SECRET)).toContain('resolve:secretsmanager');
    expect(variables.PUBLIC_BASE_URL).toBeDefined();
    expect(variables.TABLE_NAME).toBeDefined();
    // It reads the document the signer is shown (GET /esign/sign?...&view=document).
    expect(variables.BUCKET_NAME).toBeDefined();
  });

  it('gives the vendor secret only to the operations that declare it', () => {
    const given = operationStacks()
      .flatMap((stack) => Object.values(serviceFunctions(synth.template(stack))))
      .filter((fn) => fn.Properties!.Environment.Variables.SIGNATURE_VENDOR_SECRET !== undefined)
      .map((fn) => fn.Properties!.Description as string)
      .sort();
    expect(given).toEqual(['POST /api/v2/policies/application_signature_event_callback', 'POST /api/v2/policies/request_deliverable_signature']);
  });
});
