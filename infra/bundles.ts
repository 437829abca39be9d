/**
 * Bundling of every function in one esbuild run.
 *
 * NodejsFunction bundles each function in its own esbuild process: on a 2-core machine that
 * costs about 5 s per function (npx start-up, then linking, minifying and source-mapping the
 * AWS SDK again for every function), several minutes for the whole service. Here esbuild
 * builds all entry files in one run, so every source file is read and parsed once.
 *
 * Each function gets one self-contained `index.mjs`, tree-shaken for that entry alone. Code
 * splitting is deliberately off: esbuild assigns a shared *file* to the chunks of every entry
 * that imports it, with the code any of them uses, so with splitting one operation's ZIP
 * lookup put the 750 KiB ZIP table into every function that imports the policy services
 * (measured: 1,623 KiB against 848 KiB for create_risk). The recipe (ESM, node22, minified,
 * source maps, SDK bundled, `require` banner) is the same one NodejsFunction is given, see
 * BUNDLING; `npm run bench` builds with this very class.
 *
 * Data a module reads at run time rather than imports (the ZIP table: a data file costs
 * nothing at import, a string literal of that size costs milliseconds) is named beside the
 * module as `new URL('./<file>', import.meta.url)`. That expression survives bundling, and
 * then resolves beside `index.mjs`: the file is copied there for exactly the functions whose
 * tree-shaken bundle still holds the expression. (NodejsFunction alone, without this class,
 * would not ship such files.) A module a function loads only when it needs it (the PDF renderer)
 * is named the same way as `./<name>.mjs` beside its `<name>.ts`: that module is built on its own
 * into the function's directory, so the function does not parse it at every cold start.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/** Defines `require` inside ESM bundles, for CommonJS dependencies that call it. */
export const REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** The bundling recipe of every function (NodejsFunction's form). */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: 'node22',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  banner: REQUIRE_BANNER,
  // Nothing external: the AWS SDK is bundled (pinned, tree-shaken) rather than taken from the runtime.
  externalModules: [],
} as const satisfies BundlingOptions;

/** The esbuild options that carry BUNDLING, for builders that call esbuild themselves. */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLING.target,
  minify: BUNDLING.minify,
  sourcemap: BUNDLING.sourceMap,
  sourcesContent: BUNDLING.sourcesContent,
  mainFields: [...BUNDLING.mainFields],
  banner: { js: BUNDLING.banner },
  metafile: true,
  logLevel: 'warning',
} as const satisfies BuildOptions;

interface StagedBundle {
  directory: string;
  /** Absolute paths of the source files whose code is in the bundle. */
  inputs: string[];
  /** Absolute paths of the data files shipped beside `index.mjs` (a run-time module: as built), and what those modules read. */
  runtimeFiles: string[];
  /** The files `index.mjs` itself names (source paths): what a cold start may reach without loading another module first. */
  namedByIndex: string[];
}

export class FunctionBundles {
  private staged?: Map<string, StagedBundle>;
  private workDir?: string;
  private readonly entries: string[];

  /** `entries`: absolute paths of every entry file that will ask for its bundle. */
  constructor(entries: Iterable<string>) {
    this.entries = [...new Set(entries)].sort();
  }

  /** The directory holding the entry's bundle (`index.mjs` + its source map); bundles everything on first call. */
  directoryFor(entry: string): string {
    return this.bundleOf(entry).directory;
  }

  /** The source files (absolute paths) that contributed code to the entry's bundle. */
  inputsOf(entry: string): string[] {
    return this.bundleOf(entry).inputs;
  }

  /** The data files (absolute source paths) shipped beside the entry's `index.mjs`. */
  runtimeFilesOf(entry: string): string[] {
    return this.bundleOf(entry).runtimeFiles;
  }

  /**
   * The files (source paths) the entry's `index.mjs` itself reads or loads beside it: not the data
   * of a module loaded on first use (the moves' ZIP lookup for a moratorium check ships its table,
   * but no cold start of theirs reaches it).
   */
  filesNamedByBundleOf(entry: string): string[] {
    return this.bundleOf(entry).namedByIndex;
  }

  /** Removes the bundles (after synth has copied them into the cloud assembly). */
  dispose(): void {
    if (this.workDir) rmSync(this.workDir, { recursive: true, force: true });
    this.workDir = undefined;
    this.staged = undefined;
  }

  private bundleOf(entry: string): StagedBundle {
    if (!this.entries.includes(entry)) throw new Error(`${entry} was not registered for bundling`);
    this.staged ??= this.build();
    return this.staged.get(entry)!;
  }

  private build(): Map<string, StagedBundle> {
    const work = mkdtempSync(join(tmpdir(), 'insurance-admin-bundles-'));
    this.workDir = work;
    process.once('exit', () => this.dispose());
    const names = new Map(this.entries.map((entry, index) => [entry, `f${index}`] as const));
    const result = buildSync({
      entryPoints: [...names].map(([entry, name]) => ({ in: entry, out: `${name}/index` })),
      absWorkingDir: work,
      outdir: work,
      outExtension: { '.js': '.mjs' },
      ...ESBUILD_OPTIONS,
    });
    const outputs = result.metafile!.outputs;
    const staged = new Map<string, StagedBundle>();
    // A module loaded on first use is the same for every function that ships it (its own entry, the
    // same recipe): built once, then copied beside each bundle. Building it again per function was
    // most of the bundling's time (each of 120 functions ships four such modules).
    const firstUseBuilds = new Map<string, { built: string; reads: string[] }>();
    const buildFirstUse = (source: string, name: string) => {
      let cached = firstUseBuilds.get(source);
      if (!cached) {
        // At the depth of a function's directory, under its own name: the source map's URL and its paths hold when copied.
        const built = join(work, `first-use-${firstUseBuilds.size}`, name);
        const output = buildSync({ ...ESBUILD_OPTIONS, entryPoints: [source], outfile: built, absWorkingDir: work });
        const laterInputs = Object.keys(Object.values(output.metafile!.outputs).find((entry) => entry.entryPoint)?.inputs ?? {}).map((input) => resolve(work, input));
        cached = { built, reads: runtimeFilesNamedIn(readFileSync(built, 'utf8'), laterInputs) };
        firstUseBuilds.set(source, cached);
      }
      return cached;
    };
    for (const [entry, name] of names) {
      const directory = join(work, name);
      const inputs = Object.keys(outputs[`${name}/index.mjs`]?.inputs ?? {}).map((input) => resolve(work, input));
      const namedByIndex = runtimeFilesNamedIn(readFileSync(join(directory, 'index.mjs'), 'utf8'), inputs);
      const runtimeFiles: string[] = [];
      const ship = (files: string[]) => {
        for (const file of files) {
          const shipped = join(directory, basename(file));
          if (existsSync(shipped)) continue;
          // A module loaded at run time (`./<name>.mjs` named beside `<name>.ts`) is built on its own, with the same recipe;
          // what it reads beside itself at run time (the ZIP lookup's table) is shipped too.
          if (file.endsWith('.mjs') && !existsSync(file)) {
            const { built, reads } = buildFirstUse(file.replace(/\.mjs$/, '.ts'), basename(file));
            copyFileSync(built, shipped);
            copyFileSync(`${built}.map`, `${shipped}.map`);
            runtimeFiles.push(shipped);
            ship(reads);
            continue;
          }
          copyFileSync(file, shipped);
          runtimeFiles.push(file);
        }
      };
      ship(namedByIndex);
      staged.set(entry, { directory, inputs, runtimeFiles, namedByIndex });
    }
    return staged;
  }
}

const RUNTIME_FILE = /new URL\(\s*["'`]\.\/([\w.-]+)["'`]\s*,\s*import\.meta\.url\s*\)/g;

/**
 * The data files a bundle reads beside itself: each `new URL('./<file>', import.meta.url)`
 * left in its code, found beside the one bundled module that names it.
 */
export function runtimeFilesNamedIn(code: string, inputs: string[]): string[] {
  const named = new Set([...code.matchAll(RUNTIME_FILE)].map((match) => match[1]));
  // `./<name>.ts` is the from-source twin of a run-time module `./<name>.mjs`, not data to ship.
  const names = [...named].filter((name) => !(name.endsWith('.ts') && named.has(name.replace(/\.ts$/, '.mjs'))));
  return names.sort().map((name) => {
    // A run-time module is built from the TypeScript module of the same name beside it.
    const source = name.endsWith('.mjs') ? name.replace(/\.mjs$/, '.ts') : name;
    const candidates = new Set(
      inputs
        .filter((input) => !/[\\/]node_modules[\\/]/.test(input) && existsSync(join(dirname(input), source)))
        .filter((input) => readFileSync(input, 'utf8').includes(`./${name}`))
        .map((input) => join(dirname(input), name)),
    );
    if (candidates.size !== 1) {
      throw new Error(`The bundle reads ./${name} at run time, and ${candidates.size || 'no'} bundled modules have such a file beside them`);
    }
    return [...candidates][0];
  });
}

/** What a function's bundle is made of (describeBundles): this repository's modules only. */
export interface BundleDescription {
  /** The source files of this repository whose code is in the function's `index.mjs`. */
  modules: string[];
  /**
   * What is shipped beside `index.mjs` and reached only on first use: the modules loaded then (as
   * their `.ts` sources: `shared/documents/pdf-renderer.ts` for `pdf-renderer.mjs`), the data files
   * read then (the ZIP table), and theirs in turn.
   */
  onFirstUse: string[];
}

/**
 * Which of this repository's modules each function bundles, and what it loads on first use, by
 * the recipe FunctionBundles builds with (tree-shaken the same way), in seconds rather than
 * minutes: the packages are left out (marked external), nothing is minified into files or
 * source-mapped, and a module loaded on first use is built once for every function naming it.
 * What the docs say of the bundles is generated from this (test/support/doc-blocks.ts), and
 * test/infra/bundles.test.ts holds it to the bundles FunctionBundles builds.
 */
export function describeBundles(entries: Iterable<string>): Map<string, BundleDescription> {
  const sorted = [...new Set(entries)].sort();
  const work = mkdtempSync(join(tmpdir(), 'insurance-admin-bundle-contents-'));
  try {
    const options = { ...ESBUILD_OPTIONS, sourcemap: false, packages: 'external', write: false, absWorkingDir: work } as const satisfies BuildOptions;
    const ours = (inputs: Record<string, unknown>) => Object.keys(inputs).map((input) => resolve(work, input)).filter((input) => !/[\\/]node_modules[\\/]/.test(input));
    const result = buildSync({ ...options, entryPoints: sorted.map((entry, index) => ({ in: entry, out: `f${index}/index` })), outdir: work, outExtension: { '.js': '.mjs' } });
    // A module loaded on first use, as it is built beside every function that names it: what it reads or loads in turn.
    const later = new Map<string, string[]>();
    const laterOf = (module: string): string[] => {
      let named = later.get(module);
      if (!named) {
        const built = buildSync({ ...options, entryPoints: [module.replace(/\.mjs$/, '.ts')], outfile: join(work, 'later.mjs') });
        const output = Object.values(built.metafile.outputs).find((candidate) => candidate.entryPoint);
        named = runtimeFilesNamedIn(built.outputFiles[0].text, ours(output?.inputs ?? {}));
        later.set(module, named);
      }
      return named;
    };
    const described = new Map<string, BundleDescription>();
    sorted.forEach((entry, index) => {
      const code = result.outputFiles.find((file) => file.path === join(work, `f${index}`, 'index.mjs'))!.text;
      const modules = ours(result.metafile.outputs[`f${index}/index.mjs`]?.inputs ?? {}).sort();
      const onFirstUse = new Set<string>();
      const reach = (files: string[]) => {
        for (const file of files) {
          if (onFirstUse.has(file)) continue;
          onFirstUse.add(file);
          if (file.endsWith('.mjs')) reach(laterOf(file));
        }
      };
      reach(runtimeFilesNamedIn(code, modules));
      described.set(entry, { modules, onFirstUse: [...onFirstUse].map((file) => file.replace(/\.mjs$/, '.ts')).sort() });
    });
    return described;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
