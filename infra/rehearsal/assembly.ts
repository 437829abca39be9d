/**
 * Reads a synthesized cloud assembly (cdk.out) the way CloudFormation would deploy it: every
 * stack of manifest.json and every nested stack its templates name, each resource checked
 * against ALLOWED_TYPES, and every intrinsic (Ref, Fn::GetAtt, Fn::Join, Fn::Sub,
 * Fn::GetStackOutput, Fn::Select) resolved to the rehearsal's local resources. Anything that
 * does not resolve is a finding naming the stack and resource: what CloudFormation would
 * refuse or leave empty must not pass here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REHEARSAL_ACCOUNT = '000000000000';
export const REHEARSAL_REGION = 'us-east-1';

/**
 * The resource types the service may deploy. A new type is a decision (an IAM, cost or quota
 * question the rehearsal cannot answer): adding it here is part of that decision.
 */
export const ALLOWED_TYPES: ReadonlySet<string> = new Set([
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Stage',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Integration',
  'AWS::CloudFormation::Stack',
  'AWS::CloudWatch::Alarm',
  'AWS::CloudWatch::Dashboard',
  'AWS::Cognito::UserPool',
  'AWS::Cognito::UserPoolClient',
  'AWS::Cognito::UserPoolDomain',
  'AWS::Cognito::UserPoolResourceServer',
  'AWS::DynamoDB::Table',
  'AWS::Events::Rule',
  'AWS::IAM::Policy',
  'AWS::IAM::Role',
  'AWS::Lambda::EventSourceMapping',
  'AWS::Lambda::Function',
  'AWS::Lambda::Permission',
  'AWS::Logs::LogGroup',
  'AWS::Pipes::Pipe',
  'AWS::S3::Bucket',
  'AWS::S3::BucketPolicy',
  'AWS::SNS::Subscription',
  'AWS::SNS::Topic',
  'AWS::SNS::TopicPolicy',
  'AWS::SQS::Queue',
  'AWS::SQS::QueuePolicy',
  'AWS::SecretsManager::Secret',
  'Custom::BootstrapAdministrator',
  'Custom::ReferenceCatalog',
]);

export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Metadata?: Record<string, any>;
  DependsOn?: string | string[];
  Condition?: string;
}

export interface Template {
  Parameters?: Record<string, { Type: string; Default?: unknown }>;
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
  Conditions?: Record<string, unknown>;
}

export interface StackNode {
  /** `InsuranceAdmin-Api` or `InsuranceAdmin-Api/V1PrintingOperations...` for a nested stack. */
  name: string;
  template: Template;
  templateFile: string;
  /** The parent stack and the AWS::CloudFormation::Stack resource that creates a nested stack. */
  parent?: { stack: StackNode; logicalId: string };
}

/** A resource as the rehearsal addresses it. */
export const resourceName = (stack: StackNode, logicalId: string) => `${stack.name}/${logicalId}`;

export class RehearsalFinding extends Error {
  override name = 'RehearsalFinding';
}

export function readAssembly(assemblyDir: string): StackNode[] {
  const manifestFile = join(assemblyDir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new RehearsalFinding(`${assemblyDir} holds no cloud assembly (no manifest.json): synthesize first`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { artifacts: Record<string, { type: string; properties?: { templateFile?: string } }> };
  const stacks: StackNode[] = [];
  const visit = (node: StackNode) => {
    stacks.push(node);
    for (const [logicalId, resource] of Object.entries(node.template.Resources ?? {})) {
      if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
      const file = resource.Metadata?.['aws:asset:path'];
      if (typeof file !== 'string' || !existsSync(join(assemblyDir, file))) {
        throw new RehearsalFinding(`${resourceName(node, logicalId)}: nested stack whose template is not in the assembly`);
      }
      visit({ name: `${node.name}/${logicalId}`, template: readTemplate(join(assemblyDir, file)), templateFile: file, parent: { stack: node, logicalId } });
    }
  };
  for (const [artifactId, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type !== 'aws:cloudformation:stack') continue;
    const file = artifact.properties?.templateFile;
    if (!file) throw new RehearsalFinding(`${artifactId}: stack artifact without a template`);
    visit({ name: artifactId, template: readTemplate(join(assemblyDir, file)), templateFile: file });
  }
  return stacks;
}

function readTemplate(file: string): Template {
  const template = JSON.parse(readFileSync(file, 'utf8')) as Template;
  template.Resources ??= {};
  return template;
}

/** Every resource whose type is outside ALLOWED_TYPES, or that is deployed on a condition (none is expected). */
export function checkResourceTypes(stacks: StackNode[], allowed: ReadonlySet<string> = ALLOWED_TYPES): string[] {
  const findings: string[] = [];
  for (const stack of stacks) {
    for (const [logicalId, resource] of Object.entries(stack.template.Resources)) {
      if (!allowed.has(resource.Type)) findings.push(`${resourceName(stack, logicalId)}: resource type ${resource.Type} is not in the rehearsal's allow-list`);
      if (resource.Condition) findings.push(`${resourceName(stack, logicalId)}: deployed on condition ${resource.Condition}, which the rehearsal does not evaluate`);
    }
  }
  return findings;
}

/**
 * What a resource is locally: its Ref value and its attributes. The rehearsal fills this in
 * for the resources it stands up (table, bucket, queues, secrets, API); every other resource
 * gets a synthetic name and ARN, which is all a template can ask of it.
 */
export interface PhysicalResource {
  ref: string;
  attributes: Record<string, string>;
}

export type Physical = (stack: StackNode, logicalId: string, resource: CfnResource) => PhysicalResource;

/** Values of secrets by their local ARN: dynamic references `{{resolve:secretsmanager:<arn>...}}` resolve to them. */
export type SecretValues = Map<string, string>;

const PSEUDO: Record<string, string> = {
  'AWS::AccountId': REHEARSAL_ACCOUNT,
  'AWS::Region': REHEARSAL_REGION,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::NotificationARNs': '',
};

/** A value left out by AWS::NoValue. */
const NO_VALUE = Symbol('AWS::NoValue');

export class Resolver {
  private readonly byName = new Map<string, StackNode>();
  private readonly cache = new Map<string, PhysicalResource>();
  /** The resources each resolution touched, as `stack/logicalId`: what a function's environment points at. */
  touched = new Set<string>();

  constructor(
    readonly stacks: StackNode[],
    private readonly physical: Physical,
    private readonly secrets: SecretValues,
  ) {
    for (const stack of stacks) this.byName.set(stack.name, stack);
  }

  stack(name: string): StackNode {
    const stack = this.byName.get(name);
    if (!stack) throw new RehearsalFinding(`no stack ${name} in the assembly`);
    return stack;
  }

  physicalOf(stack: StackNode, logicalId: string): PhysicalResource {
    const key = resourceName(stack, logicalId);
    let found = this.cache.get(key);
    if (!found) {
      const resource = stack.template.Resources[logicalId];
      if (!resource) throw new RehearsalFinding(`reference to ${key}, which the template does not declare`);
      found = this.physical(stack, logicalId, resource);
      this.cache.set(key, found);
    }
    return found;
  }

  /** Resolves `value` in `stack`, recording the resources it touched in `touched`. Throws a RehearsalFinding naming `where`. */
  resolve(stack: StackNode, value: unknown, where: string): any {
    const resolved = this.walk(stack, value, where);
    return resolved === NO_VALUE ? undefined : resolved;
  }

  /** resolve(), also answering which resources the value points at. */
  resolveTracked(stack: StackNode, value: unknown, where: string): { value: any; touched: Set<string> } {
    const before = this.touched;
    this.touched = new Set();
    try {
      const resolved = this.resolve(stack, value, where);
      return { value: resolved, touched: this.touched };
    } finally {
      const mine = this.touched;
      this.touched = before;
      for (const name of mine) before.add(name);
    }
  }

  private walk(stack: StackNode, value: unknown, where: string): any {
    if (Array.isArray(value)) return value.map((item) => this.walk(stack, item, where)).filter((item) => item !== NO_VALUE);
    if (typeof value === 'string') return this.dynamicReferences(value, where);
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'))) return this.intrinsic(stack, keys[0], (value as Record<string, unknown>)[keys[0]], where);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const resolved = this.walk(stack, item, where);
      if (resolved !== NO_VALUE) out[key] = resolved;
    }
    return out;
  }

  private dynamicReferences(text: string, where: string): string {
    if (/\{\{resolve:(?!secretsmanager:)/.test(text)) throw new RehearsalFinding(`${where}: a dynamic reference the rehearsal cannot resolve: ${text.slice(0, 80)}`);
    return text.replace(/\{\{resolve:secretsmanager:(.+?):SecretString:([^:}]*):([^:}]*):([^:}]*)\}\}/g, (_, arn: string, jsonKey: string) => {
      const secret = this.secrets.get(arn);
      if (secret === undefined) throw new RehearsalFinding(`${where}: dynamic reference to secret ${arn}, which is not a secret of the assembly`);
      if (!jsonKey) return secret;
      const field = (JSON.parse(secret) as Record<string, unknown>)[jsonKey];
      if (typeof field !== 'string') throw new RehearsalFinding(`${where}: secret ${arn} has no field ${jsonKey}`);
      return field;
    });
  }

  private intrinsic(stack: StackNode, name: string, argument: unknown, where: string): any {
    switch (name) {
      case 'Ref': {
        const target = String(argument);
        if (target === 'AWS::NoValue') return NO_VALUE;
        if (target === 'AWS::StackName') return stack.name.replace(/\//g, '-');
        if (target === 'AWS::StackId') return `arn:aws:cloudformation:${REHEARSAL_REGION}:${REHEARSAL_ACCOUNT}:stack/${stack.name.replace(/\//g, '-')}/rehearsal`;
        if (target in PSEUDO) return PSEUDO[target];
        if (stack.template.Parameters?.[target]) return this.parameter(stack, target, where);
        if (!stack.template.Resources[target]) throw new RehearsalFinding(`${where}: Ref to ${target}, which ${stack.name} does not declare`);
        this.touched.add(resourceName(stack, target));
        return this.physicalOf(stack, target).ref;
      }
      case 'Fn::GetAtt': {
        const [logicalId, attribute] = Array.isArray(argument) ? argument.map(String) : String(argument).split(/\.(.+)/);
        const resource = stack.template.Resources[logicalId];
        if (!resource) throw new RehearsalFinding(`${where}: Fn::GetAtt of ${logicalId}, which ${stack.name} does not declare`);
        if (resource.Type === 'AWS::CloudFormation::Stack' && attribute.startsWith('Outputs.')) {
          const nested = this.stack(`${stack.name}/${logicalId}`);
          return this.output(nested, attribute.slice('Outputs.'.length), where);
        }
        this.touched.add(resourceName(stack, logicalId));
        const physical = this.physicalOf(stack, logicalId);
        if (!(attribute in physical.attributes)) throw new RehearsalFinding(`${where}: ${resourceName(stack, logicalId)} (${resource.Type}) has no attribute ${attribute} in the rehearsal`);
        return physical.attributes[attribute];
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        const resolved = this.walk(stack, parts, where) as unknown[];
        return this.dynamicReferences(resolved.map((part) => this.scalar(part, where)).join(separator), where);
      }
      case 'Fn::Select': {
        const [index, list] = argument as [unknown, unknown];
        const resolved = this.walk(stack, list, where) as unknown[];
        const at = Number(this.walk(stack, index, where));
        if (!Array.isArray(resolved) || !(at in resolved)) throw new RehearsalFinding(`${where}: Fn::Select index ${at} out of range`);
        return resolved[at];
      }
      case 'Fn::Split': {
        const [separator, text] = argument as [string, unknown];
        return String(this.walk(stack, text, where)).split(separator);
      }
      case 'Fn::Sub': {
        const [text, variables] = Array.isArray(argument) ? (argument as [string, Record<string, unknown>]) : [String(argument), {}];
        const values = Object.fromEntries(Object.entries(variables ?? {}).map(([key, item]) => [key, this.walk(stack, item, where)]));
        const substituted = text.replace(/\$\{([^!}][^}]*)\}/g, (_, expression: string) => {
          if (expression in values) return this.scalar(values[expression], where);
          const [logicalId, ...attribute] = expression.split('.');
          return this.scalar(attribute.length ? this.intrinsic(stack, 'Fn::GetAtt', [logicalId, attribute.join('.')], where) : this.intrinsic(stack, 'Ref', logicalId, where), where);
        });
        return this.dynamicReferences(substituted, where);
      }
      case 'Fn::GetStackOutput': {
        const { StackName, OutputName } = argument as { StackName: string; OutputName: string };
        const target = this.byName.get(String(StackName));
        if (!target) throw new RehearsalFinding(`${where}: Fn::GetStackOutput of stack ${StackName}, which the assembly does not hold`);
        return this.output(target, OutputName, where);
      }
      case 'Fn::ImportValue': {
        const exportName = this.walk(stack, argument, where);
        for (const candidate of this.stacks) {
          for (const [outputName, output] of Object.entries(candidate.template.Outputs ?? {})) {
            const exported = (output as { Export?: { Name?: unknown } }).Export?.Name;
            if (exported !== undefined && this.walk(candidate, exported, where) === exportName) return this.output(candidate, outputName, where);
          }
        }
        throw new RehearsalFinding(`${where}: Fn::ImportValue of ${exportName}, which no stack exports`);
      }
      default:
        throw new RehearsalFinding(`${where}: intrinsic ${name} is not understood by the rehearsal`);
    }
  }

  private scalar(value: unknown, where: string): string {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new RehearsalFinding(`${where}: a list or object where a string is joined`);
  }

  private output(stack: StackNode, outputName: string, where: string): any {
    const output = stack.template.Outputs?.[outputName];
    if (!output) throw new RehearsalFinding(`${where}: output ${outputName} of ${stack.name}, which it does not declare`);
    return this.walk(stack, output.Value, `${stack.name} output ${outputName}`);
  }

  private parameter(stack: StackNode, name: string, where: string): any {
    if (stack.parent) {
      const creator = stack.parent.stack.template.Resources[stack.parent.logicalId];
      const given = creator.Properties?.Parameters?.[name];
      if (given !== undefined) return this.walk(stack.parent.stack, given, `${resourceName(stack.parent.stack, stack.parent.logicalId)} parameter ${name}`);
    }
    const declared = stack.template.Parameters![name];
    if (declared.Default !== undefined && !declared.Type.startsWith('AWS::SSM::')) return declared.Default;
    throw new RehearsalFinding(`${where}: parameter ${name} of ${stack.name} has no value`);
  }
}

/** Every resource of every stack, with its properties resolved: the walk that finds any unresolvable reference. */
export function resolveAll(resolver: Resolver): { findings: string[] } {
  const findings: string[] = [];
  for (const stack of resolver.stacks) {
    for (const [logicalId, resource] of Object.entries(stack.template.Resources)) {
      const where = resourceName(stack, logicalId);
      // Code and TemplateURL name the deployment bucket of the bootstrap stack, which the rehearsal replaces by cdk.out itself.
      const { Code: _code, TemplateURL: _url, ...properties } = resource.Properties ?? {};
      try {
        resolver.resolve(stack, properties, where);
      } catch (error) {
        if (!(error instanceof RehearsalFinding)) throw error;
        findings.push(error.message);
      }
    }
    for (const [outputName, output] of Object.entries(stack.template.Outputs ?? {})) {
      try {
        resolver.resolve(stack, output.Value, `${stack.name} output ${outputName}`);
      } catch (error) {
        if (!(error instanceof RehearsalFinding)) throw error;
        findings.push(error.message);
      }
    }
  }
  return { findings };
}

export function resourcesOfType(stacks: StackNode[], type: string): Array<{ stack: StackNode; logicalId: string; resource: CfnResource }> {
  return stacks.flatMap((stack) =>
    Object.entries(stack.template.Resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([logicalId, resource]) => ({ stack, logicalId, resource })),
  );
}
