/**
 * The README's runnable blocks, as the rehearsal's smoke suite and the README test run them: the
 * ```sh block after a `<!-- readme-test: name` marker, and its `#` lines, each what the line above
 * it prints, to come out in order.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

export interface ReadmeShellBlock {
  /** What its `<!-- readme-test: name ... -->` marker names it (`not run` when the walk leaves it out, saying why); undefined without a marker. */
  name?: string;
  /** Whether the walk runs it: marked, and not `not run`. */
  runs: boolean;
  /** The shell text between the fences. */
  text: string;
  /** Its opening fence's line in README.md (1-based). */
  line: number;
}

/**
 * Every ```sh and ```bash block of README.md in the order a reader meets them, each with the
 * marker on the line above it (blank lines between allowed): the README's walk is the blocks
 * that run, pasted in this order into one shell.
 */
export function readmeShellBlocks(readme = readFileSync(README, 'utf8')): ReadmeShellBlock[] {
  const lines = readme.split('\n');
  const blocks: ReadmeShellBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (!/^```(sh|bash)\s*$/.test(lines[index])) continue;
    let above = index - 1;
    while (above >= 0 && lines[above].trim() === '') above -= 1;
    const marker = /^<!-- readme-test: (.*?) ?-->$/.exec(lines[above] ?? '');
    const end = lines.indexOf('```', index + 1);
    const name = marker ? (marker[1].startsWith('not run') ? 'not run' : marker[1].split(' ')[0]) : undefined;
    blocks.push({ ...(name ? { name } : {}), runs: name !== undefined && name !== 'not run', text: lines.slice(index + 1, end).join('\n'), line: index + 1 });
    index = end;
  }
  return blocks;
}

/** The ```sh block after README.md's `<!-- readme-test: name` marker. */
export function readmeBlock(name: string): string {
  const readme = readFileSync(README, 'utf8');
  const marker = readme.indexOf(`<!-- readme-test: ${name}`);
  if (marker < 0) throw new Error(`README.md has no block marked readme-test: ${name}`);
  const start = readme.indexOf('```sh\n', marker) + '```sh\n'.length;
  return readme.slice(start, readme.indexOf('\n```', start));
}

/**
 * A `#` line as a pattern: dates, months, years, the run's port and durations vary with the day and the
 * machine, `...` stands for anything, and a trailing `(explanation)` after two spaces is prose.
 * `anyPolicySequence`: policy numbers match whatever their sequence (the rehearsal's probe of
 * every route may have numbered policies before the block runs).
 */
export function expectedLine(comment: string, options: { anyPolicySequence?: boolean } = {}): RegExp {
  const text = comment.replace(/^#\s?/, '').replace(/\s{2,}\(.*\)$/, '').trim();
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = escaped
    .replace(/\\\.\\\.\\\./g, '.*')
    .replace(/\d{4}-\d{2}-\d{2}/g, '\\d{4}-\\d{2}-\\d{2}')
    .replace(options.anyPolicySequence ? /10-2026-\d+/g : /10-2026-/g, options.anyPolicySequence ? '10-\\d{4}-\\d+' : '10-\\d{4}-')
    .replace(/localhost:3000/g, 'localhost:\\d+')
    .replace(/in \d+\\\.\d+ s/g, 'in [\\d.]+ s')
    // A month (2026-11), once dates and policy numbers are patterns: only a month has four digits left.
    .replace(/\b\d{4}-\d{2}\b/g, '\\d{4}-\\d{2}');
  return new RegExp(`^${pattern}$`);
}

/** The first `#` line of `block` that does not come out of `output` in order (other lines may come between), and after which output line it was looked for. */
export function missingExpectedLine(output: string, block: string, options: { anyPolicySequence?: boolean } = {}): { comment: string; after: number } | undefined {
  const lines = output.split('\n').map((line) => line.trim());
  let cursor = 0;
  for (const comment of block.split('\n').filter((line) => line.trim().startsWith('#'))) {
    const pattern = expectedLine(comment.trim(), options);
    const found = lines.findIndex((line, index) => index >= cursor && pattern.test(line));
    if (found < 0) return { comment: comment.trim(), after: cursor };
    cursor = found + 1;
  }
  return undefined;
}
