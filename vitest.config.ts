import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Four projects: unit tests (test/unit, and the fuzz harness's own tests in test/fuzz) start
 * no server; integration, infra and e2e (browser) tests share one set of embedded stores
 * (DynamoDB Local, s3rver, the SQS server), started by their global setup only when one of
 * their files runs. `npm run test:unit` runs the first alone.
 */
/**
 * Test files run side by side, one per core (vitest's own default is a
 * core less: on a 2-core machine that was one file at a time). Such a file spends much of its
 * time waiting on DynamoDB Local, whose JVM runs beside it, so a second file fills that wait;
 * each file has its own table, bucket and queues in the shared stores, so they cannot see each
 * other's data. TEST_WORKERS sets another count (1: one file at a time, as before).
 */
const fileWorkers = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({
  // The typed client's examples import it by its package name (clients/typescript).
  resolve: { alias: { '@insurance-admin/client': fileURLToPath(new URL('./clients/typescript/src/index.ts', import.meta.url)) } },
  test: {
    exclude: ['node_modules/**'],
    pool: 'forks',
    maxWorkers: fileWorkers,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Lambda runs Node 22; this machine's Node 20 is supported by the pinned SDK, so its notice is noise here.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      // Unit tests share no state through modules, so they share the modules: one import of each
      // per worker instead of one per file (about 4x faster: the imports, not the tests, took the time).
      // The fuzz harness's own tests (derived bodies, mutations, answer checks) need no server either.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/fuzz/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], globalSetup: ['test/support/global-setup.ts'] } },
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'], globalSetup: ['test/support/global-setup.ts'] } },
      // Headless Chromium (Debian's chromium, driven by playwright-core) against the local service.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
