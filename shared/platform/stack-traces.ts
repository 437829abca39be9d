/**
 * Stack traces of the bundled functions, mapped to the TypeScript source when a fault is logged.
 *
 * The functions run without `--enable-source-maps`: with it, Node reads and parses a function's
 * source map at every cold start (measured 8 to 15 ms of CPU per cold import, README "Cold starts"),
 * to serve the rare stack trace. The map still ships beside `index.mjs`; the first fault logged
 * reads it (once per bundle file) and maps each frame of the stack, so the log names the source
 * file and line as before. Where Node already maps stacks (the flag given, or code run from
 * source), frames that name no bundle beside its map are left as they are.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      // No map beside it (code run from source, a dependency's own file): the frame stays as it is.
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

/** A bundle's frame `file:///var/task/index.mjs:1:2345` (or a path), line and column 1-based. */
const FRAME = /((?:file:\/\/)?\/[^\s()]+?\.m?js):(\d+):(\d+)/g;

/** The source a map names, from the project's own folders on (the map names it relative to the build directory). */
const sourceName = (source: string) => source.replace(/^.*?(?=(?:shared|functions|events|infra|node_modules)\/)/, '').replace(/^(?:\.\.\/)+/, '');

/** `stack` with every frame of a bundled file that has its map beside it given as the source's file, line and column. */
export function sourceMappedStack(stack: string): string {
  return stack.replace(FRAME, (frame, location: string, line: string, column: string) => {
    const file = location.startsWith('file://') ? fileURLToPath(location) : location;
    const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) return frame;
    return `${sourceName(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/** The error with its stack mapped to the source (in place: a fault's error is logged, then dropped). */
export function withSourceMappedStack<T>(error: T): T {
  if (error instanceof Error && typeof error.stack === 'string') {
    try {
      error.stack = sourceMappedStack(error.stack);
    } catch {
      // A stack that cannot be mapped is logged as it is.
    }
  }
  return error;
}
