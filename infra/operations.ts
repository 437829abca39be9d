/**
 * What the CDK app needs to know about each operation: its route (from the file tree, see
 * routes.ts) and the metadata its entry file declares through defineOperation()
 * (resources it touches, whether it authenticates). Read at synth time by importing each
 * entry file; module scope in functions/ and shared/ is lazy, so no AWS environment is needed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { OperationMetadata, ResourceAccess } from '../shared/platform/operation.js';
import { QUEUE_NAMES } from '../shared/platform/queues.js';
import { FUNCTIONS_DIR, listOperationRoutes, type OperationRoute } from './routes.js';

// The queues are declared once, with their dead-letter settings, in shared/platform/queues.ts.
export { QUEUE_NAMES, type QueueName } from '../shared/platform/queues.js';

/** The secrets a function may be given; `ResourceAccess['secrets']` names the same ones. */
export const SECRET_NAMES = ['signature-vendor', 'data-key'] as const satisfies ReadonlyArray<NonNullable<ResourceAccess['secrets']>[number]>;

export interface OperationSpec extends OperationRoute {
  resources: ResourceAccess;
  authentication: 'required' | 'none';
  permission: string | null;
  summary: string;
  /** Its handler is traced (defineOperation's `tracing`): active X-Ray tracing on. */
  traced: boolean;
}

/** Checks a declared `resources` object; `where` names the file in error messages. */
export function validateResources(resources: unknown, where: string): ResourceAccess {
  if (resources === undefined) return {};
  if (!resources || typeof resources !== 'object' || Array.isArray(resources)) {
    throw new Error(`${where}: resources must be an object like { table: 'read' }`);
  }
  const { table, bucket, queues, secrets, ...unknown } = resources as Record<string, unknown>;
  const extra = Object.keys(unknown);
  if (extra.length > 0) throw new Error(`${where}: unknown resources ${extra.join(', ')} (known: table, bucket, queues, secrets)`);
  if (secrets !== undefined && (!Array.isArray(secrets) || secrets.some((secret) => !(SECRET_NAMES as readonly unknown[]).includes(secret)))) {
    throw new Error(`${where}: resources.secrets must be a list of ${SECRET_NAMES.join(', ')}`);
  }
  for (const [name, access] of [['table', table], ['bucket', bucket]] as const) {
    if (access !== undefined && access !== 'read' && access !== 'write') {
      throw new Error(`${where}: resources.${name} must be 'read' or 'write', not ${JSON.stringify(access)}`);
    }
  }
  if (queues !== undefined) {
    if (!Array.isArray(queues)) throw new Error(`${where}: resources.queues must be a list of queue names`);
    for (const queue of queues) {
      if (!(QUEUE_NAMES as readonly unknown[]).includes(queue)) {
        throw new Error(`${where}: unknown queue ${JSON.stringify(queue)} (known: ${QUEUE_NAMES.join(', ')})`);
      }
    }
  }
  return resources as ResourceAccess;
}

export async function importModule(entry: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
}

/** Every operation under `functionsDir`, with the metadata its entry file declares. */
export async function loadOperations(functionsDir = FUNCTIONS_DIR): Promise<OperationSpec[]> {
  const routes = listOperationRoutes(functionsDir);
  const specs: OperationSpec[] = [];
  for (const route of routes) {
    const where = `functions/${route.version}/${route.module}/${route.name}.ts`;
    const handler = (await importModule(route.entry)).handler as { operation?: OperationMetadata } | undefined;
    const operation = handler?.operation;
    if (typeof handler !== 'function' || !operation) {
      throw new Error(`${where} must export \`handler = defineOperation({...})\``);
    }
    // A path existing clients call by another name re-exports the one handler (`export { handler } from './<operation>.js'`).
    const alias = isAliasEntry(route.entry);
    if (operation.version !== route.version || (operation.name !== route.name && !alias)) {
      throw new Error(`${where} declares ${operation.version}/${operation.name}; its path says ${route.version}/${route.name}`);
    }
    specs.push({
      ...route,
      resources: validateResources(operation.resources, where),
      authentication: operation.authentication ?? 'required',
      permission: operation.permission ?? null,
      summary: operation.summary ?? '',
      traced: operation.traced === true,
    });
  }
  return specs;
}

/** An entry file that only re-exports another entry file's handler: an alias path of that operation. */
export function isAliasEntry(entry: string): boolean {
  return /^\s*export \{ handler \} from '\.\.?\/[^']+\.js';\s*$/.test(readFileSync(entry, 'utf8'));
}

/**
 * Operations are split into nested stacks so that each stays far below CloudFormation's
 * 500-resource limit (an operation costs 7 resources: function, role, policy, log group,
 * integration, route, invoke permission). One stack per `<version>-<module>`; a module
 * listed here is spread over that many shards by a hash of the operation name, so an
 * operation's stack never depends on which other operations exist (moving a route between
 * stacks would make CloudFormation create the new route before deleting the old one, and
 * API Gateway refuses a duplicate route key). Raising a module's shard count moves some of
 * its routes: deploy such a change with care (remove, then re-add).
 */
export const MODULE_SHARDS: Readonly<Record<string, number>> = { 'v2-policies': 4 };

/** Above this many operations in one stack, synth fails and asks for more shards. */
export const MAX_OPERATIONS_PER_STACK = 25;

export interface OperationGroup {
  /** Stable key: `v2-policies-2`, `v1-contacts`. */
  key: string;
  operations: OperationSpec[];
}

export function shardOf(name: string, shards: number): number {
  return createHash('sha256').update(name).digest().readUInt32BE(0) % shards;
}

export function groupOperations<T extends OperationRoute>(
  operations: T[],
  shards: Readonly<Record<string, number>> = MODULE_SHARDS,
  maxPerStack = MAX_OPERATIONS_PER_STACK,
): Array<{ key: string; operations: T[] }> {
  const groups = new Map<string, T[]>();
  for (const operation of operations) {
    const module = `${operation.version}-${operation.module}`;
    const count = shards[module] ?? 1;
    const key = count > 1 ? `${module}-${shardOf(operation.name, count)}` : module;
    groups.set(key, [...(groups.get(key) ?? []), operation]);
  }
  const result = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, ops]) => ({ key, operations: ops }));
  for (const group of result) {
    if (group.operations.length > maxPerStack) {
      const module = `${group.operations[0].version}-${group.operations[0].module}`;
      throw new Error(
        `Stack ${group.key} would hold ${group.operations.length} operations (limit ${maxPerStack}): ` +
          `raise MODULE_SHARDS['${module}'] in infra/operations.ts`,
      );
    }
  }
  return result;
}
