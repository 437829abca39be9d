/**
 * How the local tools (`npm run print-job`, `npm run nightly`, `npm run demo`) find the service
 * `npm start` runs: its address in `.data/service.json` (API_URL or PORT overrides) and the
 * administrator's key in `.data/admin-api-key` (BOOTSTRAP_API_KEY overrides). Whatever is
 * missing is said in one line ending in the question to ask, never with a stack trace.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDirHolder } from './data-lock.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where `npm start` keeps its data: .data/ at the project's root, or SERVICE_DATA_DIR. */
export const DATA_DIR = process.env.SERVICE_DATA_DIR ? resolve(process.env.SERVICE_DATA_DIR) : join(PROJECT_ROOT, '.data');
export const NOT_RUNNING = 'is `npm start` running?';

/** The command the user ran (`npm run print-job`), to show it with the variables it may need. */
const toolCommand = (environment: NodeJS.ProcessEnv) =>
  ['print-job', 'nightly', 'demo'].includes(environment.npm_lifecycle_event ?? '') ? `npm run ${environment.npm_lifecycle_event}` : 'npm run <tool>';

/** How to reach a service that left no address or key in .data/ (started with --memory, or elsewhere). */
export function elsewhereHint(environment: NodeJS.ProcessEnv = process.env): string {
  return `one started with \`--memory\` or on another port: give its port and key, as in \`PORT=3001 BOOTSTRAP_API_KEY=<the key it printed at start> ${toolCommand(environment)}\``;
}

/** A problem a local tool reports in one line (printed by `exitWith`), then exits 1. */
export class LocalToolError extends Error {}

export interface RunningService {
  url: string;
  apiKey: string;
  /** Where the key was read (BOOTSTRAP_API_KEY or the key file), to name it when the service refuses it. */
  keyFrom?: string;
}

export function findRunningService(environment: NodeJS.ProcessEnv = process.env, dataDir = DATA_DIR): RunningService {
  const holder = dataDirHolder(dataDir);
  // A service started with --memory leaves no address in .data/: PORT (or API_URL) names it, and a service named is the one meant.
  const url = environment.API_URL?.replace(/\/$/, '') ?? (environment.PORT ? `http://localhost:${environment.PORT}` : undefined) ?? holder?.url;
  if (!url) {
    throw new LocalToolError(
      holder
        ? `${dataDir} is held by \`${holder.command}\` (pid ${holder.pid}), which serves no API: wait for it to finish, then start \`npm start\``
        : `No service found in ${dataDir}: ${NOT_RUNNING} (${elsewhereHint(environment)})`,
    );
  }
  const keyFile = join(dataDir, 'admin-api-key');
  const apiKey = environment.BOOTSTRAP_API_KEY ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined);
  if (!apiKey) throw new LocalToolError(`No administrator API key in ${keyFile} and BOOTSTRAP_API_KEY is not set: ${NOT_RUNNING} (${elsewhereHint(environment)})`);
  return { url, apiKey, keyFrom: environment.BOOTSTRAP_API_KEY ? 'BOOTSTRAP_API_KEY' : keyFile };
}

/** POSTs a JSON body with the administrator's key; an unreachable service is one line. */
export async function postToService(service: RunningService, path: string, body: unknown = {}): Promise<{ status: number; body: any }> {
  let response: Response;
  try {
    response = await fetch(`${service.url}${path}`, { method: 'POST', headers: { authorization: service.apiKey }, body: JSON.stringify(body) });
  } catch {
    throw new LocalToolError(`Cannot reach ${service.url}: ${NOT_RUNNING} (${elsewhereHint()})`);
  }
  if (response.status === 401) {
    throw new LocalToolError(
      `${service.url} refused the administrator key of ${service.keyFrom ?? 'BOOTSTRAP_API_KEY'}: a service started with \`--memory\` has the key it printed at start (give it as BOOTSTRAP_API_KEY=<that key>), one on .data/ the key in .data/admin-api-key`,
    );
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

/** Runs a tool's body; a LocalToolError becomes its one line on stderr and exit code 1. */
export async function runLocalTool(main: () => Promise<number | void>): Promise<never> {
  try {
    process.exit((await main()) ?? 0);
  } catch (error) {
    if (error instanceof LocalToolError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
