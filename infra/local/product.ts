/**
 * `npm run product -- <command>`: a product analyst's tools for a product package folder
 * (docs/products.md).
 *   validate <folder>       every file against the schema, every reference, the known filing mistakes
 *   test <folder>           validate, then rate every worksheet through the real engine; a diff of each differing figure
 *   diff <a> <b>            what changed from folder a to folder b, by state, item and step
 *   publish <folder>        import_line_file on a running service (npm start), or on --url with --api-key
 * Exits 0 when all is well, 1 when the package has problems, 2 on a wrong command line.
 */
import { readPackageFolder } from '../../shared/catalog/package-folder.js';
import { diffPackages } from '../../shared/catalog/package-diff.js';
import { readPackage, type PackageProblem } from '../../shared/catalog/package-schema.js';
import { checkProductPackage } from '../../shared/products/check.js';

const USAGE = 'usage: npm run product -- validate <folder> | test <folder> | diff <a> <b> | publish <folder> [--url <service url>] [--api-key <key>]';

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

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const flags = new Map<string, string>();
const positional: string[] = [];
for (let index = 0; index < args.length; index++) {
  if (args[index].startsWith('--')) flags.set(args[index], args[++index] ?? '');
  else positional.push(args[index]);
}
const [command, first, second] = positional;

try {
  let code: number;
  if (command === 'validate') code = validate(first, false);
  else if (command === 'test') code = validate(first, true);
  else if (command === 'diff') code = diff(first, second);
  else if (command === 'publish') code = await publish(first, flags);
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
