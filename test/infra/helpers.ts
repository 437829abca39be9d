/**
 * Synthesizes the service for template assertions: the app's own cdk.json context
 * (feature flags), bundling skipped, the built-in template validation left to `npm run synth`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { defineService, type Service, type ServiceOptions } from '../../infra/service.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
/** A tree with no consumers and no schedules. */
export const EMPTY_EVENTS = join(FIXTURES, 'no-events');

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

export interface Synthesized {
  service: Service;
  /** Every stack, nested ones included, by its construct path. */
  stacks: Map<string, Stack>;
  template(stack: Stack): Template;
}

/** `context`: as `cdk synth -c key=value` gives it, on top of cdk.json's. */
export async function synthesize(options: ServiceOptions = {}, context: Record<string, string> = {}): Promise<Synthesized> {
  const app = new App({ context: { ...CDK_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const service = await defineService(app, { eventsDir: EMPTY_EVENTS, ...options });
  const stacks = new Map<string, Stack>();
  for (const construct of app.node.findAll()) {
    if (construct instanceof Stack) stacks.set(construct.node.path, construct);
  }
  const cache = new Map<Stack, Template>();
  return {
    service,
    stacks,
    template: (stack) => {
      if (!cache.has(stack)) cache.set(stack, Template.fromStack(stack));
      return cache.get(stack)!;
    },
  };
}

export const isNested = (stack: Stack) => stack instanceof NestedStack;

type Resource = { Type: string; Properties?: Record<string, any>; [key: string]: unknown };

export function resourcesOf(template: Template, type?: string): Record<string, Resource> {
  const all = template.toJSON().Resources as Record<string, Resource>;
  return Object.fromEntries(Object.entries(all).filter(([, resource]) => !type || resource.Type === type));
}

/** The house functions (ServiceFunction) of a template, by logical id. */
export function serviceFunctions(template: Template): Record<string, Resource> {
  return Object.fromEntries(
    Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(
      ([, fn]) => fn.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === 'insurance-admin',
    ),
  );
}

/** The function whose description is `description` (operations: `POST /api/...`). */
export function functionDescribed(template: Template, description: string): [string, Resource] {
  const found = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, fn]) => fn.Properties?.Description === description);
  if (found.length !== 1) throw new Error(`${found.length} functions described ${description}`);
  return found[0];
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
  Sid?: string;
}

/** Every inline policy statement attached to a function's role. */
export function statementsOf(template: Template, functionLogicalId: string): Statement[] {
  const fn = resourcesOf(template)[functionLogicalId];
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties!.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties!.PolicyDocument.Statement as Statement[]);
}

export const actionsOf = (statement: Statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

export const allActions = (statements: Statement[]) => new Set(statements.flatMap(actionsOf));

/**
 * Where trees that get synthesized are written: NodejsFunction wants entry files under the
 * project root. Removed by removeScratch().
 */
export const SCRATCH = fileURLToPath(new URL('./.scratch', import.meta.url));

export function removeScratch(): void {
  rmSync(SCRATCH, { recursive: true, force: true });
}

/** Writes `files` (path → source) under a fresh directory in `base` (the system temp dir by default). */
export function writeTree(files: Record<string, string>, prefix = 'infra-tree-', base = tmpdir()): string {
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, prefix));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

/** Source of an operation entry file without dependencies: a handler carrying metadata. */
export function operationSource(version: string, name: string, resources: object = { table: 'read' }, authentication = 'required'): string {
  const operation = { version, name, summary: name, permission: null, authentication, resources };
  return `export const handler = Object.assign(async () => ({ statusCode: 200 }), { operation: ${JSON.stringify(operation)} });\n`;
}
