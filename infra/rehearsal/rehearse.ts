/**
 * Stands the synthesized application up on this machine from the cloud assembly alone
 * (`npm run rehearse`, infra/rehearsal/main.ts): the templates, not the sources, say what
 * exists, and the bundled assets, not the TypeScript, run.
 *
 *  1. every template (nested ones included) is read; a resource type outside ALLOWED_TYPES or a
 *     reference that does not resolve is a finding naming the resource;
 *  2. the table, bucket and queues are created on the embedded stores from the templates'
 *     properties (key schema, indexes, TTL, stream; retention, visibility, redrive);
 *  3. each function gets the environment its template gives it, references resolved to those
 *     resources and secrets' dynamic references to generated values, and its role's policies
 *     are checked against what that environment points at (a function given the table's name
 *     without a grant on the table is a finding naming it);
 *  4. the custom resources' handlers run with synthetic Create events (catalog seed,
 *     bootstrap Administrator, whose API key the smoke suite then uses);
 *  5. each HTTP API route is served through the local HTTP adapter (infra/local/server.ts) by
 *     its integration's function; each event source mapping polls its queue into its function;
 *     rules are kept for the smoke suite to fire;
 *  6. every route is probed once with an Administrator's empty call (a bundle that does not load,
 *     or a function lacking what it reads at its first call, answers 5xx), then the smoke suite runs.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { QUEUES, queueUrlVariable, TABLE_PIPES } from '../../shared/platform/queues.js';
import type { OperationHandler } from '../../shared/platform/operation.js';
import { startQueuePoller, type QueuePoller } from '../local/queue-poller.js';
import { PIPE_DISPATCHERS } from '../local/pipe-dispatchers.js';
import { startLocalApi, type ApiOperation } from '../local/server.js';
import { LOCAL_CREDENTIALS, startEmbeddedStores, type EmbeddedStores } from '../local/stores.js';
import {
  checkResourceTypes,
  readAssembly,
  RehearsalFinding,
  REHEARSAL_ACCOUNT,
  REHEARSAL_REGION,
  resolveAll,
  Resolver,
  resourceName,
  resourcesOfType,
  type CfnResource,
  type PhysicalResource,
  type StackNode,
} from './assembly.js';
import { TraceCollector } from './trace-collector.js';
import { FunctionHost, type FunctionSpec } from './functions.js';
import { checkGrants, type PolicyStatement } from './grants.js';
import { anchoredClockSetting, CLOCK_VARIABLE } from '../../shared/platform/clock.js';

export interface RehearsalOptions {
  assemblyDir: string;
  /** Port of the API (0: any free one). */
  port?: number;
  /** Probe every route with an empty Administrator call (default true). */
  probe?: boolean;
  /** Run the smoke suite (default true). */
  smoke?: (service: RehearsedService) => Promise<void>;
  log?: (line: string) => void;
  /** Print what the functions log (default: only a failing function's last lines). */
  echoFunctionOutput?: boolean;
  /** Already running stores (a test run's); by default the rehearsal starts and stops its own. */
  stores?: EmbeddedStores;
}

export interface RehearsalReport {
  ok: boolean;
  findings: string[];
  /** Seconds per phase. */
  timings: Record<string, number>;
  counts: { stacks: number; resources: number; functions: number; routes: number; eventSourceMappings: number; rules: number; customResources: number; tracedInvoked: number };
}

/** What the smoke suite gets: the API's address and the service's handles. */
export interface RehearsedService {
  url: string;
  administratorApiKey: string;
  signatureVendorSecret: string;
  /** Fires the function an Events rule targets, with `event` (as EventBridge would, or a manual run). */
  fireRule(description: RegExp, event: Record<string, unknown>): Promise<unknown>;
  functions: FunctionHost[];
  log(line: string): void;
}

interface DeployedFunction {
  stack: StackNode;
  logicalId: string;
  resource: CfnResource;
  arn: string;
  host?: FunctionHost;
  /** Environment variable → the resources its value points at. */
  environmentResources: Map<string, Set<string>>;
  statements: PolicyStatement[];
}

const nowSeconds = () => performance.now() / 1000;

export async function rehearse(options: RehearsalOptions): Promise<RehearsalReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const timings: Record<string, number> = {};
  const findings: string[] = [];
  const counts = { stacks: 0, resources: 0, functions: 0, routes: 0, eventSourceMappings: 0, rules: 0, customResources: 0, tracedInvoked: 0 };
  const stoppers: Array<() => Promise<void>> = [];
  const stagingRoot = mkdtempSync(join(tmpdir(), 'rehearsal-task-'));
  stoppers.push(async () => rmSync(stagingRoot, { recursive: true, force: true }));
  const report = (): RehearsalReport => ({ ok: findings.length === 0, findings, timings, counts });
  let phaseStart = nowSeconds();
  const phase = (name: string) => {
    const now = nowSeconds();
    timings[name] = Math.round((now - phaseStart) * 100) / 100;
    phaseStart = now;
  };

  try {
    const assemblyDir = resolve(options.assemblyDir);
    const stacks = readAssembly(assemblyDir);
    counts.stacks = stacks.length;
    counts.resources = stacks.reduce((sum, stack) => sum + Object.keys(stack.template.Resources).length, 0);
    findings.push(...checkResourceTypes(stacks));
    log(`rehearsal: ${stacks.length} templates, ${counts.resources} resources read from ${assemblyDir}`);
    if (findings.length) return report();

    const stores = options.stores ?? (await startEmbeddedStores());
    if (!options.stores) stoppers.push(stores.stop);
    pointSdkAt(stores);
    phase('stores');

    // ---- resources: created from the templates' properties ------------------------------
    const prefix = `rh${randomBytes(3).toString('hex')}`;
    const local = new LocalResources(prefix, stores);
    const resolver = new Resolver(stacks, (stack, logicalId, resource) => local.physical(stack, logicalId, resource), local.secretValues);
    local.resolver = resolver;
    for (const { stack, logicalId } of resourcesOfType(stacks, 'AWS::SecretsManager::Secret')) local.physicalOf(stack, logicalId);
    await local.provision(stacks);
    phase('resources');
    findings.push(...resolveAll(resolver).findings);
    if (findings.length) return report();

    // ---- functions: environment, grants, hosts ------------------------------------------
    const traces = new TraceCollector();
    const xrayDaemon = await traces.start();
    stoppers.push(() => traces.stop());
    // One clock for every function worker and for the smoke suite in this process.
    const clockSetting = process.env[CLOCK_VARIABLE] ? (process.env[CLOCK_VARIABLE] = anchoredClockSetting(process.env[CLOCK_VARIABLE]!)) : undefined;
    const runtimeEnvironment = {
      AWS_REGION: REHEARSAL_REGION,
      AWS_DEFAULT_REGION: REHEARSAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      // Where the embedded stores stand in for DynamoDB, S3 and SQS; s3rver serves path-style only.
      AWS_ENDPOINT_URL_DYNAMODB: stores.dynamodbEndpoint,
      AWS_ENDPOINT_URL_S3: stores.s3Endpoint,
      AWS_ENDPOINT_URL_SQS: stores.sqsEndpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // Lambda's X-Ray daemon, stood in for by the collector; the trace header is set per invocation.
      AWS_XRAY_DAEMON_ADDRESS: xrayDaemon,
      AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
      // Never set in AWS; `SERVICE_CLOCK=<date> npm run rehearse` rehearses a day such as a Saturday or a holiday.
      ...(clockSetting ? { [CLOCK_VARIABLE]: clockSetting } : {}),
    };
    const functions = new Map<string, DeployedFunction>();
    const byArn = new Map<string, DeployedFunction>();
    for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::Lambda::Function')) {
      const where = resourceName(stack, logicalId);
      const variables = (resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      const environment: Record<string, string> = {};
      const environmentResources = new Map<string, Set<string>>();
      for (const [name, value] of Object.entries(variables)) {
        const { value: resolved, touched } = resolver.resolveTracked(stack, value, `${where} environment ${name}`);
        environment[name] = String(resolved);
        if (environment[name].includes('{{resolve:')) findings.push(`${where}: environment ${name} keeps an unresolved dynamic reference`);
        environmentResources.set(name, touched);
      }
      const deployed: DeployedFunction = {
        stack,
        logicalId,
        resource,
        arn: resolver.physicalOf(stack, logicalId).attributes.Arn,
        environmentResources,
        statements: policyStatementsOf(resolver, stack, resource),
      };
      // The provider framework of CDK's custom resources (its own asset, calling Lambda's API) is
      // stood in for by the rehearsal: it calls the user handler itself.
      if (!('USER_ON_EVENT_FUNCTION_ARN' in environment)) {
        const assetPath = resource.Metadata?.['aws:asset:path'];
        if (typeof assetPath !== 'string') {
          findings.push(`${where}: a function whose code is not an asset of the assembly`);
          continue;
        }
        const spec: FunctionSpec = {
          name: where,
          description: String(resource.Properties?.Description ?? logicalId),
          assetDir: join(assemblyDir, assetPath),
          handler: String(resource.Properties?.Handler ?? 'index.handler'),
          environment,
          timeoutSeconds: Number(resource.Properties?.Timeout ?? 3),
          memorySize: Number(resource.Properties?.MemorySize ?? 128),
          traced: resource.Properties?.TracingConfig?.Mode === 'Active',
        };
        deployed.host = new FunctionHost(spec, stagingRoot, runtimeEnvironment, { echo: options.echoFunctionOutput });
        stoppers.push(() => deployed.host!.stop());
      }
      functions.set(where, deployed);
      byArn.set(deployed.arn, deployed);
      byArn.set(resolver.physicalOf(stack, logicalId).ref, deployed);
    }
    counts.functions = [...functions.values()].filter((fn) => fn.host).length;
    const functionAt = (reference: unknown, where: string): DeployedFunction => {
      const found = byArn.get(String(reference));
      if (!found) throw new RehearsalFinding(`${where}: names function ${String(reference)}, which no template declares`);
      return found;
    };

    // ---- wiring: routes, event source mappings, rules, permissions -----------------------
    const routes: Array<{ method: string; path: string; fn: DeployedFunction; where: string }> = [];
    for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::ApiGatewayV2::Route')) {
      const where = resourceName(stack, logicalId);
      try {
        const properties = resolver.resolve(stack, resource.Properties, where);
        const [method, path] = String(properties.RouteKey).split(' ');
        const integrationRef = /^integrations\/(.+)$/.exec(String(properties.Target ?? ''))?.[1];
        if (!integrationRef) throw new RehearsalFinding(`${where}: route ${properties.RouteKey} has no integration`);
        const integration = local.byRef.get(integrationRef);
        if (!integration) throw new RehearsalFinding(`${where}: route ${properties.RouteKey} targets ${integrationRef}, which is no integration of the assembly`);
        const integrationProperties = resolver.resolve(integration.stack, integration.resource.Properties, resourceName(integration.stack, integration.logicalId));
        if (integrationProperties.IntegrationType !== 'AWS_PROXY' || integrationProperties.PayloadFormatVersion !== '2.0') {
          throw new RehearsalFinding(`${where}: route ${properties.RouteKey} is not a Lambda proxy integration of payload 2.0, the only kind the rehearsal serves`);
        }
        const fn = functionAt(integrationProperties.IntegrationUri, where);
        if (!fn.host) throw new RehearsalFinding(`${where}: route ${properties.RouteKey} is served by a function without a bundle`);
        routes.push({ method, path, fn, where });
      } catch (error) {
        if (!(error instanceof RehearsalFinding)) throw error;
        findings.push(error.message);
      }
    }
    counts.routes = routes.length;
    // A route setting (per-route throttling) for a route the API does not have fails the deploy.
    const routeKeys = new Set(routes.map((route) => `${route.method} ${route.path}`));
    for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::ApiGatewayV2::Stage')) {
      for (const key of Object.keys(resource.Properties?.RouteSettings ?? {})) {
        if (!routeKeys.has(key)) findings.push(`${resourceName(stack, logicalId)}: route settings for ${key}, which is no route of the API`);
      }
    }
    const permitted = permissionsByFunction(resolver, stacks, byArn);
    for (const route of routes) {
      if (!permitted.get(route.fn)?.has('apigateway.amazonaws.com')) findings.push(`${route.where}: API Gateway may not invoke ${resourceName(route.fn.stack, route.fn.logicalId)} (no AWS::Lambda::Permission for apigateway.amazonaws.com)`);
    }

    const mappings: Array<{ fn: DeployedFunction; queueUrl: string; queueArn: string; batchSize: number; where: string }> = [];
    for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::Lambda::EventSourceMapping')) {
      const where = resourceName(stack, logicalId);
      try {
        const properties = resolver.resolve(stack, resource.Properties, where);
        const queue = local.queueByArn.get(String(properties.EventSourceArn));
        if (!queue) throw new RehearsalFinding(`${where}: event source ${properties.EventSourceArn} is not a queue of the assembly`);
        const fn = functionAt(properties.FunctionName, where);
        if (!fn.host) throw new RehearsalFinding(`${where}: consumer without a bundle`);
        if (!(properties.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures')) {
          findings.push(`${where}: the mapping does not report batch item failures, so one failed message would retry its whole batch`);
        }
        mappings.push({ fn, queueUrl: queue.url, queueArn: queue.arn, batchSize: Number(properties.BatchSize ?? 10), where });
      } catch (error) {
        if (!(error instanceof RehearsalFinding)) throw error;
        findings.push(error.message);
      }
    }
    counts.eventSourceMappings = mappings.length;

    const rules: Array<{ description: string; schedule: string; fn: DeployedFunction }> = [];
    for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::Events::Rule')) {
      const where = resourceName(stack, logicalId);
      const properties = resolver.resolve(stack, resource.Properties, where);
      for (const target of properties.Targets ?? []) {
        try {
          const fn = functionAt(target.Arn, where);
          if (!fn.host) throw new RehearsalFinding(`${where}: target without a bundle`);
          if (!permitted.get(fn)?.has('events.amazonaws.com')) findings.push(`${where}: EventBridge may not invoke ${resourceName(fn.stack, fn.logicalId)}`);
          rules.push({ description: `${properties.Description ?? logicalId} → ${fn.host.spec.description}`, schedule: String(properties.ScheduleExpression), fn });
        } catch (error) {
          if (!(error instanceof RehearsalFinding)) throw error;
          findings.push(error.message);
        }
      }
    }
    counts.rules = rules.length;

    // ---- grants: what the environment and the mappings point at, against the role -------
    for (const fn of functions.values()) {
      if (!fn.host) continue;
      const consumed = mappings.filter((mapping) => mapping.fn === fn).map((mapping) => mapping.queueArn);
      findings.push(...checkGrants({ name: `${resourceName(fn.stack, fn.logicalId)} (${fn.host.spec.description})`, environmentResources: fn.environmentResources, consumedQueueArns: consumed, statements: fn.statements, local }));
    }
    phase('wiring');
    if (findings.length) return report();

    // ---- custom resources: run their handlers with Create events ------------------------
    let administratorApiKey: string | undefined;
    for (const type of ['Custom::ReferenceCatalog', 'Custom::BootstrapAdministrator']) {
      for (const { stack, logicalId, resource } of resourcesOfType(stacks, type)) {
        const where = resourceName(stack, logicalId);
        counts.customResources += 1;
        const { ServiceToken, ...properties } = resolver.resolve(stack, resource.Properties, where);
        let fn = functionAt(ServiceToken, where);
        const userHandler = fn.host ? undefined : (fn.resource.Properties?.Environment?.Variables as Record<string, unknown> | undefined)?.USER_ON_EVENT_FUNCTION_ARN;
        if (userHandler !== undefined) fn = functionAt(resolver.resolve(fn.stack, userHandler, where), where);
        if (!fn.host) throw new RehearsalFinding(`${where}: its provider has no handler the rehearsal can run`);
        const event = {
          RequestType: 'Create',
          ServiceToken,
          ResponseURL: 'http://localhost/rehearsal-does-not-answer-cloudformation',
          StackId: `arn:aws:cloudformation:${REHEARSAL_REGION}:${REHEARSAL_ACCOUNT}:stack/${stack.name.replace(/\//g, '-')}/rehearsal`,
          RequestId: randomUUID(),
          ResourceType: resource.Type,
          LogicalResourceId: logicalId,
          ResourceProperties: { ServiceToken, ...properties },
        };
        try {
          await fn.host.invoke(event);
        } catch (error) {
          findings.push(`${where}: its handler ${resourceName(fn.stack, fn.logicalId)} failed on Create: ${(error as Error).message}`);
        }
        if (type === 'Custom::BootstrapAdministrator') administratorApiKey = String(properties.AdministratorApiKey);
        await fn.host.stop();
      }
    }
    phase('custom resources');
    if (findings.length) return report();
    if (!administratorApiKey) throw new RehearsalFinding('no Custom::BootstrapAdministrator: the deployed API would have no first caller');

    // ---- the running service -----------------------------------------------------------
    const operations: ApiOperation[] = routes.map((route) => ({
      method: route.method,
      path: route.path,
      id: route.fn.logicalId,
      load: async () => {
        const host = route.fn.host!;
        const { authentication } = await host.load();
        const handler = ((event: unknown) => host.invoke(event)) as unknown as OperationHandler;
        return Object.assign(handler, authentication ? { operation: { authentication } } : {});
      },
    }));
    const api = await startLocalApi({ port: options.port ?? 0, host: '127.0.0.1', operations });
    stoppers.push(api.close);
    const url = `http://127.0.0.1:${api.port}`;
    // PUBLIC_BASE_URL and the like are the API's endpoint: known only now that it listens.
    local.apiEndpoint.value = url;
    for (const fn of functions.values()) if (fn.host) for (const [name, value] of Object.entries(fn.host.spec.environment)) fn.host.spec.environment[name] = value.replaceAll(API_ENDPOINT_PLACEHOLDER, url);

    const sqs = new SQSClient({});
    stoppers.push(async () => sqs.destroy());
    const pollers: QueuePoller[] = [];
    for (const mapping of mappings) {
      pollers.push(
        startQueuePoller({
          client: sqs,
          queueUrl: mapping.queueUrl,
          queueArn: mapping.queueArn,
          handler: (event) => mapping.fn.host!.invoke(event),
          batchSize: mapping.batchSize,
          waitTimeSeconds: 1,
          onError: (error) => findings.push(`${mapping.where}: ${mapping.fn.host!.spec.description} failed: ${(error as Error).message}`),
        }),
      );
    }
    stoppers.push(async () => void (await Promise.all(pollers.map((poller) => poller.stop()))));
    stoppers.push(await startPipes(resolver, stacks, local, sqs, findings));
    phase('start');

    const service: RehearsedService = {
      url,
      administratorApiKey,
      signatureVendorSecret: local.secretNamed(/SignatureVendorSecret/),
      fireRule: async (description, event) => {
        const rule = rules.find((candidate) => description.test(candidate.description));
        if (!rule) throw new RehearsalFinding(`no Events rule matches ${description}`);
        return rule.fn.host!.invoke(event);
      },
      functions: [...functions.values()].flatMap((fn) => (fn.host ? [fn.host] : [])),
      log,
    };

    if (options.probe ?? true) {
      findings.push(...(await probeRoutes(url, administratorApiKey, routes, log)));
      phase('probe');
    }
    if (options.smoke && findings.length === 0) {
      try {
        await options.smoke(service);
      } catch (error) {
        findings.push(`smoke: ${(error as Error).message}`);
        const failing = service.functions.filter((fn) => fn.failures.length);
        for (const fn of failing) findings.push(`${fn.spec.name} (${fn.spec.description}) threw: ${fn.failures.join('; ')}\n    ${fn.output.slice(-8).join('\n    ')}`);
      }
      phase('smoke');
    }
    // Segments are datagrams sent as each closes: a moment for the last ones to land.
    await new Promise((resolveWait) => setTimeout(resolveWait, 300));
    const hosts = [...functions.values()].flatMap((fn) => (fn.host ? [fn.host] : []));
    findings.push(...checkTraces(hosts, traces));
    counts.tracedInvoked = hosts.filter((host) => host.spec.traced && host.invocations > 0).length;
    return report();
  } catch (error) {
    if (!(error instanceof RehearsalFinding)) throw error;
    findings.push(error.message);
    return report();
  } finally {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    phase('stop');
  }
}

/**
 * A function the template traces (TracingConfig Active) must record its invocations: the
 * handler's segment and a subsegment for its table calls. Active tracing on a handler that
 * records nothing shows only durations; a handler tracing its client nowhere shows no calls.
 */
export function checkTraces(hosts: readonly FunctionHost[], traces: Pick<TraceCollector, 'namesOf'>): string[] {
  const findings: string[] = [];
  for (const host of hosts) {
    if (!host.spec.traced || host.invocations === 0) continue;
    const names = new Set(host.traceIds.flatMap((traceId) => traces.namesOf(traceId)));
    if (names.size === 0) findings.push(`${host.spec.name} (${host.spec.description}): traced (TracingConfig Active) but its ${host.invocations} invocations sent no X-Ray segment`);
    else if (!names.has('DynamoDB')) findings.push(`${host.spec.name} (${host.spec.description}): traced, but none of its ${host.invocations} invocations recorded a DynamoDB call (sent: ${[...names].join(', ')})`);
  }
  return findings;
}

/** The main process's own SDK clients (provisioning, pollers, the pipe stand-in) talk to the stores. */
function pointSdkAt(stores: EmbeddedStores) {
  Object.assign(process.env, {
    AWS_REGION: REHEARSAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: stores.dynamodbEndpoint,
    AWS_ENDPOINT_URL_S3: stores.s3Endpoint,
    AWS_ENDPOINT_URL_SQS: stores.sqsEndpoint,
    S3_FORCE_PATH_STYLE: 'true',
  });
  delete process.env.AWS_PROFILE;
}

/** Stands in for the API's endpoint in values resolved before the API listens. */
const API_ENDPOINT_PLACEHOLDER = 'http://rehearsal-api-endpoint.invalid';

/** Local names, ARNs and secret values of the assembly's resources. */
export class LocalResources {
  resolver?: Resolver;
  readonly secretValues = new Map<string, string>();
  private readonly secretNames = new Map<string, string>();
  readonly byRef = new Map<string, { stack: StackNode; logicalId: string; resource: CfnResource }>();
  readonly queueByArn = new Map<string, { url: string; arn: string; name: string; resource: string }>();
  private readonly queues = new Map<string, { url: string; arn: string; name: string }>();
  readonly tables = new Map<string, { name: string; arn: string }>();
  readonly buckets = new Map<string, { name: string; arn: string }>();
  readonly apiEndpoint = { value: API_ENDPOINT_PLACEHOLDER };

  constructor(
    private readonly prefix: string,
    private readonly stores: EmbeddedStores,
  ) {}

  physicalOf(stack: StackNode, logicalId: string): PhysicalResource {
    return this.resolver!.physicalOf(stack, logicalId);
  }

  secretNamed(pattern: RegExp): string {
    for (const [name, value] of this.secretNames) if (pattern.test(name)) return value;
    throw new RehearsalFinding(`no secret matching ${pattern} in the assembly`);
  }

  /** The kind of thing a resource name (`stack/logicalId`) is locally, for the grant check. */
  kindOf(resource: string): { kind: 'table' | 'bucket' | 'queue'; arn: string } | undefined {
    const table = this.tables.get(resource);
    if (table) return { kind: 'table', arn: table.arn };
    const bucket = this.buckets.get(resource);
    if (bucket) return { kind: 'bucket', arn: bucket.arn };
    const queue = this.queues.get(resource);
    if (queue) return { kind: 'queue', arn: queue.arn };
    return undefined;
  }

  physical(stack: StackNode, logicalId: string, resource: CfnResource): PhysicalResource {
    const key = resourceName(stack, logicalId);
    const flat = `${stack.name.split('/')[0]}-${logicalId}`;
    const arn = (service: string, path: string) => `arn:aws:${service}:${REHEARSAL_REGION}:${REHEARSAL_ACCOUNT}:${path}`;
    let physical: PhysicalResource;
    switch (resource.Type) {
      case 'AWS::DynamoDB::Table': {
        const table = this.tables.get(key);
        if (!table) throw new RehearsalFinding(`${key}: referred to before the table is created`);
        physical = { ref: table.name, attributes: { Arn: table.arn, StreamArn: `${table.arn}/stream/rehearsal` } };
        break;
      }
      case 'AWS::S3::Bucket': {
        const bucket = this.buckets.get(key);
        if (!bucket) throw new RehearsalFinding(`${key}: referred to before the bucket is created`);
        physical = { ref: bucket.name, attributes: { Arn: bucket.arn, DomainName: `${bucket.name}.s3.amazonaws.com`, RegionalDomainName: `${bucket.name}.s3.${REHEARSAL_REGION}.amazonaws.com` } };
        break;
      }
      case 'AWS::SQS::Queue': {
        const queue = this.queues.get(key);
        if (!queue) throw new RehearsalFinding(`${key}: referred to before the queue is created (a redrive cycle?)`);
        physical = { ref: queue.url, attributes: { Arn: queue.arn, QueueName: queue.name, QueueUrl: queue.url } };
        break;
      }
      case 'AWS::SecretsManager::Secret': {
        const secretArn = arn('secretsmanager', `secret:${flat}-rehearsal`);
        const value = generateSecret(resource.Properties?.GenerateSecretString ?? {}, resource.Properties?.SecretString);
        this.secretValues.set(secretArn, value);
        this.secretNames.set(key, value);
        physical = { ref: secretArn, attributes: { Id: secretArn } };
        break;
      }
      case 'AWS::ApiGatewayV2::Api':
        physical = { ref: 'rehearsal', attributes: { ApiId: 'rehearsal', ApiEndpoint: API_ENDPOINT_PLACEHOLDER } };
        break;
      case 'AWS::Cognito::UserPool':
        physical = { ref: `${REHEARSAL_REGION}_Rehearsal`, attributes: { Arn: arn('cognito-idp', `userpool/${REHEARSAL_REGION}_Rehearsal`), ProviderName: `cognito-idp.${REHEARSAL_REGION}.amazonaws.com/${REHEARSAL_REGION}_Rehearsal`, ProviderURL: `https://cognito-idp.${REHEARSAL_REGION}.amazonaws.com/${REHEARSAL_REGION}_Rehearsal`, UserPoolId: `${REHEARSAL_REGION}_Rehearsal` } };
        break;
      case 'AWS::Cognito::UserPoolClient':
        physical = { ref: `rehearsal${logicalId.toLowerCase()}`.slice(0, 26), attributes: { ClientId: `rehearsal${logicalId.toLowerCase()}`.slice(0, 26), ClientSecret: 'rehearsal-client-secret', Name: logicalId } };
        break;
      case 'AWS::Lambda::Function':
        physical = { ref: flat.slice(-64), attributes: { Arn: arn('lambda', `function:${flat.slice(-64)}`) } };
        break;
      case 'AWS::IAM::Role':
        physical = { ref: flat.slice(-64), attributes: { Arn: `arn:aws:iam::${REHEARSAL_ACCOUNT}:role/${flat.slice(-64)}`, RoleId: `AROA${logicalId.toUpperCase()}`.slice(0, 32) } };
        break;
      case 'AWS::SNS::Topic':
        physical = { ref: arn('sns', flat), attributes: { TopicArn: arn('sns', flat), TopicName: flat } };
        break;
      case 'AWS::Logs::LogGroup':
        physical = { ref: `/rehearsal/${flat}`, attributes: { Arn: arn('logs', `log-group:/rehearsal/${flat}:*`) } };
        break;
      default:
        physical = { ref: `${flat}-rehearsal`, attributes: { Arn: arn(resource.Type.split('::')[1].toLowerCase(), flat) } };
    }
    this.byRef.set(physical.ref, { stack, logicalId, resource });
    return physical;
  }

  /** Creates the tables, buckets and queues the templates declare, with the properties they declare. */
  async provision(stacks: StackNode[]): Promise<void> {
    const resolver = this.resolver!;
    const dynamodb = new DynamoDBClient({});
    try {
      for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::DynamoDB::Table')) {
        const key = resourceName(stack, logicalId);
        const properties = resolver.resolve(stack, resource.Properties ?? {}, key);
        const name = String(properties.TableName ?? `${this.prefix}-${logicalId}`);
        const stream = properties.StreamSpecification?.StreamViewType;
        await dynamodb.send(
          new CreateTableCommand({
            TableName: name,
            BillingMode: properties.BillingMode ?? 'PROVISIONED',
            AttributeDefinitions: properties.AttributeDefinitions,
            KeySchema: properties.KeySchema,
            ...(properties.GlobalSecondaryIndexes ? { GlobalSecondaryIndexes: properties.GlobalSecondaryIndexes } : {}),
            ...(properties.LocalSecondaryIndexes ? { LocalSecondaryIndexes: properties.LocalSecondaryIndexes } : {}),
            ...(properties.ProvisionedThroughput ? { ProvisionedThroughput: properties.ProvisionedThroughput } : {}),
            ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: stream } } : {}),
          }),
        );
        if (properties.TimeToLiveSpecification?.Enabled) {
          await dynamodb.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: properties.TimeToLiveSpecification.AttributeName, Enabled: true } }));
        }
        this.tables.set(key, { name, arn: `arn:aws:dynamodb:${REHEARSAL_REGION}:${REHEARSAL_ACCOUNT}:table/${name}` });
      }
    } finally {
      dynamodb.destroy();
    }

    const s3 = new S3Client({ forcePathStyle: true });
    try {
      for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::S3::Bucket')) {
        const key = resourceName(stack, logicalId);
        const name = String(resolver.resolve(stack, resource.Properties?.BucketName, key) ?? `${this.prefix}-${logicalId}`.toLowerCase());
        await s3.send(new CreateBucketCommand({ Bucket: name }));
        this.buckets.set(key, { name, arn: `arn:aws:s3:::${name}` });
      }
    } finally {
      s3.destroy();
    }

    // Dead-letter queues first: a queue's redrive policy names its dead-letter queue's ARN.
    const sqs = new SQSClient({});
    try {
      const waiting = resourcesOfType(stacks, 'AWS::SQS::Queue');
      while (waiting.length) {
        const ready = waiting.findIndex(({ stack, resource }) => {
          const target = resource.Properties?.RedrivePolicy?.deadLetterTargetArn?.['Fn::GetAtt']?.[0];
          return target === undefined || this.queues.has(resourceName(stack, target));
        });
        if (ready < 0) throw new RehearsalFinding(`${waiting.map(({ stack, logicalId }) => resourceName(stack, logicalId)).join(', ')}: dead-letter targets that are not queues of the same stack`);
        const [{ stack, logicalId, resource }] = waiting.splice(ready, 1);
        const key = resourceName(stack, logicalId);
        const properties = resolver.resolve(stack, resource.Properties ?? {}, key);
        const name = String(properties.QueueName ?? `${this.prefix}-${logicalId}`);
        const attributes: Record<string, string> = {};
        for (const attribute of ['VisibilityTimeout', 'MessageRetentionPeriod', 'DelaySeconds', 'MaximumMessageSize', 'ReceiveMessageWaitTimeSeconds']) {
          if (properties[attribute] !== undefined) attributes[attribute] = String(properties[attribute]);
        }
        if (properties.RedrivePolicy) attributes.RedrivePolicy = JSON.stringify(properties.RedrivePolicy);
        const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
        const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
        const queue = { url: QueueUrl!, arn: Attributes!.QueueArn!, name };
        this.queues.set(key, queue);
        this.queueByArn.set(queue.arn, { ...queue, resource: key });
      }
    } finally {
      sqs.destroy();
    }
  }
}

/** A value as Secrets Manager's GenerateSecretString would make it (the same alphabet and length). */
function generateSecret(spec: Record<string, any>, fixed?: string): string {
  if (typeof fixed === 'string') return fixed;
  let alphabet = '';
  if (!spec.ExcludeLowercase) alphabet += 'abcdefghijklmnopqrstuvwxyz';
  if (!spec.ExcludeUppercase) alphabet += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  if (!spec.ExcludeNumbers) alphabet += '0123456789';
  if (!spec.ExcludePunctuation) alphabet += '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
  if (spec.IncludeSpace) alphabet += ' ';
  const excluded = new Set(String(spec.ExcludeCharacters ?? ''));
  alphabet = [...alphabet].filter((character) => !excluded.has(character)).join('');
  const length = Number(spec.PasswordLength ?? 32);
  const bytes = randomBytes(length);
  const password = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  if (spec.SecretStringTemplate && spec.GenerateStringKey) return JSON.stringify({ ...JSON.parse(spec.SecretStringTemplate), [spec.GenerateStringKey]: password });
  return password;
}

/** The statements of every policy attached to the function's role (AWS::IAM::Policy and the role's own Policies). */
function policyStatementsOf(resolver: Resolver, stack: StackNode, fn: CfnResource): PolicyStatement[] {
  const roleId = fn.Properties?.Role?.['Fn::GetAtt']?.[0];
  if (!roleId) return [];
  const statements: PolicyStatement[] = [];
  const role = stack.template.Resources[roleId];
  for (const policy of role?.Properties?.Policies ?? []) statements.push(...resolver.resolve(stack, policy.PolicyDocument, `${resourceName(stack, roleId)} policy`).Statement);
  for (const [logicalId, resource] of Object.entries(stack.template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    if (!(resource.Properties?.Roles ?? []).some((entry: unknown) => (entry as { Ref?: string })?.Ref === roleId)) continue;
    statements.push(...[resolver.resolve(stack, resource.Properties!.PolicyDocument, resourceName(stack, logicalId)).Statement].flat());
  }
  return statements;
}

/** For each function, the service principals an AWS::Lambda::Permission lets invoke it. */
function permissionsByFunction(resolver: Resolver, stacks: StackNode[], byArn: Map<string, DeployedFunction>): Map<DeployedFunction, Set<string>> {
  const permitted = new Map<DeployedFunction, Set<string>>();
  for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::Lambda::Permission')) {
    const properties = resolver.resolve(stack, resource.Properties, resourceName(stack, logicalId));
    const fn = byArn.get(String(properties.FunctionName));
    if (!fn || properties.Action !== 'lambda:InvokeFunction') continue;
    if (!permitted.has(fn)) permitted.set(fn, new Set());
    permitted.get(fn)!.add(String(properties.Principal));
  }
  return permitted;
}

/**
 * The table-stream pipes (AWS::Pipes::Pipe), stood in for by the local request dispatcher
 * (infra/local/pipe-dispatchers.ts), after checking that each pipe reads the table's stream,
 * filters the entity and sends to the queue that shared/platform/queues.ts TABLE_PIPES names.
 */
async function startPipes(resolver: Resolver, stacks: StackNode[], local: LocalResources, sqs: SQSClient, findings: string[]): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  for (const { stack, logicalId, resource } of resourcesOfType(stacks, 'AWS::Pipes::Pipe')) {
    const where = resourceName(stack, logicalId);
    const properties = resolver.resolve(stack, resource.Properties, where);
    const table = [...local.tables.entries()].find(([, candidate]) => String(properties.Source).startsWith(`${candidate.arn}/stream/`));
    const queue = local.queueByArn.get(String(properties.Target));
    const filters = JSON.stringify(properties.SourceParameters?.FilterCriteria ?? {});
    const pipe = TABLE_PIPES.find((candidate) => filters.includes(candidate.entity));
    if (!table || !queue || !pipe) {
      findings.push(`${where}: a pipe the rehearsal cannot stand in for (source ${properties.Source}, target ${properties.Target})`);
      continue;
    }
    if (!String(properties.TargetParameters?.InputTemplate ?? '').includes(`"${pipe.attribute}"`)) findings.push(`${where}: its input template does not carry ${pipe.attribute}`);
    if (QUEUES[pipe.queue] === undefined) findings.push(`${where}: TABLE_PIPES names queue ${pipe.queue}, which shared/platform/queues.ts does not declare`);
    // The dispatcher reads the table and the queue from the environment, as a function would.
    process.env.TABLE_NAME = table[1].name;
    process.env[queueUrlVariable(pipe.queue)] = queue.url;
    // The stand-in of the pipe's own entity: the events' pipe is not the deliverable requests' one.
    const startDispatcher = PIPE_DISPATCHERS[pipe.entity];
    if (!startDispatcher) {
      findings.push(`${where}: no local stand-in carries ${pipe.entity} items (infra/local/pipe-dispatchers.ts PIPE_DISPATCHERS)`);
      continue;
    }
    const dispatcher = startDispatcher({ sqs, onError: (error) => findings.push(`${where}: ${(error as Error).message}`) });
    stops.push(dispatcher.stop);
  }
  return async () => void (await Promise.all(stops.map((stop) => stop())));
}

/**
 * Every route once, as the Administrator with an empty body: a validation answer or a
 * refusal is fine, a 5xx (a bundle that does not load, an environment variable it lacks) is not.
 */
async function probeRoutes(url: string, apiKey: string, routes: Array<{ method: string; path: string; fn: DeployedFunction; where: string }>, log: (line: string) => void): Promise<string[]> {
  const findings: string[] = [];
  // Routes of one function (GET and POST of the signing page) are probed one after the other: its worker stops after them.
  const groups = new Map<DeployedFunction, typeof routes>();
  for (const route of routes) groups.set(route.fn, [...(groups.get(route.fn) ?? []), route]);
  const queue = [...groups.values()];
  const probeOne = async (route: (typeof routes)[number]) => {
    const path = route.path.replace(/\{[^}]+\}/g, 'probe');
    try {
      const response = await fetch(`${url}${path}`, {
        method: route.method,
        headers: { authorization: apiKey, ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        ...(route.method === 'POST' ? { body: '{}' } : {}),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      if (response.status >= 500) {
        const host = route.fn.host!;
        findings.push(`${route.where}: ${route.method} ${route.path} answered ${response.status}: ${text.slice(0, 200)}${host.failures.length ? `; ${host.spec.name} threw: ${host.failures.at(-1)}` : ''}${host.output.length ? `\n    ${host.output.slice(-6).join('\n    ')}` : ''}`);
      }
    } catch (error) {
      findings.push(`${route.where}: ${route.method} ${route.path}: ${(error as Error).message}`);
    }
  };
  const workers = Array.from({ length: 2 }, async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      for (const route of group) await probeOne(route);
      // A function the smoke suite does not call need not keep its worker.
      await group[0].fn.host!.stop();
    }
  });
  await Promise.all(workers);
  log(`rehearsal: probed ${routes.length} routes, ${findings.length} answered 5xx or failed`);
  return findings;
}
