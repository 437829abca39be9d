/**
 * What the docs name, checked against the code (test/unit/docs.test.ts): the file paths,
 * exported names, queue names and key prefixes that README.md, docs/ and the typed client's
 * README mention in code spans, links and TypeScript blocks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the code lives: exported names and words are looked for here. */
const CODE_DIRS = ['shared', 'functions', 'events', 'infra', 'test', 'clients/typescript/src', 'clients/typescript/examples'];
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.data', 'cdk.out', 'coverage']);

export interface DocText {
  file: string;
  text: string;
}

/** README.md, every Markdown file under docs/, and the typed client's README. */
export function docFiles(): DocText[] {
  const files = ['README.md', 'clients/typescript/README.md', ...walk('docs').filter((file) => file.endsWith('.md'))];
  return files.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

/** Every file and folder of the repository (relative, `/`-separated), build outputs and installs left out. */
export function walk(dir = '.'): string[] {
  const found: string[] = [];
  const visit = (relativeDir: string) => {
    for (const entry of readdirSync(join(ROOT, relativeDir), { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const path = relativeDir === '.' ? entry.name : `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) {
        found.push(`${path}/`);
        visit(path);
      } else found.push(path);
    }
  };
  visit(dir);
  return found;
}

export interface Mention {
  file: string;
  line: number;
  /** The code span's text, or a link's target. */
  text: string;
  kind: 'span' | 'link' | 'typescript';
  /** The words right after the span on its line (to see "the `documents` queue"). */
  after: string;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Code spans and link targets outside fenced blocks, and the fenced TypeScript blocks whole. */
export function mentions(doc: DocText): Mention[] {
  const found: Mention[] = [];
  const fences = /^```(\w*)[^\n]*\n([\s\S]*?)^```/gm;
  for (const fence of doc.text.matchAll(fences)) {
    if (fence[1] === 'ts' || fence[1] === 'typescript') found.push({ file: doc.file, line: lineOf(doc.text, fence.index!), text: fence[2], kind: 'typescript', after: '' });
  }
  // Blank the fences out (keeping line numbers) so that their backticks start no span.
  const prose = doc.text.replace(fences, (block) => block.replace(/[^\n]/g, ' '));
  for (const span of prose.matchAll(/(`+)([^`]+?)\1/g)) {
    found.push({ file: doc.file, line: lineOf(prose, span.index!), text: span[2].trim(), kind: 'span', after: prose.slice(span.index! + span[0].length, span.index! + span[0].length + 40) });
  }
  for (const link of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    found.push({ file: doc.file, line: lineOf(prose, link.index!), text: link[1], kind: 'link', after: '' });
  }
  return found;
}

export interface CodeFacts {
  files: string[];
  /** Names exported by a module of the code. */
  exported: Set<string>;
  /** Functions, constants, methods and properties the code declares, exported or not. */
  declared: Set<string>;
  /** Every identifier-like word of the code, string contents included (attribute names, wire fields). */
  words: Set<string>;
  /** Every text quoted whole in the code ('PolicyEvent', 'PaymentsPosted'). */
  literals: Set<string>;
  /** The uppercase prefixes of DynamoDB keys the code builds (`POLICY` of `POLICY#${id}`). */
  keyPrefixes: Set<string>;
}

export function codeFacts(exclude: string[] = []): CodeFacts {
  const files = walk();
  const sources = files.filter((file) => CODE_DIRS.some((dir) => file.startsWith(`${dir}/`)) && /\.(ts|mjs)$/.test(file) && !exclude.includes(file));
  const facts: CodeFacts = { files, exported: new Set(), declared: new Set(), words: new Set(), literals: new Set(), keyPrefixes: new Set() };
  // Data the code ships or measures (the catalog, the bench's results): their field names are the code's words too.
  for (const file of files.filter((name) => CODE_DIRS.some((dir) => name.startsWith(`${dir}/`)) && name.endsWith('.json'))) {
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/"([A-Za-z_$][\w$]*)"\s*:/g)) facts.words.add(match[1]);
  }
  for (const file of sources) {
    const code = readFileSync(join(ROOT, file), 'utf8');
    for (const match of code.matchAll(/export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g)) facts.exported.add(match[1]);
    for (const match of code.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
      for (const part of match[1].split(',')) {
        const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()?.trim();
        if (name) facts.exported.add(name);
      }
    }
    for (const match of code.matchAll(/(?:function\*?\s+|(?:const|let|var)\s+)([A-Za-z_$][\w$]*)|^\s*(?:(?:private|public|readonly|static|async)\s+)*([A-Za-z_$][\w$]*)\??\s*[(:<]/gm)) facts.declared.add(match[1] ?? match[2]);
    for (const match of code.matchAll(/[A-Za-z_$][\w$]*/g)) facts.words.add(match[0]);
    for (const match of code.matchAll(/(['"])([^'"\n]{1,80})\1/g)) facts.literals.add(match[2]);
    // Key prefixes: the start of a key the code spells (`POLICY#${id}`, `PRINTQUEUE#tbd#...`), or a kind
    // a key builder is handed as a word (catalogKey('BILLINGSCHEDULE', id), policyCountKey('ADDED', shard)).
    if (file.startsWith('shared/') || file.startsWith('events/') || file.startsWith('infra/') || file.startsWith('test/bench/')) {
      for (const match of code.matchAll(/[#'"`]([A-Z][A-Z0-9_]*)#/g)) facts.keyPrefixes.add(match[1]);
      for (const match of code.matchAll(/['"]([A-Z][A-Z0-9]{1,})['"]/g)) facts.keyPrefixes.add(match[1]);
    }
  }
  return facts;
}

// ------------------------------------------------------------------ paths

const EXTENSIONS = /\.(ts|mts|mjs|js|json|txt|md|png|pdf|sh|yml|yaml|html|css)$/;
/** Folders at the top of the repository: a path starting with one is a path from the root. */
const TOP = /^(shared|functions|events|infra|test|docs|clients|\.ci)(\/|$)/;

/** A path-like token of a span: it has a folder, or it is a file name with a known extension. */
export function pathTokens(text: string): string[] {
  return text
    .split(/[\s,()'"`[\]|]+/)
    .map((token) => token.replace(/[.:;]+$/, ''))
    .filter((token) => token.length > 0 && !token.includes('://') && !token.startsWith('-') && !token.includes('...') && !/[=$]/.test(token))
    .filter((token) => (token.includes('/') && /^[\w.<>*{}@-]/.test(token) && /[A-Za-z]/.test(token)) || /^[\w-]+(\.[\w-]+)*\.[a-z]+$/.test(token))
    .filter((token) => token.includes('/') || EXTENSIONS.test(token));
}

/** A path with placeholders (`<queue>`, `*`, `{1,2}`) as a pattern over the file list. */
function pathPattern(path: string): RegExp {
  const escaped = path
    .replace(/[.+?^$()|[\]\\]/g, '\\$&')
    .replace(/<[^>]+>/g, '[^/]+')
    .replace(/\*/g, '[^/]*')
    .replace(/\{([^}]+)\}/g, (_, options: string) => `(${options.split(',').join('|')})`);
  return new RegExp(`^${escaped}/?$`);
}

/**
 * Whether a path a doc names exists: from the root when it starts at a top folder; else beside
 * the doc, or as the end of some path of the repository (`policies/endorsement-rules.ts`, `keys.ts`).
 */
export function pathExists(path: string, docFile: string, files: string[]): boolean {
  const clean = path.replace(/#.*$/, '');
  const fromDoc = normalize(join(dirname(docFile), clean)).split(sep).join('/');
  const pattern = pathPattern(clean);
  const besideDoc = pathPattern(fromDoc);
  if (files.some((file) => pattern.test(file) || besideDoc.test(file))) return true;
  if (TOP.test(clean)) return false;
  const ending = new RegExp(`(^|/)${pattern.source.slice(1)}`);
  return files.some((file) => ending.test(file));
}

// ------------------------------------------------------------------ names

/** camelCase with a capital inside, or PascalCase of two words or more. */
const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;

/** Names a TypeScript block declares or imports itself (an example's own handler, node:crypto's createHmac). */
export function declaredIn(block: string): Set<string> {
  const names = new Set<string>();
  for (const match of block.matchAll(/(?:function\*?|const|let|var|class|interface|type)\s+([A-Za-z_$][\w$]*)/g)) names.add(match[1]);
  for (const match of block.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g)) for (const part of match[1].split(',')) names.add(part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim());
  for (const match of block.matchAll(/import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from/g)) names.add(match[1]);
  return names;
}

export interface NameUse {
  name: string;
  /** Followed by `(`: a function the code must export (or a method of something it exports). */
  called: boolean;
}

/** The camelCase and PascalCase names of a span or block (strings, URLs and paths left out). */
export function nameUses(text: string): NameUse[] {
  const code = text
    .replace(/<[A-Za-z][^<>\n]*>/g, ' ') // placeholders: `SUBLINE#<instanceId>`
    .replace(/(^|\s)--?[\w-]+/g, ' ') // command flags: `tsc --noEmit`
    .replace(/(['"])(?:(?!\1)[^\n])*\1/g, ' ')
    .replace(/\S*\/\S*/g, ' ')
    .replace(/\/\/[^\n]*/g, ' ');
  const uses: NameUse[] = [];
  for (const match of code.matchAll(/(\.?)\b([A-Za-z_$][\w$]*)\b(\s*\()?/g)) {
    const name = match[2];
    if (!CAMEL.test(name) && !PASCAL.test(name)) continue;
    // A member (`moves.endorse`, `error.statusCode`) is checked as a word of the code, not as an export.
    uses.push({ name, called: !!match[3] && !match[1] });
  }
  return uses;
}

/** Uppercase key prefixes named in a span: `POLICY` of `POLICY#<id>`. */
export function keyPrefixes(text: string): string[] {
  return [...text.matchAll(/(?:^|[^A-Za-z0-9_])([A-Z][A-Z0-9_]*)#/g)].map((match) => match[1]);
}

export const relativeToRoot = (absolute: string) => relative(ROOT, absolute).split(sep).join('/');
