/**
 * What a function's cold start parses, module by module: for each function whose name contains one
 * of the arguments, its bundle over its bare yardstick and its budget (as test/infra/bundle-budgets
 * holds them), then the project's modules in its index.mjs, heaviest first. For finding where a
 * bundle's budget goes before cutting it:
 *
 *   npx tsx test/bench/bundle-weights.ts cancel_policy update_claim [--rows 40]
 */
import { build } from 'esbuild';
import { ESBUILD_OPTIONS } from '../../infra/bundles.js';
import { coldStartTargets, measureBundleSizes } from './cold-start.js';

const args = process.argv.slice(2);
const rowsAt = args.indexOf('--rows');
const rows = rowsAt >= 0 ? Number(args[rowsAt + 1]) : 30;
const names = args.filter((arg, index) => !arg.startsWith('--') && index !== rowsAt + 1);
if (names.length === 0) throw new Error('Name at least one function (a part of its route or worker name): npx tsx test/bench/bundle-weights.ts cancel_policy');

const targets = coldStartTargets().filter((target) => names.some((name) => target.name.includes(name)));
if (targets.length === 0) throw new Error(`No function's name contains ${names.join(' or ')}`);

for (const size of measureBundleSizes(targets)) {
  console.log(`${size.name}: +${size.overBareKiB} KiB over the bare ${size.yardstick} handler${size.budgetKiB === undefined ? '' : `, budget ${size.budgetKiB}`}`);
  const target = targets.find((candidate) => candidate.name === size.name)!;
  const built = await build({ ...ESBUILD_OPTIONS, entryPoints: [target.entry], write: false, outdir: 'bundle-weights' });
  const [, output] = Object.entries(built.metafile.outputs).find(([, candidate]) => candidate.entryPoint)!;
  const ours = Object.entries(output.inputs).filter(([file]) => !file.includes('node_modules'));
  for (const [file, input] of ours.sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, rows)) {
    console.log(`  ${(input.bytesInOutput / 1024).toFixed(1).padStart(6)} KiB  ${file}`);
  }
}
