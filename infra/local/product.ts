/**
 * `npm run product -- <command>`: a product analyst's tools for a product package folder
 * (docs/products.md).
 *   validate <folder>       every file against the schema, every reference, the known filing mistakes
 *   test <folder>           validate, then rate every worksheet through the real engine; a diff of each differing figure
 *   diff <a> <b>            what changed from folder a to folder b, by state, item and step
 *   publish <folder>        import_line_file on a running service (npm start), or on --url with --api-key
 *   impact <folder>         rate_impact of the folder as the candidate against the running service's book, waits
 *                           for the run and prints its report (--state FL, --renewing-within 90, --csv: one line a policy)
 * Exits 0 when all is well, 1 when the package has problems, 2 on a wrong command line.
 */
import { diffPackages, readPackageFolder, readPackage, type PackageProblem } from '../../shared/catalog/index.js';
import { checkProductPackage } from '../../shared/products/index.js';

const USAGE = 'usage: npm run product -- validate <folder> | test <folder> | diff <a> <b> | publish <folder> [--url <service url>] [--api-key <key>] | impact <folder> [--state FL] [--renewing-within 90] [--csv] [--url <service url>] [--api-key <key>]';

function printProblems(problems: readonly PackageProblem[]): void {
  console.log(`${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}:`);
  for (const problem of problems) console.log(`  ${problem.file}${problem.path ? ` at ${problem.path}` : ''}: ${problem.problem}`);
}

function load(folder: string | undefined) {
  if (!folder) throw new UsageError('name the package folder');
  try {
    return readPackageFolder(folder);
  } catch (error) {
    throw new UsageError(`cannot read ${folder}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (error as Error).message}`);
  }
}

class UsageError extends Error {}

function validate(folder: string | undefined, withWorksheets: boolean): number {
  const { document, problems: unreadable } = load(folder);
  if (unreadable.length > 0) {
    printProblems(unreadable);
    return 1;
  }
  const check = checkProductPackage(document, { worksheets: withWorksheets });
  if (check.problems.length > 0) {
    printProblems(check.problems);
    return 1;
  }
  const filings = check.package!.filings;
  console.log(`${folder}: valid. ${check.package!.items.items.length} items, ${filings.length} filings (${filings.map((filing) => filing.state).join(', ')}), ${check.package!.worksheets.length} worksheets.`);
  if (!withWorksheets) return 0;
  for (const run of check.worksheets) {
    if (run.differences.length === 0) {
      console.log(`  ok    ${run.file}: ${run.name} (${run.figures} figures to the cent)`);
      continue;
    }
    console.log(`  FAIL  ${run.file}: ${run.name} (${run.differences.length} of ${run.figures} figures differ)`);
    for (const difference of run.differences) console.log(`          ${difference.figure}: expected ${difference.expected}, rated ${difference.actual}`);
  }
  return check.passed ? 0 : 1;
}

function diff(a: string | undefined, b: string | undefined): number {
  if (!a || !b) throw new UsageError('name the two package folders, the older first');
  const read = (folder: string) => {
    const { document, problems } = load(folder);
    const parsed = readPackage(document);
    if (problems.length > 0 || !parsed.package) {
      console.log(`${folder} is not a readable package:`);
      printProblems([...problems, ...parsed.problems]);
      return undefined;
    }
    return parsed.package;
  };
  const before = read(a);
  const after = read(b);
  if (!before || !after) return 1;
  const changes = diffPackages(before, after);
  if (changes.length === 0) {
    console.log('No change.');
    return 0;
  }
  let where = '';
  for (const change of changes) {
    if (change.where !== where) console.log(`${(where = change.where).replace(/^./, (letter) => letter.toUpperCase())}:`);
    console.log(`  ${change.change}`);
  }
  return 0;
}

async function publish(folder: string | undefined, flags: Map<string, string>): Promise<number> {
  const { document, problems } = load(folder);
  if (problems.length > 0) {
    printProblems(problems);
    return 1;
  }
  let url = flags.get('--url');
  let apiKey = flags.get('--api-key') ?? process.env.PRODUCT_API_KEY;
  if (!url || !apiKey) {
    const { findRunningService } = await import('./running-service.js');
    const running = findRunningService();
    url ??= running.url;
    apiKey ??= running.apiKey;
  }
  const response = await fetch(`${url.replace(/\/$/, '')}/api/v2/lines/import_line_file`, { method: 'POST', body: JSON.stringify({ api_key: apiKey, line_file: document }) });
  const answer = (await response.json().catch(() => ({}))) as { success?: boolean; messages?: string[]; data?: Record<string, unknown> };
  if (response.status === 200 && answer.success) {
    console.log(`Published: version ${answer.data?.version_id} (${JSON.stringify(answer.data?.effective_dates ?? {})})`);
    return 0;
  }
  console.log(`Refused (${response.status}):`);
  for (const message of answer.messages ?? []) console.log(`  ${message}`);
  return 1;
}

async function serviceOf(flags: Map<string, string>): Promise<{ url: string; apiKey: string }> {
  let url = flags.get('--url');
  let apiKey = flags.get('--api-key') ?? process.env.PRODUCT_API_KEY;
  if (!url || !apiKey) {
    const { findRunningService } = await import('./running-service.js');
    const running = findRunningService();
    url ??= running.url;
    apiKey ??= running.apiKey;
  }
  return { url: url.replace(/\/$/, ''), apiKey };
}

type Answer = { success?: boolean; messages?: string[]; data?: any };

async function impact(folder: string | undefined, flags: Map<string, string>): Promise<number> {
  const { document, problems } = load(folder);
  if (problems.length > 0) {
    printProblems(problems);
    return 1;
  }
  const within = flags.get('--renewing-within');
  if (within !== undefined && !/^\d+$/.test(within)) throw new UsageError('--renewing-within takes a number of days');
  const { url, apiKey } = await serviceOf(flags);
  const call = async (operation: string, body: Record<string, unknown>): Promise<Answer & { status: number }> => {
    const response = await fetch(`${url}/api/v2/lines/${operation}`, { method: 'POST', body: JSON.stringify({ api_key: apiKey, ...body }) });
    return { status: response.status, ...((await response.json().catch(() => ({}))) as Answer) };
  };
  const filters = { ...(flags.get('--state') ? { state: flags.get('--state') } : {}), ...(within !== undefined ? { renewing_within_days: Number(within) } : {}) };
  const started = await call('rate_impact', { line_file: document, filters });
  if (started.status !== 200 || !started.success) {
    console.log(`Refused (${started.status}):`);
    for (const message of started.messages ?? []) console.log(`  ${message}`);
    return 1;
  }
  const runId = started.data.run_id as string;
  for (;;) {
    const run = await call('retrieve_rate_impact', { run_id: runId, csv: flags.has('--csv') });
    if (run.status !== 200 || !run.success) {
      console.log(`Cannot read run ${runId} (${run.status}): ${(run.messages ?? []).join('; ')}`);
      return 1;
    }
    if (run.data.state === 'complete') {
      if (flags.has('--csv')) process.stdout.write(run.data.csv);
      else printImpact(run.data);
      return 0;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function printImpact(run: any): void {
  const report = run.report;
  const money = (amount: number) => amount.toFixed(2);
  console.log(`Rate impact run ${run.run_id} (${run.as_of}): ${run.candidate_rate_versions.map((version: any) => `${version.name} (${version.state})`).join(', ')}`);
  console.log(`  ${report.policies} policies: premium ${money(report.premium_before)} -> ${money(report.premium_after)} (${report.change_percent}%); uncapped ${money(report.premium_after_uncapped)}, ${report.capped_policies} capped`);
  console.log(`  fees ${money(report.fees_before)} -> ${money(report.fees_after)}; of them surcharges ${money(report.surcharges_before)} -> ${money(report.surcharges_after)}`);
  console.log('  by band of change:');
  for (const band of report.bands) console.log(`    ${band.band.padEnd(12)} ${String(band.policies).padStart(6)} policies  ${money(band.change).padStart(12)}`);
  for (const [title, groups] of [['by state', report.by_state], ['by territory', report.by_territory]] as const) {
    console.log(`  ${title}:`);
    for (const [name, figures] of Object.entries(groups as Record<string, any>)) console.log(`    ${name.padEnd(24)} ${String(figures.policies).padStart(6)} policies  ${money(figures.premium_before)} -> ${money(figures.premium_after)} (${figures.change_percent}%)`);
  }
  console.log('  largest changes:');
  for (const change of report.largest_changes) console.log(`    ${change.policy_number.padEnd(14)} ${change.state} ${change.territory.padEnd(16)} ${money(change.change).padStart(10)} (${change.change_percent}%)${change.capped ? ' capped' : ''}  ${change.moved_most_by ?? ''}`);
  if (report.skipped.length) console.log(`  ${report.skipped.length} not rated: ${report.skipped.slice(0, 5).map((entry: any) => `${entry.policy_number} (${entry.reason})`).join('; ')}`);
}

const BOOLEAN_FLAGS = new Set(['--csv']);
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const flags = new Map<string, string>();
const positional: string[] = [];
for (let index = 0; index < args.length; index++) {
  if (BOOLEAN_FLAGS.has(args[index])) flags.set(args[index], 'yes');
  else if (args[index].startsWith('--')) flags.set(args[index], args[++index] ?? '');
  else positional.push(args[index]);
}
const [command, first, second] = positional;

try {
  let code: number;
  if (command === 'validate') code = validate(first, false);
  else if (command === 'test') code = validate(first, true);
  else if (command === 'diff') code = diff(first, second);
  else if (command === 'publish') code = await publish(first, flags);
  else if (command === 'impact') code = await impact(first, flags);
  else throw new UsageError(command ? `no command ${command}` : 'name a command');
  process.exitCode = code;
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exitCode = 2;
  } else {
    // Never a stack trace: what went wrong, in one line.
    console.error(`product: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
