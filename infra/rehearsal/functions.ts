/**
 * The rehearsal's Lambda runtime: each function runs its bundled asset, copied out of the
 * assembly into a directory with no node_modules above it (as /var/task has none), in a worker
 * thread whose environment is the template's (references resolved) plus what Lambda itself
 * sets. A module the bundle left out therefore fails to import, as it would in AWS, instead of
 * being found in the project's node_modules.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { RehearsalFinding } from './assembly.js';
import { lambdaTraceHeader } from './trace-collector.js';

const WORKER_FILE = new URL('./function-worker.mjs', import.meta.url);

export interface FunctionSpec {
  /** `stack/logicalId`: how findings name it. */
  name: string;
  description: string;
  /** Directory of the asset in the assembly. */
  assetDir: string;
  /** `index.handler`. */
  handler: string;
  environment: Record<string, string>;
  timeoutSeconds: number;
  memorySize: number;
  /** TracingConfig Active: Lambda samples its invocations and runs the X-Ray daemon beside it. */
  traced: boolean;
}

/** The asset's entry file for a handler string `file.export`, as the Node.js runtime looks it up. */
export function entryFileOf(assetDir: string, handler: string): { file: string; exportName: string } {
  const dot = handler.lastIndexOf('.');
  const base = handler.slice(0, dot);
  const exportName = handler.slice(dot + 1);
  for (const extension of ['.mjs', '.js', '.cjs']) {
    const file = join(assetDir, `${base}${extension}`);
    if (existsSync(file)) return { file, exportName };
  }
  throw new RehearsalFinding(`handler ${handler}: no ${base}.mjs or ${base}.js in ${assetDir}`);
}

/**
 * Files the bundle names beside itself (`new URL('./x', import.meta.url)`, `import('./x.mjs')`,
 * infra/bundles.ts) that are missing from the asset: they would fail only when that path runs.
 */
export function missingSideFiles(entryFile: string): string[] {
  const text = readFileSync(entryFile, 'utf8');
  const named = new Set<string>();
  for (const match of text.matchAll(/new URL\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*,\s*import\.meta\.url\s*\)/g)) named.add(match[1]);
  for (const match of text.matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g)) named.add(match[1]);
  // A `.ts` name is a source run's fallback (`existsSync(built) ? built : './x.ts'`): Lambda never imports TypeScript.
  return [...named].filter((relative) => !relative.endsWith('.ts') && !existsSync(resolve(dirname(entryFile), relative)));
}

/** Copies the asset where nothing above it holds a node_modules directory. */
export function stageAsset(assetDir: string, stagingRoot: string): string {
  for (let dir = stagingRoot; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) throw new RehearsalFinding(`the staging directory ${stagingRoot} has node_modules above it (${dir}): bundles would find modules they lack`);
    if (dirname(dir) === dir) break;
  }
  const target = join(stagingRoot, assetDir.split('/').at(-1)!);
  if (!existsSync(target)) cpSync(assetDir, target, { recursive: true });
  return target;
}

export class FunctionHost {
  private worker?: Worker;
  private loading?: Promise<{ authentication: string | null }>;
  private readonly pending = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  /** The last lines the function printed: shown when it fails. */
  readonly output: string[] = [];
  invocations = 0;
  failures: string[] = [];
  /** The trace id Lambda would have given each invocation (`_X_AMZN_TRACE_ID`'s Root). */
  readonly traceIds: string[] = [];

  constructor(
    readonly spec: FunctionSpec,
    private readonly stagingRoot: string,
    private readonly runtimeEnvironment: Record<string, string>,
    private readonly options: { echo?: boolean } = {},
  ) {}

  /** Imports the bundle in its worker; rejects with a RehearsalFinding naming the function when it cannot. */
  load(): Promise<{ authentication: string | null }> {
    this.loading ??= this.start().catch((error: Error) => {
      this.failures.push(error.message);
      throw error;
    });
    return this.loading;
  }

  private async start(): Promise<{ authentication: string | null }> {
    const staged = stageAsset(this.spec.assetDir, this.stagingRoot);
    const { file, exportName } = entryFileOf(staged, this.spec.handler);
    const missing = missingSideFiles(file);
    if (missing.length) throw new RehearsalFinding(`${this.spec.name} (${this.spec.description}): its bundle names ${missing.join(', ')} beside itself, which the asset lacks`);
    const functionName = this.spec.name.replace(/[^A-Za-z0-9-_]/g, '-').slice(-64);
    const worker = new Worker(WORKER_FILE, {
      env: { ...this.runtimeEnvironment, AWS_LAMBDA_FUNCTION_NAME: functionName, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(this.spec.memorySize), LAMBDA_TASK_ROOT: staged, ...this.spec.environment },
      workerData: { entryFile: file, exportName, functionName, timeoutSeconds: this.spec.timeoutSeconds, memorySize: this.spec.memorySize },
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    for (const stream of [worker.stdout, worker.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (this.options.echo) process.stdout.write(chunk);
        this.output.push(...chunk.split('\n').filter(Boolean));
        if (this.output.length > 40) this.output.splice(0, this.output.length - 40);
      });
    }
    return new Promise((resolvePromise, reject) => {
      worker.on('message', (message: any) => {
        if (message.kind === 'loaded') resolvePromise({ authentication: message.authentication });
        else if (message.kind === 'load-failed') reject(new RehearsalFinding(`${this.spec.name} (${this.spec.description}): its bundle does not load: ${message.error.message}`));
        else if (message.kind === 'result') {
          const waiting = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (!waiting) return;
          if (message.error) {
            const error = Object.assign(new Error(message.error.message), { name: message.error.name, stack: message.error.stack });
            waiting.reject(error);
          } else waiting.resolve(message.result);
        }
      });
      worker.on('error', (error) => {
        reject(new RehearsalFinding(`${this.spec.name} (${this.spec.description}): its worker failed: ${error.message}`));
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      });
    });
  }

  /** Runs the handler with `event`, as Lambda would invoke it; a thrown error is recorded against the function. */
  async invoke(event: unknown): Promise<any> {
    await this.load();
    this.invocations += 1;
    const id = randomUUID();
    const trace = lambdaTraceHeader(this.spec.traced);
    this.traceIds.push(trace.traceId);
    try {
      return await new Promise((resolvePromise, reject) => {
        this.pending.set(id, { resolve: resolvePromise, reject });
        this.worker!.postMessage({ id, event, requestId: id, traceHeader: trace.header });
      });
    } catch (error) {
      this.failures.push((error as Error).message);
      throw error;
    }
  }

  async stop(): Promise<void> {
    for (const waiting of this.pending.values()) waiting.reject(new Error(`${this.spec.name} was stopped while it ran`));
    this.pending.clear();
    await this.worker?.terminate();
    this.worker = undefined;
    this.loading = undefined;
  }
}
