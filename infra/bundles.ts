/**
 * Bundling of every function in one esbuild run.
 *
 * NodejsFunction bundles each function in its own esbuild process: on a 2-core machine that
 * costs about 5 s per function (npx start-up, then linking, minifying and source-mapping the
 * AWS SDK again for every function), several minutes for the whole service. Here esbuild
 * builds all entry files at once with code splitting, so the shared code is parsed, minified
 * and mapped once. Splitting keeps tree-shaking per function: esbuild puts code into chunks
 * by the set of entry files that reach it, so a function's chunks hold exactly the code its
 * entry reaches. Each function's asset is its entry (as index.mjs) plus the chunks it
 * imports; the recipe (ESM, node22, minified, source maps, SDK bundled, `require` banner)
 * is the same one NodejsFunction is given, see BUNDLING.
 */
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';
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

export class FunctionBundles {
  private staged?: Map<string, string>;
  private workDir?: string;
  private readonly entries: string[];

  /** `entries`: absolute paths of every entry file that will ask for its bundle. */
  constructor(entries: Iterable<string>) {
    this.entries = [...new Set(entries)].sort();
  }

  /** The directory holding the entry's bundle (`index.mjs` + chunks); bundles everything on first call. */
  directoryFor(entry: string): string {
    if (!this.entries.includes(entry)) throw new Error(`${entry} was not registered for bundling`);
    this.staged ??= this.build();
    return this.staged.get(entry)!;
  }

  /** Removes the bundles (after synth has copied them into the cloud assembly). */
  dispose(): void {
    if (this.workDir) rmSync(this.workDir, { recursive: true, force: true });
    this.workDir = undefined;
    this.staged = undefined;
  }

  private build(): Map<string, string> {
    const work = mkdtempSync(join(tmpdir(), 'insurance-admin-bundles-'));
    this.workDir = work;
    process.once('exit', () => this.dispose());
    const names = new Map(this.entries.map((entry, index) => [entry, `f${index}`] as const));
    const result = buildSync({
      entryPoints: Object.fromEntries([...names].map(([entry, name]) => [name, entry])),
      absWorkingDir: work,
      outdir: join(work, 'out'),
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      splitting: true,
      ...ESBUILD_OPTIONS,
    });
    const outputs = result.metafile!.outputs;
    const staged = new Map<string, string>();
    for (const [entry, name] of names) {
      // Same depth as out/, so the source maps' relative paths stay right.
      const dir = join(work, name);
      mkdirSync(join(dir, 'chunks'), { recursive: true });
      const entryOutput = `out/${name}.mjs`;
      const code = readFileSync(join(work, entryOutput), 'utf8').replace(
        new RegExp(`//# sourceMappingURL=${name}\\.mjs\\.map\\s*$`),
        '//# sourceMappingURL=index.mjs.map\n',
      );
      writeFileSync(join(dir, 'index.mjs'), code);
      copyFileSync(join(work, `${entryOutput}.map`), join(dir, 'index.mjs.map'));
      for (const chunk of chunksOf(entryOutput, outputs)) {
        for (const file of [chunk, `${chunk}.map`]) link(join(work, file), join(dir, 'chunks', basename(file)));
      }
      staged.set(entry, dir);
    }
    return staged;
  }
}

/** Every chunk an output imports, directly or not (static and dynamic imports). */
function chunksOf(output: string, outputs: Metafile['outputs']): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.external || seen.has(imported.path)) continue;
      if (dirname(imported.path) !== 'out/chunks') throw new Error(`Unexpected import of ${imported.path} from ${file}`);
      seen.add(imported.path);
      visit(imported.path);
    }
  };
  visit(output);
  return [...seen].sort();
}

function link(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}
