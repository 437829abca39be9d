/**
 * `npm start`: the service on http://localhost:3000 (PORT overrides) with its
 * embedded stores; data under .data/ unless `--memory` is given.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newToken } from '../../shared/auth/secrets.js';
import { startLocalService } from './service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const memory = process.argv.includes('--memory');
const dataDir = memory ? undefined : join(root, '.data');
const port = Number(process.env.PORT ?? 3000);

process.env.POWERTOOLS_LOG_LEVEL ??= 'INFO';
// Lambda runs Node 22; a laptop's Node 20 is supported by the pinned SDK, so its notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
process.env.RELEASE_TAG ??= `v${packageJson.version}-local`;
process.env.RELEASE_TIMESTAMP ??= new Date().toISOString();

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

const service = await startLocalService({ port, dataDir, administratorApiKey: admin.key, oauthClient });
if (admin.announce) {
  console.log(`administrator API key (shown once${dataDir ? `; also in ${join(dataDir, 'admin-api-key')}` : ''}): ${admin.key}`);
}
console.log(`listening on http://localhost:${service.port}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await service.stop();
    process.exit(0);
  });
}
