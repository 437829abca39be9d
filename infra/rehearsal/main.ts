/**
 * `npm run rehearse`: synthesizes the app (`cdk synth`, bundling every function), stands the
 * assembly up on this machine (infra/rehearsal/rehearse.ts) and runs the smoke suite
 * (infra/rehearsal/smoke.ts) against it. Exits 1 naming every finding.
 *
 *   PORT=3106 npm run rehearse                 the API on that port (default: any free one)
 *   npm run rehearse -- --no-synth             rehearse the cdk.out already there
 *   npm run rehearse -- --assembly <dir>       rehearse another assembly (implies --no-synth)
 *   npm run rehearse -- --no-smoke             stop after the checks and the probe of every route
 *   npm run rehearse -- --verbose              print what the functions log
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rehearse } from './rehearse.js';
import { smokeSuite } from './smoke.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const assemblyDir = option('--assembly') ?? process.env.REHEARSE_ASSEMBLY ?? join(root, 'cdk.out');
const synth = !args.includes('--no-synth') && !option('--assembly') && !process.env.REHEARSE_ASSEMBLY;
const port = Number(process.env.REHEARSE_PORT ?? process.env.PORT ?? 0);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const started = performance.now();
let synthSeconds: number | undefined;
if (synth) {
  console.log('rehearsal: cdk synth (bundling every function)');
  const synthStart = performance.now();
  const result = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', assemblyDir], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  synthSeconds = (performance.now() - synthStart) / 1000;
  if (result.status !== 0) {
    console.error(`rehearsal: cdk synth failed (exit ${result.status})`);
    process.exit(1);
  }
  console.log(`rehearsal: synthesized in ${synthSeconds.toFixed(1)} s`);
}

const report = await rehearse({
  assemblyDir,
  port,
  probe: true,
  smoke: args.includes('--no-smoke') ? undefined : smokeSuite,
  echoFunctionOutput: args.includes('--verbose'),
});

const { counts, timings } = report;
console.log(
  `rehearsal: ${counts.stacks} stacks, ${counts.resources} resources, ${counts.functions} functions, ${counts.routes} routes, ` +
    `${counts.eventSourceMappings} event source mappings, ${counts.rules} rules, ${counts.customResources} custom resources, ${counts.tracedInvoked} traced functions invoked (each sent its X-Ray segments)`,
);
console.log(`rehearsal: seconds per phase: ${[...(synthSeconds === undefined ? [] : [`synth ${synthSeconds.toFixed(1)}`]), ...Object.entries(timings).map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`)].join(', ')}; total ${((performance.now() - started) / 1000).toFixed(1)}`);
if (!report.ok) {
  console.error(`rehearsal FAILED: ${report.findings.length} finding(s)`);
  for (const finding of report.findings) console.error(`  - ${finding}`);
  process.exit(1);
}
console.log('rehearsal passed');
process.exit(0);
