/**
 * `npm start`: the service on http://localhost:3000 (PORT overrides) with its
 * embedded stores; data under .data/ (SERVICE_DATA_DIR overrides) unless `--memory` is given.
 * It claims the directory before starting anything (infra/local/data-lock.ts), stops the stores
 * a crashed run left on it (infra/local/stores.ts), and writes its address there once it listens.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newToken } from '../../shared/auth/index.js';
import { anchoredClockSetting, CLOCK_VARIABLE, clockStart } from '../../shared/platform/clock.js';
import { claimDataDir, DataDirBusyError, portInUse } from './data-lock.js';
import { DATA_DIR, PROJECT_ROOT as root } from './running-service.js';
import { startLocalService } from './service.js';
import { StoresInUseError } from './stores.js';

const memory = process.argv.includes('--memory');
const dataDir = memory ? undefined : DATA_DIR;
const port = Number(process.env.PORT ?? 3000);

process.env.POWERTOOLS_LOG_LEVEL ??= 'INFO';
// The money moves' metrics (shared/platform/metrics.ts) are CloudWatch's business: no EMF lines in a laptop's log.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// Lambda runs Node 22; a laptop's Node 20 is supported by the pinned SDK, so its notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
process.env.RELEASE_TAG ??= `v${packageJson.version}-local`;
process.env.RELEASE_TIMESTAMP ??= new Date().toISOString();

/** A mistake of the person starting the service: one line, no stack trace. */
function refuse(line: string): never {
  console.error(line);
  process.exit(1);
}

if (!Number.isInteger(port) || port < 0 || port > 65535) refuse(`PORT=${process.env.PORT} is not a port number`);
let clockStartsAt: string | undefined;
if (process.env[CLOCK_VARIABLE]) {
  try {
    // Pinned once, so that this process and everything it starts read one clock.
    process.env[CLOCK_VARIABLE] = anchoredClockSetting(process.env[CLOCK_VARIABLE]!);
    clockStartsAt = new Date(clockStart(process.env[CLOCK_VARIABLE]!.split('@')[0])).toISOString();
  } catch (error) {
    refuse(`npm start: ${(error as Error).message}`);
  }
}
// Before any store starts or anything under .data/ is touched: one process owns .data/ at a time.
let claim: ReturnType<typeof claimDataDir> | undefined;
if (dataDir) {
  mkdirSync(dataDir, { recursive: true });
  try {
    claim = claimDataDir(dataDir, { command: 'npm start', port });
  } catch (error) {
    if (error instanceof DataDirBusyError) refuse(error.message);
    throw error;
  }
}
const portTaken = (): never =>
  refuse(`Port ${port} is already in use by another program: stop it, or choose another port (PORT=3001 npm start)`);
if (port !== 0 && (await portInUse(port))) portTaken();

function administratorApiKey(): { key: string; announce: boolean } {
  if (process.env.BOOTSTRAP_API_KEY) return { key: process.env.BOOTSTRAP_API_KEY, announce: false };
  const keyFile = dataDir ? join(dataDir, 'admin-api-key') : undefined;
  if (keyFile && existsSync(keyFile)) return { key: readFileSync(keyFile, 'utf8').trim(), announce: false };
  const key = newToken('ias');
  if (keyFile) {
    mkdirSync(dataDir!, { recursive: true });
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  }
  return { key, announce: true };
}

const admin = administratorApiKey();
const oauthClient =
  process.env.BOOTSTRAP_CLIENT_ID && process.env.BOOTSTRAP_CLIENT_SECRET
    ? { clientId: process.env.BOOTSTRAP_CLIENT_ID, clientSecret: process.env.BOOTSTRAP_CLIENT_SECRET }
    : undefined;

const service = await startLocalService({ port, dataDir, administratorApiKey: admin.key, oauthClient, detachedDatabase: true }).catch((error: NodeJS.ErrnoException) =>
  // Taken between the check above and the listen.
  error.code === 'EADDRINUSE'
    ? portTaken()
    : error instanceof StoresInUseError || /is Java installed/.test(error.message)
      ? refuse(`npm start: ${error.message}`)
      : Promise.reject(error),
);
claim?.announce(service.url, service.port);
if (admin.announce) {
  console.log(`administrator API key (shown once${dataDir ? `; also in ${join(dataDir, 'admin-api-key')}` : ''}): ${admin.key}`);
}
if (clockStartsAt) console.log(`the service's clock started at ${clockStartsAt} (${CLOCK_VARIABLE}) and runs on from there`);
// A run that keeps nothing in .data/ leaves the local tools nothing to find it by.
if (!dataDir) console.log(`npm run print-job, nightly and demo reach this run as PORT=${service.port} BOOTSTRAP_API_KEY=${admin.announce ? '<the key above>' : '<your BOOTSTRAP_API_KEY>'} npm run ...`);
console.log(`listening on http://localhost:${service.port}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await service.stop();
    claim?.release();
    process.exit(0);
  });
}
