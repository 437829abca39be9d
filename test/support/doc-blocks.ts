/**
 * The docs' lists that the code decides, generated from the code: a doc holds each between
 * markers, `<!-- generated:<kind> <arguments> -->` ... `<!-- /generated -->`, and
 * `npm run docs:generate` (test/support/generate-docs.ts) rewrites what is between them;
 * test/unit/docs-generated.test.ts fails while a block and the code differ.
 *
 * The kinds:
 * - `area-edges`: the edges between the areas of shared/, from the import graph (dependency-cruiser, import-graph.ts);
 * - `move-contributions`: each wiring module's lists of contributions, from the sources of shared/moves/;
 * - `excerpt <file> <name>...`: the declarations of those names in that file, as a TypeScript block
 *   (`<name>:signature`: a function's signature, its body left out);
 * - `bundled-by <module>...`: the functions whose bundle holds each module, from infra/bundles.ts's describeBundles;
 * - `first-use`: the modules and data each function ships beside its bundle, loaded or read on first use (the same);
 * - `idempotency-scopes`: the scopes of idempotency records, from the operations' and consumers' declarations.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import type { IModule } from 'dependency-cruiser';
import { describeBundles, type BundleDescription } from '../../infra/bundles.js';
import { coldStartTargets, type ColdStartTarget } from '../bench/cold-start.js';
import { ROOT } from './docs-claims.js';
import { folderOf, MOVE_WIRING_FOLDER, sharedModules } from './import-graph.js';

/** A block of a doc: what generates it, and what it holds now. */
export interface GeneratedBlock {
  kind: string;
  args: string[];
  /** The start marker, as written. */
  marker: string;
  body: string;
}

const BLOCK = /^(<!-- generated:([a-z-]+)((?: [^\s>]+)*) -->)\n([\s\S]*?)^<!-- \/generated -->$/gm;

export function generatedBlocks(text: string): GeneratedBlock[] {
  return [...text.matchAll(BLOCK)].map((match) => ({ marker: match[1], kind: match[2], args: match[3].trim().split(' ').filter(Boolean), body: match[4] }));
}

const toRoot = (path: string) => relative(ROOT, path).split(sep).join('/');
const code = (name: string) => `\`${name}\``;
const list = (names: string[]) => names.map(code).join(', ');

/** What the generators read, each read once however many blocks ask (the bundles take seconds). */
export class CodeReadings {
  private modules?: Promise<IModule[]>;
  private bundles?: Map<string, BundleDescription>;
  readonly targets: ColdStartTarget[] = coldStartTargets();

  sharedModules(): Promise<IModule[]> {
    return (this.modules ??= sharedModules());
  }

  bundleDescriptions(): Map<string, BundleDescription> {
    return (this.bundles ??= describeBundles(this.targets.map((target) => target.entry)));
  }
}

// ------------------------------------------------------------------ area-edges

/** The areas of shared/ (its folders, the platform and the moves' wiring left out) and what each imports of the others. */
async function areaEdges(readings: CodeReadings): Promise<string> {
  const notAreas = new Set(['platform', MOVE_WIRING_FOLDER]);
  const areas = readdirSync(join(ROOT, 'shared'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !notAreas.has(entry.name))
    .map((entry) => entry.name)
    .sort();
  // Per edge, whether every import that makes it is `import type`.
  const edges = new Map<string, Map<string, boolean>>();
  for (const module of await readings.sharedModules()) {
    const from = folderOf(module.source);
    if (!from || !areas.includes(from)) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from || !areas.includes(to)) continue;
      const typesOnly = dependency.dependencyTypes.includes('type-only');
      const targets = edges.get(from) ?? new Map<string, boolean>();
      targets.set(to, (targets.get(to) ?? true) && typesOnly);
      edges.set(from, targets);
    }
  }
  const rows = areas.map((area) => {
    const targets = [...(edges.get(area) ?? new Map<string, boolean>())].sort(([a], [b]) => a.localeCompare(b));
    const imports = targets.length ? targets.map(([to, typesOnly]) => `${code(to)}${typesOnly ? ' (types only)' : ''}`).join(', ') : 'no other area';
    return `| ${code(area)} | ${imports} |`;
  });
  const imported = new Set([...edges.values()].flatMap((targets) => [...targets.keys()]));
  const count = [...edges.values()].reduce((sum, targets) => sum + targets.size, 0);
  return [
    `${count} edges between ${areas.length} areas; every area also imports the platform, which imports none.`,
    '',
    '| area | imports |',
    '|---|---|',
    ...rows,
    '',
    `Imported by no other area: ${list(areas.filter((area) => !imported.has(area)))}.`,
  ].join('\n');
}

// ------------------------------------------------------------------ move-contributions

interface WiringList {
  wiring: string;
  list: string;
  members: Array<{ name: string; area: string }>;
}

/** The area a name of a wiring module comes from: the folder of shared/ it is imported from. */
function importedAreas(source: ts.SourceFile): Map<string, string> {
  const areas = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause?.namedBindings || !ts.isNamedImports(statement.importClause.namedBindings)) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    const area = /^\.\.\/([^/]+)\//.exec(specifier)?.[1] ?? (specifier.startsWith('./') ? MOVE_WIRING_FOLDER : specifier);
    for (const element of statement.importClause.namedBindings.elements) areas.set(element.name.text, area);
  }
  return areas;
}

function parsed(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

const isExported = (statement: ts.Statement) => !!ts.getModifiers(statement as ts.HasModifiers)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** A wiring module's lists: the arrays of its exported `...Wiring` objects (spreads followed) and its exported arrays of joins. */
function wiringLists(file: string): { lists: WiringList[]; moves: Map<string, string[]> } {
  const source = parsed(file);
  const areas = importedAreas(source);
  const member = (name: string) => ({ name, area: areas.get(name) ?? MOVE_WIRING_FOLDER });
  const names = (array: ts.ArrayLiteralExpression) => array.elements.filter(ts.isIdentifier).map((element) => member(element.text));
  const byWiring = new Map<string, WiringList[]>();
  const lists: WiringList[] = [];
  const moves = new Map<string, string[]>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || !isExported(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
      const wiring = declaration.name.text;
      const initializer = declaration.initializer;
      if (ts.isObjectLiteralExpression(initializer) && /Wiring$/.test(wiring)) {
        const own: WiringList[] = [];
        for (const property of initializer.properties) {
          if (ts.isSpreadAssignment(property) && ts.isIdentifier(property.expression)) {
            own.push(...(byWiring.get(property.expression.text) ?? []).map((spread) => ({ ...spread, wiring })));
          } else if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)) {
            if (ts.isArrayLiteralExpression(property.initializer)) own.push({ wiring, list: property.name.text, members: names(property.initializer) });
            // The reads a move needs from an area it may not import: `reads: { cancelReason, ... }`.
            else if (ts.isObjectLiteralExpression(property.initializer)) {
              own.push({ wiring, list: property.name.text, members: property.initializer.properties.filter(ts.isShorthandPropertyAssignment).map((read) => member(read.name.text)) });
            }
          }
        }
        byWiring.set(wiring, own);
        lists.push(...own);
      } else if (ts.isArrayLiteralExpression(initializer)) {
        lists.push({ wiring, list: '', members: names(initializer) });
      } else if (ts.isCallExpression(initializer) && ts.isIdentifier(initializer.expression) && initializer.expression.text === 'wired') {
        const [wiringArgument] = initializer.arguments;
        if (wiringArgument && ts.isIdentifier(wiringArgument)) moves.set(wiringArgument.text, [...(moves.get(wiringArgument.text) ?? []), wiring]);
      }
    }
  }
  return { lists, moves };
}

function moveContributions(): string {
  const folder = `shared/${MOVE_WIRING_FOLDER}`;
  const files = readdirSync(join(ROOT, folder)).filter((file) => file.endsWith('.ts')).sort();
  const rows: string[] = [];
  for (const file of files) {
    const { lists, moves } = wiringLists(`${folder}/${file}`);
    let previous: string | undefined;
    for (const entry of lists) {
      const wired = moves.get(entry.wiring);
      const wiringCell = entry.wiring === previous ? '' : `${code(entry.wiring)}${wired ? ` (${list(wired)})` : ''}`;
      const moduleCell = previous === undefined ? code(`${folder}/${file}`) : '';
      rows.push(`| ${moduleCell} | ${wiringCell} | ${entry.list ? code(entry.list) : ''} | ${entry.members.map((m) => `${code(m.name)} (${m.area})`).join(', ')} |`);
      previous = entry.wiring;
    }
  }
  const joining = readdirSync(join(ROOT, 'shared'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'shared', entry.name, 'joins-moves.ts')))
    .map((entry) => entry.name)
    .sort();
  return [
    '| wiring module | wiring (its wired moves) | list | contributions and reads, in order (their area) |',
    '|---|---|---|---|',
    ...rows,
    '',
    `The areas with a \`joins-moves.ts\`: ${list(joining)}.`,
  ].join('\n');
}

// ------------------------------------------------------------------ excerpt

/** The declarations named, as the file has them (`<name>:signature`: a function's body shown as `{ ... }`). */
function excerpt(args: string[]): string {
  const [file, ...names] = args;
  if (!file || names.length === 0) throw new Error('excerpt takes a file and the names of its declarations');
  const source = parsed(file);
  const declared = (statement: ts.Statement): string | undefined => {
    if (ts.isVariableStatement(statement)) {
      const [declaration] = statement.declarationList.declarations;
      return ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
    }
    if (ts.isFunctionDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement)) return statement.name?.text;
    return undefined;
  };
  const texts = names.map((named) => {
    const [name, part] = named.split(':');
    const statement = source.statements.find((candidate) => declared(candidate) === name);
    if (!statement) throw new Error(`${file} declares no ${name}`);
    if (part === 'signature') {
      if (!ts.isFunctionDeclaration(statement) || !statement.body) throw new Error(`${file}: ${name} is not a function with a body`);
      return `${source.text.slice(statement.getStart(source), statement.body.getStart(source))}{ ... }`;
    }
    return statement.getText(source);
  });
  return ['```ts', `// ${file}`, texts.join('\n\n'), '```'].join('\n');
}

// ------------------------------------------------------------------ bundles

const targetName = (target: ColdStartTarget) => (target.kind === 'operation' ? target.name : toRoot(target.entry));

/** Functions named one by one, or as "every operation but ..." when that is the shorter. */
function functionsNamed(targets: ColdStartTarget[], all: ColdStartTarget[]): string {
  const operations = all.filter((target) => target.kind === 'operation');
  const left = operations.filter((operation) => !targets.includes(operation));
  if (targets.length > 12 && targets.every((target) => target.kind === 'operation') && left.length <= 12) {
    return left.length ? `every operation but ${list(left.map(targetName))} (${targets.length})` : `every operation (${targets.length})`;
  }
  return `${list(targets.map(targetName))} (${targets.length})`;
}

function bundledBy(args: string[], readings: CodeReadings): string {
  if (args.length === 0) throw new Error('bundled-by takes the modules to look for');
  const described = readings.bundleDescriptions();
  const rows = args.map((module) => {
    if (!existsSync(join(ROOT, module))) throw new Error(`bundled-by: ${module} does not exist`);
    const holding = readings.targets.filter((target) => described.get(target.entry)!.modules.includes(join(ROOT, module)));
    return `| ${code(module)} | ${holding.length ? functionsNamed(holding, readings.targets) : 'no function'} |`;
  });
  return ['| module | in the bundle of |', '|---|---|', ...rows].join('\n');
}

function firstUse(readings: CodeReadings): string {
  const described = readings.bundleDescriptions();
  const shipped = new Map<string, ColdStartTarget[]>();
  for (const target of readings.targets) {
    for (const file of described.get(target.entry)!.onFirstUse) shipped.set(toRoot(file), [...(shipped.get(toRoot(file)) ?? []), target]);
  }
  const rows = [...shipped].sort(([a], [b]) => a.localeCompare(b)).map(([file, targets]) => `| ${code(file)} | ${functionsNamed(targets, readings.targets)} |`);
  return ['| loaded (or read) on first use | beside the bundle of |', '|---|---|', ...rows].join('\n');
}

// ------------------------------------------------------------------ idempotency-scopes

const sourcesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesUnder(`${dir}/${entry.name}`) : entry.name.endsWith('.ts') ? [`${dir}/${entry.name}`] : [],
  );

/** The scopes of idempotency records: each operation's `idempotent` declaration and each consumer's `idempotency`, read from their sources. */
function idempotencyScopes(): string {
  const rows: string[] = [];
  for (const file of [...sourcesUnder('functions'), ...sourcesUnder('events')].sort()) {
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && ['idempotent', 'idempotency'].includes(node.name.text) && ts.isObjectLiteralExpression(node.initializer)) {
        const declaration = node.initializer;
        const field = (name: string) => declaration.properties.find((property): property is ts.PropertyAssignment => ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === name);
        const scope = field('scope')?.initializer;
        if (!scope || !ts.isStringLiteral(scope)) throw new Error(`${file}: an idempotency declaration names its scope as a string`);
        const operation = node.name.text === 'idempotent';
        const keptBy = operation ? code(`/api/${file.slice('functions/'.length, -'.ts'.length)}`) : code(file);
        const key = operation ? `the caller's contact id and \`Idempotency-Key\`${field('when') ? ', for the requests its `when` keeps' : ''}` : "the message's `key`";
        rows.push(`| ${code(scope.text)} | ${keptBy} | ${key} |`);
      }
      ts.forEachChild(node, visit);
    };
    visit(parsed(file));
  }
  return ['| scope | kept by | keyed by |', '|---|---|---|', ...rows].join('\n');
}

// ------------------------------------------------------------------ the docs

/** What a block of `kind` holds, made from the code now. */
export async function generate(block: Pick<GeneratedBlock, 'kind' | 'args'>, readings: CodeReadings): Promise<string> {
  switch (block.kind) {
    case 'area-edges':
      return areaEdges(readings);
    case 'move-contributions':
      return moveContributions();
    case 'excerpt':
      return excerpt(block.args);
    case 'bundled-by':
      return bundledBy(block.args, readings);
    case 'first-use':
      return firstUse(readings);
    case 'idempotency-scopes':
      return idempotencyScopes();
    default:
      throw new Error(`no generator makes a block of kind ${block.kind}`);
  }
}

/** The docs that hold generated blocks: the Markdown files under docs/. */
export function docsWithBlocks(): string[] {
  return readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`)
    .filter((file) => generatedBlocks(readFileSync(join(ROOT, file), 'utf8')).length > 0);
}

/** The doc's text with every block made again from the code, and the blocks that changed. */
export async function regenerate(text: string, readings: CodeReadings): Promise<{ text: string; changed: GeneratedBlock[] }> {
  const changed: GeneratedBlock[] = [];
  let result = '';
  let last = 0;
  for (const match of text.matchAll(BLOCK)) {
    const block = { marker: match[1], kind: match[2], args: match[3].trim().split(' ').filter(Boolean), body: match[4] };
    const body = `${await generate(block, readings)}\n`;
    if (body !== block.body) changed.push(block);
    result += `${text.slice(last, match.index)}${block.marker}\n${body}<!-- /generated -->`;
    last = match.index! + match[0].length;
  }
  return { text: result + text.slice(last), changed };
}
